// The PostgreSQL bench (issue 34 point 7, C19): `npm run bench -- --engine postgres [options]`, or
// `bun bench/postgres.ts [options]`.
//
// 1. wrk (installed when missing, bench/load.ts), `npm run build` (dist/dossier; not with --no-build).
// 2. A PostgreSQL from the tests' npm binaries (test/helpers/postgres.ts, startPostgres) in a temp
//    folder (dossier-pg-*, removed at the end), with honest writes: fsync=on, synchronous_commit=on,
//    full_page_writes=on; shared_buffers=512MB (2 cores, 24 GB shared with other engineers' tests).
// 3. For each N (10,000, then 1,000,000): bench/seed.ts seeds a SQLite data folder (the SQLite
//    bench's rows, through the real CLI for the organization, key and flows), bench/pg-seed.ts copies
//    its rows into a fresh database of that server (the product's migrations and triggers).
// 4. PostgreSQL phase: for every N, `dist/dossier serve --no-bootstrap` with DOSSIER_DATABASE_URL
//    (pool 10, the default) and bench/raw-pg-server.ts (Bun.SQL, pool 10), all pinned to CPU 0, wrk
//    to CPU 1, the PostgreSQL server unpinned. Once each product's overdue job (C22) has given the
//    seed's overdue dossiers their tasks: VACUUM (ANALYZE) of each database, then CHECKPOINT, so
//    that no clean-up of the seed is measured. R rounds; in each, every endpoint runs on every N
//    in turn (ascending in odd rounds, descending in even ones), S seconds on the product and S on
//    the raw baseline (product first in odd rounds, raw first in even ones), each after --settle
//    seconds of the same load: the sizes whose p99s are compared see the same host. CPU per
//    request from /proc/PID/stat (utime+stime) of the Dossier process and of every process of the
//    PostgreSQL server, before and after each run.
// 5. SQLite phase: `dist/dossier serve` on each N's seeded folder in turn, the same endpoints, R
//    rounds (no raw).
// 6. The table goes to stdout and to docs/performance.md between <!-- bench:postgres:begin/end -->.
//
// Options: --n 10000,1000000  --seconds S (3)  --rounds R (3)  --connections C (16)  --settle S (1)
// --quick (N = 10,000, 1 s runs, no settle)  --no-build  --only NAME,NAME  --out FILE  --no-sqlite
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { join, resolve } from "node:path";
import { startPostgres } from "../test/helpers/postgres";
import { replaceSection } from "./doc-section";
import { ensureWrk, freePort, median, runWrk, stop, waitForRateRoom, waitHealthy, type RequestSpec, type WrkResult } from "./load";
import { seedPostgres } from "./pg-seed";
import { seed, type SeedResult } from "./seed";

const ROOT = resolve(import.meta.dir, "..");
const SERVER_CPU = 0;
const LOAD_CPU = 1;
const POOL = 10;
const API = "/api/v1";
const TARGETS: Record<string, number> = { list: 0.85, get: 0.85, create: 0.6 };
const GROWTH_TARGET = 1.5;
const PG_SETTINGS = [
  "-c", "fsync=on",
  "-c", "synchronous_commit=on",
  "-c", "full_page_writes=on",
  "-c", "shared_buffers=512MB",
  "-c", "effective_cache_size=4GB",
  "-c", "work_mem=8MB",
  "-c", "maintenance_work_mem=256MB",
  "-c", "max_wal_size=4GB",
  "-c", "max_connections=100",
];

