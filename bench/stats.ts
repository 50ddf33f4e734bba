// `npm run bench -- --only stats` (or `bun bench/stats.ts`): GET /flows/{id}/stats's work (C18,
// issue 22: under 200 ms for a flow of 100,000 dossiers), measured in-process on a real data
// folder: the service's read, not HTTP (the other endpoints' runs measure that layer).
//
//   bun bench/stats.ts [--n 100000] [--rounds 20] [--data DIR] [--json] [--profile]
//   npm run bench -- --only stats [--stats-n 100000]     (the same, from bench/run.ts)
//
// The folder gets one organization (real migrations, default flows) and N dossiers in its default
// sales flow, created over the last 180 days, each then moved 0 to 4 times (mostly onward, some
// back, a few to no stage) and 30 % of them won or lost, all through UPDATEs of dossiers, so that
// the triggers of migration 0008 fill stage_visits and dossier_outcomes as the app's writes do.
// Then `rounds` reads of the default period (the last 90 days) after one unmeasured read.
// `--profile` also prints where a read's time goes: the mean ms per read spent in each method of
// the stats query module (src/db/stats.ts), i.e. in each kind of statement.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openContext } from "../src/context";
import { writeOrg } from "../src/services/orgs";
import { flowStats, period, type FlowStats } from "../src/services/stats";
import { seededRandom as random } from "../src/random";

const DAY = 86_400_000;
export const STATS_TARGET_MS = 200;

export interface StatsBenchResult {
  n: number;
  rounds: number;
  seedSeconds: number;
  medianMs: number;
  maxMs: number;
  targetMs: number;
  stats: FlowStats;
  /** With `profile`: mean ms per read in each method of the stats query module. */
  profile?: Record<string, number>;
}

