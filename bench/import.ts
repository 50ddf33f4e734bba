// `bun bench/import.ts`: C21's import figure (issue 36). A contacts CSV of 10 columns goes through
// POST /api/v1/imports of an app in this process (the import in the background as `serve` runs
// it), while one reader asks GET /api/v1/contacts of the same organization over and over; prints the
// import's time to `succeeded` and the reads' p50 and p99 beside it. Target: 100,000 contacts in
// under 60 s on the reference 2-core machine.
//
// The store: a real SQLite file in a temp folder (default), or with `--engine postgres` (C19) a
// PostgreSQL from the tests' npm binaries (test/helpers/postgres.ts, startPostgres) in a temp folder
// removed at the end, with bench/postgres.ts's honest settings (fsync, synchronous_commit,
// full_page_writes on). `--stats` adds pg_stat_statements to it and prints, after the import, the
// statements the import sent (calls per imported row, time), most called first.
//
// `--resource dossiers`: sales dossiers instead (6 columns, a stage by name, a new contact each, their
// events and history), C21's other import, with no target of its own.
//
//   bun bench/import.ts [--rows 100000] [--engine sqlite|postgres] [--resource contacts|dossiers] [--stats]
//
// A bench, not a test: it prints figures and asserts nothing about time.
import { SQL } from "bun";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { openApp } from "../src/app";
import { SCOPES, writeKey } from "../src/services/keys";
import { writeOrg } from "../src/services/orgs";
import { startPostgres } from "../test/helpers/postgres";

const option = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1] : fallback;
};
const rows = Number(option("rows", "100000"));
const engine = option("engine", "sqlite");
if (engine !== "sqlite" && engine !== "postgres") throw new Error(`--engine: sqlite or postgres, not ${engine}`);
const resource = option("resource", "contacts");
if (resource !== "contacts" && resource !== "dossiers") throw new Error(`--resource: contacts or dossiers, not ${resource}`);
const stats = process.argv.includes("--stats");
const TIMEOUT_MS = 600_000;
/** bench/postgres.ts's settings: writes flushed as in production. */
const PG_SETTINGS = [
  "-c", "fsync=on",
  "-c", "synchronous_commit=on",
  "-c", "full_page_writes=on",
  "-c", "shared_buffers=512MB",
  "-c", "max_wal_size=4GB",
  "-c", "max_connections=100",
  ...(stats ? ["-c", "shared_preload_libraries=pg_stat_statements", "-c", "pg_stat_statements.track=all"] : []),
];