const argv = process.argv.slice(2).filter((a, i, all) => !(a === "--engine" || all[i - 1] === "--engine"));
const has = (name: string) => argv.includes(`--${name}`);
const option = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : fallback;
};
const quick = has("quick");
const sizes = option("n", quick ? "10000" : "10000,1000000").split(",").map(Number);
const seconds = Number(option("seconds", quick ? "1" : "3"));
const rounds = Number(option("rounds", "3"));
const connections = Number(option("connections", "16"));
const settle = Number(option("settle", quick ? "0" : "1"));
const only = has("only") ? new Set(option("only", "").split(",")) : null;
const out = resolve(ROOT, option("out", "docs/performance.md"));
const exe = join(ROOT, "dist", "dossier");
const log = (line: string) => process.stderr.write(`[bench:pg ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

interface Endpoint {
  name: string;
  label: string;
  expect: number;
  app: (s: SeedResult) => RequestSpec;
  raw: (s: SeedResult) => RequestSpec;
}
const get = (path: string): RequestSpec => ({ kind: "get", paths: [path] });
const ALL_ENDPOINTS: Endpoint[] = [
  { name: "list", label: "GET /dossiers", expect: 200, app: () => get(`${API}/dossiers`), raw: () => get("/list") },
  { name: "list50", label: "GET /dossiers?per_page=50", expect: 200, app: () => get(`${API}/dossiers?per_page=50`), raw: () => get("/list?per_page=50") },
  { name: "list100", label: "GET /dossiers?per_page=100", expect: 200, app: () => get(`${API}/dossiers?per_page=100`), raw: () => get("/list?per_page=100") },
  { name: "deep", label: "GET /dossiers?page=1000", expect: 200, app: () => get(`${API}/dossiers?page=1000`), raw: () => get("/list?page=1000") },
  {
    name: "filtered", label: "GET /dossiers?type=sales&status=active", expect: 200,
    app: () => get(`${API}/dossiers?type=sales&status=active`), raw: () => get("/list?type=sales&status=active"),
  },
  {
    name: "get", label: "GET /dossiers/{id}", expect: 200,
    app: (s) => ({ kind: "get", paths: s.sampleIds.map((id) => `${API}/dossiers/${id}`) }),
    raw: (s) => ({ kind: "get", paths: s.sampleIds.map((id) => `/get/${id}`) }),
  },
  { name: "create", label: "POST /dossiers", expect: 201, app: () => ({ kind: "create", path: `${API}/dossiers` }), raw: () => ({ kind: "create", path: "/create" }) },
];
const ENDPOINTS = ALL_ENDPOINTS.filter((e) => !only || only.has(e.name));

// ---------------------------------------------------------------------------------------------
// CPU time of a process and of a process tree, from /proc (clock ticks: 100 a second on Linux).

const TICK = 100;
function cpuTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[11]) + Number(fields[12]); // utime, stime
  } catch {
    return 0;
  }
}
/** The postmaster and its children (the backends of both pools, the checkpointer, the WAL writer). */
function treeTicks(root: number): number {
  let total = cpuTicks(root);
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === root) total += cpuTicks(Number(entry));
    } catch {
      // ended meanwhile
    }
  }
  return total;
}

interface Measured extends WrkResult {
  /** CPU milliseconds per request: the server process (Dossier or raw), PostgreSQL's processes. */
  cpuServerMs: number;
  cpuPgMs: number;
  /** The server's resident memory after the run, in MB (a larger heap, longer collections). */
  rssMb: number;
  /** How often the organization's dossiers generation moved during the run (the product's
   * remembered answers then read again), or null for the raw server. */
  generationMoves: number | null;
}

/** The server's resident set, in MB, from /proc (0 when it is gone). */
function rssMb(pid: number): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+) kB/m);
    return line ? Number(line[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** The organization's dossiers generation (src/db/generations.ts's rule, drizzle-pg/0001's triggers). */
async function dossiersGeneration(url: string, organizationId: string): Promise<number> {
  const { SQL } = await import("bun");
  const db = new SQL({ url, max: 1 });
  try {
    const [row] = await db`SELECT generation FROM generations WHERE organization_id = ${organizationId} AND table_name = 'dossiers'`;
    return Number(row?.generation ?? 0);
  } finally {
    await db.close({ timeout: 1 });
  }
}

async function waitDrained(base: string) {
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).status === 200) return;
    } catch {
      // busy
    }
    await Bun.sleep(50);
  }
}

/** `generation` reads the product's dossiers generation, before and after the measured run. */
async function measure(wrk: string, workDir: string, base: string, spec: RequestSpec, key: string | undefined, pid: number, pgPid: number | null, generation?: () => Promise<number>): Promise<Measured> {
  if (settle > 0) {
    await runWrk({ wrk, workDir, baseUrl: base, spec, key, seconds: settle, connections, cpu: LOAD_CPU, serverPid: pid });
    await waitDrained(base);
  }
  const g0 = generation ? await generation() : 0;
  const s0 = cpuTicks(pid);
  const p0 = pgPid ? treeTicks(pgPid) : 0;
  const r = await runWrk({ wrk, workDir, baseUrl: base, spec, key, seconds, connections, cpu: LOAD_CPU, serverPid: pid });
  const s1 = cpuTicks(pid);
  const p1 = pgPid ? treeTicks(pgPid) : 0;
  const g1 = generation ? await generation() : 0;
  await waitDrained(base);
  const perReq = (ticks: number) => (r.requests > 0 ? (ticks * 1000) / TICK / r.requests : NaN);
  return { ...r, cpuServerMs: perReq(s1 - s0), cpuPgMs: perReq(p1 - p0), rssMb: rssMb(pid), generationMoves: generation ? g1 - g0 : null };
}

async function probe(base: string, spec: RequestSpec, key: string | undefined, expect: number): Promise<string | null> {
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  let res: Response;
  if (spec.kind === "get") res = await fetch(base + spec.paths[0], { headers });
  else if (spec.kind === "create")
    res = await fetch(base + spec.path, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ type: "candidate", name: "Probe", email: `probe.${Math.random().toString(36).slice(2)}@example.com` }),
    });
  else return null;
  const body = await res.text();
  return res.status === expect ? null : `${res.status} ${body.slice(0, 200)}`;
}

/** The raw list's answer and the app's for the same page, compared (the same JSON bytes). */
async function sameAnswers(appBase: string, rawBase: string, key: string, s: SeedResult) {
  const pairs: [string, string][] = [
    [`${API}/dossiers`, "/list"],
    [`${API}/dossiers?type=sales&status=active&per_page=50`, "/list?type=sales&status=active&per_page=50"],
    [`${API}/dossiers/${s.sampleIds[0]}`, `/get/${s.sampleIds[0]}`],
  ];
  for (const [a, r] of pairs) {
    const app = (await (await fetch(appBase + a, { headers: { authorization: `Bearer ${key}` } })).json()) as { data: unknown; meta?: { total: number } };
    const raw = (await (await fetch(rawBase + r)).json()) as { data: unknown; meta?: { total: number } };
    if (JSON.stringify(app.data) !== JSON.stringify(raw.data)) log(`WARNING: the app's ${a} and the raw ${r} differ in their data`);
    if (app.meta && raw.meta && app.meta.total !== raw.meta.total) log(`WARNING: totals differ on ${a}: ${app.meta.total} vs ${raw.meta.total}`);
  }
}

