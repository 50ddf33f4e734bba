// Outgoing mail (C22) on PostgreSQL: src/db/mail.ts's statements, the same answers. Reads for one
// organization name it; the runner's scans across organizations (due messages, the next one due,
// interrupted attempts, members whose digest may be due) say so. next_attempt_at is bigint (epoch
// ms): read as float8, and ordered by the table's column (outgoing_mail.next_attempt_at), not the
// output column of the same name.
import type { DigestCandidate, MailRow, MailTaskRow, NewMail } from "../mail";
import type { Db } from "./client";
import type { EngineQueries } from "./queries";

export function pgMailQueries(db: Db): EngineQueries<"mail"> {
  return {
    async insert(mail: NewMail) {
      await db()`INSERT INTO outgoing_mail (id, organization_id, member_id, task_id, kind, to_address, subject, message, status, attempts, next_attempt_at, created_at)
        VALUES (${mail.id}, ${mail.organization_id}, ${mail.member_id}, ${mail.task_id}, ${mail.kind}, ${mail.to_address}, ${mail.subject}, ${mail.message},
          'queued', 0, ${mail.next_attempt_at}::bigint, ${mail.created_at})`;
    },

    /** The mail log: newest first (ties by id, descending), and the total. */
    async page(organizationId: string, limit: number, offset: number) {
      const [{ n: total }] = await db()<{ n: number }[]>`SELECT count(*)::integer AS n FROM outgoing_mail WHERE organization_id = ${organizationId}`;
      if (offset >= total) return { data: [], total };
      const data = await db()<MailRow[]>`SELECT id, organization_id, member_id, task_id, kind, to_address, subject, message, status, attempts,
          next_attempt_at::float8 AS next_attempt_at, last_attempt_at, last_error, reply, sent_at, created_at
        FROM outgoing_mail WHERE organization_id = ${organizationId}
        ORDER BY outgoing_mail.created_at DESC, outgoing_mail.id DESC LIMIT ${limit}::bigint OFFSET ${offset}::bigint`;
      return { data: [...data], total };
    },

    /** Messages due at `nowMs`, earliest first (ties by id); across organizations (the sender's scan). */
    async due(nowMs: number, limit: number) {
      return [
        ...(await db()<MailRow[]>`SELECT id, organization_id, member_id, task_id, kind, to_address, subject, message, status, attempts,
            next_attempt_at::float8 AS next_attempt_at, last_attempt_at, last_error, reply, sent_at, created_at
          FROM outgoing_mail WHERE status = 'queued' AND next_attempt_at <= ${nowMs}::bigint
          ORDER BY outgoing_mail.next_attempt_at, outgoing_mail.id LIMIT ${limit}::bigint`),
      ];
    },

    /** The earliest time a queued message is due (epoch ms), or null; across organizations. */
    async nextDue() {
      const [row] = await db()<{ at: number | null }[]>`SELECT min(next_attempt_at)::float8 AS at FROM outgoing_mail WHERE status = 'queued'`;
      return row.at;
    },

    /** An attempt begins: recorded before connecting. False when the message was not queued any more. */
    async begin(organizationId: string, id: string, at: string) {
      const done = await db()`UPDATE outgoing_mail SET status = 'sending', attempts = attempts + 1, last_attempt_at = ${at}, next_attempt_at = NULL
        WHERE organization_id = ${organizationId} AND id = ${id} AND status = 'queued'`;
      return done.count > 0;
    },

    async sent(organizationId: string, id: string, at: string, reply: string) {
      await db()`UPDATE outgoing_mail SET status = 'sent', sent_at = ${at}, reply = ${reply}, last_error = NULL
        WHERE organization_id = ${organizationId} AND id = ${id}`;
    },

    async failed(organizationId: string, id: string, error: string) {
      await db()`UPDATE outgoing_mail SET status = 'failed', last_error = ${error} WHERE organization_id = ${organizationId} AND id = ${id}`;
    },

    async retry(organizationId: string, id: string, atMs: number, error: string) {
      await db()`UPDATE outgoing_mail SET status = 'queued', next_attempt_at = ${atMs}::bigint, last_error = ${error}
        WHERE organization_id = ${organizationId} AND id = ${id}`;
    },

    /** Attempts begun (at or before `begunBefore`, when given) and never recorded (a crash, a stop
     * mid-send), oldest first (ties by id); across organizations (the sender's recovery). */
    async interrupted(begunBefore: string | null = null) {
      return [
        ...(await db()<MailRow[]>`SELECT id, organization_id, member_id, task_id, kind, to_address, subject, message, status, attempts,
            next_attempt_at::float8 AS next_attempt_at, last_attempt_at, last_error, reply, sent_at, created_at
          FROM outgoing_mail WHERE status = 'sending' AND (${begunBefore}::text IS NULL OR last_attempt_at <= ${begunBefore}) ORDER BY outgoing_mail.created_at, outgoing_mail.id`),
      ];
    },

    /** Members who take a digest, by organization then id: not disabled, digest on; across
     * organizations (the digest scan). */
    async digestCandidates() {
      return [
        ...(await db()<DigestCandidate[]>`SELECT id, organization_id, email, name, time_zone, digest, last_digest_date FROM members
          WHERE disabled_at IS NULL AND digest ORDER BY organization_id, id`),
      ];
    },

    /** Claims the member's digest for local day `date` (to be made in this unit, sent or found
     * empty): false when a digest for that day or a later one is already made. A node whose
     * lease ran out mid-run waits here on the row the other holds, then finds it claimed. */
    async digestMade(organizationId: string, memberId: string, date: string) {
      const done = await db()`UPDATE members SET last_digest_date = ${date} WHERE organization_id = ${organizationId} AND id = ${memberId}
        AND (last_digest_date IS NULL OR last_digest_date < ${date})`;
      return done.count > 0;
    },

    /** The member's open tasks with a due date before `before`, with names, by due time then id. */
    async openTasksOf(organizationId: string, memberId: string, before: string) {
      return [
        ...(await db()<MailTaskRow[]>`SELECT t.id, t.title, t.notes, t.due_at, t.status, t.dossier_id, d.name AS dossier_name, t.contact_id,
            c.full_name AS contact_name, t.assigned_to, t.remind_at
          FROM tasks t
          LEFT JOIN dossiers d ON d.id = t.dossier_id AND d.organization_id = t.organization_id
          LEFT JOIN contacts c ON c.id = t.contact_id AND c.organization_id = t.organization_id
          WHERE t.organization_id = ${organizationId} AND t.assigned_to = ${memberId} AND t.status = 'open' AND t.due_at IS NOT NULL
            AND t.due_at < ${before}
          ORDER BY t.due_at, t.id`),
      ];
    },

    /** One task with names. */
    async task(organizationId: string, id: string) {
      const [row] = await db()<MailTaskRow[]>`SELECT t.id, t.title, t.notes, t.due_at, t.status, t.dossier_id, d.name AS dossier_name, t.contact_id,
          c.full_name AS contact_name, t.assigned_to, t.remind_at
        FROM tasks t
        LEFT JOIN dossiers d ON d.id = t.dossier_id AND d.organization_id = t.organization_id
        LEFT JOIN contacts c ON c.id = t.contact_id AND c.organization_id = t.organization_id
        WHERE t.organization_id = ${organizationId} AND t.id = ${id}`;
      return row ?? null;
    },

    /** Claims the task's reminder (to be queued in this unit, or nothing to send): false when it is
     * handled already (by a node whose lease ran out mid-run: this waits on its row, then sees it). */
    async reminded(organizationId: string, taskId: string, at: string) {
      const done = await db()`UPDATE tasks SET reminded_at = ${at} WHERE organization_id = ${organizationId} AND id = ${taskId} AND reminded_at IS NULL`;
      return done.count > 0;
    },
  };
}
