// The delivery log and the manual retry (C2 `webhook deliveries`, `webhook retry`; C10). HTTP-free.
import type { Context } from "../context";

export const DELIVERY_STATUSES = ["pending", "succeeded", "failed", "skipped"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface AttemptLogEntry {
  at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  response_snippet: string | null;
}

export interface Delivery {
  event_id: string;
  type: string;
  status: DeliveryStatus;
  attempts: number;
  /** ISO 8601; null unless pending. */
  next_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  /** Present when the log is filtered by event: that event's attempts, oldest first. */
  attempt_log?: AttemptLogEntry[];
}

/** Thrown by the operator functions: `not_found` (no such event, in that organization for
 * listDeliveries), `not_failed` (retry of a delivery that is not failed), `no_endpoint` (retry while
 * the organization has no enabled endpoint). The CLI answers exit status 1 with the message. */
export class DeliveryError extends Error {
  constructor(
    readonly code: "not_found" | "not_failed" | "no_endpoint",
    message: string,
  ) {
    super(message);
    this.name = "DeliveryError";
  }
}

export interface DeliveryFilter {
  status?: DeliveryStatus;
  /** One event (by `evt_...` id), with its attempt log. */
  eventId?: string;
  /** At most this many, newest first (default: all). */
  limit?: number;
}

interface EventRow {
  seq: number;
  id: string;
  type: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: number | null;
  last_status_code: number | null;
  last_error: string | null;
}

const COLUMNS = `seq, id, type, status, attempts, next_attempt_at, last_status_code, last_error`;

const toDelivery = (row: EventRow): Delivery => ({
  event_id: row.id,
  type: row.type,
  status: row.status,
  attempts: row.attempts,
  next_attempt_at: row.next_attempt_at === null ? null : new Date(row.next_attempt_at).toISOString(),
  last_status_code: row.last_status_code,
  last_error: row.last_error,
});

/**
 * The organization's delivery log, newest event first (C2 `webhook deliveries --json` shape).
 * With `eventId`: that one event, with `attempt_log`; throws DeliveryError("not_found") when the
 * organization has no such event. A `status` outside DELIVERY_STATUSES throws a TypeError.
 */
export function listDeliveries(ctx: Context, organizationId: string, filter: DeliveryFilter = {}): { data: Delivery[] } {
  const { sqlite } = ctx.store;
  if (filter.status !== undefined && !DELIVERY_STATUSES.includes(filter.status)) {
    throw new TypeError(`unknown delivery status "${filter.status}": expected ${DELIVERY_STATUSES.join(", ")}`);
  }
  if (filter.eventId !== undefined) {
    const row = sqlite
      .query<EventRow, [string, string]>(`SELECT ${COLUMNS} FROM events WHERE organization_id = ? AND id = ?`)
      .get(organizationId, filter.eventId);
    if (!row) throw new DeliveryError("not_found", `no event ${filter.eventId} in organization ${organizationId}`);
    if (filter.status !== undefined && row.status !== filter.status) return { data: [] };
    const attemptLog = sqlite
      .query<AttemptLogEntry, [number]>(
        `SELECT at, status_code, error, duration_ms, response_snippet FROM delivery_attempts WHERE event_seq = ? ORDER BY id`,
      )
      .all(row.seq);
    return { data: [{ ...toDelivery(row), attempt_log: attemptLog }] };
  }
  const limit = filter.limit ?? -1; // SQLite: a negative LIMIT means none
  const rows = filter.status
    ? sqlite
        .query<EventRow, [string, string, number]>(
          `SELECT ${COLUMNS} FROM events WHERE organization_id = ? AND status = ? ORDER BY seq DESC LIMIT ?`,
        )
        .all(organizationId, filter.status, limit)
    : sqlite
        .query<EventRow, [string, number]>(`SELECT ${COLUMNS} FROM events WHERE organization_id = ? ORDER BY seq DESC LIMIT ?`)
        .all(organizationId, limit);
  return { data: rows.map(toDelivery) };
}

/**
 * Queues a `failed` delivery again, due now, with the retry schedule from its start (C10). The
 * attempt log and the last status/error are kept. A running server (this process or another on
 * the same data folder) picks it up within 5 s, on its dispatcher's periodic scan.
 * Throws DeliveryError: `not_found` (no event with that id), `not_failed` (pending, succeeded or
 * skipped), `no_endpoint` (the organization has no enabled endpoint: `webhook set` first).
 */
export function retryDelivery(ctx: Context, eventId: string): Promise<{ event_id: string; status: "pending" }> {
  return ctx.store.write(() => {
    const { sqlite } = ctx.store;
    const row = sqlite
      .query<{ seq: number; status: DeliveryStatus; organization_id: string }, [string]>(
        `SELECT seq, status, organization_id FROM events WHERE id = ?`,
      )
      .get(eventId);
    if (!row) throw new DeliveryError("not_found", `no event ${eventId}`);
    if (row.status !== "failed") {
      throw new DeliveryError("not_failed", `delivery ${eventId} is ${row.status}: only a failed delivery can be retried`);
    }
    const endpoint = sqlite
      .query<{ ok: number }, [string]>(`SELECT 1 AS ok FROM webhook_endpoints WHERE organization_id = ? AND disabled_at IS NULL`)
      .get(row.organization_id);
    if (!endpoint) {
      throw new DeliveryError(
        "no_endpoint",
        `organization ${row.organization_id} has no enabled webhook endpoint: run "dossier webhook set" first`,
      );
    }
    sqlite
      .query(`UPDATE events SET status = 'pending', attempts = 0, next_attempt_at = ? WHERE seq = ?`)
      .run(ctx.now().getTime(), row.seq);
    return { event_id: eventId, status: "pending" as const };
  });
}
