// C21: an import runs in batches of at most 500 rows a transaction, with its progress committed in
// the same transaction as the batch it closes; stopped (a store closed mid-import) or killed
// (SIGKILL), it goes on after its last committed row when the app starts again, and no row is made
// twice. The rows here have no email, so that a row made twice would be a second contact rather
// than a refused duplicate.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { parseImportForm } from "../../src/csv";
import { runImport, startImport } from "../../src/services/imports";
import { call, makeOrg, tempDir, until } from "../helpers";
import { bootstrapKey, startServerProcess } from "../helpers/process";
import { ENGINES, appOn, migratedDatabase } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const names = (n: number) => "full_name,city\n" + Array.from({ length: n }, (_, i) => `Person ${i + 1},City ${i % 7}`).join("\n") + "\n";

function form(text: string) {
  return parseImportForm([
    ["file", new File([text], "people.csv")],
    ["resource", "contacts"],
    ["mapping", JSON.stringify({ full_name: "full_name", city: "city" })],
  ]);
}

describe.each(ENGINES)("resume on %s", (engine) => {
  test("a store closed after one batch: the next app goes on after row 501 and makes each row once", async () => {
    const first = await appOn(engine, { imports: false });
    const org = await makeOrg(first);
    const started = await startImport(first.dossier, org.id, form(names(1_200)), null);
    const stopped = await runImport(first.dossier, org.id, started.id, { shouldStop: () => true });
    expect(stopped).toMatchObject({ status: "running", rows: 1_200, processed: 500, created: 500 });
    expect((await call(first, "GET", "/contacts?per_page=1", { key: org.key })).json.meta.total).toBe(500);
    // The same store again: the data folder's file, or this app's PostgreSQL database.
    const env = engine === "postgres" ? { DOSSIER_DATABASE_URL: first.dossier.config.databaseUrl! } : {};
    await first.close();

    const second = await appOn(engine, { dataDir: first.dossier.config.dataDir, env });
    const done = await until(
      async () => {
        const { json } = await call(second, "GET", `/imports/${started.id}`, { key: org.key });
        return json.data.status === "succeeded" && json.data;
      },
      60_000,
      "the import to go on",
    );
    expect(done).toMatchObject({ rows: 1_200, processed: 1_200, created: 1_200, failed: 0 });
    expect((await call(second, "GET", "/contacts?per_page=1", { key: org.key })).json.meta.total).toBe(1_200);
  });

  test("two jobs on one import at once: each batch goes in once", async () => {
    const app = await appOn(engine, { imports: false });
    const org = await makeOrg(app);
    const started = await startImport(app.dossier, org.id, form(names(1_600)), null);
    const [a, b] = await Promise.all([
      runImport(app.dossier, org.id, started.id, { batchRows: 100 }),
      runImport(app.dossier, org.id, started.id, { batchRows: 100 }),
    ]);
    expect([a!.status, b!.status]).toContain("succeeded");
    const final = (await call(app, "GET", `/imports/${started.id}`, { key: org.key })).json.data;
    expect(final).toMatchObject({ status: "succeeded", processed: 1_600, created: 1_600 });
    expect((await call(app, "GET", "/contacts?per_page=1", { key: org.key })).json.meta.total).toBe(1_600);
  });

  test("a server killed with SIGKILL mid-import: after a restart the import ends with every row made once", async () => {
    const data = tempDir();
    // On PostgreSQL the killed node holds the import until its lease passes: a short one.
    const database: Record<string, string> = engine === "postgres" ? { DOSSIER_DATABASE_URL: await migratedDatabase(), DOSSIER_LEASE: "3s" } : {};
    // Enough that the kill falls mid-import (PostgreSQL takes its batches about ten times slower).
    const rows = engine === "postgres" ? 2_000 : 40_000;
    let server = await startServerProcess(data, [], database);
    const key = bootstrapKey(server);
    const headers = { authorization: `Bearer ${key}` };
    const body = new FormData();
    body.append("file", new File([names(rows)], "people.csv"));
    body.append("resource", "contacts");
    body.append("mapping", JSON.stringify({ full_name: "full_name", city: "city" }));
    const queued = (await (await fetch(`${server.url}/api/v1/imports`, { method: "POST", headers, body })).json()) as { data: { id: string } };
    const id = queued.data.id;
    // Asked at most five times a second: the organization's 600 requests a minute count across
    // the restart on PostgreSQL (the counters are in the database, C10).
    const progress = async (url: string) => {
      await Bun.sleep(200);
      return ((await (await fetch(`${url}/api/v1/imports/${id}`, { headers })).json()) as { data: { status: string; processed: number; created: number; rows: number } }).data;
    };
    // Killed once at least one batch is in and the import is not done.
    const midway = await until(async () => {
      const now = await progress(server.url);
      return (now.processed >= 500 || now.status !== "running") && now;
    }, 60_000, "a first batch");
    server.proc.kill(9);
    await server.exited;
    expect(midway.status).toBe("running");
    expect(midway.processed).toBeLessThan(rows);

    server = await startServerProcess(data, [], database);
    const done = await until(async () => {
      const now = await progress(server.url);
      return now.status !== "running" && now.status !== "queued" && now;
    }, 120_000, "the import to end after the restart");
    expect(done).toMatchObject({ status: "succeeded", rows, processed: rows, created: rows });
    const total = ((await (await fetch(`${server.url}/api/v1/contacts?per_page=1`, { headers })).json()) as { meta: { total: number } }).meta.total;
    expect(total).toBe(rows);
    server.proc.kill("SIGTERM");
    await server.exited;
  });
});
