// `bun bench/overdue.ts`: C22's overdue-tasks job at 1,000,000 dossiers on SQLite (docs/performance.md,
// C22). A temp data folder is seeded as `npm run bench` seeds (bench/seed.ts, the organization made
// by the CLI from the source, so with this branch's migrations): ~775,000 active dossiers are past
// their stage's deadline, in flows that make tasks, and none has its task yet. Then, in this
// process, on the server's store (commits grouped, as `serve` opens it):
//   1. before: the scan of before the marker (the statement of 0554488, by its index
//      dossiers_active_due, made for the measure and dropped after), its look (LIMIT 1) and one
//      batch (LIMIT 200), each timed alone on the fresh folder;
//   2. the catch-up: the job run again and again, as the runner runs it while it answers "more",
//      with a lag monitor (a 10 ms setInterval: how late each tick fires is how long the thread was
//      held) and each scan query timed; the tasks made counted;
//   3. the steady state, all tasks made: a run of the job (a new one: a restart) timed; and the
//      scan of before, which walked every overdue dossier on each 30 s run, timed once more.
// The temp folder is removed at the end.
//
//   bun bench/overdue.ts [--n 1000000] [--batch 25] [--keep DIR]
//
//   --keep DIR   seed into DIR and keep it (DIR/../<name>.seed.json beside); a later run with the
//                same --keep and --n reuses the seed (its tasks, if any, deleted and the marks
//                cleared first)
//
// A bench, not a test: it prints figures and asserts nothing.
import { Database } from "bun:sqlite";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { openContext } from "../src/context";
import { overdueTasksJob } from "../src/jobs/overdue";
import { seed, type SeedResult } from "./seed";

const ROOT = resolve(import.meta.dir, "..");
const argv = process.argv.slice(2);
const opt = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const N = Number(opt("n") ?? "1000000");
const BATCH = opt("batch") === undefined ? undefined : Number(opt("batch"));
const log = (line: string) => process.stderr.write(`[overdue] ${line}\n`);

/** The scan of before (src/db/tasks.ts at 0554488): every batch from the first overdue dossier. */
const OLD_SCAN = `SELECT d.organization_id, d.id AS dossier_id, d.name AS dossier_name, s.name AS stage_name, d.stage_due_at, v.id AS visit_id,
        (SELECT m.id FROM members m WHERE m.organization_id = d.organization_id AND m.id = d.assigned_to AND m.disabled_at IS NULL) AS assignee
 FROM dossiers d
 JOIN flows f ON f.id = d.flow_id AND f.organization_id = d.organization_id
 JOIN stages s ON s.id = d.current_stage_id AND s.organization_id = d.organization_id
 JOIN stage_visits v ON v.id = (SELECT max(id) FROM stage_visits WHERE dossier_id = d.id AND organization_id = d.organization_id AND left_at IS NULL)
 WHERE d.status = 'active' AND d.stage_due_at IS NOT NULL AND d.stage_due_at <= ? AND f.overdue_tasks = 1
   AND v.stage_id = d.current_stage_id
   AND NOT EXISTS (SELECT 1 FROM tasks t WHERE t.stage_visit_id = v.id)
 ORDER BY d.stage_due_at, d.id
 LIMIT ?`;

/** Milliseconds of `fn`, and its answer. */
function timed<T>(fn: () => T): [number, T] {
  const t0 = performance.now();
  const answer = fn();
  return [performance.now() - t0, answer];
}

/** The old scan, timed on its own connection, with its index made for the measure and dropped after. */
function oldScan(dbPath: string, now: string): { look: number; batch: number; found: number } {
  const db = new Database(dbPath);
  try {
    db.run("PRAGMA busy_timeout = 60000");
    db.run(`CREATE INDEX IF NOT EXISTS dossiers_active_due ON dossiers (stage_due_at) WHERE status = 'active'`);
    const [look, first] = timed(() => db.query(OLD_SCAN).all(now, 1));
    const [batch] = timed(() => db.query(OLD_SCAN).all(now, 200));
    db.run("DROP INDEX dossiers_active_due");
    return { look, batch, found: first.length };
  } finally {
    db.close();
  }
}

const dir = mkdtempSync(join(tmpdir(), "dossier-bench-overdue-"));
const cleanUp = () => rmSync(dir, { recursive: true, force: true });
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    cleanUp();
    process.exit(130);
  });
}