const dir = mkdtempSync(join(tmpdir(), "dossier-bench-import-"));
const pg = engine === "postgres" ? await startPostgres(PG_SETTINGS) : null;
try {
  let env: Record<string, string> = {};
  if (pg) {
    const admin = new SQL({ url: pg.url("postgres"), max: 1 });
    await admin.unsafe(`CREATE DATABASE bench_import TEMPLATE template0 ENCODING 'UTF8' LOCALE 'C'`);
    await admin.close({ timeout: 1 });
    env = { DOSSIER_DATABASE_URL: pg.url("bench_import") };
  }
  const app = await openApp({ dataDir: dir, webhooks: false, env, config: { log: "off" } });
  const { key } = await app.dossier.store.write(async () => {
    const org = await writeOrg(app.dossier, { name: "Bench", plan: "growth", rateLimit: 100_000_000 });
    return writeKey(app.dossier, { organizationId: org.id, scopes: [...SCOPES] });
  });
  const headers = { authorization: `Bearer ${key}` };
  const form = new FormData();
  form.set("resource", resource);
  if (resource === "contacts") {
    const lines = ["Name,Email,Phone,Company,Role,City,Kinds,Notes,LinkedIn,Source"];
    for (let i = 0; i < rows; i++) {
      lines.push(`Person ${i},p${i}@example.com,+3312345${i},Company ${i % 500},Role ${i % 20},City ${i % 50},candidate,Note ${i},https://www.linkedin.com/in/p${i},fair`);
    }
    form.set("file", new File([lines.join("\r\n") + "\r\n"], "people.csv", { type: "text/csv" }));
    form.set(
      "mapping",
      JSON.stringify({ Name: "full_name", Email: "email", Phone: "phone", Company: "company", Role: "role", City: "city", Kinds: "kind", Notes: "notes", LinkedIn: "linkedin_url" }),
    );
  } else {
    // Sales dossiers in the default flow, each with a new contact (its email), at a named stage.
    const lines = ["Deal,Email,Company,Value,Currency,Step"];
    for (let i = 0; i < rows; i++) lines.push(`Deal ${i},d${i}@example.com,Company ${i % 500},${1000 + i},EUR,Lead`);
    form.set("file", new File([lines.join("\r\n") + "\r\n"], "deals.csv", { type: "text/csv" }));
    form.set("type", "sales");
    form.set("stage", "Step");
    form.set("mapping", JSON.stringify({ Deal: "name", Email: "email", Company: "company", Value: "deal_size", Currency: "deal_currency" }));
  }
  const statsDb = pg && stats ? new SQL({ url: pg.url("bench_import"), max: 1 }) : null;
  if (statsDb) {
    await statsDb`CREATE EXTENSION IF NOT EXISTS pg_stat_statements`;
    await statsDb`SELECT pg_stat_statements_reset()`;
  }
  const load0 = loadavg()[0];
  const t0 = performance.now();
  const queued = await app.handle(new Request("http://localhost/api/v1/imports", { method: "POST", headers, body: form }));
  if (queued.status !== 202) throw new Error(`POST /imports answered ${queued.status}: ${await queued.text()}`);
  const id = ((await queued.json()) as { data: { id: string } }).data.id;
  const reads: number[] = [];
  let state: { status: string; processed: number; created: number; failed: number } = { status: "queued", processed: 0, created: 0, failed: 0 };
  let polled = 0;
  while (performance.now() - t0 < TIMEOUT_MS) {
    // A turn of the event loop between reads, as requests arriving on sockets give one: a GET
    // answered from memory never yields, and the import's groups start on the next turn.
    await new Promise((resolve) => setImmediate(resolve));
    const r0 = performance.now();
    const read = await app.handle(new Request("http://localhost/api/v1/contacts?per_page=25", { headers }));
    await read.arrayBuffer();
    reads.push(performance.now() - r0);
    if (performance.now() - polled < 250) continue;
    polled = performance.now();
    const shown = await app.handle(new Request(`http://localhost/api/v1/imports/${id}`, { headers }));
    state = ((await shown.json()) as { data: typeof state }).data;
    if (state.status !== "queued" && state.status !== "running") break;
  }
  const seconds = (performance.now() - t0) / 1000;
  reads.sort((a, b) => a - b);
  const pct = (p: number) => reads[Math.min(reads.length - 1, Math.floor(p * reads.length))].toFixed(2);
  console.log(
    `${engine}: import of ${rows} ${resource === "contacts" ? "contacts (10 columns)" : "sales dossiers (6 columns, a new contact each)"}: ${state.status} in ${seconds.toFixed(1)} s (${Math.round(rows / seconds)} rows/s); ` +
      `created ${state.created}, failed ${state.failed}; load average ${load0.toFixed(2)} before, ${loadavg()[0].toFixed(2)} after`,
  );
  console.log(`GET /contacts beside it: ${reads.length} reads, p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms`);
  if (statsDb) {
    // The reader's and the poller's statements are there too: those of GET /contacts and /imports/{id}.
    const top = await statsDb<{ calls: number; ms: number; query: string }[]>`SELECT calls::float8 AS calls, total_exec_time AS ms, query
      FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) ORDER BY calls DESC LIMIT 25`;
    const total = await statsDb<{ calls: number; ms: number }[]>`SELECT sum(calls)::float8 AS calls, sum(total_exec_time) AS ms
      FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())`;
    console.log(`statements: ${total[0].calls} (${(total[0].calls / rows).toFixed(2)} a row), ${(total[0].ms / 1000).toFixed(1)} s executing`);
    const slowest = await statsDb<{ calls: number; ms: number; query: string }[]>`SELECT calls::float8 AS calls, total_exec_time AS ms, query
      FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) ORDER BY total_exec_time DESC LIMIT 10`;
    const line = (s: { calls: number; ms: number; query: string }) =>
      console.log(`${String(s.calls).padStart(9)} ${(s.calls / rows).toFixed(2).padStart(6)}/row ${(s.ms / 1000).toFixed(2).padStart(7)} s  ${s.query.replace(/\s+/g, " ").slice(0, 150)}`);
    top.forEach(line);
    console.log("the longest in all (a trigger's statements are inside their INSERT's time too):");
    slowest.forEach(line);
    await statsDb.close();
  }
  await app.close();
} finally {
  await pg?.stop();
  rmSync(dir, { recursive: true, force: true });
}
