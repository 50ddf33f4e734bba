// C18 on a data folder made before migration 0008_history: each dossier starts with its current
// stay (from stage_entered_at) and, when won or lost, its outcome; moves from then on are recorded.
import { Database } from "bun:sqlite";
import { expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { openContext } from "../../src/context";
import { embeddedMigrations, migrate } from "../../src/db/migrate";
import { dossierHistory } from "../../src/services/history";
import { flowStats } from "../../src/services/stats";
import { updateDossier } from "../../src/services/dossiers";
import { onCleanup, tempDir } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const HISTORY = embeddedMigrations.findIndex((m) => m.tag === "0008_history");
const AT = "2026-01-01T00:00:00.000Z";
const LATER = "2026-01-05T00:00:00.000Z";

test("a folder from before the history gets each dossier's current stay and outcome, and records moves from then on", async () => {
  expect(HISTORY).toBeGreaterThan(0);
  const data = tempDir();
  const older = new Database(join(data, "dossier.db"));
  migrate(older, embeddedMigrations.slice(0, HISTORY));
  older.run(`INSERT INTO organizations (id, name, plan, rate_limit, created_at) VALUES ('o1', 'Kept', 'growth', 600, '${AT}')`);
  older.run(`INSERT INTO flows (id, organization_id, name, type, is_default, created_at) VALUES ('f1', 'o1', 'Sales', 'sales', 1, '${AT}')`);
  for (const [id, position] of [["s1", 1], ["s2", 2]] as const) {
    older.run(`INSERT INTO stages (id, flow_id, organization_id, name, position, win_probability, color) VALUES ('${id}', 'f1', 'o1', '${id}', ${position}, 50, '#000000')`);
  }
  const insert = older.query(
    `INSERT INTO dossiers (id, organization_id, flow_id, type, name, status, current_stage_id, stage_entered_at, created_at, updated_at)
     VALUES (?, 'o1', 'f1', 'sales', ?, ?, 's1', ?, ?, ?)`,
  );
  insert.run("d1", "Open", "active", LATER, AT, LATER);
  insert.run("d2", "Won", "won", AT, AT, LATER);
  older.close();

  let now = new Date("2026-01-10T00:00:00.000Z");
  const ctx = openContext({ dataDir: data, config: { log: "off" }, now: () => now });
  onCleanup(() => ctx.store.close());
  expect((await dossierHistory(ctx, "o1", "d1"))).toEqual({ data: [], meta: { stages: [{ stage_id: "s1", entered_at: LATER, left_at: null, days: 5 }] } });
  const asked = { from: AT, to: now.toISOString() };
  expect((await flowStats(ctx, "o1", "f1", asked))).toMatchObject({ won: 1, lost: 0, win_rate: 1 });

  await updateDossier(ctx, "o1", "d1", { current_stage_id: "s2" });
  now = new Date("2026-01-11T00:00:00.000Z");
  expect((await dossierHistory(ctx, "o1", "d1")).meta.stages).toEqual([
    { stage_id: "s1", entered_at: LATER, left_at: "2026-01-10T00:00:00.000Z", days: 5 },
    { stage_id: "s2", entered_at: "2026-01-10T00:00:00.000Z", left_at: null, days: 1 },
  ]);
  expect((await flowStats(ctx, "o1", "f1", { from: AT, to: now.toISOString() }))!.stages[0]).toMatchObject({ left: 1, went_on: 1, median_days: 5 });
});
