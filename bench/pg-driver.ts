// PostgreSQL driver benchmark (issue 34, C19): Bun's built-in SQL against postgres.js, not a test.
// Run: node_modules/.bin/bun bench/pg-driver.ts [--seconds 5] [--rounds 2]
//   1. pooled primary-key reads: pool of 10 connections, 32 queries in flight, reads/s;
//   2. a small transaction of 5 statements (advisory lock, insert, counter update, select, insert),
//      pool of 10, 16 in flight, transactions/s.
// Both drivers in this process, alternately (A B A B...), then the same measurement inside a
// `bun build --compile` executable of this file (no native module: both drivers are JavaScript),
// run with --url against the same database. The PostgreSQL is the tests' (test/helpers/postgres.ts),
// started here and stopped at the end; its folder and the executable's are removed.
// Bounded: a watchdog ends the run after DEADLINE_MS (exit 1).
import { SQL } from "bun";
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";

const ROWS = 10_000;
const POOL = 10;
const READS_IN_FLIGHT = 32;
const TX_IN_FLIGHT = 16;
const DEADLINE_MS = 10 * 60_000;

const argv = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 && argv[at + 1] !== undefined ? argv[at + 1] : fallback;
};
const seconds = Number(option("seconds", "5"));
const rounds = Number(option("rounds", "2"));

/** The few calls the measurement makes, the same shape for both drivers. */
interface Driver {
  name: string;
  readById(id: number): Promise<unknown>;
  transaction(org: string, n: number): Promise<unknown>;
  close(): Promise<void>;
}

function bunSql(url: string): Driver {
  const sql = new SQL({ url, max: POOL });
  return {
    name: "Bun.SQL",
    readById: (id) => sql`SELECT id, organization_id, name, created_at FROM bench_rows WHERE id = ${id}`,
    transaction: (org, n) =>
      sql.begin(async (tx) => {
        await tx`SELECT pg_advisory_xact_lock(hashtext(${org}))`;
        await tx`INSERT INTO bench_log (organization_id, n, at) VALUES (${org}, ${n}, ${new Date().toISOString()})`;
        const [row] = await tx`UPDATE bench_counters SET n = n + 1 WHERE organization_id = ${org} RETURNING n`;
        await tx`SELECT id, name FROM bench_rows WHERE id = ${(n % ROWS) + 1}`;
        await tx`INSERT INTO bench_log (organization_id, n, at) VALUES (${org}, ${row.n}, ${new Date().toISOString()})`;
      }),
    close: () => sql.close({ timeout: 1 }),
  };
}

function postgresJs(url: string): Driver {
  const sql = postgres(url, { max: POOL, onnotice: () => {} });
  return {
    name: "postgres.js",
    readById: (id) => sql`SELECT id, organization_id, name, created_at FROM bench_rows WHERE id = ${id}`,
    transaction: (org, n) =>
      sql.begin(async (tx) => {
        await tx`SELECT pg_advisory_xact_lock(hashtext(${org}))`;
        await tx`INSERT INTO bench_log (organization_id, n, at) VALUES (${org}, ${n}, ${new Date().toISOString()})`;
        const [row] = await tx`UPDATE bench_counters SET n = n + 1 WHERE organization_id = ${org} RETURNING n`;
        await tx`SELECT id, name FROM bench_rows WHERE id = ${(n % ROWS) + 1}`;
        await tx`INSERT INTO bench_log (organization_id, n, at) VALUES (${org}, ${row.n}, ${new Date().toISOString()})`;
      }),
    close: () => sql.end({ timeout: 1 }),
  };
}

/** Runs `op` with `inFlight` calls outstanding for `ms` (after a 0.5 s warm-up); operations/s. */
async function measure(inFlight: number, ms: number, op: (i: number) => Promise<unknown>): Promise<number> {
  let counting = false;
  let done = 0;
  let i = 0;
  let stop = false;
  const worker = async () => {
    while (!stop) {
      await op(i++);
      if (counting) done++;
    }
  };
  const workers = Array.from({ length: inFlight }, worker);
  await Bun.sleep(500);
  counting = true;
  const started = performance.now();
  await Bun.sleep(ms);
  counting = false;
  const elapsed = performance.now() - started;
  stop = true;
  await Promise.all(workers);
  return (done * 1000) / elapsed;
}

interface Figures {
  driver: string;
  reads: number;
  transactions: number;
}

