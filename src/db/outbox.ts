// The outbox's queries for the webhook dispatcher (C7, C10): every SQL statement it runs, and
// nothing else. Statements are prepared once per connection; the functions only bind and run them.
//
// The rules of the store (src/db/group-commit.ts, C11) that the callers keep:
//  - the reads (newEvents, dueEvents, ...) run only while `store.settling` is false, or from a
//    `store.onCommit` listener: what they return is durable, so nothing not on disk is ever sent;
//  - the writes that record results (recordAttempt, markSucceeded, markFailed, markRetry,
//    markSkipped, disableEndpoint, skipPending) run inside `await store.write(unit)`.
import type { Statement } from "bun:sqlite";
import type { QueryDeps } from "./queries";

/** A delivery waiting to be attempted: its event and where its schedule stands. */
export interface PendingRow {
  seq: number;
  id: string;
  organization_id: string;
  type: string;
  body: string;
  attempts: number;
  /** Epoch ms. */
  next_attempt_at: number | null;
}

/** A delivery's state just before an attempt, with its organization's endpoint (null columns: none). */
export interface AttemptCheck {
  status: string;
  attempts: number;
  next_attempt_at: number | null;
  url: string | null;
  secret: string | null;
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  disabled_at: string | null;
}

/** One attempt as the delivery log keeps it (C7: time, status or error, duration, first 1 KB). */
export interface AttemptEntry {
  at: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  responseSnippet: string | null;
}

export interface OutboxStore {
  /** The newest event's seq (0 when none). */
  lastSeq(): number;
  /** Pending events committed after `afterSeq`, in seq (commit) order. */
  newEvents(afterSeq: number, limit: number): PendingRow[];
  /** Pending deliveries due at `now`, in (next_attempt_at, seq) order after the cursor. */
  dueEvents(now: number, after: readonly [number, number], limit: number): PendingRow[];
  /** An organization's due first attempts after `afterSeq`, in event order (a lane's refill). */
  organizationFirstAttempts(organizationId: string, afterSeq: number, now: number, limit: number): PendingRow[];
  /** An organization's due retries from `fromSeq` on, in seq order (a retry queue's refill). */
  organizationRetries(organizationId: string, fromSeq: number, now: number, limit: number): PendingRow[];
  /** The earliest due time after `now` (epoch ms), or null. */
  nextDueAfter(now: number): number | null;
  check(seq: number): AttemptCheck | null;
  recordAttempt(seq: number, attempt: AttemptEntry): void;
  /** Also turns a delivery skipped while its attempt was in flight into `succeeded`: it was received. */
  markSucceeded(seq: number, statusCode: number): void;
  /** The last attempt failed and no retry follows. A skipped delivery stays skipped (C10). */
  markFailed(seq: number, statusCode: number | null, error: string | null): void;
  /** The last attempt failed; the next one is due at `at` (epoch ms). A skip is never revived. */
  markRetry(seq: number, at: number, statusCode: number | null, error: string | null): void;
  /** Skips one pending delivery (its organization has no enabled endpoint any more). */
  markSkipped(seq: number): void;
  /** Disables the endpoint after a 410 unless `webhook set` replaced it meanwhile; true if it did. */
  disableEndpoint(organizationId: string, url: string, secret: string, at: string): boolean;
  /** Skips the organization's pending deliveries: nothing skipped is revived (C10). */
  skipPending(organizationId: string): void;
}

const COLUMNS = `seq, id, organization_id, type, body, attempts, next_attempt_at`;

