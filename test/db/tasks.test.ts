// Tasks' query module (src/db/tasks.ts, src/db/pg/tasks.ts) on the store under test: the same answers
// on both engines (the same JSON: keys in the same order, the same ties), one organization's tasks
// never another's, but in the job runner's scans across organizations (overdue stage visits,
// reminders due, the next reminder). Dossiers, contacts and members are inserted as rows
// (insertRows); the stage visits are the triggers'.
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { NewFlow } from "../../src/db/flows";
import type { OverdueCursor, TaskFilter, TaskRecord } from "../../src/db/tasks";
import { ENGINES, columnOf, insertRows, twoOrgs, type Engine, type EngineStore } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts); PostgreSQL starts once

// A PostgreSQL store keeps its pool of 10 connections open until it is closed, and the test server
// takes 300: each test's stores are closed after it (closing again after the file is harmless).
const opened: EngineStore[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});

const T0 = "2026-01-01T00:00:00.000Z";
const T1 = "2026-01-02T00:00:00.000Z";
/** The `now` of the lists' overdue filter and of the scans. */
const NOW = "2026-02-01T00:00:00.000Z";

/** A task of o1, open, with nothing set but what `changes` gives; keys in the order the store gives them. */
const task = (id: string, changes: Partial<TaskRecord> = {}): TaskRecord => {
  const t = {
    id, organization_id: "o1", dossier_id: null, contact_id: null, title: `Task ${id}`, notes: null, due_at: null, remind_at: null,
    assigned_to: null, status: "open" as const, done_at: null, created_at: T0, updated_at: T0, created_by: { kind: "member" as const, id: "m1" },
    ...changes,
  };
  return {
    id: t.id, organization_id: t.organization_id, dossier_id: t.dossier_id, contact_id: t.contact_id, title: t.title, notes: t.notes,
    due_at: t.due_at, remind_at: t.remind_at, assigned_to: t.assigned_to, status: t.status, done_at: t.done_at, created_at: t.created_at,
    updated_at: t.updated_at, created_by: t.created_by,
  };
};

const stage = (id: string, flowId: string, position: number): NewFlow["stages"][number] => ({
  id, flow_id: flowId, name: `Stage ${id}`, position, deadline_days: 7, win_probability: 0, color: "#aabbcc",
});

/** o1: flow f1 (stages a, b) and f2 (stage s, overdue tasks off), members m1 and m2 (disabled),
 * contact c1, dossier d0 (no stage); o2: flow f9 (stage z), member m9, contact c9, dossier d90. */
async function withOrgs(engine: Engine): Promise<EngineStore> {
  const s = await twoOrgs(engine);
  opened.push(s);
  const flow = { type: "candidate" as const, is_default: true, overdue_tasks: true, created_at: T0 };
  await s.write(async () => {
    await s.flows.insert({ ...flow, id: "f1", organization_id: "o1", name: "Hiring", stages: [stage("a", "f1", 1), stage("b", "f1", 2)] });
    await s.flows.insert({ ...flow, id: "f2", organization_id: "o1", name: "Quiet", is_default: false, stages: [stage("s", "f2", 1)] });
    await s.flows.insert({ ...flow, id: "f9", organization_id: "o2", name: "Hiring", stages: [stage("z", "f9", 1)] });
    await s.flows.setOverdueTasks("o1", "f2", false);
  });
  const member = { role: "member", created_at: T0 };
  await insertRows(s, "members", [
    { ...member, id: "m1", organization_id: "o1", email: "m1@x.example", email_folded: "m1@x.example", name: "Ada" },
    { ...member, id: "m2", organization_id: "o1", email: "m2@x.example", email_folded: "m2@x.example", name: "Bob", disabled_at: T1 },
    { ...member, id: "m9", organization_id: "o2", email: "m9@x.example", email_folded: "m9@x.example", name: "Nine" },
  ]);
  const contact = { kind: '["candidate"]', kind_mask: 1, created_at: T0, updated_at: T0 };
  await insertRows(s, "contacts", [
    { ...contact, id: "c1", organization_id: "o1", full_name: "Carla" },
    { ...contact, id: "c9", organization_id: "o2", full_name: "Nine" },
  ]);
  const dossier = { type: "candidate", status: "active", created_at: T0, updated_at: T0 };
  await insertRows(s, "dossiers", [
    { ...dossier, id: "d0", organization_id: "o1", name: "Zero" },
    { ...dossier, id: "dg", organization_id: "o1", name: "Gee" },
    { ...dossier, id: "d90", organization_id: "o2", name: "Ninety" },
  ]);
  return s;
}

