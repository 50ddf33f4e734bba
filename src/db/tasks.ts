// Tasks (C22): their rows, and the look-ups that check a task's references within the organization.
// Every statement names the organization, except the job runner's scans across organizations
// (overdue stages, reminders due), which say so.
import type { Static } from "@sinclair/typebox";
import type { Task } from "../schemas/tasks";
import type { QueryDeps } from "./queries";

export type TaskRecord = Static<typeof Task>;
type TaskRow = Omit<TaskRecord, "created_by"> & { created_by_kind: TaskRecord["created_by"]["kind"]; created_by_id: string | null };

const COLUMNS = `id, organization_id, dossier_id, contact_id, title, notes, due_at, remind_at, assigned_to, status, done_at,
  created_by_kind, created_by_id, created_at, updated_at`;

/** due_at ascending, no due date last, then created_at, then id (C22). */
const ORDER = `ORDER BY due_at IS NULL, due_at, created_at, id`;

/** A cursor page's position (issue 38): the task before it, by the columns of ORDER. */
export interface TaskPosition {
  due_at: string | null;
  created_at: string;
  id: string;
}

const record = ({ created_by_kind, created_by_id, ...row }: TaskRow): TaskRecord => ({ ...row, created_by: { kind: created_by_kind, id: created_by_id } });

/** The filters of a list, read and checked by the service. */
export interface TaskFilter {
  assignedTo?: string;
  status?: "open" | "done";
  /** Tasks of any of these dossiers; [] or absent: no filter. */
  dossierIds?: string[];
  contactId?: string;
  dueBefore?: string;
  dueAfter?: string;
  /** true: open and due before `now`; false: the others. */
  overdue?: boolean;
  now: string;
}

/** An overdue stage visit that has no task yet (the job runner's scan). */
export interface OverdueVisit {
  organization_id: string;
  dossier_id: string;
  dossier_name: string;
  stage_name: string;
  stage_due_at: string;
  visit_id: number;
  /** The dossier's assignee when it is a member of the organization, else null. */
  assignee: string | null;
}

/** Where the overdue scan goes on from: the last dossier it read, in (stage_due_at, id) order. */
export interface OverdueCursor {
  stage_due_at: string;
  dossier_id: string;
}

/** A batch of the overdue scan: the visits due a task among the dossiers read, and where the next
 * batch begins (null: none left at or before `now`). */
export interface OverdueBatch {
  visits: OverdueVisit[];
  next: OverdueCursor | null;
}

/** The scan's rows: each dossier read, and its visit when it is due a task (else visit_id null). */
export type OverdueRow = Omit<OverdueVisit, "visit_id"> & { visit_id: number | null };

/** The batch from the scan's rows (both engines). */
export function overdueBatch(rows: OverdueRow[], limit: number): OverdueBatch {
  const last = rows.at(-1);
  return {
    visits: rows.filter((row): row is OverdueVisit => row.visit_id !== null),
    next: last !== undefined && rows.length >= limit ? { stage_due_at: last.stage_due_at, dossier_id: last.dossier_id } : null,
  };
}

/** A reminder whose time has come (the job runner's scan). */
export interface DueReminder {
  organization_id: string;
  id: string;
  remind_at: string;
}

const UPDATABLE = ["title", "notes", "due_at", "remind_at", "reminded_at", "assigned_to", "dossier_id", "contact_id", "status", "done_at", "updated_at"] as const;
export type TaskChanges = Partial<Pick<TaskRecord, Exclude<(typeof UPDATABLE)[number], "reminded_at">> & { reminded_at: string | null }>;

/** The overdue scan's statement (?1 now, ?2 and ?3 the cursor, ?4 the limit): the dossiers read by
 * the partial index alone (INDEXED BY: an error rather than a scan of the table if it could not be
 * used), then each one's flow, stage and current visit by their keys. Exported for the test that
 * reads its plan (test/jobs/overdue-scale.test.ts). */
