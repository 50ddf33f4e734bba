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

/** A reminder whose time has come (the job runner's scan). */
export interface DueReminder {
  organization_id: string;
  id: string;
  remind_at: string;
}

const UPDATABLE = ["title", "notes", "due_at", "remind_at", "reminded_at", "assigned_to", "dossier_id", "contact_id", "status", "done_at", "updated_at"] as const;
export type TaskChanges = Partial<Pick<TaskRecord, Exclude<(typeof UPDATABLE)[number], "reminded_at">> & { reminded_at: string | null }>;

export function taskQueries({ sqlite }: QueryDeps) {
  const byId = sqlite.query<TaskRow, [string, string]>(`SELECT ${COLUMNS} FROM tasks WHERE organization_id = ? AND id = ?`);
  const insert = sqlite.query(
    `INSERT INTO tasks (id, organization_id, dossier_id, contact_id, title, notes, due_at, remind_at, reminded_at, assigned_to, status, done_at,
       created_by_kind, created_by_id, stage_visit_id, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const remove = sqlite.query<unknown, [string, string]>(`DELETE FROM tasks WHERE organization_id = ? AND id = ?`);

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

  return {
    byId: (organizationId: string, id: string): TaskRecord | null => {
      const row = byId.get(organizationId, id);
      return row ? record(row) : null;
    },

    /** A page of the organization's tasks that match `filter`, in C22's order, and their total. */
    page(organizationId: string, filter: TaskFilter, limit: number, offset: number): { data: TaskRecord[]; total: number } {
      const { sql, args } = where(organizationId, filter);
      const total = sqlite.query<{ n: number }, (string | number)[]>(`SELECT count(*) AS n FROM tasks WHERE ${sql}`).get(...args)!.n;
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

    insert(task: TaskRecord, stageVisitId: number | null = null) {
      insert.run(
        task.id, task.organization_id, task.dossier_id, task.contact_id, task.title, task.notes, task.due_at, task.remind_at, task.assigned_to,
        task.status, task.done_at, task.created_by.kind, task.created_by.id, stageVisitId, task.created_at, task.updated_at,
      );
    },

    /** The follow-up task of an overdue stage visit (C22): false when the visit has one already
     * (another process made it first: the unique index decides). */
    insertForVisit(task: TaskRecord, stageVisitId: number): boolean {
      return (
        sqlite
          .query(
            `INSERT INTO tasks (id, organization_id, dossier_id, contact_id, title, notes, due_at, remind_at, reminded_at, assigned_to, status, done_at,
               created_by_kind, created_by_id, stage_visit_id, created_at, updated_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
          )
          .run(
            task.id, task.organization_id, task.dossier_id, task.contact_id, task.title, task.notes, task.due_at, task.remind_at, task.assigned_to,
            task.status, task.done_at, task.created_by.kind, task.created_by.id, stageVisitId, task.created_at, task.updated_at,
          ).changes > 0
      );
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

    /** Active dossiers whose current stage visit passed its deadline at or before `now` and has no
     * task yet, in flows that make them, by deadline then dossier id (not rowid: PostgreSQL has
     * none); across organizations (the job runner's scan, by the partial index dossiers_active_due). */
    overdueVisits(now: string, limit: number): OverdueVisit[] {
      return sqlite
        .query<OverdueVisit, [string, number]>(
          `SELECT d.organization_id, d.id AS dossier_id, d.name AS dossier_name, s.name AS stage_name, d.stage_due_at, v.id AS visit_id,
                  (SELECT m.id FROM members m WHERE m.organization_id = d.organization_id AND m.id = d.assigned_to AND m.disabled_at IS NULL) AS assignee
           FROM dossiers d
           JOIN flows f ON f.id = d.flow_id AND f.organization_id = d.organization_id
           JOIN stages s ON s.id = d.current_stage_id AND s.organization_id = d.organization_id
           JOIN stage_visits v ON v.id = (SELECT max(id) FROM stage_visits WHERE dossier_id = d.id AND organization_id = d.organization_id AND left_at IS NULL)
           WHERE d.status = 'active' AND d.stage_due_at IS NOT NULL AND d.stage_due_at <= ? AND f.overdue_tasks = 1
             AND v.stage_id = d.current_stage_id
             AND NOT EXISTS (SELECT 1 FROM tasks t WHERE t.stage_visit_id = v.id)
           ORDER BY d.stage_due_at, d.id
           LIMIT ?`,
        )
        .all(now, limit);
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
