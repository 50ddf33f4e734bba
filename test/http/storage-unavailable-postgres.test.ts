// C19: on PostgreSQL, a connection lost (or refused) answers 503 storage_unavailable, never a
// false 2xx, /healthz says 503 while the database cannot be reached, and the node comes back by
// itself once it can. The database is really cut off: its sessions terminated and new ones
// refused by PostgreSQL (ALLOW_CONNECTIONS false), then let in again.
import { SQL } from "bun";
import { expect, setDefaultTimeout, test } from "bun:test";
import { call, makeOrg, onCleanup, until } from "../helpers";
import { postgresServer } from "../helpers/postgres";
import { appOn } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

test("a lost database: 503 storage_unavailable for changes and reads, /healthz 503, then back without a restart", async () => {
  const app = await appOn("postgres");
  const org = await makeOrg(app);
  const name = new URL(app.dossier.config.databaseUrl!).pathname.slice(1);
  const admin = new SQL((await postgresServer()).url("postgres"), { max: 1 });
  onCleanup(() => admin.close());
  const before = await call(app, "POST", "/dossiers", { key: org.key, body: { name: "Before", type: "candidate" } });
  expect(before.status).toBe(201);

  await admin.unsafe(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
  await admin.unsafe(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}'`);

  const write = await call(app, "POST", "/dossiers", { key: org.key, body: { name: "During", type: "candidate" } });
  expect(write.status).toBe(503);
  expect(write.json.error.code).toBe("storage_unavailable");
  const read = await call(app, "GET", `/dossiers/${before.json.data.id}`, { key: org.key });
  expect(read.status).toBe(503);
  expect(read.json.error.code).toBe("storage_unavailable");
  const health = await call(app, "GET", "/healthz");
  expect(health.status).toBe(503);

  await admin.unsafe(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
  await until(async () => (await call(app, "GET", "/healthz")).status === 200, 60_000, "/healthz to say the database is back");
  const after = await call(app, "POST", "/dossiers", { key: org.key, body: { name: "After", type: "candidate" } });
  expect(after.status).toBe(201);
  const list = await call(app, "GET", "/dossiers", { key: org.key });
  // Nothing of the refused write was kept: the two acknowledged ones only.
  expect(list.json.data.map((d: { name: string }) => d.name).sort()).toEqual(["After", "Before"]);
});
