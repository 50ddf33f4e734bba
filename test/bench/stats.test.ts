// The stats bench's code path (bench/stats.ts, issue 22's "stats for a flow of 100,000 dossiers"),
// at a tiny size: it seeds through the triggers of migration 0008 and measures the service's read.
import { Database } from "bun:sqlite";
import { expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { benchStats } from "../../bench/stats";
import { tempDir } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

test("bench/stats.ts seeds a sales flow with moves and outcomes and times its figures", async () => {
  const dataDir = tempDir();
  const result = await benchStats({ n: 300, rounds: 2, dataDir });
  expect(result.medianMs).toBeGreaterThan(0);
  const { stats } = result;
  const db = new Database(join(dataDir, "dossier.db"), { readonly: true });
  try {
    const active = db.query<{ n: number }, []>("SELECT count(*) AS n FROM dossiers WHERE status = 'active' AND current_stage_id IS NOT NULL").get()!.n;
    expect(stats.stages.reduce((sum, s) => sum + s.active, 0)).toBe(active);
    const moved = db.query<{ n: number }, []>("SELECT count(*) AS n FROM stage_visits WHERE left_at IS NOT NULL").get()!.n;
    expect(moved).toBeGreaterThan(100);
    expect(stats.won + stats.lost).toBeGreaterThan(0);
    expect(stats.pipeline?.map((p) => p.currency)).toEqual(["EUR", "GBP", "USD"]);
  } finally {
    db.close();
  }
});

test("bench/stats.ts --profile tells the time of a read spent in each statement of the stats query module", async () => {
  const { profile } = await benchStats({ n: 50, rounds: 2, dataDir: tempDir(), profile: true });
  expect(Object.keys(profile!).sort()).toEqual(["activeByStage", "entered", "flow", "outcomes", "stages", "staysLeft"]);
  expect(Object.values(profile!).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
});
