// Outgoing mail (C22): the queue's rows, the mail log, and what the job runner reads to compose
// reminders and digests. Reads for one organization name it; the runner's scans across
// organizations (due messages, members whose digest may be due) say so.
import type { QueryDeps } from "./queries";
import type { OutgoingMailRow } from "./schema";

/** A queued message as the log shows it and the sender needs it. */
export interface MailRow {
  id: string;
  organization_id: string;
  member_id: string | null;
  task_id: string | null;
  kind: string;
  to_address: string;
  subject: string;
  message: string;
  status: OutgoingMailRow["status"];
  attempts: number;
  next_attempt_at: number | null;
  last_attempt_at: string | null;
  last_error: string | null;
  reply: string | null;
  sent_at: string | null;
  created_at: string;
}

export interface NewMail {
  id: string;
  organization_id: string;
  member_id: string | null;
  task_id: string | null;
  kind: string;
  to_address: string;
  subject: string;
  /** The OutgoingMail, as JSON. */
  message: string;
  next_attempt_at: number;
  created_at: string;
}

/** A member as the digest scan sees them. */
export interface DigestCandidate {
  id: string;
  organization_id: string;
  email: string;
  name: string;
  time_zone: string | null;
  digest: boolean;
  last_digest_date: string | null;
}

/** A task as a message shows it: with its dossier's name and its contact's. */
export interface MailTaskRow {
  id: string;
  title: string;
  notes: string | null;
  due_at: string | null;
  status: "open" | "done";
  dossier_id: string | null;
  dossier_name: string | null;
  contact_id: string | null;
  contact_name: string | null;
  assigned_to: string | null;
  remind_at: string | null;
}

const COLUMNS = `id, organization_id, member_id, task_id, kind, to_address, subject, message, status, attempts, next_attempt_at,
  last_attempt_at, last_error, reply, sent_at, created_at`;

const TASK = `SELECT t.id, t.title, t.notes, t.due_at, t.status, t.dossier_id, d.name AS dossier_name, t.contact_id, c.full_name AS contact_name,
  t.assigned_to, t.remind_at
  FROM tasks t
  LEFT JOIN dossiers d ON d.id = t.dossier_id AND d.organization_id = t.organization_id
  LEFT JOIN contacts c ON c.id = t.contact_id AND c.organization_id = t.organization_id`;

