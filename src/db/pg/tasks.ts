// Tasks (C22) on PostgreSQL: src/db/tasks.ts's statements, the same answers. A list's optional
// filters are bound as nulls that switch their condition off, one statement for every filter set.
// Every statement names the organization, except the job runner's scans across organizations
// (overdue stages, reminders due, the next reminder), which say so. stage_visits.id is bigint:
// read as float8.
import { overdueBatch, type DueReminder, type OverdueCursor, type OverdueRow, type TaskChanges, type TaskFilter, type TaskPosition, type TaskRecord } from "../tasks";
import type { Db } from "./client";
import type { EngineQueries } from "./queries";

type TaskRow = Omit<TaskRecord, "created_by"> & { created_by_kind: TaskRecord["created_by"]["kind"]; created_by_id: string | null };

/** The row as SQLite's module gives it: its columns in order, then created_by. */
const record = ({ created_by_kind, created_by_id, ...row }: TaskRow): TaskRecord => ({ ...row, created_by: { kind: created_by_kind, id: created_by_id } });

/** The columns a change may set, as SQLite's module has them (the names go into the SQL: only these). */
const UPDATABLE = ["title", "notes", "due_at", "remind_at", "reminded_at", "assigned_to", "dossier_id", "contact_id", "status", "done_at", "updated_at"] as const;

/** The overdue scan's statement ($1 now, $2 and $3 the cursor, $4 the limit): the dossiers read by
 * the partial index, then each one alone by key. The lateral subquery's LIMIT 1 keeps PostgreSQL
 * from turning the lookups into a join it may hash (a whole table read per batch, when the
 * statistics say the table is small: a fresh import, a test); its flow, stage and current visit are
 * scalar lookups for the same reason. Exported for the test that reads its plan
 * (test/jobs/overdue-scale.test.ts). */
export const OVERDUE_SCAN = `SELECT x.* FROM
  (SELECT id FROM dossiers
    WHERE status = 'active' AND stage_due_at IS NOT NULL AND overdue_task_visit_id IS NULL
      AND stage_due_at <= $1::text AND (stage_due_at, id) > ($2::text, $3::text)
    ORDER BY stage_due_at, id LIMIT $4::bigint) c
  CROSS JOIN LATERAL (
    SELECT d.organization_id, d.id AS dossier_id, d.name AS dossier_name,
      (SELECT s.name FROM stages s WHERE s.id = d.current_stage_id AND s.organization_id = d.organization_id) AS stage_name,
      d.stage_due_at,
      CASE WHEN EXISTS (SELECT 1 FROM flows f WHERE f.id = d.flow_id AND f.organization_id = d.organization_id AND f.overdue_tasks)
            AND EXISTS (SELECT 1 FROM stages s WHERE s.id = d.current_stage_id AND s.organization_id = d.organization_id)
        THEN (SELECT CASE WHEN v.stage_id = d.current_stage_id THEN v.id END FROM stage_visits v
               WHERE v.dossier_id = d.id AND v.organization_id = d.organization_id AND v.left_at IS NULL ORDER BY v.id DESC LIMIT 1)
      END::float8 AS visit_id,
      (SELECT m.id FROM members m WHERE m.organization_id = d.organization_id AND m.id = d.assigned_to AND m.disabled_at IS NULL) AS assignee
    FROM dossiers d WHERE d.id = c.id LIMIT 1) x
  ORDER BY x.stage_due_at, x.dossier_id`;

