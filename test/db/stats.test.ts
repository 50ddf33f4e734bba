// The flow figures' query module (src/db/stats.ts, src/db/pg/stats.ts) on the store under test: the
// same answers on both engines (sums of deal sizes to the last bit, stays' lengths in days), one
// organization's rows never another's. Dossiers have no query module on PostgreSQL yet: the tests
// insert them, their stays and outcomes as rows (insertRows).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { sqliteSum } from "../../src/db/pg/stats";
import type { ActiveGroup } from "../../src/db/stats";
import { ENGINES, insertRows, twoOrgs, type Engine, type EngineStore } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts); PostgreSQL starts once

const T0 = "2026-01-01T00:00:00.000Z";
const NOW = "2026-02-01T00:00:00.000Z";
const FROM = "2026-01-10T00:00:00.000Z";
const TO = "2026-01-20T00:00:00.000Z";

/** o1: sales flow f1 (stages a 20 %, b 50 %, c 100 %); o2: flow f9 (stage z). No dossier has a stage
 * at insert, so that the stays are the test's rows alone. */
async function withFlows(engine: Engine): Promise<EngineStore> {
  const s = await twoOrgs(engine);
  const st = (id: string, flowId: string, position: number, win: number) => ({ id, flow_id: flowId, name: `Stage ${id}`, position, deadline_days: null, win_probability: win, color: "#fff" });
  await s.write(async () => {
    await s.flows.insert({ id: "f1", organization_id: "o1", name: "Sales", type: "sales", is_default: true, overdue_tasks: true, created_at: T0, stages: [st("b", "f1", 2, 50), st("a", "f1", 1, 20), st("c", "f1", 3, 100)] });
    await s.flows.insert({ id: "f9", organization_id: "o2", name: "Sales", type: "sales", is_default: true, overdue_tasks: true, created_at: T0, stages: [st("z", "f9", 1, 10)] });
  });
  return s;
}

let n = 0;
const dossier = (organizationId: string, flowId: string, changes: Record<string, string | number | null>) => ({
  id: `d${++n}`,
  organization_id: organizationId,
  flow_id: flowId,
  type: "sales",
  name: `Deal ${n}`,
  status: "active",
  created_at: T0,
  updated_at: T0,
  ...changes,
});

const byGroup = (rows: ActiveGroup[]) => [...rows].sort((x, y) => `${x.stage_id}|${x.currency}`.localeCompare(`${y.stage_id}|${y.currency}`));