export const OVERDUE_SCAN = `SELECT d.organization_id, d.id AS dossier_id, d.name AS dossier_name, s.name AS stage_name, d.stage_due_at,
    CASE WHEN f.id IS NOT NULL AND s.id IS NOT NULL THEN v.id END AS visit_id,
    (SELECT m.id FROM members m WHERE m.organization_id = d.organization_id AND m.id = d.assigned_to AND m.disabled_at IS NULL) AS assignee
  FROM (SELECT id FROM dossiers INDEXED BY dossiers_overdue_todo
         WHERE status = 'active' AND stage_due_at IS NOT NULL AND overdue_task_visit_id IS NULL
           AND stage_due_at <= ?1 AND (stage_due_at, id) > (?2, ?3)
         ORDER BY stage_due_at, id LIMIT ?4) c
  JOIN dossiers d ON d.id = c.id
  LEFT JOIN flows f ON f.id = d.flow_id AND f.organization_id = d.organization_id AND f.overdue_tasks = 1
  LEFT JOIN stages s ON s.id = d.current_stage_id AND s.organization_id = d.organization_id
  LEFT JOIN stage_visits v ON v.id = (SELECT max(id) FROM stage_visits WHERE dossier_id = d.id AND organization_id = d.organization_id AND left_at IS NULL)
    AND v.stage_id = d.current_stage_id
  ORDER BY d.stage_due_at, d.id`;

