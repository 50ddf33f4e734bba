// What the figures of GET /flows/{id}/stats (C18) read since migration 0011: dossier_outcomes keeps
// only the outcomes that still stand (checked here against a recount over dossiers and the test's
// own log, through moves, archiving, status changes back and forth and a stage deleted), and every
// statement of src/db/stats.ts reads an index alone.
import { Database } from "bun:sqlite";
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { openContext } from "../../src/context";
import { embeddedMigrations, migrate } from "../../src/db/migrate";
import { statsQueries } from "../../src/db/stats";
import { updateDossier } from "../../src/services/dossiers";
import { flowStats } from "../../src/services/stats";
import { call, makeApp, makeOrg, onCleanup, tempDir } from "../helpers";
import { seededRandom as random } from "../../src/random";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const DAY = 86_400_000;
const HOUR = 3_600_000;

async function ok(answer: Promise<{ status: number; json: any; text: string }>) {
  const got = await answer;
  if (got.status >= 300) throw new Error(`${got.status} ${got.text}`);
  return got.json?.data;
}

let time = Date.parse("2026-03-01T08:00:00.000Z");
const app = makeApp({ now: () => new Date(time) });
const sql = app.dossier.store.sqlite;

describe("C18, C20 'Stats edge cases': the figures' rows against a recount after moves, archiving, status changes and a stage deleted", async () => {
  const org = await makeOrg(app, { rateLimit: 1_000_000 });
  const flows = (await ok(call(app, "GET", "/flows?type=sales", { key: org.key }))) as { id: string; is_default: boolean }[];
  const flow = flows.find((f) => f.is_default)!;
  const doomed = await ok(call(app, "POST", `/flows/${flow.id}/stages`, { key: org.key, body: { name: "Doomed", win_probability: 40 } }));
  const stages = ((await ok(call(app, "GET", `/flows/${flow.id}/stages`, { key: org.key }))) as { id: string }[]).map((s) => s.id);
  const rand = random(11);
  const pick = <T>(items: T[]) => items[Math.floor(rand() * items.length)];
  const status = new Map<string, string>();
  /** Per dossier, the last time its status became won or lost, and which. */
  const became = new Map<string, { status: string; at: string }>();
  const ids: string[] = [];

  const setStatus = async (id: string, next: string) => {
    if (next === "archived" && rand() < 0.5) await ok(call(app, "DELETE", `/dossiers/${id}`, { key: org.key }));
    else await ok(call(app, "PATCH", `/dossiers/${id}`, { key: org.key, body: { status: next } }));
    if (status.get(id) !== next && (next === "won" || next === "lost")) became.set(id, { status: next, at: new Date(time).toISOString() });
    status.set(id, next);
  };

  for (let i = 0; i < 30; i++) {
    const d = await ok(call(app, "POST", "/dossiers", { key: org.key, body: { type: "sales", name: `Deal ${i}`, deal_size: 1000 + i, deal_currency: "EUR" } }));
    ids.push(d.id);
    status.set(d.id, "active");
    time += 2 * HOUR;
  }
  for (let step = 0; step < 300; step++) {
    time += Math.floor(rand() * 6 * HOUR) + 1;
    const id = pick(ids);
    if (step === 200) {
      // Everyone off the doomed stage, then it goes.
      for (const holder of ids) {
        const d = await ok(call(app, "GET", `/dossiers/${holder}`, { key: org.key }));
        if (d.current_stage_id === doomed.id) await ok(call(app, "PATCH", `/dossiers/${holder}`, { key: org.key, body: { current_stage_id: stages[0] } }));
      }
      await ok(call(app, "DELETE", `/stages/${doomed.id}`, { key: org.key }));
      stages.splice(stages.indexOf(doomed.id), 1);
    } else if (rand() < 0.5) {
      await ok(call(app, "PATCH", `/dossiers/${id}`, { key: org.key, body: { current_stage_id: rand() < 0.05 ? null : pick(stages) } }));
    } else {
      await setStatus(id, pick(["won", "lost", "active", "archived", "won", "active"]));
    }
  }

  test("dossier_outcomes holds exactly the dossiers now won or lost, each with its flow and the last time it became so", () => {
    const rows = sql
      .query<{ dossier_id: string; flow_id: string; status: string; at: string }, [string]>(
        `SELECT dossier_id, flow_id, status, at FROM dossier_outcomes WHERE organization_id = ? ORDER BY dossier_id`,
      )
      .all(org.id);
    const recount = sql
      .query<{ dossier_id: string; flow_id: string; status: string }, [string]>(
        `SELECT id AS dossier_id, flow_id, status FROM dossiers WHERE organization_id = ? AND status IN ('won', 'lost') ORDER BY id`,
      )
      .all(org.id);
    expect(rows.map(({ at, ...row }) => row)).toEqual(recount);
    expect(rows.map((row) => [row.dossier_id, row.status, row.at])).toEqual(recount.map((d) => [d.dossier_id, became.get(d.dossier_id)!.status, became.get(d.dossier_id)!.at]));
    // The run did reopen and archive won and lost dossiers, so rows were removed on the way.
    expect(recount.length).toBeGreaterThan(0);
    expect([...became.keys()].filter((id) => !["won", "lost"].includes(status.get(id)!)).length).toBeGreaterThan(0);
  });

  test("won and lost over several periods equal the log's count of dossiers now so whose last change to it falls in the period", async () => {
    const start = Date.parse("2026-03-01T00:00:00.000Z");
    for (let i = 0; i < 20; i++) {
      const a = start + Math.floor(rand() * 40 * DAY);
      const b = start + Math.floor(rand() * 40 * DAY);
      const [from, to] = [new Date(Math.min(a, b)).toISOString(), new Date(Math.max(a, b)).toISOString()];
      const count = (which: string) => [...became].filter(([id, o]) => status.get(id) === which && o.status === which && o.at >= from && o.at <= to).length;
      const stats = (await flowStats(app.dossier, org.id, flow.id, { from, to }))!;
      expect([from, to, stats.won, stats.lost]).toEqual([from, to, count("won"), count("lost")]);
    }
  });

  test("left and went_on, with stays that went to the deleted stage, equal the definition's COUNT over the visits joined to the stages as they are now", async () => {
    const from = "2026-03-01T00:00:00.000Z";
    const to = new Date(time).toISOString();
    const stats = (await flowStats(app.dossier, org.id, flow.id, { from, to }))!;
    const toDeleted = sql.query<{ n: number }, [string, string]>(`SELECT count(*) AS n FROM stage_visits WHERE organization_id = ? AND next_stage_id = ?`).get(org.id, doomed.id)!.n;
    expect(toDeleted).toBeGreaterThan(0);
    for (const s of stats.stages) {
      const counted = sql
        .query<{ left: number; went_on: number }, [number, string, string, string, string]>(
          `SELECT count(*) AS "left", coalesce(sum(s.position > ?), 0) AS went_on FROM stage_visits v LEFT JOIN stages s ON s.id = v.next_stage_id
            WHERE v.organization_id = ? AND v.stage_id = ? AND v.left_at BETWEEN ? AND ? AND v.next_stage_id IS NOT NULL`,
        )
        .get(s.position, org.id, s.stage_id, from, to)!;
      expect([s.stage_id, s.left, s.went_on]).toEqual([s.stage_id, counted.left, counted.went_on]);
    }
  });

  test("the pipeline's active dossiers, read from the partial index, equal a COUNT/SUM over every dossier of the flow", async () => {
    const stats = (await flowStats(app.dossier, org.id, flow.id, { from: "2026-03-01T00:00:00.000Z", to: new Date(time).toISOString() }))!;
    const counted = sql
      .query<{ stage_id: string; n: number }, [string, string]>(
        `SELECT current_stage_id AS stage_id, count(*) AS n FROM dossiers NOT INDEXED WHERE organization_id = ? AND flow_id = ? AND status = 'active' AND current_stage_id IS NOT NULL GROUP BY current_stage_id`,
      )
      .all(org.id, flow.id);
    expect(stats.stages.filter((s) => s.active > 0).map((s) => [s.stage_id, s.active]).sort()).toEqual(counted.map((c) => [c.stage_id, c.n]).sort());
    const open = sql
      .query<{ v: number }, [string, string]>(`SELECT sum(deal_size) AS v FROM dossiers NOT INDEXED WHERE organization_id = ? AND flow_id = ? AND status = 'active'`)
      .get(org.id, flow.id)!.v;
    expect(stats.pipeline).toEqual([expect.objectContaining({ currency: "EUR", open_value: open })]);
  });
});

