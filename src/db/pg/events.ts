// The events' rows on PostgreSQL (C7, C17): src/db/events.ts's statements, the same answers.
//
// Event ids sort in commit order (C17, C20), and PostgreSQL's sequences give allocation order: two
// transactions that take 41 and 42 may commit 42 first, and a feed reader that moved past 42 would
// never see 41. So nextSeq first takes the organization's numbering lock, a transaction-level
// advisory lock held to the commit: an organization's transactions that record events take their
// numbers, and commit, one after another, as SQLite's units do, so that its feed (C17: one
// organization's events) and its webhook deliveries see its events in commit order. Organizations
// do not wait for each other (one lock for the installation measured 0.27-0.79x of the unlocked
// rate under 16 writers, bench/pg-event-numbering.ts; docs/decisions.md, "Event numbers on
// PostgreSQL"). The number is the identity sequence's own (events.seq), so a pruned event's number
// is never given again, and `dossier migrate --to` sets it past the copied rows. A rolled-back
// transaction leaves its number unused (a sequence never goes back): a gap, where SQLite gives the
// number again; never a number that commits out of order.
import type { SQL } from "bun";
import type { EventCursor, FeedFilter, FeedRow, NewEvent } from "../events";
import type { Db } from "./client";
import type { EngineQueries } from "./queries";
import { EVENT_NUMBERING_LOCK } from "./lock-classes";


/** The organizations whose numbering lock each open transaction holds, by its SQL (a new object
 * per transaction): a unit sends the lock's statement once, not before each of its writes. */
const held = new WeakMap<SQL, Set<string>>();

/** Takes the organization's numbering lock, to the end of the transaction (nothing outside one).
 * Also the organization's write order: a unit takes it before its first write of a contact, a
 * dossier, a link, a flow or a stage (and before the checks such a write depends on), whose triggers
 * take rows the organization's writers share (contact_kind_counts, contact_generations,
 * dossier_counts, generations) and whose keys (a contact's folded email) make a concurrent unit wait. A unit holding this lock (it recorded an event: a CSV import's unit holds
 * it across its rows) then never waits for such a row held by a unit that waits for this lock: the
 * deadlock SQLite's one writer cannot have (docs/decisions.md, "One writer order per organization"). */
export async function holdOrganization(sql: SQL, organizationId: string) {
  let orgs = held.get(sql);
  if (orgs?.has(organizationId)) return;
  await sql`SELECT pg_advisory_xact_lock(${EVENT_NUMBERING_LOCK}::integer, hashtext(${organizationId}))`;
  if (!orgs) held.set(sql, (orgs = new Set()));
  orgs.add(organizationId);
}

/** After a rollback to a savepoint of the transaction `sql`: a lock taken since the savepoint is
 * released with it (PostgreSQL), so the next write takes it again. */
export const forgetHeldLocks = (sql: SQL) => void held.delete(sql);

export function pgEventQueries(db: Db): EngineQueries<"events"> {
  return {
    /** The sequence the organization's next event gets; call inside the unit that records it, which
     * then holds the organization's numbering lock until it commits or rolls back. */
    async nextSeq(organizationId: string) {
      await holdOrganization(db(), organizationId);
      const [row] = await db()<{ seq: number }[]>`SELECT nextval(pg_get_serial_sequence('events', 'seq'))::float8 AS seq`;
      return row.seq;
    },

    /** Whether the organization has a webhook endpoint that is not disabled. */
    async hasEnabledEndpoint(organizationId: string) {
      return (await db()`SELECT 1 AS ok FROM webhook_endpoints WHERE organization_id = ${organizationId} AND disabled_at IS NULL`).length > 0;
    },

    async insert(event: NewEvent) {
      await db()`INSERT INTO events (seq, id, organization_id, type, created_at, body, status, attempts, next_attempt_at)
        VALUES (${event.seq}::bigint, ${event.id}, ${event.organizationId}, ${event.type}, ${event.createdAt}, ${event.body}, ${event.status}, 0,
          ${event.nextAttemptAt}::bigint)`;
    },

    /** The sequence number of the newest event of any organization (0 when there is none). */
    async lastSeq() {
      const [row] = await db()<{ seq: number | null }[]>`SELECT max(seq)::float8 AS seq FROM events`;
      return row?.seq ?? 0;
    },

    /** Marks the organization's pending events after `seq` skipped (no delivery, ever). */
    async skipPendingAfter(organizationId: string, seq: number) {
      await db()`UPDATE events SET status = 'skipped', next_attempt_at = NULL
        WHERE organization_id = ${organizationId} AND seq > ${seq}::bigint AND status = 'pending'`;
    },

    /** The organization's event `id` as a feed cursor; null when it has none by that id. */
    async cursor(organizationId: string, id: string) {
      const [row] = await db()<EventCursor[]>`SELECT seq::float8 AS seq, created_at FROM events WHERE id = ${id} AND organization_id = ${organizationId}`;
      return row ?? null;
    },

    /** The organization's event `id`: its body (JSON text) and time; null when none. */
    async byId(organizationId: string, id: string) {
      const [row] = await db()<{ body: string; created_at: string }[]>`SELECT body, created_at FROM events
        WHERE id = ${id} AND organization_id = ${organizationId}`;
      return row ?? null;
    },

    /** The organization's events that pass `filter`, in commit order. Types as a JSON array, as on
     * SQLite; the dossier's equality written as the index events_org_dossier_seq has it, and in a
     * statement of its own, so that the planner sees it. ORDER BY names events.seq: a bare `seq`
     * would be the output column (seq::float8), which no index orders, and every matching row
     * would be sorted before the LIMIT. */
    async feed(organizationId: string, filter: FeedFilter) {
      const types = filter.types === null ? null : JSON.stringify(filter.types);
      const rows =
        filter.dossierId === null
          ? await db()<FeedRow[]>`SELECT seq::float8 AS seq, id, body FROM events
              WHERE organization_id = ${organizationId} AND seq > ${filter.afterSeq}::bigint AND created_at >= ${filter.since}
                AND (${types}::text IS NULL OR type IN (SELECT jsonb_array_elements_text(${types}::text::jsonb)))
              ORDER BY events.seq LIMIT ${filter.limit}::bigint`
          : await db()<FeedRow[]>`SELECT seq::float8 AS seq, id, body FROM events
              WHERE organization_id = ${organizationId} AND seq > ${filter.afterSeq}::bigint AND created_at >= ${filter.since}
                AND (${types}::text IS NULL OR type IN (SELECT jsonb_array_elements_text(${types}::text::jsonb)))
                AND (CASE WHEN type = 'note.created' THEN body::jsonb -> 'data' ->> 'dossier_id' ELSE body::jsonb -> 'data' ->> 'id' END) = ${filter.dossierId}
              ORDER BY events.seq LIMIT ${filter.limit}::bigint`;
      return [...rows];
    },

    /** Deletes at most `limit` of the events recorded before `before` (ISO) whose delivery is over
     * (anything but pending), with their delivery attempts, in one statement; returns how many went.
     * The one statement not scoped by organization: the installation's upkeep. */
    async sweep(before: string, limit: number) {
      const done = await db()`WITH gone AS (
            SELECT seq FROM events WHERE created_at < ${before} AND status <> 'pending' ORDER BY seq LIMIT ${limit}::bigint
          ), attempts AS (
            DELETE FROM delivery_attempts WHERE event_seq IN (SELECT seq FROM gone)
          )
        DELETE FROM events WHERE seq IN (SELECT seq FROM gone)`;
      return done.count;
    },
  };
}
