// The outbox's queries for the webhook dispatcher on PostgreSQL: src/db/outbox.ts's statements, the
// same answers, and (pgLaneQueries) what several nodes on one database need besides (C19): the
// organizations' lanes claimed with leases, their due deliveries read, and the announcement of new
// events to every node. seq and next_attempt_at are bigint: read as float8, and ordered by the
// table's columns (events.seq): a bare name in ORDER BY is the output column, the float8, which no
// index orders.
import type { SQL } from "bun";
import type { AttemptCheck, AttemptEntry, PendingRow } from "../outbox";
import type { Db } from "./client";
import { dbNowMs } from "./leases";
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
     * every organization may pass another organization's event still to commit, so the dispatcher
     * on PostgreSQL (src/webhooks/lanes.ts) reads by organization instead (its lanes,
     * organizationFirstAttempts) and never calls this. */
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

/** A lane's lease name: `webhooks:<organization id>` (the leases table, src/db/schema.ts). */
const LANE = "webhooks:";
/** The channel on which a node announces the organizations whose events it committed. */
const EVENTS_CHANNEL = "dossier_events";
/** A notification's payload stays under PostgreSQL's 8,000 bytes. */
const PAYLOAD_MAX = 7_000;

/** A lane held, and where it stands: every first attempt of the organization numbered at or
 * below `position` is recorded (the leases table's `position`). */
export interface LanePosition {
  organizationId: string;
  position: number;
}

export type PgLanes = {
  /** Claims for `holder`, for `ms`, the lanes that no node holds of organizations with a delivery
   * due at `now` (of `organizations` only, when given), at most `limit`: the lanes claimed, each
   * where the previous holder left it. The free lanes are locked with FOR UPDATE SKIP LOCKED and
   * their leases set in one statement (a short transaction of its own): two nodes claiming at
   * once take different lanes. */
  claim(holder: string, ms: number, now: number, organizations: readonly string[] | null, limit: number): Promise<LanePosition[]>;
  /** Renews `holder`'s lanes, recording where each stands: the organizations it still holds. */
  renew(holder: string, ms: number, lanes: readonly LanePosition[]): Promise<string[]>;
  /** Gives back `holder`'s lanes, recording where each stands. */
  release(holder: string, lanes: readonly LanePosition[]): Promise<void>;
  /** Deliveries of `organizations` due at `now` (retries, and first attempts given again by
   * `webhook retry`), in (next_attempt_at, seq) order. */
  dueOf(organizations: readonly string[], now: number, limit: number): Promise<PendingRow[]>;
  /** Calls `heard` with the organizations whose events any node announced (and once again after a
   * lost connection to the database is back, with none: what was announced meanwhile is unknown). */
  listen(heard: (organizations: string[]) => void): Promise<() => Promise<void>>;
  /** Tells every node (this one too) that `organizations` have new events committed. */
  announce(organizations: readonly string[]): Promise<void>;
};

export function pgLaneQueries(db: Db): PgLanes {
  const names = (organizations: readonly string[]) => organizations.map((org) => LANE + org);
  return {
    async claim(holder, ms, now, organizations, limit) {
      const sql = db();
      const only = organizations === null ? null : [...organizations];
      // A lane's lease row is made the first time its organization has a delivery due.
      await sql`INSERT INTO leases (name, holder, expires_at)
        SELECT ${LANE} || organization_id, '', 0 FROM (
          SELECT DISTINCT organization_id FROM events
          WHERE status = 'pending' AND next_attempt_at <= ${now}::bigint AND (${only}::text[] IS NULL OR organization_id = ANY(${only}::text[]))
        ) due
        ON CONFLICT (name) DO NOTHING`;
      const rows = await sql<{ name: string; position: number }[]>`UPDATE leases SET holder = ${holder}, expires_at = ${dbNowMs(sql)} + ${ms}::bigint
        WHERE name IN (
          SELECT l.name FROM leases l
          WHERE l.name LIKE ${LANE + "%"} AND l.expires_at <= ${dbNowMs(sql)}
            AND (${only}::text[] IS NULL OR l.name = ANY(${only === null ? null : names(only)}::text[]))
            AND EXISTS (SELECT 1 FROM events e WHERE e.organization_id = substr(l.name, ${LANE.length + 1}::integer)
              AND e.status = 'pending' AND e.next_attempt_at <= ${now}::bigint)
          ORDER BY l.expires_at LIMIT ${limit}::bigint
          FOR UPDATE SKIP LOCKED)
        RETURNING name, position::float8 AS position`;
      return rows.map((row) => ({ organizationId: row.name.slice(LANE.length), position: row.position }));
    },

    async renew(holder, ms, lanes) {
      if (lanes.length === 0) return [];
      const sql = db();
      // Still this holder's, even past its time: no other node took it, so none has acted on it.
      const rows = await sql<{ name: string }[]>`UPDATE leases SET expires_at = ${dbNowMs(sql)} + ${ms}::bigint, position = greatest(leases.position, held.position)
        FROM unnest(${names(lanes.map((lane) => lane.organizationId))}::text[], ${lanes.map((lane) => lane.position)}::bigint[]) AS held(name, position)
        WHERE leases.name = held.name AND leases.holder = ${holder}
        RETURNING leases.name`;
      return rows.map((row) => row.name.slice(LANE.length));
    },

    async release(holder, lanes) {
      if (lanes.length === 0) return;
      await db()`UPDATE leases SET expires_at = 0, position = greatest(leases.position, held.position)
        FROM unnest(${names(lanes.map((lane) => lane.organizationId))}::text[], ${lanes.map((lane) => lane.position)}::bigint[]) AS held(name, position)
        WHERE leases.name = held.name AND leases.holder = ${holder}`;
    },

    async dueOf(organizations, now, limit) {
      if (organizations.length === 0) return [];
      const sql = db();
      return [
        ...(await sql<PendingRow[]>`SELECT ${columns(sql)}
          FROM events
          WHERE status = 'pending' AND next_attempt_at <= ${now}::bigint AND organization_id = ANY(${[...organizations]}::text[])
          ORDER BY events.next_attempt_at, events.seq LIMIT ${limit}::bigint`),
      ];
    },

    async listen(heard) {
      let first = true;
      const subscription = await db().listen(
        EVENTS_CHANNEL,
        (payload) => heard(payload === "" ? [] : payload.split(",")),
        () => {
          if (!first) heard([]);
          first = false;
        },
      );
      return () => subscription.unlisten();
    },

    async announce(organizations) {
      const sql = db();
      let payload = "";
      for (const org of organizations) {
        if (payload.length + org.length + 1 > PAYLOAD_MAX) {
          await sql.notify(EVENTS_CHANNEL, payload);
          payload = "";
        }
        payload = payload === "" ? org : `${payload},${org}`;
      }
      if (payload !== "") await sql.notify(EVENTS_CHANNEL, payload);
    },
  };
}