describe.each(ENGINES)("flow figures on %s", (engine) => {
  test("flow and stages: the organization's flow, its stages by position", async () => {
    const s = await withFlows(engine);
    expect(await s.read(() => s.stats.flow("o1", "f1"))).toEqual({ id: "f1", type: "sales" });
    expect(await s.stats.flow("o2", "f1")).toBeNull();
    const stages = await s.stats.stages("o1", "f1");
    expect(stages).toEqual([
      { id: "a", name: "Stage a", position: 1, win_probability: 20 },
      { id: "b", name: "Stage b", position: 2, win_probability: 50 },
      { id: "c", name: "Stage c", position: 3, win_probability: 100 },
    ]);
    expect(JSON.stringify(stages[0])).toBe('{"id":"a","name":"Stage a","position":1,"win_probability":20}');
    expect(await s.stats.stages("o2", "f1")).toEqual([]);
  });

  test("activeByStage: active dossiers per stage and currency, overdue at or before now, sums to the last bit, nulls without deal sizes", async () => {
    const s = await withFlows(engine);
    // current_stage_id set after insert would be a move: the stays triggers do not matter here.
    await insertRows(s, "dossiers", [
      // a/EUR: 0.1 + 0.2 + 0.3 (a sum that adds as it goes gives 0.6000000000000001), one due at now, one after.
      dossier("o1", "f1", { current_stage_id: "a", deal_currency: "EUR", deal_size: 0.1, stage_due_at: NOW }),
      dossier("o1", "f1", { current_stage_id: "a", deal_currency: "EUR", deal_size: 0.2, stage_due_at: "2026-02-01T00:00:00.001Z" }),
      dossier("o1", "f1", { current_stage_id: "a", deal_currency: "EUR", deal_size: 0.3, stage_due_at: "2026-01-01T00:00:00.000Z" }),
      // b/USD: 12500.5 and 3333.33 at 50 %.
      dossier("o1", "f1", { current_stage_id: "b", deal_currency: "USD", deal_size: 12500.5 }),
      dossier("o1", "f1", { current_stage_id: "b", deal_currency: "USD", deal_size: 3333.33 }),
      // b without a deal size or currency.
      dossier("o1", "f1", { current_stage_id: "b" }),
      // No stage.
      dossier("o1", "f1", { deal_currency: "EUR", deal_size: 7 }),
      // Not counted: won, archived, another flow's, another organization's.
      dossier("o1", "f1", { current_stage_id: "a", deal_currency: "EUR", deal_size: 1000, status: "won" }),
      dossier("o1", "f1", { current_stage_id: "a", deal_currency: "EUR", deal_size: 1000, status: "archived" }),
      dossier("o2", "f9", { current_stage_id: "z", deal_currency: "EUR", deal_size: 1000 }),
    ]);
    const groups = byGroup(await s.read(() => s.stats.activeByStage("o1", "f1", NOW)));
    expect(groups).toEqual(
      byGroup([
        { stage_id: "a", currency: "EUR", active: 3, overdue: 2, open_value: 0.6, weighted_value: 0.12 },
        { stage_id: "b", currency: "USD", active: 2, overdue: 0, open_value: 15833.83, weighted_value: 7916.915 },
        { stage_id: "b", currency: null, active: 1, overdue: 0, open_value: null, weighted_value: null },
        { stage_id: null, currency: "EUR", active: 1, overdue: 0, open_value: 7, weighted_value: 0 },
      ]),
    );
    expect(Object.keys(groups[0])).toEqual(["stage_id", "currency", "active", "overdue", "open_value", "weighted_value"]);
    expect(await s.stats.activeByStage("o2", "f1", NOW)).toEqual([]);
    expect(await s.stats.activeByStage("o2", "f9", NOW)).toEqual([{ stage_id: "z", currency: "EUR", active: 1, overdue: 0, open_value: 1000, weighted_value: 100 }]);
  });

  test("activeByStage on many amounts: the sums SQLite's compensated sum() gives, to the last bit, over the index's order", async () => {
    const s = await withFlows(engine);
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    const rows = Array.from({ length: 300 }, () => ({
      due: random() < 0.3 ? null : `2026-0${1 + Math.floor(random() * 9)}-01T00:00:00.000Z`,
      size: Math.round(random() * [1, 100, 10_000, 1_000_000][Math.floor(random() * 4)] * 100) / 100,
    }));
    await insertRows(s, "dossiers", rows.map((r) => dossier("o1", "f1", { current_stage_id: "b", deal_currency: "EUR", deal_size: r.size, stage_due_at: r.due })));
    // SQLite's order: stage_due_at (NULL first), then deal_size.
    const sizes = [...rows]
      .sort((x, y) => (x.due === y.due ? x.size - y.size : x.due === null ? -1 : y.due === null ? 1 : x.due < y.due ? -1 : 1))
      .map((r) => r.size);
    const [group] = await s.read(() => s.stats.activeByStage("o1", "f1", NOW));
    expect(group.active).toBe(300);
    expect(group.open_value).toBe(sqliteSum(sizes)!);
    expect(group.weighted_value).toBe(sqliteSum(sizes.map((x) => (x * 50) / 100))!);
    // Adding as one goes would not do: the figures depend on the way the sum is taken.
    expect(sizes.reduce((a, b) => a + b, 0) === group.open_value && sizes.map((x) => (x * 50) / 100).reduce((a, b) => a + b, 0) === group.weighted_value).toBe(false);
  });

  test("entered, staysLeft and outcomes: within the period, ends included, the organization's only", async () => {
    const s = await withFlows(engine);
    const stay = (id: number, stageId: string, enteredAt: string, leftAt: string | null, next: string | null, organizationId = "o1") => ({
      id,
      organization_id: organizationId,
      flow_id: organizationId === "o1" ? "f1" : "f9",
      dossier_id: `d${id}`,
      stage_id: stageId,
      entered_at: enteredAt,
      left_at: leftAt,
      next_stage_id: next,
    });
    await insertRows(s, "stage_visits", [
      stay(1, "b", FROM, "2026-01-11T12:00:00.000Z", "c"), // 1.5 days, went on
      stay(2, "b", "2026-01-09T23:59:59.999Z", TO, "a"), // 10 days and 1 ms, went back
      stay(3, "b", TO, null, null), // entered at the period's end, still there
      stay(4, "b", "2026-01-20T00:00:00.001Z", "2026-01-21T00:00:00.000Z", "c"), // after the period
      stay(5, "b", "2026-01-12T00:00:00.000Z", "2026-01-12T08:00:00.333Z", null), // left by no move (the dossier went)
      stay(6, "b", "2026-01-12T00:00:00.000Z", "2026-01-12T00:00:00.000Z", "b"), // 0 days, back to itself
      stay(7, "b", FROM, "2026-01-11T00:00:00.000Z", "c", "o2"), // another organization's
    ]);
    expect(await s.read(() => s.stats.entered("o1", "b", FROM, TO))).toBe(4);
    expect(await s.stats.entered("o1", "a", FROM, TO)).toBe(0);
    expect(await s.stats.entered("o2", "b", FROM, TO)).toBe(1);
    const left = await s.stats.staysLeft("o1", "f1", "b", 2, FROM, TO);
    expect(left.days).toBeInstanceOf(Float64Array);
    expect([...left.days].sort((x, y) => x - y)).toEqual([0, 1.5, 10 + 1 / 86_400_000]);
    expect(left.went_on).toBe(1);
    const none = await s.stats.staysLeft("o1", "f1", "a", 1, FROM, TO);
    expect([...none.days]).toEqual([]);
    expect(none.went_on).toBe(0);
    const other = await s.stats.staysLeft("o2", "f1", "b", 2, FROM, TO);
    expect([...other.days]).toEqual([1]);
    expect(other.went_on).toBe(0); // o1's stage c is not o2's flow's

    await insertRows(s, "dossier_outcomes", [
      { dossier_id: "w1", organization_id: "o1", flow_id: "f1", status: "won", at: FROM },
      { dossier_id: "w2", organization_id: "o1", flow_id: "f1", status: "won", at: TO },
      { dossier_id: "w3", organization_id: "o1", flow_id: "f1", status: "won", at: "2026-01-20T00:00:00.001Z" },
      { dossier_id: "l1", organization_id: "o1", flow_id: "f1", status: "lost", at: "2026-01-15T00:00:00.000Z" },
      { dossier_id: "w9", organization_id: "o2", flow_id: "f1", status: "won", at: FROM },
    ]);
    expect(await s.read(() => s.stats.outcomes("o1", "f1", FROM, TO))).toEqual({ won: 2, lost: 1 });
    expect(await s.stats.outcomes("o2", "f1", FROM, TO)).toEqual({ won: 1, lost: 0 });
    expect(await s.stats.outcomes("o2", "f9", FROM, TO)).toEqual({ won: 0, lost: 0 });
  });
});
