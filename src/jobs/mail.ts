// Outgoing mail's jobs (C22), run by the job runner when DOSSIER_SMTP_URL is set (without it nothing
// is queued: reminders show in the console only):
//   - reminders: a task's remind_at has come: its assignee's reminder is queued in the unit that
//     marks the reminder handled;
//   - digests: a member's 08:00 in their zone has come (src/mail/digest-plan.ts): their tasks due
//     that local day and overdue are composed and queued in the unit that records the day (none
//     when there is nothing to say, and the day is recorded all the same);
//   - the sender: each due message's attempt is recorded (status sending, attempts + 1) and
//     committed before connecting, the message sent outside any unit, and the outcome recorded
//     after: sent, failed with the server's reply (5xx), or queued again on C22's schedule (4xx,
//     timeouts, refused connections; 1 min, 5 min, 30 min, 2 h, then failed). A crash between the
//     server's 250 and the record leaves the message `sending`: at the next start it is due again,
//     the one duplicate C22 allows (its Message-ID is the same).
// Several nodes on one PostgreSQL database (C19): each job's run holds the job's lease (runner.ts),
// so one node at a time makes reminders, digests or sends; a run stops between batches once its
// lease is no longer sure. Reminders and digests are claimed in their unit before they are queued,
// so a run whose lease ran out mid-unit cannot make one twice with the run that took over. A message
// `sending` a lease ago or more when a run takes the sender's lease was begun by a node that died
// (or a run that could not record): due again, as after a crash; so the sender looks for them at
// the start of each run there, not only at its first (SQLite: one process, whose own runs never
// leave one behind).
import { createHmac } from "node:crypto";
import type { Context } from "../context";
import type { DigestCandidate, MailTaskRow } from "../db/mail";
import { newId } from "../ids";
import { composeDigest, composeReminder, type MailTask } from "../mail/compose";
import { digestsDue, nextDigestWakeUp } from "../mail/digest-plan";
import { localDayRange, memberTimeZone } from "../mail/digest-time";
import type { OutgoingMail } from "../mail/message";
import { MAIL_MAX_ATTEMPTS, mailAttemptResult } from "../mail/schedule";
import type { MailSender } from "../mail/send";
import type { MailSettings } from "../mail/settings";
import { unsubscribeUrl } from "../mail/unsubscribe";
import type { Held } from "./lease";
import type { Job } from "./runner";

/** Where links in messages point, and the key of unsubscribe links. */
export interface MailLinksSource {
  /** `<base>` of the installation (DOSSIER_PUBLIC_URL, else the server's address). */
  base(): string;
}

/** The key of digest unsubscribe links (src/mail/unsubscribe.ts), derived from master.key. */
export const unsubscribeKey = (ctx: Context): Uint8Array => createHmac("sha256", ctx.masterKey).update("dossier:digest-unsubscribe-key:v1").digest();

const REMINDER_BATCH = 200;
const DIGEST_BATCH = 100;
const SEND_BATCH = 50;
const ROUNDS = 50;

function mailTask(row: MailTaskRow, base: string): MailTask {
  return {
    id: row.id,
    title: row.title,
    notes: row.notes,
    due_at: row.due_at,
    status: row.status,
    dossier: row.dossier_id && row.dossier_name !== null ? { id: row.dossier_id, name: row.dossier_name } : null,
    contact: row.contact_id && row.contact_name !== null ? { id: row.contact_id, full_name: row.contact_name } : null,
    url: row.dossier_id ? `${base}/console/dossiers/${row.dossier_id}` : `${base}/console/tasks`,
  };
}

/** Queues `mail` in the current unit. */
async function queue(ctx: Context, organizationId: string, mail: OutgoingMail, memberId: string, taskId: string | null, now: Date) {
  await ctx.store.mail.insert({
    id: mail.id,
    organization_id: organizationId,
    member_id: memberId,
    task_id: taskId,
    kind: mail.kind,
    to_address: mail.to.address,
    subject: mail.subject,
    message: JSON.stringify(mail),
    next_attempt_at: now.getTime(),
    created_at: now.toISOString(),
  });
}

export function reminderJob(ctx: Context, links: MailLinksSource): Job {
  return {
    name: "reminders",
    async run(now, held: Held = () => true) {
      const at = now.toISOString();
      const base = links.base();
      const key = unsubscribeKey(ctx);
      for (let round = 0; round < ROUNDS && held(); round++) {
        if ((await ctx.store.read(() => ctx.store.tasks.dueReminders(at, 1))).length === 0) break;
        const handled = await ctx.store.write(async () => {
          const due = await ctx.store.tasks.dueReminders(at, REMINDER_BATCH);
          for (const reminder of due) {
            // Claimed first: a run on another node (its lease ran out) cannot queue it too.
            if (!(await ctx.store.mail.reminded(reminder.organization_id, reminder.id, at))) continue;
            const task = await ctx.store.mail.task(reminder.organization_id, reminder.id);
            const member = task?.assigned_to ? await ctx.store.members.byId(reminder.organization_id, task.assigned_to) : null;
            if (task && member && member.disabledAt === null) {
              const mail = composeReminder({
                id: newId(),
                member: { name: member.name, email: member.email, time_zone: memberTimeZone(member.timeZone, ctx.config.timeZone) },
                task: mailTask(task, base),
                now,
                links: { tasks: `${base}/console/tasks`, unsubscribe: unsubscribeUrl(base, member.id, key) },
              });
              await queue(ctx, reminder.organization_id, mail, member.id, task.id, now);
            }
          }
          return due.length;
        });
        if (handled < REMINDER_BATCH) break;
      }
      const next = await ctx.store.tasks.nextReminder();
      return next === null ? null : Date.parse(next);
    },
  };
}

