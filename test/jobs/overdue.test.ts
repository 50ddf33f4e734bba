// C22: overdue stages make tasks: one per stage visit, for the dossier's assignee when it is a member
// (else unassigned), within a minute (the runner's scan), also for deadlines that passed while the
// server was down (found by query at start); a flow's overdue_tasks turns it off. The clock is
// the app's injected one: the tests move it and run the jobs, no test waits for a deadline.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { openApp, type DossierApp } from "../../src/app";
import type { Store } from "../../src/db/store";
import { createMember, operator } from "../../src/services/members";
import { call, makeOrg, onCleanup, tempDir, until, type Org } from "../helpers";
import { ENGINES, migratedDatabase, type Engine } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const DAY = 86_400_000;
const HOUR = 3_600_000;

/** A clock, and `open()`: an app with jobs on `engine`, each on the same database (on SQLite, the
 * file of `dataDir`, a new folder each time when it is not given; on PostgreSQL one database made
 * here), closed after the file. */
async function world(engine: Engine, options: { dataDir?: string; scanMs?: number; start?: number } = {}) {
  const clock = { now: options.start ?? Date.parse("2026-11-02T09:00:00.000Z") };
  const env = engine === "postgres" ? { DOSSIER_DATABASE_URL: await migratedDatabase(), DOSSIER_DATABASE_POOL: "3" } : {};
  const open = async () => {
    const app = await openApp({ dataDir: options.dataDir ?? tempDir(), webhooks: false, jobs: true, env, now: () => new Date(clock.now), config: { log: "off", jobScanMs: options.scanMs ?? 3_600_000 } });
    onCleanup(() => app.close());
    return app;
  };
  return { clock, open };
}

const tasksOf = async (app: DossierApp<Store>, org: Org, query = "") => (await call(app, "GET", `/tasks?per_page=100${query}`, { key: org.key })).json.data;

async function dossier(app: DossierApp<Store>, org: Org, body: Record<string, unknown> = {}) {
  const answer = await call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "Ana", ...body } });
  expect(answer.status).toBe(201);
  return answer.json.data;
}

