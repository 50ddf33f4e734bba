// The retry schedule (C7, C10): after the n-th failed attempt the next one waits schedule[n-1],
// ±20 % jitter, counted from the end of the failed attempt. A Retry-After on 429/503 lengthens
// that wait (at most 24 h) but adds no attempt. After the last scheduled retry: failed, kept.
// attemptOutcome: what an answer does to its delivery (pure: the clock and the dice are arguments).
import { isSuccess, type SendResult } from "./send";

export const JITTER = 0.2;

/** `ms` scaled by a random factor in [0.8, 1.2]. */
export function jittered(ms: number, random: () => number = Math.random): number {
  return Math.round(ms * (1 - JITTER + 2 * JITTER * random()));
}

/**
 * The wait before the next attempt, once `attemptsMade` attempts (this one included) have failed;
 * null when the schedule is used up and the delivery is failed.
 */
export function retryDelay(
  schedule: readonly number[],
  attemptsMade: number,
  retryAfterMs: number | null = null,
  random: () => number = Math.random,
): number | null {
  if (attemptsMade < 1 || attemptsMade > schedule.length) return null;
  const wait = jittered(schedule[attemptsMade - 1], random);
  return retryAfterMs !== null && retryAfterMs > wait ? retryAfterMs : wait;
}

/** What an attempt's answer does to its delivery (C7, C10): a 2xx succeeds; a 410 fails it at once
 * and disables the endpoint; any other failure is retried at `at` (epoch ms, counted from the end
 * of the attempt, `endedAt`) while the schedule lasts, then fails. */
export type AttemptOutcome =
  | { outcome: "succeeded" }
  | { outcome: "endpoint_disabled" }
  | { outcome: "failed" }
  | { outcome: "retry"; at: number };

export function attemptOutcome(
  answer: SendResult,
  attemptsMade: number,
  endedAt: number,
  schedule: readonly number[],
  random: () => number = Math.random,
): AttemptOutcome {
  if (isSuccess(answer)) return { outcome: "succeeded" };
  if (answer.statusCode === 410) return { outcome: "endpoint_disabled" };
  const wait = retryDelay(schedule, attemptsMade, answer.retryAfterMs, random);
  return wait === null ? { outcome: "failed" } : { outcome: "retry", at: endedAt + wait };
}