interface Row {
  endpoint: Endpoint;
  app: Measured[];
  raw: Measured[];
  ratios: number[];
  sqlite: Measured[];
  note?: string;
}

/** The seed's dossiers past their stage's deadline get their overdue task from the product's job
 * once it starts (src/jobs/overdue.ts), in long transactions whose work and locks (the
 * organization's dossiers generation) fall on whichever server is measured meanwhile: waited for
 * before the first run, and the database vacuumed after it. The job makes 550-1,000 tasks a
 * second and about 60 % of the seed is overdue, so the wait is bounded at 1.25 ms a dossier (two
 * minutes at the least): the 1M run waits 10-18 minutes rather than measure its p99 beside the job
 * (it made 571,882 tasks during the run of 2026-11-30 09:00 UTC, whose p99 growth was then missed;
 * at a millisecond a dossier, the run of 2026-12-01 03:49 UTC still left it 22,129). A run the job
 * outlasts says so. */
const overdueWaitMs = (n: number) => Math.max(120_000, 1.25 * n);
async function overdueCaughtUp(url: string, n: number) {
  const { SQL } = await import("bun");
  const db = new SQL({ url, max: 1 });
  try {
    const left = async () =>
      Number((await db`SELECT count(*)::integer AS n FROM dossiers
        WHERE status = 'active' AND stage_due_at IS NOT NULL AND overdue_task_visit_id IS NULL AND stage_due_at < ${new Date().toISOString()}`)[0].n);
    const t0 = performance.now();
    let count = await left();
    log(`N = ${n}: ${count} overdue dossiers without their task: waiting for the product's overdue job`);
    while (count > 0 && performance.now() - t0 < overdueWaitMs(n)) {
      await Bun.sleep(2000);
      count = await left();
    }
    log(`N = ${n}: ${count === 0 ? "the overdue job caught up" : `${count} overdue dossiers still without their task: measured with the job running`} after ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    // The job's updates leave dead rows and stale statistics behind: autovacuum would clean them up
    // during a run, its work charged to whichever server is measured then (a 10k run at 19:13 UTC
    // on 2026-11-29 measured 1.6-1.8 ms of PostgreSQL CPU per cached read, 0.1-0.4 without).
    const t1 = performance.now();
    await db.unsafe("VACUUM (ANALYZE)");
    log(`N = ${n}: VACUUM (ANALYZE) in ${((performance.now() - t1) / 1000).toFixed(0)} s`);
  } finally {
    await db.close();
  }
}

/** One N: its seeded SQLite folder, its PostgreSQL database, the PostgreSQL node's data folder. */
interface Size {
  n: number;
  s: SeedResult;
  dataDir: string;
  pgData: string;
  url: string;
  rows: Row[];
  seedSeconds: { sqlite: number; pg: number };
}

async function prepare(root: string, pg: Postgres, n: number): Promise<Size> {
  const dataDir = join(root, `n${n}`);
  log(`N = ${n}: seeding SQLite (${dataDir})`);
  const s = await seed({ exe, dataDir, n, log });
  const database = `bench_n${n}`;
  const url = pg.url(database);
  await admin(pg, async (db) => {
    await db.unsafe(`DROP DATABASE IF EXISTS "${database}"`);
    await db.unsafe(`CREATE DATABASE "${database}" TEMPLATE template0 ENCODING 'UTF8' LOCALE 'C'`);
  });
  log(`N = ${n}: copying into PostgreSQL database ${database}`);
  const pgSeed = await seedPostgres({ sqlitePath: join(dataDir, "dossier.db"), url, log });
  log(`N = ${n}: PostgreSQL seeded in ${pgSeed.seconds.toFixed(1)} s: ${JSON.stringify(pgSeed.rows)}`);
  // The PostgreSQL node's data folder: no database in it, the seeded folder's master key.
  const pgData = join(root, `n${n}-pgnode`);
  mkdirSync(pgData, { recursive: true, mode: 0o700 });
  if (existsSync(join(dataDir, "master.key"))) copyFileSync(join(dataDir, "master.key"), join(pgData, "master.key"));
  const rows: Row[] = ENDPOINTS.map((endpoint) => ({ endpoint, app: [], raw: [], ratios: [], sqlite: [] }));
  return { n, s, dataDir, pgData, url, rows, seedSeconds: { sqlite: s.seconds.total, pg: pgSeed.seconds } };
}

type Postgres = Awaited<ReturnType<typeof startPostgres>>;
async function admin(pg: Postgres, work: (db: InstanceType<typeof import("bun").SQL>) => Promise<void>) {
  const { SQL } = await import("bun");
  const db = new SQL({ url: pg.url("postgres"), max: 1 });
  try {
    await work(db);
  } finally {
    await db.close({ timeout: 1 });
  }
}

const env = { ...process.env, DOSSIER_LOG: "off", DOSSIER_LOG_LEVEL: "warn" };
type Server = { proc: ReturnType<typeof Bun.spawn>; base: string };
async function serve(args: string[], extraEnv: Record<string, string> = {}): Promise<Server> {
  const port = await freePort();
  const proc = Bun.spawn(["taskset", "-c", String(SERVER_CPU), ...args, "--port", String(port)], {
    env: { ...env, ...extraEnv },
    stdout: "ignore",
    stderr: "inherit",
  });
  return { proc, base: `http://127.0.0.1:${port}` };
}

/** Sizes in the order of this round: ascending in odd rounds, descending in even ones. */
const inRound = <T>(all: T[], round: number) => (round % 2 === 1 ? all : [...all].reverse());

/** The PostgreSQL phase. Every N's product and raw server run side by side (idle but for the one
 * measured), and each round measures every endpoint on every N in turn: the p99 growth then sets
 * 1M beside 10k measured seconds apart under the same load on the host, rather than one size
 * after the other (the run of 2026-12-01 00:34 UTC measured its 10k half at load averages of
 * 1.4-2.3 and its 1M half at 3.1-3.9, and missed four p99 growths that the 18:04 run had met). */
async function postgresPhase(wrk: string, root: string, pg: Postgres, sizes: Size[], load: number[][]) {
  const servers: { size: Size; app: Server; raw: Server }[] = [];
  try {
    for (const size of sizes) {
      const app = await serve([exe, "serve", "--no-bootstrap", "--data", size.pgData], { DOSSIER_DATABASE_URL: size.url, DOSSIER_DATABASE_POOL: String(POOL) });
      const raw = await serve([process.execPath, join(ROOT, "bench", "raw-pg-server.ts"), "--url", size.url, "--org", size.s.organizationId, "--pool", String(POOL)]);
      servers.push({ size, app, raw });
      await waitHealthy(`${app.base}/healthz`, 60_000, app.proc);
      await waitHealthy(`${raw.base}/healthz`, 30_000, raw.proc);
    }
    for (const { size } of servers) await overdueCaughtUp(size.url, size.n);
    // The seeds, the jobs and the vacuums leave gigabytes of dirty pages at 1M, which the
    // checkpointer would write out over the next minutes, beside the measured servers.
    const t0 = performance.now();
    await admin(pg, async (db) => void (await db.unsafe("CHECKPOINT")));
    log(`CHECKPOINT in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    for (const { size, app, raw } of servers) {
      await sameAnswers(app.base, raw.base, size.s.key, size.s);
      for (const row of size.rows) {
        const bad = (await probe(app.base, row.endpoint.app(size.s), size.s.key, row.endpoint.expect)) ?? (await probe(raw.base, row.endpoint.raw(size.s), undefined, row.endpoint.expect));
        if (bad) row.note = `failing: ${bad}`;
      }
    }
    for (let round = 1; round <= rounds; round++) {
      log(`PostgreSQL round ${round}/${rounds} (load ${loadavg().map((l) => l.toFixed(2)).join(" ")})`);
      for (let e = 0; e < ENDPOINTS.length; e++) {
        for (const { size, app, raw } of inRound(servers, round)) {
          const row = size.rows[e];
          if (row.note) continue;
          await waitForRateRoom(app.base, size.s.key, log);
          const runApp = () => measure(wrk, root, app.base, row.endpoint.app(size.s), size.s.key, app.proc.pid, pg.pid, () => dossiersGeneration(size.url, size.s.organizationId));
          const runRaw = () => measure(wrk, root, raw.base, row.endpoint.raw(size.s), undefined, raw.proc.pid, pg.pid);
          let a: Measured;
          let r: Measured;
          if (round % 2 === 1) {
            a = await runApp();
            r = await runRaw();
          } else {
            r = await runRaw();
            a = await runApp();
          }
          for (const [m, who] of [[a, "app"], [r, "raw"]] as const) {
            if (m.non2xx + m.socketErrors > m.requests * 0.01) row.note = `failing (${who}): ${m.non2xx} non-2xx, ${m.socketErrors} socket errors; ${m.firstError ?? ""}`;
          }
          row.app.push(a);
          row.raw.push(r);
          row.ratios.push(a.rps / r.rps);
          // Each round's figures, with the time: an outlier can then be set beside what ran when.
          const figures = (m: Measured) =>
            `${Math.round(m.rps)} req/s, p99 ${m.p99ms.toFixed(2)} ms, CPU ms/req ${m.cpuServerMs.toFixed(3)} + ${m.cpuPgMs.toFixed(3)}, RSS ${m.rssMb.toFixed(0)} MB` +
            (m.generationMoves === null ? "" : `, dossiers generation +${m.generationMoves}`);
          log(`  N = ${size.n} ${row.endpoint.name}: product ${figures(a)}; raw ${figures(r)}; ratio ${(a.rps / r.rps).toFixed(2)}`);
        }
      }
      load.push(loadavg());
    }
  } finally {
    for (const { app, raw } of servers) {
      await stop(app.proc);
      await stop(raw.proc);
    }
  }
}

/** The SQLite phase: the same endpoints on each N's seeded folder, the product only, one N after
 * the other. Not interleaved as the PostgreSQL phase is: the seeded folders' overdue dossiers have
 * no task yet, and the 1M server's overdue job, started with it, would run beside the 10k one's
 * measures (the run of 2026-12-01 02:47 UTC, interleaved: 10k's list at 4,672 req/s, p99 13 ms;
 * 21,517 and 6 ms in the run before). It runs beside 1M's measures: SQLite's figures are a report. */
async function sqlitePhase(wrk: string, root: string, sizes: Size[], load: number[][]) {
  for (const size of sizes) {
    const lite = await serve([exe, "serve", "--no-bootstrap", "--data", size.dataDir]);
    try {
      await waitHealthy(`${lite.base}/healthz`, 60_000, lite.proc);
      for (let round = 1; round <= rounds; round++) {
        log(`N = ${size.n}: SQLite round ${round}/${rounds}`);
        for (const row of size.rows) {
          if (row.note) continue;
          await waitForRateRoom(lite.base, size.s.key, log);
          row.sqlite.push(await measure(wrk, root, lite.base, row.endpoint.app(size.s), size.s.key, lite.proc.pid, null));
        }
      }
    } finally {
      await stop(lite.proc);
    }
  }
  load.push(loadavg());
}

// ---------------------------------------------------------------------------------------------
// The table.

const fmt = (x: number, digits = 0) => (Number.isFinite(x) ? x.toFixed(digits) : "n/a");
const med = (runs: Measured[], pick: (m: Measured) => number) => median(runs.map(pick));

function sizeTable(report: Size): string[] {
  const lines = [
    `#### N = ${report.n.toLocaleString("en-US")} (seeded: SQLite ${fmt(report.seedSeconds.sqlite, 0)} s, copy into PostgreSQL ${fmt(report.seedSeconds.pg, 0)} s)`,
    "",
    "| endpoint | PG product req/s | p50 ms | p99 ms | PG raw req/s | raw p99 ms | ratio | target | CPU ms/req Dossier + PG | CPU ms/req raw + PG | SQLite req/s | SQLite p99 ms |",
    "|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|",
  ];
  for (const row of report.rows) {
    if (row.app.length === 0) {
      lines.push(`| ${row.endpoint.name} | ${row.note ?? "not run"} | | | | | | | | | | |`);
      continue;
    }
    const ratio = median(row.ratios);
    const target = TARGETS[row.endpoint.name];
    const verdict = target === undefined ? "" : `≥ ${target} ${ratio >= target ? "met" : "**missed**"}`;
    lines.push(
      `| ${row.endpoint.name} | ${fmt(med(row.app, (m) => m.rps))} | ${fmt(med(row.app, (m) => m.p50ms), 2)} | ${fmt(med(row.app, (m) => m.p99ms), 2)} | ` +
        `${fmt(med(row.raw, (m) => m.rps))} | ${fmt(med(row.raw, (m) => m.p99ms), 2)} | ${fmt(ratio, 2)} | ${verdict} | ` +
        `${fmt(med(row.app, (m) => m.cpuServerMs), 3)} + ${fmt(med(row.app, (m) => m.cpuPgMs), 3)} | ${fmt(med(row.raw, (m) => m.cpuServerMs), 3)} + ${fmt(med(row.raw, (m) => m.cpuPgMs), 3)} | ` +
        `${fmt(med(row.sqlite, (m) => m.rps))} | ${fmt(med(row.sqlite, (m) => m.p99ms), 2)} |` + (row.note ? ` ${row.note}` : ""),
    );
  }
  return lines;
}

function growthTable(small: Size, large: Size): string[] {
  const lines = [
    `#### p99 growth, N = ${large.n.toLocaleString("en-US")} vs ${small.n.toLocaleString("en-US")} (target ≤ ${GROWTH_TARGET}×, the product on PostgreSQL)`,
    "",
    "| endpoint | p99 small ms | p99 large ms | growth | verdict | raw growth | SQLite growth |",
    "|---|---:|---:|---:|---|---:|---:|",
  ];
  for (const row of large.rows) {
    const before = small.rows.find((r) => r.endpoint.name === row.endpoint.name);
    if (!before || row.app.length === 0 || before.app.length === 0) continue;
    const p = (rs: Measured[]) => med(rs, (m) => m.p99ms);
    const g = p(row.app) / p(before.app);
    lines.push(
      `| ${row.endpoint.name} | ${fmt(p(before.app), 2)} | ${fmt(p(row.app), 2)} | ${fmt(g, 2)} | ${g <= GROWTH_TARGET ? "met" : "**missed**"} | ` +
        `${fmt(p(row.raw) / p(before.raw), 2)} | ${fmt(p(row.sqlite) / p(before.sqlite), 2)} |`,
    );
  }
  return lines;
}

async function machine(): Promise<string> {
  const text = async (cmd: string[]) => (await new Response(Bun.spawn(cmd, { stdout: "pipe", stderr: "ignore" }).stdout).text()).trim();
  const commit = await text(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"]);
  const dirty = (await text(["git", "-C", ROOT, "status", "--porcelain"])) ? " (with uncommitted changes)" : "";
  return `${cpus().length} × ${cpus()[0]?.model ?? "?"}, ${(totalmem() / 2 ** 30).toFixed(0)} GB, Linux ${await text(["uname", "-r"])}, Bun ${Bun.version}, commit ${commit}${dirty}`;
}

// ---------------------------------------------------------------------------------------------

const started = new Date();
const wrk = await ensureWrk(log);
if (!has("no-build")) {
  log("building: npm run build");
  const proc = Bun.spawn(["npm", "run", "build"], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const [o, e, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`npm run build failed (${code}):\n${(e || o).trim().split("\n").slice(-15).join("\n")}`);
}
const root = mkdtempSync(join(tmpdir(), "dossier-pgbench-"));
const removeRoot = () => rmSync(root, { recursive: true, force: true });
process.on("exit", removeRoot);
process.on("SIGINT", () => process.exit(130));
process.on("SIGTERM", () => process.exit(143));
log(`PostgreSQL: starting (${PG_SETTINGS.filter((_, i) => i % 2 === 1).join(" ")})`);
const pg = await startPostgres(PG_SETTINGS);
const reports: Size[] = [];
const load: number[][] = [];
try {
  let pgLine = "";
  await admin(pg, async (db) => {
    const [v] = await db`SELECT version() AS v`;
    const settings = await db`SELECT name, setting, unit FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit', 'shared_buffers', 'full_page_writes', 'wal_sync_method')`;
    pgLine = `${String(v.v).split(",")[0]}; ${settings.map((r: { name: string; setting: string; unit: string | null }) => `${r.name}=${r.setting}${r.unit ?? ""}`).join(", ")}`;
  });
  log(pgLine);
  for (const n of sizes) reports.push(await prepare(root, pg, n));
  load.push(loadavg());
  await postgresPhase(wrk, root, pg, reports, load);
  if (!has("no-sqlite")) await sqlitePhase(wrk, root, reports, load);

  const lines = [
    `### Run of ${started.toISOString().slice(0, 16).replace("T", " ")} UTC (\`npm run bench -- --engine postgres${process.argv.slice(2).filter((a) => a !== "--engine" && a !== "postgres").map((a) => " " + a).join("")}\`)`,
    "",
    `- Machine: ${await machine()}`,
    `- PostgreSQL: ${pgLine} (the tests' npm binaries, one server for the run, a fresh database per N)`,
    `- ${rounds} rounds × ${seconds} s per endpoint and server, ${settle} s settle before each; wrk -t1 -c${connections} pinned to CPU ${LOAD_CPU}; ` +
      `\`dist/dossier serve\` (DOSSIER_LOG=off, pool ${POOL}) and bench/raw-pg-server.ts (Bun.SQL, pool ${POOL}) pinned to CPU ${SERVER_CPU}, PostgreSQL unpinned; ` +
      `product and raw alternate within a round (product first in odd rounds); every N's servers run side by side and each endpoint is measured on every N in turn (ascending in odd rounds), so both sizes see the same load on the host; ratio = median of the per-round ratios product / raw req/s`,
    `- CPU ms/req: (utime + stime) of the server process, and of the postmaster and all its children, over the measured run, divided by its requests`,
    `- Load average (1, 5, 15 min) once every N is seeded, after each PostgreSQL round and after the SQLite rounds: ${load.map((l) => l.map((x) => x.toFixed(2)).join(" ")).join(" · ")}`,
    "",
  ];
  for (const r of reports) lines.push(...sizeTable(r), "");
  if (reports.length >= 2) lines.push(...growthTable(reports[0], reports[reports.length - 1]), "");
  const body = lines.join("\n");
  process.stdout.write(body + "\n");
  if (!has("no-write")) {
    const doc = existsSync(out) ? readFileSync(out, "utf8") : "";
    writeFileSync(out, replaceSection(doc, quick ? "postgres-quick" : "postgres", body));
    log(`written to ${out}`);
  }
  const last = reports[reports.length - 1];
  const ratio = (name: string) => median(last?.rows.find((r) => r.endpoint.name === name)?.ratios ?? []);
  process.stdout.write(`ratios: list=${fmt(ratio("list"), 2)} get=${fmt(ratio("get"), 2)} create=${fmt(ratio("create"), 2)}\n`);
} finally {
  await pg.stop();
  removeRoot();
}
process.exit(0);
