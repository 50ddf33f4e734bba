// The mail log (C22): what outgoing mail the organization queued and what became of it, newest first.
import type { Static } from "@sinclair/typebox";
import type { Context } from "../context";
import type { MailRow } from "../db/mail";
import type { MailLogEntry } from "../schemas/mail";

export type MailLogItem = Static<typeof MailLogEntry>;

const entry = (row: MailRow): MailLogItem => ({
  id: row.id,
  kind: row.kind,
  recipient: row.to_address,
  subject: row.subject,
  member_id: row.member_id,
  task_id: row.task_id,
  status: row.status,
  attempts: row.attempts,
  next_attempt_at: row.next_attempt_at === null ? null : new Date(row.next_attempt_at).toISOString(),
  last_error: row.last_error,
  reply: row.reply,
  created_at: row.created_at,
  sent_at: row.sent_at,
});

export async function mailLog(ctx: Context, organizationId: string, paging: { page: number; perPage: number }): Promise<{ data: MailLogItem[]; total: number }> {
  const { data, total } = await ctx.store.read(() => ctx.store.mail.page(organizationId, paging.perPage, (paging.page - 1) * paging.perPage));
  return { data: data.map(entry), total };
}
