// The outbox's queries for the webhook dispatcher on PostgreSQL: src/db/outbox.ts's statements, the
// same answers. What the dispatcher runs on PostgreSQL (several nodes claiming deliveries with
// leases, C19) is the next step's; these are the statements as they are, so that one node's
// dispatcher reads and records the same. seq and next_attempt_at are bigint: read as float8, and
// ordered by the table's columns (events.seq): a bare name in ORDER BY is the output column, the
// float8, which no index orders.
import type { SQL } from "bun";
import type { AttemptCheck, AttemptEntry, PendingRow } from "../outbox";
import type { Db } from "./client";
import type { EngineQueries } from "./queries";

/** A PendingRow's columns of events (seq and next_attempt_at as numbers). */
const columns = (sql: SQL) => sql`seq::float8 AS seq, id, organization_id, type, body, attempts, next_attempt_at::float8 AS next_attempt_at`;

export function pgOutboxQueries(db: Db): EngineQueries<"outbox"> {
  return {
    /** The newest event's seq (0 when none). */
    async lastSeq() {
      const [row] = await db()<{ seq: number | null }[]>`SELECT max(seq)::float8 AS seq FROM events`;
      return row?.seq ?? 0;
    },

    /** Pending events committed after `afterSeq`, in seq order. On PostgreSQL an organization's
     * numbers follow its commit order, not the installation's (src/db/pg/events.ts): a cursor over
     * every organization, as the dispatcher keeps on SQLite, may pass another organization's event
     * still to commit. The dispatcher on PostgreSQL reads per organization (its lanes,
     * organizationFirstAttempts), with claims and leases: C19's second step. */
    async newEvents(afterSeq: number, limit: number) {
      const sql = db();
      return [
        ...(await sql<PendingRow[]>`SELECT ${columns(sql)}
          FROM events WHERE seq > ${afterSeq}::bigint AND status = 'pending' ORDER BY events.seq LIMIT ${limit}::bigint`),
      ];
    },

    /** Pending deliveries due at `now`, in (next_attempt_at, seq) order after the cursor. */
    async dueEvents(now: number, [afterAt, afterSeq]: readonly [number, number], limit: number) {
      const sql = db();
      return [
        ...(await sql<PendingRow[]>`SELECT ${columns(sql)}
          FROM events
          WHERE status = 'pending' AND next_attempt_at <= ${now}::bigint AND next_attempt_at >= ${afterAt}::bigint
            AND (next_attempt_at, seq) > (${afterAt}::bigint, ${afterSeq}::bigint)
          ORDER BY events.next_attempt_at, events.seq LIMIT ${limit}::bigint`),
      ];
    },

    /** An organization's due first attempts after `afterSeq`, in event order (a lane's refill). */
    async organizationFirstAttempts(organizationId: string, afterSeq: number, now: number, limit: number) {
      const sql = db();
      return [
        ...(await sql<PendingRow[]>`SELECT ${columns(sql)}
          FROM events
          WHERE organization_id = ${organizationId} AND seq > ${afterSeq}::bigint AND status = 'pending' AND attempts = 0
            AND next_attempt_at <= ${now}::bigint
          ORDER BY events.seq LIMIT ${limit}::bigint`),
      ];
    },

    /** An organization's due retries from `fromSeq` on, in seq order (a retry queue's refill). */
    async organizationRetries(organizationId: string, fromSeq: number, now: number, limit: number) {
      const sql = db();
      return [
        ...(await sql<PendingRow[]>`SELECT ${columns(sql)}
          FROM events
          WHERE organization_id = ${organizationId} AND seq >= ${fromSeq}::bigint AND status = 'pending' AND attempts > 0
            AND next_attempt_at <= ${now}::bigint
          ORDER BY events.seq LIMIT ${limit}::bigint`),
      ];
    },

    /** The earliest due time after `now` (epoch ms), or null. */
    async nextDueAfter(now: number) {
      const [row] = await db()<{ at: number | null }[]>`SELECT min(next_attempt_at)::float8 AS at FROM events
        WHERE status = 'pending' AND next_attempt_at > ${now}::bigint`;
      return row?.at ?? null;
    },

    async check(seq: number) {
      const [row] = await db()<AttemptCheck[]>`SELECT e.status, e.attempts, e.next_attempt_at::float8 AS next_attempt_at, w.url, w.secret,
          w.previous_secret, w.previous_secret_expires_at, w.disabled_at
        FROM events e LEFT JOIN webhook_endpoints w ON w.organization_id = e.organization_id WHERE e.seq = ${seq}::bigint`;
      return row ?? null;
    },

    async recordAttempt(seq: number, a: AttemptEntry) {
      await db()`INSERT INTO delivery_attempts (event_seq, at, status_code, error, duration_ms, response_snippet)
        VALUES (${seq}::bigint, ${a.at}, ${a.statusCode}::integer, ${a.error}, ${a.durationMs}::integer, ${a.responseSnippet})`;
    },

    /** Also turns a delivery skipped while its attempt was in flight into `succeeded`: it was received. */
    async markSucceeded(seq: number, statusCode: number) {
      await db()`UPDATE events SET status = CASE WHEN status IN ('pending', 'skipped') THEN 'succeeded' ELSE status END,
          attempts = attempts + 1, next_attempt_at = NULL, last_status_code = ${statusCode}::integer, last_error = NULL
        WHERE seq = ${seq}::bigint`;
    },

    /** The last attempt failed and no retry follows. A skipped delivery stays skipped (C10). */
    async markFailed(seq: number, statusCode: number | null, error: string | null) {
      await db()`UPDATE events SET status = CASE WHEN status = 'pending' THEN 'failed' ELSE status END,
          next_attempt_at = CASE WHEN status = 'pending' THEN NULL ELSE next_attempt_at END,
          attempts = attempts + 1, last_status_code = ${statusCode}::integer, last_error = ${error}
        WHERE seq = ${seq}::bigint`;
    },

    /** The last attempt failed; the next one is due at `at` (epoch ms). A skip is never revived. */
    async markRetry(seq: number, at: number, statusCode: number | null, error: string | null) {
      await db()`UPDATE events SET status = CASE WHEN status = 'pending' THEN 'pending' ELSE status END,
          next_attempt_at = CASE WHEN status = 'pending' THEN ${at}::bigint ELSE next_attempt_at END,
          attempts = attempts + 1, last_status_code = ${statusCode}::integer, last_error = ${error}
        WHERE seq = ${seq}::bigint`;
    },

    /** Skips one pending delivery (its organization has no enabled endpoint any more). */
    async markSkipped(seq: number) {
      await db()`UPDATE events SET status = 'skipped', next_attempt_at = NULL WHERE seq = ${seq}::bigint AND status = 'pending'`;
    },

    /** Disables the endpoint after a 410 unless `webhook set` replaced it meanwhile; true if it did. */
    async disableEndpoint(organizationId: string, url: string, secret: string, at: string) {
      const done = await db()`UPDATE webhook_endpoints SET disabled_at = ${at}, updated_at = ${at}
        WHERE organization_id = ${organizationId} AND secret = ${secret} AND url = ${url} AND disabled_at IS NULL`;
      return done.count > 0;
    },

    /** Skips the organization's pending deliveries: nothing skipped is revived (C10). */
    async skipPending(organizationId: string) {
      await db()`UPDATE events SET status = 'skipped', next_attempt_at = NULL WHERE organization_id = ${organizationId} AND status = 'pending'`;
    },
  };
}