export function digestJob(ctx: Context, links: MailLinksSource): Job {
  return {
    name: "digests",
    async run(now, held: Held = () => true) {
      const base = links.base();
      const key = unsubscribeKey(ctx);
      const members = await ctx.store.mail.digestCandidates();
      const byId = new Map<string, DigestCandidate>(members.map((m) => [m.id, m]));
      const due = digestsDue(members, now, ctx.config.timeZone);
      for (let start = 0; start < due.length; start += DIGEST_BATCH) {
        if (!held()) return now.getTime(); // the rest on the next run that holds the lease
        const batch = due.slice(start, start + DIGEST_BATCH);
        await ctx.store.write(async () => {
          for (const digest of batch) {
            const member = byId.get(digest.memberId)!;
            if (!(await ctx.store.mail.digestMade(member.organization_id, member.id, digest.date))) continue; // made by another run
            const { end } = localDayRange(digest.date, digest.zone);
            const tasks = await ctx.store.mail.openTasksOf(member.organization_id, member.id, end.toISOString());
            const mail = composeDigest({
              id: newId(),
              member: { name: member.name, email: member.email, time_zone: digest.zone },
              date: digest.date,
              now,
              tasks: tasks.map((task) => mailTask(task, base)),
              links: { tasks: `${base}/console/tasks`, unsubscribe: unsubscribeUrl(base, member.id, key) },
            });
            if (mail) await queue(ctx, member.organization_id, mail, member.id, null, now);
          }
        });
      }
      const next = nextDigestWakeUp(members, now, ctx.config.timeZone);
      return next === null ? null : next.getTime();
    },
  };
}

export interface MailSenderJob extends Job {
  close(): void;
}

export function senderJob(ctx: Context, settings: MailSettings): MailSenderJob {
  let sender: MailSender | null = null;
  let recovered = false;
  return {
    name: "mail",
    afterCommit: true,
    close() {
      sender?.close();
    },
    async run(now, held: Held = () => true) {
      // On PostgreSQL, an attempt begun a lease ago or more was a dead node's: a live node's run
      // stops sending once its lease is no longer sure.
      const begunBefore = ctx.store.engine === "postgres" ? new Date(now.getTime() - ctx.config.leaseMs).toISOString() : null;
      if (begunBefore !== null) recovered = false;
      if (!recovered && (await ctx.store.read(() => ctx.store.mail.interrupted(begunBefore))).length === 0) recovered = true;
      if (!recovered) {
        // Attempts begun and never recorded (a crash, a stop mid-send): due again now, the one
        // duplicate C22 allows; out of attempts: failed.
        await ctx.store.write(async () => {
          for (const row of await ctx.store.mail.interrupted(begunBefore)) {
            if (row.attempts >= MAIL_MAX_ATTEMPTS) await ctx.store.mail.failed(row.organization_id, row.id, "interrupted: the server stopped during the last attempt");
            else await ctx.store.mail.retry(row.organization_id, row.id, now.getTime(), row.last_error ?? "interrupted: the server stopped during the attempt");
          }
        });
        recovered = true;
      }
      // nodemailer is loaded only where mail is sent: loading it opens a netlink socket (it reads
      // the network interfaces), which processes that send no mail have no need of.
      sender ??= (await import("../mail/send")).createMailSender(settings, { pool: { connections: 2 } });
      for (let round = 0; round < ROUNDS && held(); round++) {
        const startedAt = ctx.now();
        if ((await ctx.store.read(() => ctx.store.mail.due(startedAt.getTime(), 1))).length === 0) break;
        // The attempts are recorded and durable before any connection is made.
        const claimed = await ctx.store.write(async () => {
          const due = await ctx.store.mail.due(startedAt.getTime(), SEND_BATCH);
          const begun = [];
          for (const row of due) if (await ctx.store.mail.begin(row.organization_id, row.id, startedAt.toISOString())) begun.push(row);
          return begun;
        });
        if (claimed.length === 0) break;
        const outcomes = await Promise.all(claimed.map((row) => sender!.send(JSON.parse(row.message) as OutgoingMail)));
        const endedAt = ctx.now();
        await ctx.store.write(async () => {
          for (const [i, row] of claimed.entries()) {
            const result = mailAttemptResult(outcomes[i], row.attempts + 1, endedAt.getTime());
            if (result.status === "sent") await ctx.store.mail.sent(row.organization_id, row.id, endedAt.toISOString(), result.reply);
            else if (result.status === "failed") await ctx.store.mail.failed(row.organization_id, row.id, result.error);
            else await ctx.store.mail.retry(row.organization_id, row.id, result.at, result.error);
          }
        });
        if (claimed.length < SEND_BATCH) break;
      }
      const next = await ctx.store.mail.nextDue();
      if (begunBefore === null) return next;
      // An attempt younger than a lease is looked at again when it is a lease old.
      const begun = (await ctx.store.read(() => ctx.store.mail.interrupted())).map((row) => Date.parse(row.last_attempt_at!) + ctx.config.leaseMs);
      return begun.length === 0 ? next : Math.min(next ?? Infinity, ...begun);
    },
  };
}