/** o1's tasks of the list tests, written out of their order: C22's order is c, a, b, g, f, e. */
const LISTED: TaskRecord[] = [
  task("b", { due_at: "2026-01-05T00:00:00.000Z" }),
  task("a", { due_at: "2026-01-05T00:00:00.000Z", assigned_to: "m1", dossier_id: "d0", notes: "First" }),
  task("c", { due_at: "2026-01-03T00:00:00.000Z", status: "done", done_at: T1, contact_id: "c1", created_at: T1, updated_at: T1 }),
  task("e", { assigned_to: "m1" }),
  task("f", { created_at: "2025-12-31T00:00:00.000Z", created_by: { kind: "system", id: null } }),
  task("g", { due_at: "2026-02-10T00:00:00.000Z", assigned_to: "m1", remind_at: "2026-02-09T00:00:00.000Z", dossier_id: "dg" }),
];
const BY_ID = Object.fromEntries(LISTED.map((t) => [t.id, t]));
const ids = (page: { data: TaskRecord[] }) => page.data.map((t) => t.id);

async function withTasks(engine: Engine): Promise<EngineStore> {
  const s = await withOrgs(engine);
  await s.write(async () => {
    for (const t of LISTED) await s.tasks.insert(t);
    await s.tasks.insert(task("z", { organization_id: "o2", due_at: "2026-01-01T00:00:00.000Z", assigned_to: "m9" }));
  });
  return s;
}

/** A page of o1 with the filter (`now` given). */
const page = (s: EngineStore, filter: Omit<TaskFilter, "now">, limit = 50, offset = 0) => s.read(() => s.tasks.page("o1", { now: NOW, ...filter }, limit, offset));

/** Dossiers whose stage visits the overdue scan reads: written out of id order (d2 before d1, tied). */
async function withOverdue(engine: Engine): Promise<EngineStore> {
  const s = await withOrgs(engine);
  const d = { type: "candidate", status: "active", created_at: T0, updated_at: T0, flow_id: "f1", current_stage_id: "a", stage_entered_at: T0 };
  await insertRows(s, "dossiers", [
    { ...d, id: "d2", organization_id: "o1", name: "Two", stage_due_at: "2026-01-10T00:00:00.000Z", assigned_to: "m2" },
    { ...d, id: "d1", organization_id: "o1", name: "One", stage_due_at: "2026-01-10T00:00:00.000Z", assigned_to: "m1" },
    { ...d, id: "d3", organization_id: "o1", name: "Later", stage_due_at: "2026-02-01T00:00:00.001Z", assigned_to: "m1" },
    { ...d, id: "d4", organization_id: "o1", name: "Quiet flow", flow_id: "f2", current_stage_id: "s", stage_due_at: "2026-01-02T00:00:00.000Z" },
    { ...d, id: "d5", organization_id: "o1", name: "Won", status: "won", stage_due_at: "2026-01-02T00:00:00.000Z" },
    { ...d, id: "d6", organization_id: "o1", name: "At now", stage_due_at: NOW, assigned_to: "m9" },
    { ...d, id: "d9", organization_id: "o2", name: "Nine", flow_id: "f9", current_stage_id: "z", stage_due_at: "2026-01-05T00:00:00.000Z", assigned_to: "m9" },
    { ...d, id: "d7", organization_id: "o1", name: "No deadline", stage_due_at: null },
  ]);
  return s;
}

