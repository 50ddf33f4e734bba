// Issue 20 "Done when": members and sessions work in a data folder made before they existed. The
// folder is made at the schema before migration 0006_members, with an organization, a key and a
// dossier in it, then opened by today's code.
import { Database } from "bun:sqlite";
import { expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { embeddedMigrations, migrate } from "../../src/db/migrate";
import { openContext } from "../../src/context";
import { createMember, listMembers, operator } from "../../src/services/members";
import { redeemSetupLink, sessionOf, signIn } from "../../src/services/sessions";
import { dossier } from "../cli/helpers";
import { onCleanup, tempDir } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const MEMBERS = embeddedMigrations.findIndex((m) => m.tag === "0006_members");
const AT = "2026-01-01T00:00:00.000Z";

/** A data folder at the schema just before 0006_members, holding organization o1, a key and a dossier. */
function olderFolder(): string {
  const data = tempDir();
  const older = new Database(join(data, "dossier.db"));
  migrate(older, embeddedMigrations.slice(0, MEMBERS));
  older.run(`INSERT INTO organizations (id, name, plan, rate_limit, created_at) VALUES ('o1', 'Kept', 'growth', 600, '${AT}')`);
  older.run(`INSERT INTO api_keys (id, organization_id, prefix, key_hash, scopes, created_at) VALUES ('k1', 'o1', 'svc_live_abc', 'hash', 'dossiers:read', '${AT}')`);
  older.run(`INSERT INTO dossiers (id, organization_id, type, name, status, created_at, updated_at) VALUES ('d1', 'o1', 'candidate', 'Kept dossier', 'active', '${AT}', '${AT}')`);
  const tables = older.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('members', 'setup_links', 'sessions')").all();
  expect(tables).toEqual([]);
  older.close();
  return data;
}

test("a folder from before members is upgraded: its rows stay, and members sign in", async () => {
  expect(MEMBERS).toBeGreaterThan(0);
  const data = olderFolder();
  const ctx = openContext({ dataDir: data, config: { log: "off" } });
  onCleanup(() => ctx.store.close());
  const { sqlite } = ctx.store;
  expect(sqlite.query<{ n: number }, []>(`SELECT count(*) AS n FROM "__drizzle_migrations"`).get()!.n).toBe(embeddedMigrations.length);
  expect(sqlite.query<{ name: string }, []>("SELECT name FROM dossiers WHERE id = 'd1'").get()!.name).toBe("Kept dossier");
  expect(sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM api_keys").get()!.n).toBe(1);
  expect((await listMembers(ctx, operator("o1")))).toEqual([]);

  const made = await createMember(ctx, operator("o1"), { email: "first@upgraded.example", name: "First", role: "owner" }, "http://127.0.0.1:8080");
  await redeemSetupLink(ctx, { token: made.setup_url.split("#token=")[1], password: "a good password" });
  const signed = await signIn(ctx, { email: "FIRST@upgraded.example", password: "a good password" }, "192.0.2.1");
  expect((await sessionOf(ctx, signed.token))).toMatchObject({ organizationId: "o1", role: "owner" });
  expect(sqlite.query<{ integrity_check: string }, []>("PRAGMA integrity_check").get()!.integrity_check).toBe("ok");
  expect(sqlite.query("PRAGMA foreign_key_check").all()).toEqual([]);
});

test("the CLI's member commands work on a folder from before members", () => {
  const data = olderFolder();
  const added = dossier(data, "member", "add", "--org", "o1", "--email", "cli@upgraded.example", "--name", "Cli", "--role", "admin", "--json");
  expect(added.code).toBe(0);
  expect(dossier(data, "member", "list", "--org", "o1", "--json").json.data.map((m: { email: string }) => m.email)).toEqual(["cli@upgraded.example"]);
});
