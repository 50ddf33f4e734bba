// C22 on a store made before migration 0014_overdue_marker (drizzle-pg 0004): the dossiers whose
// current stage visit has its follow-up task already are handled (overdue_task_visit_id set) and
// leave the overdue scan's index; the others stay to handle: no task, or a task for a visit the
// dossier has left. A task moved to another dossier still handles its visit's dossier. The job's
// mark alone moves no generation of the dossiers' caches. Both engines, the same statements.
import { Database } from "bun:sqlite";
import { SQL } from "bun";
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { embeddedMigrations, migrate } from "../../src/db/migrate";
import { embeddedPgMigrations, migratePg } from "../../src/db/pg/migrate";
import { freshDatabase } from "../helpers/postgres";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const AT = "'2026-01-01T00:00:00.000Z'";
const LATER = "'2026-01-03T00:00:00.000Z'";
const task = (id: string, dossierId: string, visitId: number) =>
  `INSERT INTO tasks (id, organization_id, dossier_id, title, status, created_by_kind, stage_visit_id, created_at, updated_at)
   VALUES ('${id}', 'o1', '${dossierId}', 'Follow up', 'open', 'system', ${visitId}, ${AT}, ${AT})`;

/** Before the migration: d1's visit (1) has its task; d2 had one for stage s1 (visit 2), then moved
 * to s2 (visit 5); d3 has none; d4's task (for visit 4) was moved to d3. d5 is won, its visit's task made. */
const BEFORE = [
  `INSERT INTO organizations (id, name, plan, rate_limit, created_at) VALUES ('o1', 'One', 'growth', 600, ${AT})`,
  `INSERT INTO flows (id, organization_id, name, type, is_default, created_at) VALUES ('f1', 'o1', 'Sales', 'sales', true, ${AT})`,
  `INSERT INTO stages (id, flow_id, organization_id, name, position, deadline_days, win_probability, color) VALUES
     ('s1', 'f1', 'o1', 'Lead', 1, 1, 10, 'gray'), ('s2', 'f1', 'o1', 'Offer', 2, 1, 60, 'blue')`,
  `INSERT INTO dossiers (id, organization_id, flow_id, type, name, status, current_stage_id, stage_entered_at, stage_due_at, created_at, updated_at) VALUES
     ('d1', 'o1', 'f1', 'sales', 'One', 'active', 's1', ${AT}, '2026-01-02T00:00:00.000Z', ${AT}, ${AT}),
     ('d2', 'o1', 'f1', 'sales', 'Two', 'active', 's1', ${AT}, '2026-01-02T00:00:00.000Z', ${AT}, ${AT}),
     ('d3', 'o1', 'f1', 'sales', 'Three', 'active', 's1', ${AT}, '2026-01-02T00:00:00.000Z', ${AT}, ${AT}),
     ('d4', 'o1', 'f1', 'sales', 'Four', 'active', 's1', ${AT}, '2026-01-02T00:00:00.000Z', ${AT}, ${AT})`,
  task("t1", "d1", 1),
  task("t2", "d2", 2),
  task("t4", "d3", 4),
  `UPDATE dossiers SET current_stage_id = 's2', stage_entered_at = ${LATER}, stage_due_at = '2026-01-04T00:00:00.000Z', updated_at = ${LATER} WHERE id = 'd2'`,
  `INSERT INTO dossiers (id, organization_id, flow_id, type, name, status, current_stage_id, stage_entered_at, stage_due_at, created_at, updated_at) VALUES
     ('d5', 'o1', 'f1', 'sales', 'Five', 'won', 's1', ${AT}, '2026-01-02T00:00:00.000Z', ${AT}, ${AT})`,
  task("t6", "d5", 6),
];
const MARKS = `SELECT id, CAST(overdue_task_visit_id AS integer) AS mark FROM dossiers ORDER BY id`;
const TO_HANDLE = `SELECT id FROM dossiers WHERE status = 'active' AND stage_due_at IS NOT NULL AND overdue_task_visit_id IS NULL ORDER BY stage_due_at, id`;
/** After the migration: the job's mark alone moves no generation; a change with updated_at does. */
const AFTER = [
  `UPDATE dossiers SET overdue_task_visit_id = 3 WHERE id = 'd3'`,
  `UPDATE dossiers SET name = 'Three and a half', updated_at = '2026-01-05T00:00:00.000Z' WHERE id = 'd3'`,
  `UPDATE dossiers SET current_stage_id = 's2', overdue_task_visit_id = NULL, updated_at = '2026-01-06T00:00:00.000Z' WHERE id = 'd3'`,
  `UPDATE dossiers SET contact_id = NULL WHERE id = 'd3'`,
];
const GENERATION = `SELECT CAST(generation AS integer) AS g FROM generations WHERE organization_id = 'o1' AND table_name = 'dossiers'`;
const STEPS = [0, 1, 1, 1];

const EXPECTED = {
  marks: [
    { id: "d1", mark: 1 },
    { id: "d2", mark: null },
    { id: "d3", mark: null },
    { id: "d4", mark: 4 },
    { id: "d5", mark: 6 },
  ],
  toHandle: [{ id: "d3" }, { id: "d2" }],
};

describe("migration 0014_overdue_marker on a store that has follow-up tasks", () => {
  test("SQLite: the dossiers whose current visit has its task are handled; the others are left to the scan", () => {
    const at = embeddedMigrations.findIndex((m) => m.tag === "0014_overdue_marker");
    expect(at).toBeGreaterThan(0);
    const db = new Database(":memory:");
    try {
      migrate(db, embeddedMigrations.slice(0, at));
      for (const statement of BEFORE) db.run(statement);
      expect(migrate(db)).toBe(embeddedMigrations.length - at);
      expect({ marks: db.query(MARKS).all(), toHandle: db.query(TO_HANDLE).all() }).toEqual(EXPECTED);
      const steps = AFTER.map((statement) => {
        const before = (db.query(GENERATION).get() as { g: number }).g;
        db.run(statement);
        return (db.query(GENERATION).get() as { g: number }).g - before;
      });
      expect(steps).toEqual(STEPS);
    } finally {
      db.close();
    }
  });

  test("PostgreSQL (drizzle-pg 0004): the same", async () => {
    const at = embeddedPgMigrations.findIndex((m) => m.tag === "0004_overdue_marker");
    expect(at).toBeGreaterThan(0);
    const sql = new SQL(await freshDatabase());
    try {
      await migratePg(sql, embeddedPgMigrations.slice(0, at));
      for (const statement of BEFORE) await sql.unsafe(statement);
      expect(await migratePg(sql)).toBe(embeddedPgMigrations.length - at);
      expect({ marks: [...(await sql.unsafe(MARKS))], toHandle: [...(await sql.unsafe(TO_HANDLE))] }).toEqual(EXPECTED);
      const steps = [];
      for (const statement of AFTER) {
        const [before] = await sql.unsafe(GENERATION);
        await sql.unsafe(statement);
        const [after] = await sql.unsafe(GENERATION);
        steps.push(after.g - before.g);
      }
      expect(steps).toEqual(STEPS);
    } finally {
      await sql.close();
    }
  });
});