test("C18: every statement of the figures reads an index alone (no scan of a table, no look-up of rows, no sort)", async () => {
  const org = await makeOrg(app);
  const flows = (await ok(call(app, "GET", "/flows?type=sales", { key: org.key }))) as { id: string; is_default: boolean }[];
  const flow = flows.find((f) => f.is_default)!;
  const seen: { sql: string; params: unknown[] }[] = [];
  // The store's own connection and statements; only the text and the parameters are noted down.
  const noting = {
    query(text: string) {
      const statement = sql.query(text);
      const note = (run: (...params: any[]) => unknown) => (...params: unknown[]) => (seen.push({ sql: text, params }), run.apply(statement, params));
      return { get: note(statement.get), all: note(statement.all), iterate: note(statement.iterate) };
    },
  };
  const q = statsQueries({ ...app.dossier.store, sqlite: noting } as unknown as Parameters<typeof statsQueries>[0]);
  const [first] = q.stages(org.id, flow.id);
  const [from, to] = ["2026-01-01T00:00:00.000Z", "2026-12-31T00:00:00.000Z"];
  q.activeByStage(org.id, flow.id, to);
  q.entered(org.id, first.id, from, to);
  q.staysLeft(org.id, flow.id, first.id, first.position, from, to);
  q.outcomes(org.id, flow.id, from, to);
  expect(seen.length).toBe(5);
  for (const { sql: text, params } of seen) {
    const plan = sql
      .query<{ detail: string }, any[]>(`EXPLAIN QUERY PLAN ${text}`)
      .all(...(params as any[]))
      .map((row) => row.detail);
    const bigTables = plan.filter((line) => /\b(dossiers|d|stage_visits|v|dossier_outcomes)\b USING/.test(line));
    expect([text, plan.filter((line) => /^SCAN (?!CONSTANT ROW)/.test(line))]).toEqual([text, []]);
    expect([text, bigTables.filter((line) => !line.includes("COVERING INDEX"))]).toEqual([text, []]);
    expect([text, plan.filter((line) => line.startsWith("USE TEMP B-TREE"))]).toEqual([text, []]);
  }
});