/** The dossier's overdue_task_visit_id (a bigint on PostgreSQL: a number here), or null. */
async function markOf(s: EngineStore, dossierId: string): Promise<number | null> {
  const mark = await columnOf(s, "dossiers", "overdue_task_visit_id", dossierId);
  return mark === null || mark === undefined ? null : Number(mark);
}

/** Reminders of both organizations: r2 and r1 tied (written in that order), r3 later than NOW, r4
 * handled, r5 done, r6 without a reminder. */
async function withReminders(engine: Engine): Promise<EngineStore> {
  const s = await withOrgs(engine);
  await s.write(async () => {
    await s.tasks.insert(task("r2", { organization_id: "o2", remind_at: "2026-01-10T00:00:00.000Z" }));
    await s.tasks.insert(task("r1", { remind_at: "2026-01-10T00:00:00.000Z" }));
    await s.tasks.insert(task("r0", { remind_at: NOW }));
    await s.tasks.insert(task("r3", { remind_at: "2026-03-01T00:00:00.000Z" }));
    await s.tasks.insert(task("r4", { remind_at: "2026-01-01T00:00:00.000Z" }));
    await s.tasks.update("o1", "r4", { reminded_at: T1 });
    await s.tasks.insert(task("r5", { remind_at: "2026-01-01T00:00:00.000Z", status: "done", done_at: T1 }));
    await s.tasks.insert(task("r6"));
  });
  return s;
}