async function measureDriver(driver: Driver): Promise<Figures> {
  let x = 12345;
  const nextId = () => ((x = (x * 1103515245 + 12345) & 0x7fffffff) % ROWS) + 1;
  const reads = await measure(READS_IN_FLIGHT, seconds * 1000, () => driver.readById(nextId()));
  // 50 organizations, so that the advisory locks serialise little.
  const transactions = await measure(TX_IN_FLIGHT, seconds * 1000, (i) => driver.transaction(`org_${i % 50}`, i));
  return { driver: driver.name, reads, transactions };
}

/** Both drivers, alternately, `rounds` times each. */
async function measureAll(url: string): Promise<Figures[]> {
  const out: Figures[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const make of [bunSql, postgresJs]) {
      const driver = make(url);
      try {
        out.push(await measureDriver(driver));
      } finally {
        await driver.close();
      }
    }
  }
  return out;
}

async function setUp(url: string): Promise<void> {
  const sql = new SQL(url);
  await sql.unsafe(`
    CREATE TABLE bench_rows (id int PRIMARY KEY, organization_id text NOT NULL, name text NOT NULL, created_at text NOT NULL);
    INSERT INTO bench_rows SELECT g, 'org_' || (g % 50), 'Name ' || g, '2026-01-01T00:00:00.000Z' FROM generate_series(1, ${ROWS}) g;
    CREATE TABLE bench_counters (organization_id text PRIMARY KEY, n bigint NOT NULL);
    INSERT INTO bench_counters SELECT 'org_' || g, 0 FROM generate_series(0, 49) g;
    CREATE TABLE bench_log (seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, organization_id text NOT NULL, n bigint NOT NULL, at text NOT NULL);
    ANALYZE;
  `);
  await sql.close();
}

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

function print(label: string, figures: Figures[]): void {
  for (const f of figures) console.log(`${label.padEnd(9)} ${f.driver.padEnd(12)} reads ${fmt(f.reads).padStart(7)}/s   5-statement transactions ${fmt(f.transactions).padStart(6)}/s`);
}

const watchdog = setTimeout(() => {
  console.error(`pg-driver: over ${DEADLINE_MS / 60_000} minutes, stopping`);
  process.exit(1);
}, DEADLINE_MS);
watchdog.unref();

const url = option("url", "");
if (url) {
  // The compiled executable's part: measure against the given database, print JSON.
  console.log(JSON.stringify(await measureAll(url)));
  process.exit(0);
}

const { freshDatabase, postgresServer } = await import("../test/helpers/postgres");
const { runCleanups } = await import("../test/helpers/cleanup");
const work = mkdtempSync(join(tmpdir(), "dossier-pg-driver-"));
try {
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model}, load ${loadavg().map((l) => l.toFixed(2)).join(" ")}; Bun ${Bun.version}`);
  const server = await postgresServer();
  const database = await freshDatabase("pg_driver_bench");
  await setUp(database);
  const probe = new SQL(database);
  const [{ version }] = await probe`SELECT current_setting('server_version') AS version`;
  await probe.close();
  console.log(`PostgreSQL ${version} (fsync off, loopback TCP), ${ROWS} rows; pool ${POOL}; reads ${READS_IN_FLIGHT} in flight, transactions ${TX_IN_FLIGHT} in flight; ${seconds} s per figure`);
  print("bun run", await measureAll(database));

  const exe = join(work, "pg-driver");
  const build = Bun.spawnSync([process.execPath, "build", "--compile", import.meta.path, "--outfile", exe], { stdout: "pipe", stderr: "pipe" });
  if (build.exitCode !== 0) throw new Error(`bun build --compile failed:\n${build.stderr.toString()}`);
  const compiled = Bun.spawn([exe, "--url", database, "--seconds", String(seconds), "--rounds", String(rounds)], { stdout: "pipe", stderr: "inherit" });
  const timer = setTimeout(() => compiled.kill("SIGKILL"), DEADLINE_MS / 2);
  const [text, code] = await Promise.all([new Response(compiled.stdout).text(), compiled.exited]);
  clearTimeout(timer);
  if (code !== 0) throw new Error(`the compiled executable exited ${code}:\n${text}`);
  print("compiled", JSON.parse(text.trim().split("\n").at(-1)!) as Figures[]);
  console.log(`load after: ${loadavg().map((l) => l.toFixed(2)).join(" ")}; server ${server.dir} removed at the end`);
} finally {
  rmSync(work, { recursive: true, force: true });
  await runCleanups();
}
process.exit(0);
