// Flows' and stages' query module (src/db/flows.ts, src/db/pg/flows.ts) on the store under test: the
// same answers on both engines (keys in the same order: the answers are serialised as they come),
// one organization's rows never another's. Dossiers have no query module on PostgreSQL yet: the
// tests insert them as rows (insertRows).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { NewFlow } from "../../src/db/flows";
import { ENGINES, insertRows, twoOrgs, type Engine, type EngineStore } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts); PostgreSQL starts once

const T0 = "2026-01-01T00:00:00.000Z";

type Stage = NewFlow["stages"][number];

const stage = (id: string, flowId: string, position: number, changes: Partial<Stage> = {}): Stage => ({
  id,
  flow_id: flowId,
  name: `Stage ${id}`,
  position,
  deadline_days: null,
  win_probability: 0,
  color: "#aabbcc",
  ...changes,
});

/** o1: "Hiring" f1 (candidate, default, stages a b c), "Sales" f2 (sales, default, stage s1), "Another" f3
 * (candidate, stages x); o2: "Hiring" f9 (candidate, default, stage z). */
const FLOWS: NewFlow[] = [
  {
    id: "f1",
    organization_id: "o1",
    name: "Hiring",
    type: "candidate",
    is_default: true,
    overdue_tasks: true,
    created_at: T0,
    // Written out of order: read back by position.
    stages: [stage("c", "f1", 3, { win_probability: 80 }), stage("a", "f1", 1, { deadline_days: 0 }), stage("b", "f1", 2, { deadline_days: 14, color: "#123" })],
  },
  { id: "f2", organization_id: "o1", name: "Sales", type: "sales", is_default: true, overdue_tasks: true, created_at: T0, stages: [stage("s1", "f2", 1, { win_probability: 25 })] },
  { id: "f3", organization_id: "o1", name: "Another", type: "candidate", is_default: false, overdue_tasks: true, created_at: T0, stages: [stage("x", "f3", 1)] },
  { id: "f9", organization_id: "o2", name: "Hiring", type: "candidate", is_default: true, overdue_tasks: true, created_at: T0, stages: [stage("z", "f9", 1)] },
];

/** A flow as read back: no created_at, its stages by position. */
const read = (flow: NewFlow) => {
  const { created_at: _, ...rest } = flow;
  return { ...rest, stages: [...flow.stages].sort((a, b) => a.position - b.position) };
};
const [F1, F2, F3, F9] = FLOWS.map(read);

async function withFlows(engine: Engine): Promise<EngineStore> {
  const s = await twoOrgs(engine);
  await s.write(async () => {
    for (const flow of FLOWS) await s.flows.insert(flow);
  });
  return s;
}

const positions = async (s: EngineStore, organizationId: string, flowId: string) =>
  (await s.flows.stagesOf(organizationId, flowId)).map((st) => `${st.id}${st.position}`).join(" ");