try {
  // The seed runs the CLI by one path: a two-line wrapper around the source (this branch's migrations).
  const exe = join(dir, "dossier-source");
  writeFileSync(exe, `#!/bin/sh\nexec ${process.execPath} ${join(ROOT, "src", "main.ts")} "$@"\n`);
  chmodSync(exe, 0o755);
  const keep = opt("keep") === undefined ? undefined : resolve(opt("keep")!);
  const dataDir = keep ?? join(dir, "data");
  const seedFile = keep && join(keep, "..", `${keep.split("/").pop()}.seed.json`);
  let s: SeedResult;
  if (seedFile && existsSync(seedFile) && (JSON.parse(readFileSync(seedFile, "utf8")) as SeedResult).n === N && existsSync(join(dataDir, "dossier.db"))) {
    s = JSON.parse(readFileSync(seedFile, "utf8"));
    log(`reusing ${dataDir}`);
    const db = new Database(s.dbPath);
    db.run("DELETE FROM dossier_history WHERE kind = 'task_created'");
    db.run("DELETE FROM tasks");
    db.run("UPDATE dossiers SET overdue_task_visit_id = NULL WHERE overdue_task_visit_id IS NOT NULL");
    db.run("PRAGMA wal_checkpoint(TRUNCATE)");
    db.close();
  } else {
    log(`seeding ${N.toLocaleString("en-US")} dossiers in ${dataDir}`);
    if (keep) mkdirSync(join(keep, ".."), { recursive: true });
    s = await seed({ exe, dataDir, n: N, log, progress: process.stderr.isTTY === true });
    log(`seeded in ${s.seconds.total.toFixed(1)} s`);
    if (seedFile) writeFileSync(seedFile, JSON.stringify(s));
  }

  const nowMs = Date.now();
  const now = new Date(nowMs);
  const at = now.toISOString();
  const census = new Database(s.dbPath, { readonly: true });
  const overdue = census
    .query<{ n: number }, [string]>(
      `SELECT count(*) AS n FROM dossiers d JOIN flows f ON f.id = d.flow_id WHERE d.status = 'active' AND d.stage_due_at <= ? AND f.overdue_tasks = 1`,
    )
    .get(at)!.n;
  census.close();
  log(`${overdue.toLocaleString("en-US")} active dossiers past their stage's deadline (of ${N.toLocaleString("en-US")})`);

  // 1. Before: the old scan on the fresh folder.
  const before = oldScan(s.dbPath, at);
  log(`before, no task made: the old scan's look (LIMIT 1) ${before.look.toFixed(1)} ms, one batch (LIMIT 200) ${before.batch.toFixed(1)} ms`);

  // 2. The catch-up, on the server's store.
  const ctx = openContext({ dataDir, groupCommit: true, config: { log: "off" }, now: () => now });
  const tasks = ctx.store.tasks as { overdueVisits: (...args: never[]) => unknown };
  const scan = tasks.overdueVisits.bind(tasks);
  const queries: number[] = [];
  tasks.overdueVisits = (...args: never[]) => {
    const [ms, answer] = timed(() => scan(...args));
    queries.push(ms);
    return answer;
  };
  const lags: number[] = [];
  let last = performance.now();
  const monitor = setInterval(() => {
    const t = performance.now();
    lags.push(t - last - 10);
    last = t;
  }, 10);

  const job = overdueTasksJob(ctx, BATCH === undefined ? {} : { batch: BATCH });
  const t0 = performance.now();
  let runs = 0;
  let firstRun = 0;
  for (;;) {
    const again = await job.run(now);
    runs++;
    if (runs === 1) firstRun = performance.now() - t0;
    if (again === null) break;
    await Bun.sleep(20); // the runner's AGAIN_MS
  }
  const catchUp = performance.now() - t0;
  clearInterval(monitor);
  const made = ctx.store.sqlite.query<{ n: number }, []>(`SELECT count(*) AS n FROM tasks`).get()!.n;
  const sorted = [...lags].sort((a, b) => a - b);
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
  const catchQueries = queries.splice(0);
  log(
    `catch-up: ${made.toLocaleString("en-US")} tasks in ${(catchUp / 1000).toFixed(1)} s, ${runs} runs (the first ${(firstRun / 1000).toFixed(2)} s), ` +
      `${catchQueries.length} scan queries (longest ${Math.max(...catchQueries).toFixed(2)} ms, median ${catchQueries.sort((a, b) => a - b)[catchQueries.length >> 1].toFixed(2)} ms)`,
  );
  log(`event-loop lag during the catch-up: longest ${Math.max(...lags).toFixed(1)} ms, p99 ${pct(0.99).toFixed(1)} ms, median ${pct(0.5).toFixed(1)} ms (${lags.length} ticks)`);

  // 3. The steady state: a new job (a restart), then the old one at the next scan.
  const tS = performance.now();
  await overdueTasksJob(ctx, {}).run(now);
  const steady = performance.now() - tS;
  const tS2 = performance.now();
  await job.run(new Date(nowMs + 30_000));
  const steadyNext = performance.now() - tS2;
  log(`steady state (all tasks made): a run ${steady.toFixed(2)} ms (a restart's), ${steadyNext.toFixed(2)} ms (the next scan's); its queries ${queries.map((q) => q.toFixed(2)).join(", ")} ms`);
  await ctx.store.close();
  const after = oldScan(s.dbPath, at);
  log(`the old scan with every task made (what each 30 s run cost before): look ${after.look.toFixed(0)} ms, found ${after.found}`);

  console.log(
    JSON.stringify({
      n: N,
      overdue,
      batch: BATCH ?? 25,
      before: { look_ms: before.look, batch_ms: before.batch, steady_look_ms: after.look },
      catch_up: { tasks: made, seconds: catchUp / 1000, runs, first_run_seconds: firstRun / 1000, longest_query_ms: Math.max(...catchQueries) },
      lag_ms: { max: Math.max(...lags), p99: pct(0.99), median: pct(0.5) },
      steady_ms: { restart: steady, next: steadyNext },
    }),
  );
} finally {
  cleanUp();
}