export function pgTaskQueries(db: Db, inUnit: () => boolean): EngineQueries<"tasks"> {
  const insert = (t: TaskRecord, stageVisitId: number | null, skipTaken: boolean) => {
    return skipTaken
      ? db()`INSERT INTO tasks (id, organization_id, dossier_id, contact_id, title, notes, due_at, remind_at, reminded_at, assigned_to, status,
            done_at, created_by_kind, created_by_id, stage_visit_id, created_at, updated_at)
          VALUES (${t.id}, ${t.organization_id}, ${t.dossier_id}, ${t.contact_id}, ${t.title}, ${t.notes}, ${t.due_at}, ${t.remind_at}, NULL,
            ${t.assigned_to}, ${t.status}, ${t.done_at}, ${t.created_by.kind}, ${t.created_by.id}, ${stageVisitId}::bigint, ${t.created_at}, ${t.updated_at})
          ON CONFLICT DO NOTHING`
      : db()`INSERT INTO tasks (id, organization_id, dossier_id, contact_id, title, notes, due_at, remind_at, reminded_at, assigned_to, status,
            done_at, created_by_kind, created_by_id, stage_visit_id, created_at, updated_at)
          VALUES (${t.id}, ${t.organization_id}, ${t.dossier_id}, ${t.contact_id}, ${t.title}, ${t.notes}, ${t.due_at}, ${t.remind_at}, NULL,
            ${t.assigned_to}, ${t.status}, ${t.done_at}, ${t.created_by.kind}, ${t.created_by.id}, ${stageVisitId}::bigint, ${t.created_at}, ${t.updated_at})`;
  };

  // The visit's dossier leaves the overdue scan, if the visit is still its current one. A move
  // committed meanwhile changes current_stage_id: the row is read again after its lock, and not set.
  const markVisit = (stageVisitId: number) =>
    db()`UPDATE dossiers SET overdue_task_visit_id = v.id FROM stage_visits v
      WHERE v.id = ${stageVisitId}::bigint AND v.left_at IS NULL AND dossiers.id = v.dossier_id AND dossiers.organization_id = v.organization_id
        AND dossiers.current_stage_id = v.stage_id`;

  return {
    // Inside a unit the row is locked to its commit, as the dossiers' (src/db/pg/dossiers.ts): an
    // If-Match checked again in the unit holds until its change commits (C16).
    async byId(organizationId: string, id: string) {
      const [row] = inUnit()
        ? await db()<TaskRow[]>`SELECT id, organization_id, dossier_id, contact_id, title, notes, due_at, remind_at, assigned_to, status,
          done_at, created_by_kind, created_by_id, created_at, updated_at
        FROM tasks WHERE organization_id = ${organizationId} AND id = ${id} FOR NO KEY UPDATE`
        : await db()<TaskRow[]>`SELECT id, organization_id, dossier_id, contact_id, title, notes, due_at, remind_at, assigned_to, status,
          done_at, created_by_kind, created_by_id, created_at, updated_at
        FROM tasks WHERE organization_id = ${organizationId} AND id = ${id}`;
      return row ? record(row) : null;
    },

    /** A page of the organization's tasks that match `filter`, in C22's order (due_at ascending, no
     * due date last, then created_at, then id), and their total. */
    async page(organizationId: string, filter: TaskFilter, limit: number, offset: number, position?: TaskPosition) {
      const assigned = filter.assignedTo ?? null;
      const status = filter.status ?? null;
      // Any of these dossiers (C22's repeated dossier_id); none given: every dossier.
      const dossiers = filter.dossierIds !== undefined && filter.dossierIds.length > 0 ? filter.dossierIds : null;
      const contact = filter.contactId ?? null;
      const before = filter.dueBefore ?? null;
      const after = filter.dueAfter ?? null;
      const overdue = filter.overdue ?? null;
      const now = filter.now;
      const sql = db();
      const matching = sql`organization_id = ${organizationId}
          AND (${assigned}::text IS NULL OR assigned_to = ${assigned}::text)
          AND (${status}::text IS NULL OR status = ${status}::text)
          AND (${dossiers}::text[] IS NULL OR dossier_id = ANY(${dossiers}::text[]))
          AND (${contact}::text IS NULL OR contact_id = ${contact}::text)
          AND (${before}::text IS NULL OR due_at < ${before}::text)
          AND (${after}::text IS NULL OR due_at >= ${after}::text)
          AND (${overdue}::boolean IS NULL
            OR (${overdue}::boolean AND status = 'open' AND due_at < ${now}::text)
            OR (NOT ${overdue}::boolean AND NOT (status = 'open' AND due_at IS NOT NULL AND due_at < ${now}::text)))`;
      const [{ n: total }] = await sql<{ n: number }[]>`SELECT count(*)::integer AS n FROM tasks WHERE ${matching}`;
      if (offset >= total) return { data: [], total };
      const columns = sql`id, organization_id, dossier_id, contact_id, title, notes, due_at, remind_at, assigned_to, status,
          done_at, created_by_kind, created_by_id, created_at, updated_at`;
      if (position !== undefined) {
        // A cursor page (issue 38), as on SQLite: the dated tasks after the position in the order of
        // tasks_org_due, then, while the page is not full, the undated ones (that index's NULLs).
        const dated =
          position.due_at === null
            ? []
            : await sql<TaskRow[]>`SELECT ${columns} FROM tasks WHERE ${matching} AND due_at IS NOT NULL
                AND (due_at, created_at, id) > (${position.due_at}::text, ${position.created_at}::text, ${position.id}::text)
                ORDER BY due_at, created_at, id LIMIT ${limit}::bigint`;
        const seek = position.due_at === null ? sql`AND (created_at, id) > (${position.created_at}::text, ${position.id}::text)` : sql``;
        const undated =
          dated.length >= limit
            ? []
            : await sql<TaskRow[]>`SELECT ${columns} FROM tasks WHERE ${matching} AND due_at IS NULL ${seek}
                ORDER BY due_at, created_at, id LIMIT ${limit - dated.length}::bigint`;
        return { data: [...dated, ...undated].map(record), total };
      }
      const rows = await sql<TaskRow[]>`SELECT ${columns} FROM tasks WHERE ${matching}
        ORDER BY due_at IS NULL, due_at, created_at, id LIMIT ${limit}::bigint OFFSET ${offset}::bigint`;
      return { data: rows.map(record), total };
    },

    /** Every open task assigned to the member with a due date before `before` (null: any), in C22's order. */
    async openOfMember(organizationId: string, memberId: string, before: string | null) {
      const rows = await db()<TaskRow[]>`SELECT id, organization_id, dossier_id, contact_id, title, notes, due_at, remind_at, assigned_to, status,
          done_at, created_by_kind, created_by_id, created_at, updated_at
        FROM tasks
        WHERE organization_id = ${organizationId} AND assigned_to = ${memberId} AND status = 'open' AND due_at IS NOT NULL
          AND (${before}::text IS NULL OR due_at < ${before}::text)
        ORDER BY due_at IS NULL, due_at, created_at, id`;
      return rows.map(record);
    },

    /** A task; with a stage visit, the visit is handled too (as insertForVisit). */
    async insert(task: TaskRecord, stageVisitId: number | null = null) {
      await insert(task, stageVisitId, false);
      if (stageVisitId !== null) await markVisit(stageVisitId);
    },

    /** The follow-up task of an overdue stage visit: false when the visit has one already (the
     * unique index tasks_stage_visit decides). Either way the visit is handled (src/db/tasks.ts). */
    async insertForVisit(task: TaskRecord, stageVisitId: number) {
      const made = (await insert(task, stageVisitId, true)).count > 0;
      await markVisit(stageVisitId);
      return made;
    },

    /** Sets the given fields (names from the fixed list, values bound). */
    async update(organizationId: string, id: string, changes: TaskChanges) {
      const set: Record<string, string | null> = {};
      for (const field of UPDATABLE) if (field in changes) set[field] = (changes as Record<string, string | null | undefined>)[field] ?? null;
      if (Object.keys(set).length === 0) return;
      const sql = db();
      await sql`UPDATE tasks SET ${sql(set)} WHERE organization_id = ${organizationId} AND id = ${id}`;
    },

    async delete(organizationId: string, id: string) {
      return (await db()`DELETE FROM tasks WHERE organization_id = ${organizationId} AND id = ${id}`).count > 0;
    },

    async dossierExists(organizationId: string, id: string) {
      return (await db()`SELECT 1 AS one FROM dossiers WHERE organization_id = ${organizationId} AND id = ${id}`).length > 0;
    },

    async contactExists(organizationId: string, id: string) {
      return (await db()`SELECT 1 AS one FROM contacts WHERE organization_id = ${organizationId} AND id = ${id}`).length > 0;
    },

    /** Whether the id names a member of the organization who is not disabled. */
    async activeMemberExists(organizationId: string, id: string) {
      return (await db()`SELECT 1 AS one FROM members WHERE organization_id = ${organizationId} AND id = ${id} AND disabled_at IS NULL`).length > 0;
    },

    /** The overdue-tasks job's scan (C22), across organizations: the next `limit` dossiers after
     * `after` (null: from the first) that are active, past their stage's deadline at or before `now`
     * and not handled, in (stage_due_at, id) order, by the partial index dossiers_overdue_todo; of
     * those, the current stage visits due a task (src/db/tasks.ts says more). */
    async overdueVisits(now: string, limit: number, after: OverdueCursor | null = null) {
      const rows = (await db().unsafe(OVERDUE_SCAN, [now, after?.stage_due_at ?? "", after?.dossier_id ?? "", limit])) as OverdueRow[];
      return overdueBatch([...rows], limit);
    },

    /** Open tasks whose remind_at has come and whose reminder is not handled, by remind_at then id;
     * across organizations (the job runner's scan, by the partial index tasks_remind_due). */
    async dueReminders(now: string, limit: number) {
      return [
        ...(await db()<DueReminder[]>`SELECT organization_id, id, remind_at FROM tasks
          WHERE reminded_at IS NULL AND status = 'open' AND remind_at IS NOT NULL AND remind_at <= ${now}
          ORDER BY remind_at, id LIMIT ${limit}::bigint`),
      ];
    },

    /** The earliest remind_at still to handle, or null; across organizations (the runner's wake-up). */
    async nextReminder() {
      const [row] = await db()<{ at: string | null }[]>`SELECT min(remind_at) AS at FROM tasks
        WHERE reminded_at IS NULL AND status = 'open' AND remind_at IS NOT NULL`;
      return row.at;
    },
  };
}
