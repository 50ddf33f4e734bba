// Recording attempts' results (C7, C10), for both dispatchers (dispatcher.ts on SQLite, lanes.ts on
// PostgreSQL): a batch of results committed in one unit of work, each attempt in the delivery log,
// the delivery moved on (succeeded, retried at its time, failed; a 410 disables the endpoint and
// skips what was pending), and one log line per attempt once committed, so that the log never
// shows an attempt a crash took back.
import type { Context } from "../context";
import type { PendingRow } from "../db/outbox";
import { attemptOutcome } from "./schedule";
import type { SendResult } from "./send";

/** One attempt's result, waiting to be recorded. */
export interface Outcome {
  row: PendingRow;
  at: Date;
  endedAt: number;
  attemptsBefore: number;
  url: string;
  secret: string;
  result: SendResult;
}

/** Commits `batch` in one unit and logs it; answers the retry times it set (epoch ms). Throws when
 * the commit fails: the deliveries stay pending with their due time (attempted again: at least
 * once), and nothing is logged. */
export async function recordOutcomes(ctx: Context, batch: readonly Outcome[]): Promise<number[]> {
  const { outbox } = ctx.store;
  const schedule = ctx.config.webhookRetrySchedule;
  const nextTimes: number[] = [];
  const logged: Record<string, unknown>[] = [];
  await ctx.store.write(async () => {
    for (const { row, at, endedAt, attemptsBefore, url, secret, result } of batch) {
      await outbox.recordAttempt(row.seq, { ...result, at: at.toISOString() });
      const line = {
        event_id: row.id,
        event_type: row.type,
        organization_id: row.organization_id,
        attempt: attemptsBefore + 1,
        status_code: result.statusCode,
        error: result.error,
        duration_ms: result.durationMs,
      };
      const decided = attemptOutcome(result, attemptsBefore + 1, endedAt, schedule);
      if (decided.outcome === "succeeded") await outbox.markSucceeded(row.seq, result.statusCode!);
      else if (decided.outcome === "endpoint_disabled") {
        // C10: the delivery fails at once, the endpoint is disabled, pending deliveries skipped
        // (unless `webhook set` replaced the endpoint meanwhile).
        await outbox.markFailed(row.seq, 410, result.error);
        if (await outbox.disableEndpoint(row.organization_id, url, secret, ctx.now().toISOString())) await outbox.skipPending(row.organization_id);
      } else if (decided.outcome === "failed") await outbox.markFailed(row.seq, result.statusCode, result.error);
      else {
        await outbox.markRetry(row.seq, decided.at, result.statusCode, result.error);
        nextTimes.push(decided.at);
        logged.push({ ...line, outcome: "retry", next_attempt_at: new Date(decided.at).toISOString() });
        continue;
      }
      logged.push({ ...line, outcome: decided.outcome });
    }
  });
  for (const fields of logged) {
    const level = fields.outcome === "succeeded" || fields.outcome === "retry" ? "info" : "warn";
    ctx.logger.log(level, "webhook attempt", fields);
  }
  return nextTimes;
}
