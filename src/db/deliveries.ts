// The delivery log as the operator reads it (C2 `webhook deliveries`, `webhook retry`): events with
// their delivery state, and each event's attempts. The dispatcher's own queries are in outbox.ts.
import type { QueryDeps } from "./queries";

export type DeliveryStatus = "pending" | "succeeded" | "failed" | "skipped";

export interface DeliveryRow {
  seq: number;
  id: string;
  organization_id: string;
  type: string;
  status: DeliveryStatus;
  attempts: number;
  /** Epoch ms. */
  next_attempt_at: number | null;
  last_status_code: number | null;
  last_error: string | null;
}

export interface AttemptRow {
  at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  response_snippet: string | null;
}

export interface DeliveryPageFilter {
  status?: DeliveryStatus;
  type?: string;
}

const COLUMNS = `seq, id, organization_id, type, status, attempts, next_attempt_at, last_status_code, last_error`;

export function deliveryQueries({ sqlite }: QueryDeps) {
  const one = sqlite.query<DeliveryRow, [string, string]>(`SELECT ${COLUMNS} FROM events WHERE organization_id = ? AND id = ?`);
  const anyOrganization = sqlite.query<DeliveryRow, [string]>(`SELECT ${COLUMNS} FROM events WHERE id = ?`);
  const attempts = sqlite.query<AttemptRow, [number]>(
    `SELECT at, status_code, error, duration_ms, response_snippet FROM delivery_attempts WHERE event_seq = ? ORDER BY id`,
  );
  const withStatus = sqlite.query<DeliveryRow, [string, string, number]>(
    `SELECT ${COLUMNS} FROM events WHERE organization_id = ? AND status = ? ORDER BY seq DESC LIMIT ?`,
  );
  const every = sqlite.query<DeliveryRow, [string, number]>(
    `SELECT ${COLUMNS} FROM events WHERE organization_id = ? ORDER BY seq DESC LIMIT ?`,
  );
  // A filter left out is null: it matches every row.
  const filtered = `FROM events WHERE organization_id = ?1 AND (?2 IS NULL OR status = ?2) AND (?3 IS NULL OR type = ?3)`;
  const pageOf = sqlite.query<DeliveryRow, [string, string | null, string | null, number, number]>(
    `SELECT ${COLUMNS} ${filtered} ORDER BY seq DESC LIMIT ?4 OFFSET ?5`,
  );
  // A cursor page (issue 38): the events before seq ?4 (newest first), by the same index.
  const pageAfter = sqlite.query<DeliveryRow, [string, string | null, string | null, number, number]>(
    `SELECT ${COLUMNS} ${filtered} AND seq < ?4 ORDER BY seq DESC LIMIT ?5`,
  );
  const countOf = sqlite.query<{ n: number }, [string, string | null, string | null]>(`SELECT count(*) AS n ${filtered}`);
  const requeue = sqlite.query<unknown, [number, number]>(
    `UPDATE events SET status = 'pending', attempts = 0, next_attempt_at = ? WHERE seq = ?`,
  );
  return {
    byEventId: (organizationId: string, eventId: string): DeliveryRow | null => one.get(organizationId, eventId),
    /** For the operator's `webhook retry EVENT_ID`, which names no organization. */
    byEventIdInAnyOrganization: (eventId: string): DeliveryRow | null => anyOrganization.get(eventId),
    /** The event's attempts, oldest first. */
    attempts: (seq: number): AttemptRow[] => attempts.all(seq),
    /** Newest first; `limit` null: all. */
    newest: (organizationId: string, status: DeliveryStatus | undefined, limit: number | null): DeliveryRow[] => {
      const max = limit ?? -1; // SQLite: a negative LIMIT means none
      return status === undefined ? every.all(organizationId, max) : withStatus.all(organizationId, status, max);
    },
    /** A page of the log, newest first; a filter left undefined matches all. `afterSeq`: a cursor
     * page, the events older than that one (offset 0). */
    page: (organizationId: string, filter: DeliveryPageFilter, limit: number, offset: number, afterSeq?: number): DeliveryRow[] =>
      afterSeq === undefined
        ? pageOf.all(organizationId, filter.status ?? null, filter.type ?? null, limit, offset)
        : pageAfter.all(organizationId, filter.status ?? null, filter.type ?? null, afterSeq, limit),
    count: (organizationId: string, filter: DeliveryPageFilter): number => countOf.get(organizationId, filter.status ?? null, filter.type ?? null)!.n,
    /** Pending again, due at `at` (epoch ms), its schedule from the start; the log is kept. */
    requeue: (seq: number, at: number) => void requeue.run(at, seq),
  };
}