export function mailQueries({ sqlite }: QueryDeps) {
  const insert = sqlite.query(
    `INSERT INTO outgoing_mail (id, organization_id, member_id, task_id, kind, to_address, subject, message, status, attempts, next_attempt_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'queued', 0, ?, ?)`,
  );
  return {
    insert(mail: NewMail) {
      insert.run(mail.id, mail.organization_id, mail.member_id, mail.task_id, mail.kind, mail.to_address, mail.subject, mail.message, mail.next_attempt_at, mail.created_at);
    },

    /** The mail log: newest first, and the total. */
    page(organizationId: string, limit: number, offset: number): { data: MailRow[]; total: number } {
      const total = sqlite.query<{ n: number }, [string]>(`SELECT count(*) AS n FROM outgoing_mail WHERE organization_id = ?`).get(organizationId)!.n;
      const data =
        offset >= total
          ? []
          : sqlite
              .query<MailRow, [string, number, number]>(`SELECT ${COLUMNS} FROM outgoing_mail WHERE organization_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`)
              .all(organizationId, limit, offset);
      return { data, total };
    },

    /** Messages due at `nowMs`, earliest first; across organizations (the sender's scan). */
    due(nowMs: number, limit: number): MailRow[] {
      return sqlite
        .query<MailRow, [number, number]>(`SELECT ${COLUMNS} FROM outgoing_mail WHERE status = 'queued' AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?`)
        .all(nowMs, limit);
    },

    /** The earliest time a queued message is due (epoch ms), or null; across organizations. */
    nextDue: (): number | null =>
      sqlite.query<{ at: number | null }, []>(`SELECT min(next_attempt_at) AS at FROM outgoing_mail WHERE status = 'queued'`).get()!.at,

    /** An attempt begins: recorded before connecting (round3-notes: at most once, but for a crash
     * after the server's 250). False when the message was not queued any more. */
    begin(organizationId: string, id: string, at: string): boolean {
      return (
        sqlite
          .query(`UPDATE outgoing_mail SET status = 'sending', attempts = attempts + 1, last_attempt_at = ?, next_attempt_at = NULL WHERE organization_id = ? AND id = ? AND status = 'queued'`)
          .run(at, organizationId, id).changes > 0
      );
    },

    sent(organizationId: string, id: string, at: string, reply: string) {
      sqlite.query(`UPDATE outgoing_mail SET status = 'sent', sent_at = ?, reply = ?, last_error = NULL WHERE organization_id = ? AND id = ?`).run(at, reply, organizationId, id);
    },
    failed(organizationId: string, id: string, error: string) {
      sqlite.query(`UPDATE outgoing_mail SET status = 'failed', last_error = ? WHERE organization_id = ? AND id = ?`).run(error, organizationId, id);
    },
    retry(organizationId: string, id: string, atMs: number, error: string) {
      sqlite.query(`UPDATE outgoing_mail SET status = 'queued', next_attempt_at = ?, last_error = ? WHERE organization_id = ? AND id = ?`).run(atMs, error, organizationId, id);
    },

    /** Attempts begun (at or before `begunBefore`, when given) and never recorded (a crash, a stop
     * mid-send), oldest first; across organizations. */
    interrupted: (begunBefore: string | null = null): MailRow[] =>
      sqlite
        .query<MailRow, [string | null, string | null]>(`SELECT ${COLUMNS} FROM outgoing_mail WHERE status = 'sending' AND (? IS NULL OR last_attempt_at <= ?) ORDER BY created_at, id`)
        .all(begunBefore, begunBefore),

    /** Members who take a digest, by organization then id, across organizations (the digest scan):
     * not disabled, digest on. */
    digestCandidates(): DigestCandidate[] {
      return sqlite
        .query<Omit<DigestCandidate, "digest"> & { digest: number }, []>(
          `SELECT id, organization_id, email, name, time_zone, digest, last_digest_date FROM members WHERE disabled_at IS NULL AND digest = 1 ORDER BY organization_id, id`,
        )
        .all()
        .map((row) => ({ ...row, digest: row.digest === 1 }));
    },

    /** Claims the member's digest for local day `date` (to be made in this unit, sent or found
     * empty): false when a digest for that day or a later one is already made. */
    digestMade(organizationId: string, memberId: string, date: string): boolean {
      return (
        sqlite
          .query(`UPDATE members SET last_digest_date = ? WHERE organization_id = ? AND id = ? AND (last_digest_date IS NULL OR last_digest_date < ?)`)
          .run(date, organizationId, memberId, date).changes > 0
      );
    },

    /** The member's open tasks with a due date before `before`, with names, by due time. */
    openTasksOf(organizationId: string, memberId: string, before: string): MailTaskRow[] {
      return sqlite
        .query<MailTaskRow, [string, string, string]>(
          `${TASK} WHERE t.organization_id = ? AND t.assigned_to = ? AND t.status = 'open' AND t.due_at IS NOT NULL AND t.due_at < ? ORDER BY t.due_at, t.id`,
        )
        .all(organizationId, memberId, before);
    },

    /** One task with names. */
    task: (organizationId: string, id: string): MailTaskRow | null => sqlite.query<MailTaskRow, [string, string]>(`${TASK} WHERE t.organization_id = ? AND t.id = ?`).get(organizationId, id),

    /** Claims the task's reminder (to be queued in this unit, or nothing to send): false when it is
     * handled already. */
    reminded(organizationId: string, taskId: string, at: string): boolean {
      return sqlite.query(`UPDATE tasks SET reminded_at = ? WHERE organization_id = ? AND id = ? AND reminded_at IS NULL`).run(at, organizationId, taskId).changes > 0;
    },
  };
}