describe.each(ENGINES)("flows on %s", (engine) => {
  test("a flow is found with its stages by position in its organization only, keys in the order SQLite gives them", async () => {
    const s = await withFlows(engine);
    const f1 = await s.read(() => s.flows.byId("o1", "f1"));
    expect(f1).toEqual(F1);
    expect(JSON.stringify(f1)).toBe(JSON.stringify(F1));
    expect(await s.flows.byId("o2", "f9")).toEqual(F9);
    expect(await s.flows.byId("o2", "f1")).toBeNull();
    expect(await s.flows.byId("o1", "nope")).toBeNull();
    expect(await s.flows.exists("o1", "f2")).toBe(true);
    expect(await s.read(() => s.flows.exists("o2", "f2"))).toBe(false);
    expect(await s.flows.stagesOf("o1", "f1")).toEqual(F1.stages);
    expect(await s.flows.stagesOf("o2", "f1")).toEqual([]);
    expect(await s.flows.stageById("o1", "b")).toEqual(F1.stages[1]);
    expect(JSON.stringify(await s.flows.stageById("o1", "b"))).toBe(JSON.stringify(F1.stages[1]));
    expect(await s.flows.stageById("o2", "b")).toBeNull();
    expect(await s.flows.stageCount("o1", "f1")).toBe(3);
    expect(await s.flows.stageCount("o2", "f1")).toBe(0);
  });

  test("count and page: of a type or all, by name then id, limit and offset, each flow with its stages", async () => {
    const s = await withFlows(engine);
    expect(await s.read(() => s.flows.count("o1"))).toBe(3);
    expect(await s.flows.count("o1", "candidate")).toBe(2);
    expect(await s.flows.count("o1", "sales")).toBe(1);
    expect(await s.flows.count("o2")).toBe(1);
    expect(await s.flows.count("o3")).toBe(0);
    const all = await s.read(() => s.flows.page("o1", undefined, 10, 0));
    expect(all).toEqual([F3, F1, F2]);
    expect(JSON.stringify(all)).toBe(JSON.stringify([F3, F1, F2]));
    expect(await s.flows.page("o1", undefined, 2, 1)).toEqual([F1, F2]);
    expect(await s.flows.page("o1", undefined, 2, 5)).toEqual([]);
    expect(await s.flows.page("o1", "candidate", 10, 0)).toEqual([F3, F1]);
    expect(await s.flows.page("o1", "candidate", 1, 1)).toEqual([F1]);
    expect(await s.flows.page("o2", undefined, 10, 0)).toEqual([F9]);
    // Names tie: by id.
    await s.write(() => s.flows.insert({ ...FLOWS[2], id: "f0", stages: [stage("y", "f0", 1)] }));
    expect((await s.flows.page("o1", "candidate", 10, 0)).map((f) => f.id)).toEqual(["f0", "f3", "f1"]);
  });

  test("clearDefault, makeDefault and rename change the organization's flow only", async () => {
    const s = await withFlows(engine);
    await s.write(async () => {
      await s.flows.clearDefault("o1", "candidate");
      await s.flows.makeDefault("o1", "f3");
      await s.flows.rename("o1", "f3", "Renamed");
      // Named in the wrong organization: nothing changes.
      await s.flows.makeDefault("o2", "f1");
      await s.flows.rename("o2", "f1", "Nobody");
    });
    expect(await s.flows.byId("o1", "f1")).toEqual({ ...F1, is_default: false });
    expect(await s.flows.byId("o1", "f3")).toEqual({ ...F3, is_default: true, name: "Renamed" });
    expect(await s.flows.byId("o1", "f2")).toEqual(F2);
    expect(await s.flows.byId("o2", "f9")).toEqual(F9);
    await s.write(() => s.flows.clearDefault("o2", "sales")); // none of that type: nothing
    expect(await s.flows.byId("o2", "f9")).toEqual(F9);
  });

  test("stages: inserted, updated, placed, shifted both ways and deleted in their organization only", async () => {
    const s = await withFlows(engine);
    await s.write(async () => {
      await s.flows.insertStage("o1", stage("d", "f1", 4, { deadline_days: 3, win_probability: 90 }));
      await s.flows.updateStage("o1", stage("a", "f1", 1, { name: "First", deadline_days: 7, win_probability: 10, color: "#000000" }));
      await s.flows.updateStage("o2", stage("b", "f1", 2, { name: "Nobody" }));
    });
    expect(await s.flows.stageById("o1", "d")).toEqual(stage("d", "f1", 4, { deadline_days: 3, win_probability: 90 }));
    expect(await s.flows.stageById("o1", "a")).toEqual(stage("a", "f1", 1, { name: "First", deadline_days: 7, win_probability: 10, color: "#000000" }));
    expect((await s.flows.stageById("o1", "b"))?.name).toBe("Stage b");
    // Move d to the front: free its place, shift 1..3 up, put it at 1.
    await s.write(async () => {
      await s.flows.placeStage("o1", "d", 0);
      await s.flows.shiftStages("o1", "f1", 1, 3, 1);
      await s.flows.placeStage("o1", "d", 1);
    });
    expect(await positions(s, "o1", "f1")).toBe("d1 a2 b3 c4");
    // And back: shift 2..4 down.
    await s.write(async () => {
      await s.flows.placeStage("o1", "d", 0);
      await s.flows.shiftStages("o1", "f1", 2, 4, -1);
      await s.flows.placeStage("o1", "d", 4);
    });
    expect(await positions(s, "o1", "f1")).toBe("a1 b2 c3 d4");
    await s.write(async () => {
      await s.flows.shiftStages("o2", "f1", 1, 4, 1); // another organization's: nothing
      await s.flows.placeStage("o2", "a", 9);
      await s.flows.deleteStage("o2", "a");
    });
    expect(await positions(s, "o1", "f1")).toBe("a1 b2 c3 d4");
    await s.write(() => s.flows.deleteStage("o1", "d"));
    expect(await s.flows.stageById("o1", "d")).toBeNull();
    expect(await positions(s, "o1", "f1")).toBe("a1 b2 c3");
  });

  test("stageHoldsDossiers: any dossier of the organization in the stage, archived too", async () => {
    const s = await withFlows(engine);
    const dossier = { type: "candidate", flow_id: "f1", created_at: T0, updated_at: T0 };
    await insertRows(s, "dossiers", [
      { ...dossier, id: "d1", organization_id: "o1", name: "One", status: "archived", current_stage_id: "b" },
      { ...dossier, id: "d2", organization_id: "o2", name: "Two", status: "active", flow_id: "f9", current_stage_id: "z" },
    ]);
    expect(await s.read(() => s.flows.stageHoldsDossiers("o1", "b"))).toBe(true);
    expect(await s.flows.stageHoldsDossiers("o1", "a")).toBe(false);
    expect(await s.flows.stageHoldsDossiers("o2", "b")).toBe(false);
    expect(await s.flows.stageHoldsDossiers("o2", "z")).toBe(true);
  });
});