test("migration 0011 on an older folder: outcomes that no longer stand go, the others stay; a reopening from then on removes its row", async () => {
  const STATS = embeddedMigrations.findIndex((m) => m.tag === "0011_stats_read_paths");
  expect(STATS).toBeGreaterThan(0);
  const AT = "2026-01-01T00:00:00.000Z";
  const data = tempDir();
  const older = new Database(join(data, "dossier.db"));
  migrate(older, embeddedMigrations.slice(0, STATS));
  older.run(`INSERT INTO organizations (id, name, plan, rate_limit, created_at) VALUES ('o1', 'Kept', 'growth', 600, '${AT}')`);
  older.run(`INSERT INTO flows (id, organization_id, name, type, is_default, created_at) VALUES ('f1', 'o1', 'Sales', 'sales', 1, '${AT}')`);
  older.run(`INSERT INTO stages (id, flow_id, organization_id, name, position, win_probability, color) VALUES ('s1', 'f1', 'o1', 's1', 1, 50, '#000000')`);
  const insert = older.query(
    `INSERT INTO dossiers (id, organization_id, flow_id, type, name, status, current_stage_id, created_at, updated_at) VALUES (?, 'o1', 'f1', 'sales', ?, 'active', 's1', ?, ?)`,
  );
  const close = older.query(`UPDATE dossiers SET status = ?, updated_at = ? WHERE id = ?`);
  for (const id of ["reopened", "archived", "won", "lost", "won-then-lost"]) insert.run(id, id, AT, AT);
  for (const [id, next, day] of [
    ["reopened", "won", 2], ["reopened", "active", 3],
    ["archived", "lost", 2], ["archived", "archived", 3],
    ["won", "won", 4],
    ["lost", "lost", 5],
    ["won-then-lost", "won", 2], ["won-then-lost", "lost", 6],
  ] as const) close.run(next, `2026-01-0${day}T00:00:00.000Z`, id);
  expect(older.query(`SELECT count(*) AS n FROM dossier_outcomes`).get()).toEqual({ n: 5 });
  older.close();

  const ctx = openContext({ dataDir: data, config: { log: "off" }, now: () => new Date("2026-01-10T00:00:00.000Z") });
  onCleanup(() => ctx.store.close());
  const outcomes = () => ctx.store.sqlite.query(`SELECT dossier_id, status, at FROM dossier_outcomes ORDER BY dossier_id`).all();
  expect(outcomes()).toEqual([
    { dossier_id: "lost", status: "lost", at: "2026-01-05T00:00:00.000Z" },
    { dossier_id: "won", status: "won", at: "2026-01-04T00:00:00.000Z" },
    { dossier_id: "won-then-lost", status: "lost", at: "2026-01-06T00:00:00.000Z" },
  ]);
  expect((await flowStats(ctx, "o1", "f1", { from: AT, to: "2026-01-10T00:00:00.000Z" }))).toMatchObject({ won: 1, lost: 2 });

  await updateDossier(ctx, "o1", "won", { status: "active" });
  expect(outcomes()).toHaveLength(2);
  expect((await flowStats(ctx, "o1", "f1", { from: AT, to: "2026-01-10T00:00:00.000Z" }))).toMatchObject({ won: 0, lost: 2, win_rate: 0 });
});
