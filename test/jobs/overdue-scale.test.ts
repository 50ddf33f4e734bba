// C22's overdue-tasks job over many overdue dossiers, on both engines: a catch-up in small batches
// (the job's batch lowered) makes each visit's task once, with its history row, and none for a flow
// that makes none or a dossier no longer active; a second pass reads nothing; the scan reads by the
// partial index dossiers_overdue_todo, never the whole dossiers table. No wall-clock assertion: the
// timings are bench/overdue.ts's.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { OVERDUE_SCAN as PG_SCAN } from "../../src/db/pg/tasks";
import { OVERDUE_SCAN as SQLITE_SCAN } from "../../src/db/tasks";
import { overdueTasksJob } from "../../src/jobs/overdue";
import { call, makeOrg } from "../helpers";
import { appOn, ENGINES, queryRows } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const N = 2_000;
const NOW = new Date("2026-03-01T00:00:00.000Z");

const count = async (app: Parameters<typeof queryRows>[0], text: string, ...values: unknown[]) =>
  Number((await queryRows<{ n: number }>(app, text, ...values))[0].n);

describe.each(ENGINES)("the overdue-tasks job over %s dossiers", (engine) => {
  test(`${N} overdue dossiers in batches of 50: one task each, once; the scan reads by its partial index`, async () => {
    const app = await appOn(engine);
    const org = await makeOrg(app, { rateLimit: 1_000_000 });
    const flows = (await call(app, "GET", "/flows", { key: org.key })).json.data as { id: string; type: string; stages: { id: string }[] }[];
    const hiring = flows.find((f) => f.type === "candidate")!;
    const sales = flows.find((f) => f.type === "sales")!;
    expect((await call(app, "PATCH", `/flows/${sales.id}`, { key: org.key, body: { overdue_tasks: false } })).status).toBe(200);
    // N dossiers, their deadlines over ten days (ties broken by id): every 10th in the sales flow
    // (no tasks), every 7th won (none either); the stage visits are the triggers'.
    await queryRows(
      app,
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${N})
       INSERT INTO dossiers (id, organization_id, flow_id, type, name, status, current_stage_id, stage_entered_at, stage_due_at, created_at, updated_at)
       SELECT 'd' || (100000 + i), ?, CASE WHEN i % 10 = 0 THEN ? ELSE ? END, CASE WHEN i % 10 = 0 THEN 'sales' ELSE 'candidate' END,
              'Dossier ' || i, CASE WHEN i % 7 = 0 THEN 'won' ELSE 'active' END, CASE WHEN i % 10 = 0 THEN ? ELSE ? END,
              '2026-01-01T00:00:00.000Z', '2026-01-1' || (i % 10) || 'T00:00:00.000Z', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'
         FROM n`,
      org.id, sales.id, hiring.id, sales.stages[0].id, hiring.stages[0].id,
    );
    const due = await count(app, `SELECT count(*) AS n FROM dossiers WHERE organization_id = ? AND flow_id = ? AND status = 'active'`, org.id, hiring.id);
    expect(due).toBe(N - N / 10 - Math.floor(N / 7) + Math.floor(N / 70)); // 1,543

    // The scan's plan: the partial index for the dossiers read, their rows and the rest by key.
    if (engine === "sqlite") {
      const plan = (await queryRows<{ detail: string }>(app, `EXPLAIN QUERY PLAN ${SQLITE_SCAN}`, NOW.toISOString(), "", "", 50)).map((r) => r.detail);
      expect(plan).toContain("SEARCH dossiers USING INDEX dossiers_overdue_todo ((stage_due_at,id)>(?,?) AND stage_due_at<?)");
      expect(plan).toContain("SEARCH d USING INDEX sqlite_autoindex_dossiers_1 (id=?)");
      expect(plan.filter((d) => /^SCAN (?!c$)/.test(d))).toEqual([]); // c: the 50 rows the index gave
    } else {
      await queryRows(app, "ANALYZE dossiers");
      const plan = (await queryRows<{ "QUERY PLAN": string }>(app, `EXPLAIN ${PG_SCAN.replace(/\$(\d)/g, "?")}`, NOW.toISOString(), "", "", 50))
        .map((r) => r["QUERY PLAN"])
        .join("\n");
      // The dossiers read are the partial index's first 50 in order, then each one by key: no table
      // read whole, even one this small, which PostgreSQL's cost model would rather hash.
      expect(plan).toMatch(/Limit .*\n\s+->  Index (Only )?Scan using dossiers_overdue_todo on dossiers /);
      expect(plan).toMatch(/Index Scan using dossiers_pkey on dossiers d/);
      expect(plan).not.toMatch(/Seq Scan on (dossiers|stage_visits|tasks)/);
    }

    // The catch-up: runs of at most 5 batches of 50, each going on from where the last stopped.
    const job = overdueTasksJob(app.dossier, { batch: 50, rounds: 5 });
    let runs = 0;
    while ((await job.run(NOW)) !== null) runs++;
    expect(runs).toBeGreaterThan(1); // each run went on from where the last one stopped
    const tasks = await count(app, `SELECT count(*) AS n FROM tasks WHERE organization_id = ?`, org.id);
    expect(tasks).toBe(due);
    expect(await count(app, `SELECT count(DISTINCT stage_visit_id) AS n FROM tasks WHERE organization_id = ?`, org.id)).toBe(due);
    expect(await count(app, `SELECT count(DISTINCT dossier_id) AS n FROM tasks WHERE organization_id = ?`, org.id)).toBe(due);
    expect(await count(app, `SELECT count(*) AS n FROM dossier_history WHERE organization_id = ? AND kind = 'task_created'`, org.id)).toBe(due);
    // Each task is for its dossier's current visit, and that dossier holds the visit as handled.
    expect(
      await count(
        app,
        `SELECT count(*) AS n FROM tasks t JOIN stage_visits v ON v.id = t.stage_visit_id JOIN dossiers d ON d.id = t.dossier_id
          WHERE t.organization_id = ? AND v.dossier_id = d.id AND v.left_at IS NULL AND d.overdue_task_visit_id = v.id AND d.flow_id = ? AND d.status = 'active'`,
        org.id, hiring.id,
      ),
    ).toBe(due);
    // What is left in the scan's index: the sales flow's active dossiers only (read, never due).
    expect((await app.dossier.store.read(() => app.dossier.store.tasks.overdueVisits(NOW.toISOString(), N))).visits).toEqual([]);

    // The steady state: a new job (a restart) and the old one make nothing more.
    expect(await overdueTasksJob(app.dossier, { batch: 50, rounds: 100 }).run(NOW)).toBeNull();
    expect(await job.run(new Date(NOW.getTime() + 60_000))).toBeNull();
    expect(await count(app, `SELECT count(*) AS n FROM tasks WHERE organization_id = ?`, org.id)).toBe(due);
  });
});
