// What an attempt's outcome does to a queued message (C22): retries after 1 min, 5 min, 30 min and
// 2 h, then failed. Each wait counts from the end of the failed attempt (C10's rule for retry
// delays), with no jitter: C22 names the times. Pure: the time is an argument.
import type { SendOutcome } from "./send";

/** C22's waits, in ms, after the 1st, 2nd, 3rd and 4th failed attempt. */
export const MAIL_RETRY_SCHEDULE_MS: readonly number[] = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000];

/** Attempts a message gets in all: the first and one per wait. */
export const MAIL_MAX_ATTEMPTS = MAIL_RETRY_SCHEDULE_MS.length + 1;

/**
 * When to try again once `attemptsMade` attempts (the one that just failed included) have failed,
 * the last ending at `endedAt` (epoch ms); null when the schedule is used up and the message is
 * failed.
 */
export function nextMailAttemptAt(attemptsMade: number, endedAt: number, schedule: readonly number[] = MAIL_RETRY_SCHEDULE_MS): number | null {
  if (!Number.isInteger(attemptsMade) || attemptsMade < 1 || attemptsMade > schedule.length) return null;
  return endedAt + schedule[attemptsMade - 1];
}

/** The message's state after an attempt. `error` is the server's reply or what went wrong. */
export type MailAttemptResult =
  | { status: "sent"; reply: string }
  | { status: "failed"; error: string }
  | { status: "retry"; at: number; error: string };

/** What `outcome`, the `attemptsMade`-th attempt ending at `endedAt`, makes of its message. */
export function mailAttemptResult(
  outcome: SendOutcome,
  attemptsMade: number,
  endedAt: number,
  schedule: readonly number[] = MAIL_RETRY_SCHEDULE_MS,
): MailAttemptResult {
  if (outcome.outcome === "sent") return { status: "sent", reply: outcome.reply };
  if (outcome.outcome === "failed") return { status: "failed", error: outcome.reply };
  const at = nextMailAttemptAt(attemptsMade, endedAt, schedule);
  return at === null ? { status: "failed", error: outcome.reply } : { status: "retry", at, error: outcome.reply };
}