/** The outbox queries over this connection, prepared once (the store's `outbox`). */
export function outboxQueries({ sqlite: sql }: QueryDeps): OutboxStore {
  const lastSeq = sql.query<{ seq: number | null }, []>(`SELECT MAX(seq) AS seq FROM events`);
  const newRows: Statement<PendingRow, [number, number]> = sql.query(
    `SELECT ${COLUMNS} FROM events WHERE seq > ? AND status = 'pending' ORDER BY seq LIMIT ?`,
  );
  const dueRows: Statement<PendingRow, [number, number, number, number]> = sql.query(
    `SELECT ${COLUMNS} FROM events
     WHERE status = 'pending' AND next_attempt_at <= ?1 AND next_attempt_at >= ?2 AND (next_attempt_at, seq) > (?2, ?3)
     ORDER BY next_attempt_at, seq LIMIT ?4`,
  );
  const orgRows: Statement<PendingRow, [string, number, number, number]> = sql.query(
    `SELECT ${COLUMNS} FROM events
     WHERE organization_id = ? AND seq > ? AND status = 'pending' AND attempts = 0 AND next_attempt_at <= ? ORDER BY seq LIMIT ?`,
  );
  // By seq (events_org_seq): the order of retries does not matter (C7 orders first attempts).
  const orgRetryRows: Statement<PendingRow, [string, number, number, number]> = sql.query(
    `SELECT ${COLUMNS} FROM events
     WHERE organization_id = ? AND seq >= ? AND status = 'pending' AND attempts > 0 AND next_attempt_at <= ? ORDER BY seq LIMIT ?`,
  );
  const nextDue = sql.query<{ at: number | null }, [number]>(
    `SELECT MIN(next_attempt_at) AS at FROM events WHERE status = 'pending' AND next_attempt_at > ?`,
  );
  const check = sql.query<AttemptCheck, [number]>(
    `SELECT e.status, e.attempts, e.next_attempt_at, w.url, w.secret, w.previous_secret, w.previous_secret_expires_at, w.disabled_at
     FROM events e LEFT JOIN webhook_endpoints w ON w.organization_id = e.organization_id WHERE e.seq = ?`,
  );
  const insertAttempt = sql.query<unknown, [number, string, number | null, string | null, number, string | null]>(
    `INSERT INTO delivery_attempts (event_seq, at, status_code, error, duration_ms, response_snippet) VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const succeeded = sql.query<unknown, [number, number]>(
    `UPDATE events SET status = CASE WHEN status IN ('pending', 'skipped') THEN 'succeeded' ELSE status END,
       attempts = attempts + 1, next_attempt_at = NULL, last_status_code = ?, last_error = NULL WHERE seq = ?`,
  );
  // A failure only moves a delivery that is still pending (a skip is never revived, C10).
  const failure = sql.query<unknown, [string, number | null, number | null, string | null, number]>(
    `UPDATE events SET status = CASE WHEN status = 'pending' THEN ?1 ELSE status END,
       next_attempt_at = CASE WHEN status = 'pending' THEN ?2 ELSE next_attempt_at END,
       attempts = attempts + 1, last_status_code = ?3, last_error = ?4 WHERE seq = ?5`,
  );
  const skipped = sql.query<unknown, [number]>(
    `UPDATE events SET status = 'skipped', next_attempt_at = NULL WHERE seq = ? AND status = 'pending'`,
  );
  const disable = sql.query<unknown, [string, string, string, string]>(
    `UPDATE webhook_endpoints SET disabled_at = ?1, updated_at = ?1
     WHERE organization_id = ?2 AND secret = ?3 AND url = ?4 AND disabled_at IS NULL`,
  );
  const skipOrganization = sql.query<unknown, [string]>(
    `UPDATE events SET status = 'skipped', next_attempt_at = NULL WHERE organization_id = ? AND status = 'pending'`,
  );
  return {
    lastSeq: () => lastSeq.get()?.seq ?? 0,
    newEvents: (afterSeq, limit) => newRows.all(afterSeq, limit),
    dueEvents: (now, [afterAt, afterSeq], limit) => dueRows.all(now, afterAt, afterSeq, limit),
    organizationFirstAttempts: (organizationId, afterSeq, now, limit) => orgRows.all(organizationId, afterSeq, now, limit),
    organizationRetries: (organizationId, fromSeq, now, limit) => orgRetryRows.all(organizationId, fromSeq, now, limit),
    nextDueAfter: (now) => nextDue.get(now)?.at ?? null,
    check: (seq) => check.get(seq),
    recordAttempt: (seq, a) => void insertAttempt.run(seq, a.at, a.statusCode, a.error, a.durationMs, a.responseSnippet),
    markSucceeded: (seq, statusCode) => void succeeded.run(statusCode, seq),
    markFailed: (seq, statusCode, error) => void failure.run("failed", null, statusCode, error, seq),
    markRetry: (seq, at, statusCode, error) => void failure.run("pending", at, statusCode, error, seq),
    markSkipped: (seq) => void skipped.run(seq),
    disableEndpoint: (organizationId, url, secret, at) => disable.run(at, organizationId, secret, url).changes > 0,
    skipPending: (organizationId) => void skipOrganization.run(organizationId),
  };
}
