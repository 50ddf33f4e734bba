// `dossier migrate --to` benchmark (issue 34 point 6, C19 "Moving"), not a test: 1M dossiers moved
// from SQLite to PostgreSQL in under 5 minutes on this 2-core machine.
// Run: node_modules/.bin/bun bench/migrate.ts [--n 1000000]
//   1. seeds a temp SQLite data folder with bench/seed.ts (N dossiers, N contacts, their links, N/4
//      notes, their stage visits and search rows: what the list benchmarks use);
//   2. starts the tests' PostgreSQL (test/helpers/postgres.ts) and makes an empty database;
//   3. runs the real command, `dossier migrate --to URL --data DIR --json`, as a process from source,
//      and reports its time, rows per second over all tables, dossiers per second, and the load
//      average (on 2 cores a load above 4 means another process took a share of the run).
// --transports: then, the dossiers table alone copied twice into a bare table (no index, no
// trigger, no key: the transport alone) of another database, by COPY as the command does and by
// multi-row INSERTs (Bun's sql(rows) helper, 1,000 rows a statement), one transaction each.
// Everything it made (the data folder, the PostgreSQL folder) is removed at the end. Bounded: a
// watchdog ends the run after DEADLINE_MS (exit 1).
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Database } from "bun:sqlite";
import { SQL } from "bun";
import { copyTable, MOVE_TABLES, type MoveTable } from "../src/db/pg/move";
import { seed } from "./seed";

const DEADLINE_MS = 25 * 60_000;
const argv = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 && argv[at + 1] !== undefined ? argv[at + 1] : fallback;
};
const n = Number(option("n", "1000000"));
const MAIN = resolve(import.meta.dir, "../src/main.ts");

const { freshDatabase, postgresServer } = await import("../test/helpers/postgres");
const { runCleanups } = await import("../test/helpers/cleanup");

const work = mkdtempSync(join(tmpdir(), "dossier-bench-migrate-"));
const watchdog = setTimeout(async () => {
  process.stderr.write(`migrate bench: over ${DEADLINE_MS / 60_000} minutes, stopped\n`);
  await runCleanups().catch(() => {});
  rmSync(work, { recursive: true, force: true });
  process.exit(1);
}, DEADLINE_MS);

const load = () => loadavg().map((l) => l.toFixed(1)).join(" ");
try {
  const exe = join(work, "dossier");
  writeFileSync(exe, `#!/bin/sh\nexec "${process.execPath}" "${MAIN}" "$@"\n`);
  chmodSync(exe, 0o755);
  const dataDir = join(work, "data");
  const t0 = performance.now();
  const seeded = await seed({ exe, dataDir, n, progress: true, log: () => {} });
  console.log(`seeded ${n} dossiers in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${JSON.stringify(seeded.counts)}`);

  await postgresServer();
  const url = await freshDatabase("migrate_bench");
  const loadBefore = load();
  const started = performance.now();
  const run = Bun.spawnSync([process.execPath, MAIN, "migrate", "--to", url, "--data", dataDir, "--json"], {
    env: { ...process.env, DOSSIER_LOG: "off" },
    stdout: "pipe",
    stderr: "inherit",
  });
  const seconds = (performance.now() - started) / 1000;
  const loadAfter = load();
  if (run.exitCode !== 0) throw new Error(`dossier migrate exited ${run.exitCode}`);
  const result = JSON.parse(run.stdout.toString()) as { tables: Record<string, number>; rows: number; seconds: number };
  const busy = Math.max(...loadavg()) > 4 ? " (machine busy: load > 4)" : "";
  console.log(`tables: ${JSON.stringify(result.tables)}`);
  console.log(
    `migrate: ${n} dossiers, ${result.rows} rows in all, in ${seconds.toFixed(1)} s (process; the command's own figure ${result.seconds} s): ` +
      `${Math.round(result.rows / seconds)} rows/s, ${Math.round(n / seconds)} dossiers/s; ${cpus().length} cores, load ${loadBefore} before, ${loadAfter} after${busy}`,
  );
  if (argv.includes("--transports")) await compareTransports(join(dataDir, "dossier.db"), await freshDatabase("migrate_bench_transports"));
} finally {
  clearTimeout(watchdog);
  await runCleanups();
  rmSync(work, { recursive: true, force: true });
}

async function compareTransports(dbPath: string, url: string) {
  const source = new Database(dbPath, { readonly: true });
  const sql = new SQL(url, { max: 1 });
  const dossiers = MOVE_TABLES.find((t) => t.name === "dossiers")!;
  try {
    const { migratePg } = await import("../src/db/pg/migrate");
    await migratePg(sql);
    await sql.unsafe(`CREATE TABLE bare_copy (LIKE dossiers)`);
    await sql.unsafe(`CREATE TABLE bare_insert (LIKE dossiers)`);
    let t = performance.now();
    let rows = 0;
    await sql.begin((tx) => copyTable(source, tx, dossiers, (n) => (rows = n), "bare_copy"));
    const copySeconds = (performance.now() - t) / 1000;
    t = performance.now();
    await sql.begin((tx) => insertTable(source, tx, dossiers));
    const insertSeconds = (performance.now() - t) / 1000;
    console.log(
      `transports, dossiers alone into a bare table: COPY ${rows} rows in ${copySeconds.toFixed(1)} s (${Math.round(rows / copySeconds)} rows/s); ` +
        `multi-row INSERT in ${insertSeconds.toFixed(1)} s (${Math.round(rows / insertSeconds)} rows/s); load ${load()}`,
    );
  } finally {
    source.close();
    await sql.close();
  }
}

async function insertTable(source: Database, tx: Bun.TransactionSQL, table: MoveTable) {
  const names = table.columns.map((c) => `"${c.name}"`).join(", ");
  const read = source.query<Record<string, unknown>, [number, number]>(`SELECT rowid AS "__key", ${names} FROM "${table.name}" WHERE rowid > ? ORDER BY rowid LIMIT ?`);
  let after = -Infinity;
  for (;;) {
    const rows = read.all(after, 1_000);
    if (rows.length === 0) break;
    after = Number(rows[rows.length - 1].__key);
    const values = rows.map((row) => {
      const out: Record<string, unknown> = {};
      for (const column of table.columns) out[column.name] = column.boolean && row[column.name] !== null ? row[column.name] === 1 : row[column.name];
      return out;
    });
    await tx`INSERT INTO bare_insert ${tx(values)}`;
  }
}