describe.each(ENGINES)("tasks on %s", (engine) => {
  test("byId: the task as written, created_by last, in its organization only", async () => {
    const s = await withTasks(engine);
    const a = await s.read(() => s.tasks.byId("o1", "a"));
    expect(a).toEqual(BY_ID.a);
    expect(JSON.stringify(a)).toBe(
      '{"id":"a","organization_id":"o1","dossier_id":"d0","contact_id":null,"title":"Task a","notes":"First","due_at":"2026-01-05T00:00:00.000Z",' +
        '"remind_at":null,"assigned_to":"m1","status":"open","done_at":null,"created_at":"2026-01-01T00:00:00.000Z",' +
        '"updated_at":"2026-01-01T00:00:00.000Z","created_by":{"kind":"member","id":"m1"}}',
    );
    expect(await s.tasks.byId("o1", "f")).toEqual(BY_ID.f);
    expect(await s.tasks.byId("o2", "a")).toBeNull();
    expect(await s.tasks.byId("o1", "z")).toBeNull();
    expect(await s.tasks.byId("o1", "nope")).toBeNull();
  });

  test("page: due_at ascending, no due date last, ties by created_at then id; the total; limit, offset, an offset past the end", async () => {
    const s = await withTasks(engine);
    const all = await page(s, {});
    expect(ids(all)).toEqual(["c", "a", "b", "g", "f", "e"]);
    expect(all.total).toBe(6);
    expect(all.data).toEqual(["c", "a", "b", "g", "f", "e"].map((id) => BY_ID[id]));
    expect(await page(s, {}, 2, 1)).toEqual({ data: [BY_ID.a, BY_ID.b], total: 6 });
    expect(await page(s, {}, 2, 5)).toEqual({ data: [BY_ID.e], total: 6 });
    expect(await page(s, {}, 2, 6)).toEqual({ data: [], total: 6 });
    expect(await page(s, {}, 0, 0)).toEqual({ data: [], total: 6 });
    expect(ids(await s.tasks.page("o2", { now: NOW }, 50, 0))).toEqual(["z"]);
  });

  test("page: each filter alone and together (assignee, status, dossier, contact, due before, due after, overdue or not)", async () => {
    const s = await withTasks(engine);
    const cases: [Omit<TaskFilter, "now">, string[]][] = [
      [{ assignedTo: "m1" }, ["a", "g", "e"]],
      [{ assignedTo: "m9" }, []],
      [{ status: "open" }, ["a", "b", "g", "f", "e"]],
      [{ status: "done" }, ["c"]],
      [{ dossierIds: ["d0"] }, ["a"]],
      [{ dossierIds: ["dg"] }, ["g"]],
      // Any of several dossiers (the board's task marks: C22).
      [{ dossierIds: ["dg", "d0", "d90"] }, ["a", "g"]],
      [{ contactId: "c1" }, ["c"]],
      // Strictly before; at or after.
      [{ dueBefore: "2026-01-05T00:00:00.000Z" }, ["c"]],
      [{ dueAfter: "2026-01-05T00:00:00.000Z" }, ["a", "b", "g"]],
      [{ dueAfter: "2026-01-04T00:00:00.000Z", dueBefore: "2026-02-01T00:00:00.000Z" }, ["a", "b"]],
      // Open and due before now; the others (done ones, later ones and those without a due date).
      [{ overdue: true }, ["a", "b"]],
      [{ overdue: false }, ["c", "g", "f", "e"]],
      [{ overdue: true, assignedTo: "m1" }, ["a"]],
      [{ overdue: false, status: "open" }, ["g", "f", "e"]],
      [{ status: "open", assignedTo: "m1", dossierIds: ["d0"], dueBefore: NOW }, ["a"]],
    ];
    for (const [filter, expected] of cases) {
      const got = await page(s, filter);
      expect({ filter, ids: ids(got), total: got.total }).toEqual({ filter, ids: expected, total: expected.length });
    }
    expect(await page(s, { overdue: true }, 1, 1)).toEqual({ data: [BY_ID.b], total: 2 });
  });

  test("openOfMember: the member's open tasks with a due date before `before` (null: any), in C22's order", async () => {
    const s = await withTasks(engine);
    await s.write(() => s.tasks.insert(task("h", { due_at: "2026-01-05T00:00:00.000Z", assigned_to: "m1", created_at: "2025-12-01T00:00:00.000Z" })));
    expect((await s.read(() => s.tasks.openOfMember("o1", "m1", null))).map((t) => t.id)).toEqual(["h", "a", "g"]);
    expect(await s.tasks.openOfMember("o1", "m1", "2026-02-10T00:00:00.000Z")).toEqual([
      task("h", { due_at: "2026-01-05T00:00:00.000Z", assigned_to: "m1", created_at: "2025-12-01T00:00:00.000Z" }),
      BY_ID.a,
    ]);
    expect(await s.tasks.openOfMember("o1", "m1", "2026-01-05T00:00:00.000Z")).toEqual([]);
    expect(await s.tasks.openOfMember("o2", "m1", null)).toEqual([]);
    expect((await s.tasks.openOfMember("o2", "m9", null)).map((t) => t.id)).toEqual(["z"]);
  });

  test("update: the given fields only, null clears, an empty change nothing, another organization's task untouched; delete", async () => {
    const s = await withTasks(engine);
    await s.write(async () => {
      await s.tasks.update("o1", "a", { title: "Renamed", notes: null, due_at: null, status: "done", done_at: T1, updated_at: T1 });
      await s.tasks.update("o1", "b", {});
      await s.tasks.update("o2", "g", { title: "Not mine" });
      await s.tasks.update("o1", "g", { dossier_id: "d0", contact_id: "c1", assigned_to: null, remind_at: null });
    });
    expect(await s.read(() => s.tasks.byId("o1", "a"))).toEqual({ ...BY_ID.a, title: "Renamed", notes: null, due_at: null, status: "done", done_at: T1, updated_at: T1 });
    expect(await s.tasks.byId("o1", "b")).toEqual(BY_ID.b);
    expect(await s.tasks.byId("o1", "g")).toEqual({ ...BY_ID.g, dossier_id: "d0", contact_id: "c1", assigned_to: null, remind_at: null });
    expect(ids(await page(s, {}))).toEqual(["c", "b", "g", "f", "a", "e"]);

    expect(await s.write(() => s.tasks.delete("o2", "b"))).toBe(false);
    expect(await s.write(() => s.tasks.delete("o1", "b"))).toBe(true);
    expect(await s.write(() => s.tasks.delete("o1", "b"))).toBe(false);
    expect(await s.tasks.byId("o1", "b")).toBeNull();
    expect((await page(s, {})).total).toBe(5);
  });

  test("the references a task may name: dossiers and contacts of the organization, members of it who are not disabled", async () => {
    const s = await withOrgs(engine);
    const checks = await s.read(async () => [
      await s.tasks.dossierExists("o1", "d0"),
      await s.tasks.dossierExists("o2", "d0"),
      await s.tasks.dossierExists("o1", "d90"),
      await s.tasks.dossierExists("o1", "nope"),
      await s.tasks.contactExists("o1", "c1"),
      await s.tasks.contactExists("o1", "c9"),
      await s.tasks.contactExists("o2", "c9"),
      await s.tasks.activeMemberExists("o1", "m1"),
      await s.tasks.activeMemberExists("o1", "m2"),
      await s.tasks.activeMemberExists("o1", "m9"),
      await s.tasks.activeMemberExists("o2", "m9"),
    ]);
    expect(checks).toEqual([true, false, false, false, true, false, true, true, false, false, true]);
  });

  test("overdueVisits: active dossiers past their stage's deadline at or before now, not handled, across organizations, by deadline then id; of those, the visits due a task (flows that make them)", async () => {
    const s = await withOverdue(engine);
    const { visits, next } = await s.read(() => s.tasks.overdueVisits(NOW, 50));
    // The stage visits are numbered by the triggers in the order the dossiers were written: d2 1, d1 2, ...
    expect(visits).toEqual([
      { organization_id: "o2", dossier_id: "d9", dossier_name: "Nine", stage_name: "Stage z", stage_due_at: "2026-01-05T00:00:00.000Z", visit_id: 7, assignee: "m9" },
      { organization_id: "o1", dossier_id: "d1", dossier_name: "One", stage_name: "Stage a", stage_due_at: "2026-01-10T00:00:00.000Z", visit_id: 2, assignee: "m1" },
      // m2 is disabled; m9 is not a member of o1.
      { organization_id: "o1", dossier_id: "d2", dossier_name: "Two", stage_name: "Stage a", stage_due_at: "2026-01-10T00:00:00.000Z", visit_id: 1, assignee: null },
      { organization_id: "o1", dossier_id: "d6", dossier_name: "At now", stage_name: "Stage a", stage_due_at: NOW, visit_id: 6, assignee: null },
    ]);
    expect(next).toBeNull(); // 5 dossiers read (d4's flow makes none), fewer than 50: the end
    expect(JSON.stringify(visits[0])).toBe(
      '{"organization_id":"o2","dossier_id":"d9","dossier_name":"Nine","stage_name":"Stage z","stage_due_at":"2026-01-05T00:00:00.000Z","visit_id":7,"assignee":"m9"}',
    );
    expect((await s.tasks.overdueVisits("2026-01-09T00:00:00.000Z", 50)).visits.map((v) => v.dossier_id)).toEqual(["d9"]);
  });

  test("overdueVisits: `limit` bounds the dossiers read, due or not; `after` goes on from the last one read (a keyset cursor)", async () => {
    const s = await withOverdue(engine);
    const batches: [string[], unknown][] = [];
    let after: OverdueCursor | null = null;
    do {
      const batch: Awaited<ReturnType<typeof s.tasks.overdueVisits>> = await s.read(() => s.tasks.overdueVisits(NOW, 2, after));
      batches.push([batch.visits.map((v) => v.dossier_id), batch.next]);
      after = batch.next;
    } while (after !== null);
    expect(batches).toEqual([
      // d4 (2026-01-02, in f2: no tasks) is read and is not due; d9 is.
      [["d9"], { stage_due_at: "2026-01-05T00:00:00.000Z", dossier_id: "d9" }],
      [["d1", "d2"], { stage_due_at: "2026-01-10T00:00:00.000Z", dossier_id: "d2" }],
      [["d6"], null],
    ]);
    // Exactly `limit` read: one more batch, empty, says the end.
    const five = await s.read(() => s.tasks.overdueVisits(NOW, 5));
    expect(five.next).toEqual({ stage_due_at: NOW, dossier_id: "d6" });
    expect(await s.read(() => s.tasks.overdueVisits(NOW, 5, five.next))).toEqual({ visits: [], next: null });
    // A cursor past `now` reads nothing.
    expect(await s.read(() => s.tasks.overdueVisits("2026-01-05T00:00:00.000Z", 5, { stage_due_at: "2026-01-10T00:00:00.000Z", dossier_id: "d1" }))).toEqual({
      visits: [],
      next: null,
    });
  });

  test("insertForVisit: one task per stage visit (the second is refused), and the visit is handled: its dossier is not read again; a new stage visit is", async () => {
    const s = await withOverdue(engine);
    const read = async (limit = 50) => (await s.read(() => s.tasks.overdueVisits(NOW, limit))).visits.map((v) => [v.dossier_id, v.visit_id]);
    const {
      visits: [, d1],
    } = await s.read(() => s.tasks.overdueVisits(NOW, 50));
    const followUp = task("t1", { dossier_id: "d1", assigned_to: "m1", due_at: NOW, created_by: { kind: "system", id: null } });
    expect(await s.write(() => s.tasks.insertForVisit(followUp, d1.visit_id))).toBe(true);
    expect(await s.write(() => s.tasks.insertForVisit(task("t2", { dossier_id: "d1" }), d1.visit_id))).toBe(false);
    expect(await s.tasks.byId("o1", "t1")).toEqual(followUp);
    expect(await s.tasks.byId("o1", "t2")).toBeNull();
    expect(await markOf(s, "d1")).toBe(2);
    expect(await read()).toEqual([["d9", 7], ["d2", 1], ["d6", 6]]);
    // Not read at all: the third dossier read is d2, no longer d1.
    expect((await s.read(() => s.tasks.overdueVisits(NOW, 3))).next).toEqual({ stage_due_at: "2026-01-10T00:00:00.000Z", dossier_id: "d2" });
    // A task inserted with its visit (insert's second argument) holds the visit, and handles it too.
    const {
      visits: [d9],
    } = await s.read(() => s.tasks.overdueVisits(NOW, 2));
    await s.write(() => s.tasks.insert(task("t9", { organization_id: "o2", dossier_id: "d9" }), d9.visit_id));
    expect(await read()).toEqual([["d2", 1], ["d6", 6]]);
    // Its task deleted, the visit stays handled: one task per stage visit, never a second one.
    await s.write(() => s.tasks.delete("o2", "t9"));
    expect(await read()).toEqual([["d2", 1], ["d6", 6]]);

    // d1 moves on to stage b (a new visit, 9: the trigger's): read again, with no task for it yet.
    await s.write(() => s.dossiers.update("o1", "d1", { current_stage_id: "b", stage_entered_at: T1, stage_due_at: "2026-01-20T00:00:00.000Z", updated_at: T1 }));
    expect(await markOf(s, "d1")).toBeNull();
    expect(await read()).toEqual([["d2", 1], ["d1", 9], ["d6", 6]]);
    await s.write(() => s.tasks.insertForVisit(task("t3", { dossier_id: "d1" }), 9));
    expect(await read()).toEqual([["d2", 1], ["d6", 6]]);
    // A change that sets the same stage is no move: the visit and its mark stay.
    await s.write(() => s.dossiers.update("o1", "d1", { current_stage_id: "b", name: "One again", updated_at: T1 }));
    expect(await markOf(s, "d1")).toBe(9);
    // Back to stage a: a third visit (10), read again; a task for a visit it left (9) does not handle it.
    await s.write(() => s.dossiers.update("o1", "d1", { current_stage_id: "a", stage_entered_at: T1, stage_due_at: "2026-01-21T00:00:00.000Z", updated_at: T1 }));
    expect(await s.write(() => s.tasks.insertForVisit(task("t4", { dossier_id: "d1" }), 9))).toBe(false);
    expect(await read()).toEqual([["d2", 1], ["d1", 10], ["d6", 6]]);

    // Won then reopened: the same visit, still handled. Archived: not read; reopened unhandled: read again.
    await s.write(() => s.tasks.insertForVisit(task("t5", { dossier_id: "d2" }), 1));
    await s.write(() => s.dossiers.update("o1", "d2", { status: "won", updated_at: T1 }));
    await s.write(() => s.dossiers.update("o1", "d2", { status: "active", updated_at: T1 }));
    await s.write(() => s.dossiers.update("o1", "d6", { status: "archived", updated_at: T1 }));
    expect(await read()).toEqual([["d1", 10]]);
    await s.write(() => s.dossiers.update("o1", "d6", { status: "active", updated_at: T1 }));
    expect(await read()).toEqual([["d1", 10], ["d6", 6]]);
  });

  test("dueReminders: open tasks whose remind_at has come and whose reminder is not handled, across organizations, by remind_at then id; limit; nextReminder", async () => {
    const s = await withReminders(engine);
    const due = await s.read(() => s.tasks.dueReminders(NOW, 50));
    expect(due).toEqual([
      { organization_id: "o1", id: "r1", remind_at: "2026-01-10T00:00:00.000Z" },
      { organization_id: "o2", id: "r2", remind_at: "2026-01-10T00:00:00.000Z" },
      { organization_id: "o1", id: "r0", remind_at: NOW },
    ]);
    expect(JSON.stringify(due[0])).toBe('{"organization_id":"o1","id":"r1","remind_at":"2026-01-10T00:00:00.000Z"}');
    expect(await s.tasks.dueReminders(NOW, 1)).toEqual([due[0]]);
    expect(await s.tasks.dueReminders("2026-01-09T23:59:59.999Z", 50)).toEqual([]);
    expect(await s.read(() => s.tasks.nextReminder())).toBe("2026-01-10T00:00:00.000Z");

    // Handled (mail.reminded), done, or given a new remind_at that clears reminded_at.
    await s.write(async () => {
      await s.mail.reminded("o1", "r1", NOW);
      await s.mail.reminded("o1", "r2", NOW); // another organization's: untouched
      await s.tasks.update("o1", "r0", { status: "done", done_at: NOW });
      await s.tasks.update("o1", "r4", { remind_at: "2026-01-20T00:00:00.000Z", reminded_at: null });
    });
    expect((await s.tasks.dueReminders(NOW, 50)).map((r) => r.id)).toEqual(["r2", "r4"]);
    await s.write(async () => {
      await s.mail.reminded("o2", "r2", NOW);
      await s.mail.reminded("o1", "r4", NOW);
    });
    expect(await s.tasks.dueReminders(NOW, 50)).toEqual([]);
    expect(await s.tasks.nextReminder()).toBe("2026-03-01T00:00:00.000Z");
    await s.write(() => s.tasks.delete("o1", "r3"));
    expect(await s.tasks.nextReminder()).toBeNull();
  });
});

describe("tasks: the same JSON on both engines", () => {
  test("byId, page with every filter set, openOfMember and the scans, serialised, are byte-identical", async () => {
    const answers: string[] = [];
    for (const engine of ENGINES) {
      const s = await withTasks(engine);
      const o = await withOverdue(engine);
      const r = await withReminders(engine);
      const filters: Omit<TaskFilter, "now">[] = [{}, { assignedTo: "m1" }, { status: "open" }, { overdue: true }, { overdue: false }, { dueAfter: T0 }];
      const pages = [];
      for (const filter of filters) pages.push(await page(s, filter, 3, 1));
      answers.push(
        JSON.stringify({
          byId: await s.tasks.byId("o1", "a"),
          pages,
          open: await s.tasks.openOfMember("o1", "m1", null),
          overdue: await o.tasks.overdueVisits(NOW, 50),
          overdueBatch: await o.tasks.overdueVisits(NOW, 2),
          reminders: await r.tasks.dueReminders(NOW, 50),
          next: await r.tasks.nextReminder(),
        }),
      );
    }
    expect(answers[1]).toBe(answers[0]);
  });
});
