// The delivery log as the operator reads it, on PostgreSQL: src/db/deliveries.ts's statements, the
// same answers. seq and next_attempt_at are bigint, which Bun.SQL gives as strings: read as float8
// (numbers, exact to 2^53), and sequence numbers written back cast to bigint, as the index has them.
// Ordered by events.seq, the table's column: a bare `seq` in ORDER BY is the output column (the
// float8), which no index orders, so every row of the organization was sorted before the LIMIT.
import type { SQL } from "bun";
import type { AttemptRow, DeliveryPageFilter, DeliveryRow, DeliveryStatus } from "../deliveries";
import type { Db } from "./client";
import type { EngineQueries } from "./queries";

/** A DeliveryRow's columns of events (seq and next_attempt_at as numbers). */
const columns = (sql: SQL) =>
  sql`seq::float8 AS seq, id, organization_id, type, status, attempts, next_attempt_at::float8 AS next_attempt_at, last_status_code, last_error`;

/** The log page's WHERE (its rows and its count): a filter left undefined is NULL and matches all. */
function pageWhere(sql: SQL, organizationId: string, filter: DeliveryPageFilter) {
  const status = filter.status ?? null;
  const type = filter.type ?? null;
  return sql`organization_id = ${organizationId} AND (${status}::text IS NULL OR status = ${status}::text)
    AND (${type}::text IS NULL OR type = ${type}::text)`;
}

export function pgDeliveryQueries(db: Db): EngineQueries<"deliveries"> {
  return {
    async byEventId(organizationId: string, eventId: string) {
      const sql = db();
      const [row] = await sql<DeliveryRow[]>`SELECT ${columns(sql)}
        FROM events WHERE organization_id = ${organizationId} AND id = ${eventId}`;
      return row ?? null;
    },

    /** For the operator's `webhook retry EVENT_ID`, which names no organization. */
    async byEventIdInAnyOrganization(eventId: string) {
      const sql = db();
      const [row] = await sql<DeliveryRow[]>`SELECT ${columns(sql)}
        FROM events WHERE id = ${eventId}`;
      return row ?? null;
    },

    /** The event's attempts, oldest first. */
    async attempts(seq: number) {
      return [
        ...(await db()<AttemptRow[]>`SELECT at, status_code, error, duration_ms, response_snippet FROM delivery_attempts
          WHERE event_seq = ${seq}::bigint ORDER BY id`),
      ];
    },

    /** Newest first; `limit` null: all (LIMIT NULL is no limit on PostgreSQL). */
    async newest(organizationId: string, status: DeliveryStatus | undefined, limit: number | null) {
      const sql = db();
      const rows =
        status === undefined
          ? await sql<DeliveryRow[]>`SELECT ${columns(sql)}
              FROM events WHERE organization_id = ${organizationId} ORDER BY events.seq DESC LIMIT ${limit}::bigint`
          : await sql<DeliveryRow[]>`SELECT ${columns(sql)}
              FROM events WHERE organization_id = ${organizationId} AND status = ${status} ORDER BY events.seq DESC LIMIT ${limit}::bigint`;
      return [...rows];
    },

    /** A page of the log, newest first; a filter left undefined (null here) matches all. `afterSeq`:
     * a cursor page, the events older than that one (offset 0). */
    async page(organizationId: string, filter: DeliveryPageFilter, limit: number, offset: number, afterSeq?: number) {
      const sql = db();
      const seek = afterSeq === undefined ? sql`` : sql`AND events.seq < ${afterSeq}::bigint`;
      return [
        ...(await sql<DeliveryRow[]>`SELECT ${columns(sql)}
          FROM events WHERE ${pageWhere(sql, organizationId, filter)} ${seek}
          ORDER BY events.seq DESC LIMIT ${limit}::bigint OFFSET ${offset}::bigint`),
      ];
    },

    async count(organizationId: string, filter: DeliveryPageFilter) {
      const sql = db();
      const [row] = await sql<{ n: number }[]>`SELECT count(*)::integer AS n FROM events WHERE ${pageWhere(sql, organizationId, filter)}`;
      return row.n;
    },

    /** Pending again, due at `at` (epoch ms), its schedule from the start; the log is kept. */
    async requeue(seq: number, at: number) {
      await db()`UPDATE events SET status = 'pending', attempts = 0, next_attempt_at = ${at}::bigint WHERE seq = ${seq}::bigint`;
    },
  };
}