export function taskQueries({ sqlite }: QueryDeps) {
  const byId = sqlite.query<TaskRow, [string, string]>(`SELECT ${COLUMNS} FROM tasks WHERE organization_id = ? AND id = ?`);
  const insert = sqlite.query(
    `INSERT INTO tasks (id, organization_id, dossier_id, contact_id, title, notes, due_at, remind_at, reminded_at, assigned_to, status, done_at,
       created_by_kind, created_by_id, stage_visit_id, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const remove = sqlite.query<unknown, [string, string]>(`DELETE FROM tasks WHERE organization_id = ? AND id = ?`);
  // The visit's dossier leaves the overdue scan (dossiers_overdue_todo), if the visit is still its current one.
  const markVisit = sqlite.query<unknown, [number]>(
    `UPDATE dossiers SET overdue_task_visit_id = v.id FROM stage_visits v
      WHERE v.id = ? AND v.left_at IS NULL AND dossiers.id = v.dossier_id AND dossiers.organization_id = v.organization_id
        AND dossiers.current_stage_id = v.stage_id`,
  );

  const where = (organizationId: string, filter: TaskFilter): { sql: string; args: (string | number)[] } => {
    const parts = ["organization_id = ?"];
    const args: (string | number)[] = [organizationId];
    if (filter.assignedTo !== undefined) (parts.push("assigned_to = ?"), args.push(filter.assignedTo));
    if (filter.status !== undefined) (parts.push("status = ?"), args.push(filter.status));
    if (filter.dossierIds !== undefined && filter.dossierIds.length > 0) {
      parts.push(`dossier_id IN (${filter.dossierIds.map(() => "?").join(", ")})`);
      args.push(...filter.dossierIds);
    }
    if (filter.contactId !== undefined) (parts.push("contact_id = ?"), args.push(filter.contactId));
    if (filter.dueBefore !== undefined) (parts.push("due_at < ?"), args.push(filter.dueBefore));
    if (filter.dueAfter !== undefined) (parts.push("due_at >= ?"), args.push(filter.dueAfter));
    if (filter.overdue === true) (parts.push("status = 'open' AND due_at < ?"), args.push(filter.now));
    if (filter.overdue === false) (parts.push("NOT (status = 'open' AND due_at IS NOT NULL AND due_at < ?)"), args.push(filter.now));
    return { sql: parts.join(" AND "), args };
  };

  /** A cursor page: the tasks after `after` in ORDER, read without a sort. After a dated task, the
   * dated ones due later (or as late and made later) in the order of tasks_org_due (organization,
   * due_at, created_at, id), then, while the page is not full, the undated ones (that index's NULL
   * entries, by created_at and id: ORDER BY names due_at too, all NULL there, so that PostgreSQL
   * sees the index's order); after an undated task, the undated ones made later. */
  const pageAfter = (sql: string, args: (string | number)[], limit: number, after: TaskPosition): TaskRecord[] => {
    const dated =
      after.due_at === null
        ? []
        : sqlite
            .query<TaskRow, (string | number)[]>(
              `SELECT ${COLUMNS} FROM tasks WHERE ${sql} AND due_at IS NOT NULL AND (due_at, created_at, id) > (?, ?, ?) ORDER BY due_at, created_at, id LIMIT ?`,
            )
            .all(...args, after.due_at, after.created_at, after.id, limit);
    if (dated.length >= limit) return dated.map(record);
    const seek = after.due_at === null ? { sql: " AND (created_at, id) > (?, ?)", args: [after.created_at, after.id] } : { sql: "", args: [] };
    const undated = sqlite
      .query<TaskRow, (string | number)[]>(`SELECT ${COLUMNS} FROM tasks WHERE ${sql} AND due_at IS NULL${seek.sql} ORDER BY due_at, created_at, id LIMIT ?`)
      .all(...args, ...seek.args, limit - dated.length);
    return [...dated, ...undated].map(record);
  };

  return {
    byId: (organizationId: string, id: string): TaskRecord | null => {
      const row = byId.get(organizationId, id);
      return row ? record(row) : null;
    },

    /** A page of the organization's tasks that match `filter`, in C22's order, and their total.
     * `after`: a cursor page (issue 38), the tasks after that one in the order (offset 0). */
    page(organizationId: string, filter: TaskFilter, limit: number, offset: number, after?: TaskPosition): { data: TaskRecord[]; total: number } {
      const { sql, args } = where(organizationId, filter);
      const total = sqlite.query<{ n: number }, (string | number)[]>(`SELECT count(*) AS n FROM tasks WHERE ${sql}`).get(...args)!.n;
      if (after !== undefined) return { data: total === 0 ? [] : pageAfter(sql, args, limit, after), total };
      const data =
        offset >= total
          ? []
          : sqlite.query<TaskRow, (string | number)[]>(`SELECT ${COLUMNS} FROM tasks WHERE ${sql} ${ORDER} LIMIT ? OFFSET ?`).all(...args, limit, offset).map(record);
      return { data, total };
    },

    /** Every open task assigned to a member with a due date before `before`, in C22's order (a digest, a feed). */
    openOfMember(organizationId: string, memberId: string, before: string | null): TaskRecord[] {
      return sqlite
        .query<TaskRow, [string, string, string]>(
          `SELECT ${COLUMNS} FROM tasks WHERE organization_id = ? AND assigned_to = ? AND status = 'open' AND due_at IS NOT NULL AND due_at < ? ${ORDER}`,
        )
        .all(organizationId, memberId, before ?? "\uffff")
        .map(record);
    },

    /** A task; with a stage visit, the visit is handled too (as insertForVisit). */
    insert(task: TaskRecord, stageVisitId: number | null = null) {
      insert.run(
        task.id, task.organization_id, task.dossier_id, task.contact_id, task.title, task.notes, task.due_at, task.remind_at, task.assigned_to,
        task.status, task.done_at, task.created_by.kind, task.created_by.id, stageVisitId, task.created_at, task.updated_at,
      );
      if (stageVisitId !== null) markVisit.run(stageVisitId);
    },

    /** The follow-up task of an overdue stage visit (C22): false when the visit has one already
     * (another process made it first: the unique index decides). Either way the visit is handled:
     * its dossier's overdue_task_visit_id is set, in this unit, while the visit is the current one. */
    insertForVisit(task: TaskRecord, stageVisitId: number): boolean {
      const made =
        sqlite
          .query(
            `INSERT INTO tasks (id, organization_id, dossier_id, contact_id, title, notes, due_at, remind_at, reminded_at, assigned_to, status, done_at,
               created_by_kind, created_by_id, stage_visit_id, created_at, updated_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
          )
          .run(
            task.id, task.organization_id, task.dossier_id, task.contact_id, task.title, task.notes, task.due_at, task.remind_at, task.assigned_to,
            task.status, task.done_at, task.created_by.kind, task.created_by.id, stageVisitId, task.created_at, task.updated_at,
          ).changes > 0;
      markVisit.run(stageVisitId);
      return made;
    },

    /** Sets the given fields (names from a fixed list, values bound). */
    update(organizationId: string, id: string, changes: TaskChanges) {
      const fields = UPDATABLE.filter((field) => field in changes);
      if (fields.length === 0) return;
      sqlite
        .query(`UPDATE tasks SET ${fields.map((field) => `${field} = ?`).join(", ")} WHERE organization_id = ? AND id = ?`)
        .run(...fields.map((field) => (changes as Record<string, string | null>)[field] ?? null), organizationId, id);
    },

    delete: (organizationId: string, id: string): boolean => remove.run(organizationId, id).changes > 0,

    /** Whether the id names a dossier of the organization. */
    dossierExists: (organizationId: string, id: string): boolean =>
      sqlite.query<{ one: number }, [string, string]>(`SELECT 1 AS one FROM dossiers WHERE organization_id = ? AND id = ?`).get(organizationId, id) !== null,
    contactExists: (organizationId: string, id: string): boolean =>
      sqlite.query<{ one: number }, [string, string]>(`SELECT 1 AS one FROM contacts WHERE organization_id = ? AND id = ?`).get(organizationId, id) !== null,
    /** Whether the id names a member of the organization who is not disabled. */
    activeMemberExists: (organizationId: string, id: string): boolean =>
      sqlite
        .query<{ one: number }, [string, string]>(`SELECT 1 AS one FROM members WHERE organization_id = ? AND id = ? AND disabled_at IS NULL`)
        .get(organizationId, id) !== null,

    /** The overdue-tasks job's scan (C22), across organizations: the next `limit` dossiers after
     * `after` (null: from the first) that are active, past their stage's deadline at or before `now`
     * and not handled (overdue_task_visit_id null), in (stage_due_at, id) order (not rowid:
     * PostgreSQL has none), read by the partial index dossiers_overdue_todo and nothing else; of
     * those, the current stage visits due a task (in a flow that makes them). `limit` bounds the
     * rows read, whatever is due: a flow with overdue_tasks off costs reads, never a long query. */
    overdueVisits(now: string, limit: number, after: OverdueCursor | null = null): OverdueBatch {
      const rows = sqlite.query<OverdueRow, [string, string, string, number]>(OVERDUE_SCAN).all(now, after?.stage_due_at ?? "", after?.dossier_id ?? "", limit);
      return overdueBatch(rows, limit);
    },

    /** Open tasks whose remind_at has come and whose reminder is not handled, by remind_at then id;
     * across organizations (the job runner's scan, by the partial index tasks_remind_due). */
    dueReminders(now: string, limit: number): DueReminder[] {
      return sqlite
        .query<DueReminder, [string, number]>(
          `SELECT organization_id, id, remind_at FROM tasks WHERE reminded_at IS NULL AND status = 'open' AND remind_at IS NOT NULL AND remind_at <= ? ORDER BY remind_at, id LIMIT ?`,
        )
        .all(now, limit);
    },

    /** The earliest remind_at still to handle (the runner's next wake-up), or null. */
    nextReminder: (): string | null =>
      sqlite
        .query<{ at: string | null }, []>(`SELECT min(remind_at) AS at FROM tasks WHERE reminded_at IS NULL AND status = 'open' AND remind_at IS NOT NULL`)
        .get()!.at,
  };
}