export async function benchStats(options: { n: number; rounds: number; dataDir: string; profile?: boolean }): Promise<StatsBenchResult> {
  const now = Date.now();
  const ctx = openContext({ dataDir: options.dataDir, env: { DOSSIER_LOG: "off" } });
  try {
    const { sqlite } = ctx.store;
    const seedStarted = performance.now();
    const org = await ctx.store.write(() => writeOrg(ctx, { name: "Stats bench", plan: "growth" }));
    const flow = sqlite.query<{ id: string }, [string]>(`SELECT id FROM flows WHERE organization_id = ? AND type = 'sales' AND is_default = 1`).get(org.id)!;
    const stages = sqlite
      .query<{ id: string; deadline_days: number | null }, [string]>(`SELECT id, deadline_days FROM stages WHERE flow_id = ? ORDER BY position`)
      .all(flow.id);
    const insert = sqlite.query(
      `INSERT INTO dossiers (id, organization_id, flow_id, type, name, status, current_stage_id, stage_entered_at, stage_due_at, deal_size, deal_currency, created_at, updated_at)
       VALUES (?, ?, ?, 'sales', ?, 'active', ?, ?, ?, ?, ?, ?, ?)`,
    );
    const move = sqlite.query(`UPDATE dossiers SET current_stage_id = ?, stage_entered_at = ?, stage_due_at = ?, updated_at = ? WHERE id = ?`);
    const close = sqlite.query(`UPDATE dossiers SET status = ?, updated_at = ? WHERE id = ?`);
    const due = (at: number, stage: { deadline_days: number | null } | undefined) =>
      stage?.deadline_days == null ? null : new Date(at + stage.deadline_days * DAY).toISOString();
    const rand = random(22);
    const currencies = ["EUR", "USD", "GBP"];
    sqlite.transaction(() => {
      for (let i = 0; i < options.n; i++) {
        const id = crypto.randomUUID();
        let at = now - 180 * DAY + Math.floor((i * 180 * DAY) / options.n);
        let position = 0;
        const created = new Date(at).toISOString();
        insert.run(id, org.id, flow.id, `Deal ${i}`, stages[0].id, created, due(at, stages[0]), 1000 + Math.floor(rand() * 99_000), currencies[i % 3], created, created);
        const moves = Math.floor(rand() * 5);
        for (let m = 0; m < moves; m++) {
          at += 1 + Math.floor(rand() * 10 * DAY);
          if (at >= now) break;
          const roll = rand();
          if (roll < 0.03) position = -1;
          else position = roll < 0.8 ? Math.min(position + 1, stages.length - 1) : Math.floor(rand() * stages.length);
          const stage = stages[position];
          const when = new Date(at).toISOString();
          move.run(stage?.id ?? null, stage ? when : null, due(at, stage), when, id);
          if (position < 0) break;
        }
        const outcome = rand();
        if (outcome < 0.3) {
          at += 1 + Math.floor(rand() * 5 * DAY);
          if (at < now) close.run(outcome < 0.15 ? "won" : "lost", new Date(at).toISOString(), id);
        }
      }
    }).immediate();
    sqlite.run("ANALYZE");
    const seedSeconds = (performance.now() - seedStarted) / 1000;

    const asked = period(ctx, {});
    let stats = (await flowStats(ctx, org.id, flow.id, asked))!; // unmeasured: the pages come into the cache
    const profile = options.profile ? timeEachMethod(ctx.store.stats) : undefined;
    const times: number[] = [];
    for (let r = 0; r < options.rounds; r++) {
      const started = performance.now();
      stats = (await flowStats(ctx, org.id, flow.id, asked))!;
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const mid = Math.floor(times.length / 2);
    const medianMs = times.length % 2 ? times[mid] : (times[mid - 1] + times[mid]) / 2;
    const perRead = profile && Object.fromEntries(Object.entries(profile).map(([name, ms]) => [name, ms / options.rounds]));
    return { n: options.n, rounds: options.rounds, seedSeconds, medianMs, maxMs: times[times.length - 1], targetMs: STATS_TARGET_MS, stats, profile: perRead };
  } finally {
    await ctx.store.close();
  }
}

/** Wraps each method of a query module to add up the ms spent in it; returns the running totals. */
function timeEachMethod(queries: Record<string, unknown>): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const [name, method] of Object.entries(queries)) {
    if (typeof method !== "function") continue;
    totals[name] = 0;
    queries[name] = (...args: unknown[]) => {
      const started = performance.now();
      try {
        return method(...args);
      } finally {
        totals[name] += performance.now() - started;
      }
    };
  }
  return totals;
}

/** Seeds a folder (a temporary one unless `data` is given), measures, and prints one line for a
 * person or the result as JSON. */
export async function runStatsBench(options: { n: number; rounds: number; data?: string; json?: boolean; profile?: boolean }): Promise<StatsBenchResult> {
  const dataDir = options.data ?? mkdtempSync(join(tmpdir(), "dossier-bench-stats-"));
  try {
    const result = await benchStats({ n: options.n, rounds: options.rounds, dataDir, profile: options.profile });
    if (options.json) console.log(JSON.stringify({ ...result, stats: undefined }));
    else {
      const verdict = result.medianMs < STATS_TARGET_MS ? "meets" : "MISSES";
      console.log(
        `stats: GET /flows/{id}/stats work for a flow of ${options.n} dossiers: median ${result.medianMs.toFixed(1)} ms, ` +
          `max ${result.maxMs.toFixed(1)} ms over ${options.rounds} rounds (${verdict} the target of < ${STATS_TARGET_MS} ms; seeded in ${result.seedSeconds.toFixed(1)} s)`,
      );
      if (result.profile) {
        const parts = Object.entries(result.profile).map(([name, ms]) => `${name} ${ms.toFixed(1)} ms`);
        console.log(`  per read, in the statements of src/db/stats.ts: ${parts.join(", ")}`);
      }
    }
    return result;
  } finally {
    if (options.data === undefined) rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const argv = process.argv.slice(2);
  const opt = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  await runStatsBench({
    n: Number(opt("n") ?? "100000"),
    rounds: Number(opt("rounds") ?? "20"),
    data: opt("data"),
    json: argv.includes("--json"),
    profile: argv.includes("--profile"),
  });
}