describe.each(ENGINES)("overdue tasks on %s", (engine) => {
  describe("C22: overdue stages make tasks", () => {
    test("one task per stage visit, due at the deadline, for a member assignee; a second visit of the same stage makes another", async () => {
      const { clock, open } = await world(engine);
      const app = await open();
      const org = await makeOrg(app, { rateLimit: 1_000_000 });
      const mia = await createMember(app.dossier, operator(org.id), { email: `mia-${crypto.randomUUID()}@example.com`, name: "Mia", role: "member" }, "http://127.0.0.1");
      const ana = await dossier(app, org, { assigned_to: mia.id });
      const bob = await dossier(app, org, { name: "Bob", assigned_to: crypto.randomUUID() }); // an integrator's own user id
      const flows = await call(app, "GET", "/flows?type=candidate", { key: org.key });
      const stages = flows.json.data[0].stages;
      expect(ana.stage_due_at).toBe(new Date(clock.now + 3 * DAY).toISOString()); // Applied: 3 days

      clock.now += 3 * DAY - 1;
      await app.jobs!.runDue();
      expect(await tasksOf(app, org)).toEqual([]);

      clock.now += 1;
      await app.jobs!.runDue();
      await app.jobs!.runDue();
      const made = await tasksOf(app, org);
      expect(made.map((t: { title: string }) => t.title).sort()).toEqual(["Follow up: Ana is overdue in Applied", "Follow up: Bob is overdue in Applied"]);
      const anas = made.find((t: { dossier_id: string }) => t.dossier_id === ana.id);
      expect(anas).toMatchObject({ assigned_to: mia.id, status: "open", due_at: ana.stage_due_at, created_by: { kind: "system", id: null } });
      expect(made.find((t: { dossier_id: string }) => t.dossier_id === bob.id).assigned_to).toBeNull();
      const history = (await call(app, "GET", `/dossiers/${ana.id}/history`, { key: org.key })).json.data;
      expect(history.at(-1)).toMatchObject({ kind: "task_created", actor: null, changes: { task_id: [null, anas.id] } });

      // Done or not, the visit has had its task.
      expect((await call(app, "PATCH", `/tasks/${anas.id}`, { key: org.key, body: { status: "done" } })).status).toBe(200);
      clock.now += DAY;
      await app.jobs!.runDue();
      expect(await tasksOf(app, org, `&dossier_id=${ana.id}`)).toHaveLength(1);

      // Screening (7 days), then back to Applied: each visit its own task.
      expect((await call(app, "PATCH", `/dossiers/${ana.id}`, { key: org.key, body: { current_stage_id: stages[1].id } })).status).toBe(200);
      clock.now += 7 * DAY;
      await app.jobs!.runDue();
      expect((await tasksOf(app, org, `&dossier_id=${ana.id}`)).map((t: { title: string }) => t.title)).toContain("Follow up: Ana is overdue in Screening");
      expect((await call(app, "PATCH", `/dossiers/${ana.id}`, { key: org.key, body: { current_stage_id: stages[0].id } })).status).toBe(200);
      clock.now += 3 * DAY;
      await app.jobs!.runDue();
      await app.jobs!.runDue();
      const titles = (await tasksOf(app, org, `&dossier_id=${ana.id}`)).map((t: { title: string }) => t.title).sort();
      expect(titles).toEqual(["Follow up: Ana is overdue in Applied", "Follow up: Ana is overdue in Applied", "Follow up: Ana is overdue in Screening"]);
    });

    test("only active dossiers: won, lost and archived ones get none; a stage without a deadline none", async () => {
      const { clock, open } = await world(engine);
      const app = await open();
      const org = await makeOrg(app, { rateLimit: 1_000_000 });
      const won = await dossier(app, org, { name: "Won" });
      const archived = await dossier(app, org, { name: "Archived" });
      expect((await call(app, "PATCH", `/dossiers/${won.id}`, { key: org.key, body: { status: "won" } })).status).toBe(200);
      expect((await call(app, "DELETE", `/dossiers/${archived.id}`, { key: org.key })).status).toBe(200);
      const flows = await call(app, "GET", "/flows?type=candidate", { key: org.key });
      const hired = flows.json.data[0].stages.at(-1);
      const done = await dossier(app, org, { name: "Hired" });
      expect((await call(app, "PATCH", `/dossiers/${done.id}`, { key: org.key, body: { current_stage_id: hired.id } })).status).toBe(200);
      clock.now += 30 * DAY;
      await app.jobs!.runDue();
      expect(await tasksOf(app, org)).toEqual([]);
    });

    test("PATCH /flows/{id} overdue_tasks: false turns it off (and the flow says so); true turns it back on", async () => {
      const { clock, open } = await world(engine);
      const app = await open();
      const org = await makeOrg(app, { rateLimit: 1_000_000 });
      const flow = (await call(app, "GET", "/flows?type=candidate", { key: org.key })).json.data[0];
      expect(flow.overdue_tasks).toBe(true);
      const off = await call(app, "PATCH", `/flows/${flow.id}`, { key: org.key, body: { overdue_tasks: false } });
      expect(off.status).toBe(200);
      expect(off.json.data.overdue_tasks).toBe(false);
      const bad = await call(app, "PATCH", `/flows/${flow.id}`, { key: org.key, body: { overdue_tasks: "no" } });
      expect(bad.status).toBe(400);
      expect(bad.json.error).toMatchObject({ code: "invalid_body", param: "overdue_tasks" });
      await dossier(app, org);
      clock.now += 4 * DAY;
      await app.jobs!.runDue();
      expect(await tasksOf(app, org)).toEqual([]);
      expect((await call(app, "PATCH", `/flows/${flow.id}`, { key: org.key, body: { overdue_tasks: true } })).json.data.overdue_tasks).toBe(true);
      await app.jobs!.runDue();
      expect(await tasksOf(app, org)).toHaveLength(1);
    });

    test("deadlines that passed while the server was down: found by the run at start, one task each", async () => {
      const dataDir = tempDir();
      const { clock, open } = await world(engine, { dataDir });
      const first = await open();
      const org = await makeOrg(first, { rateLimit: 1_000_000 });
      await dossier(first, org, { name: "Ana" });
      await dossier(first, org, { name: "Bob" });
      await first.jobs!.runDue();
      await first.close();
      clock.now += 10 * DAY; // down all that time
      const second = await open(); // runs every job once at start, before anyone asks
      await until(async () => (await tasksOf(second, org)).length === 2, 60_000, "the two overdue tasks made at start");
      await second.jobs!.runDue();
      expect(await tasksOf(second, org)).toHaveLength(2);
    });

    test("within a minute: the runner's regular scan finds a deadline that passes while it runs", async () => {
      const { clock, open } = await world(engine, { scanMs: 50 });
      const app = await open();
      const org = await makeOrg(app, { rateLimit: 1_000_000 });
      await dossier(app, org);
      clock.now += 3 * DAY + HOUR;
      await until(async () => (await tasksOf(app, org)).length === 1, 60_000, "the scan made the task");
    });
  });
});
