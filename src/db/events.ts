// The events' rows (C7, C17): recording one inside the change's own unit, the feed's reads, and the
// retention sweep. The dispatcher's side of the same table is src/db/outbox.ts.
import type { QueryDeps } from "./queries";

export interface NewEvent {
  /** Taken by nextSeq in the same unit. */
  seq: number;
  id: string;
  organizationId: string;
  type: string;
  createdAt: string;
  /** The exact JSON the receiver gets. */
  body: string;
  status: "pending" | "skipped";
  /** Epoch ms; null unless pending. */
  nextAttemptAt: number | null;
}

/** Where a feed cursor stands: its event's place in commit order, and its age. */
export interface EventCursor {
  seq: number;
  created_at: string;
}

export interface FeedFilter {
  /** Only events after this sequence (0: from the oldest). */
  afterSeq: number;
  /** Only events recorded at or after this ISO time (the retention's edge). */
  since: string;
  /** Only these types; null for all. */
  types: string[] | null;
  /** Only this dossier's own events and the note.created of its notes; null for all. */
  dossierId: string | null;
  limit: number;
}

export interface FeedRow {
  seq: number;
  id: string;
  /** The webhook body (C7), as JSON text. */
  body: string;
}

/** The dossier an event is about: a dossier's events carry it as data.id, a note's as
 * data.dossier_id (C7). Written as migration 0010's index events_org_dossier_seq has it, which a
 * query uses only when its expression is the same. */
export const DOSSIER_OF = `(CASE WHEN "type" = 'note.created' THEN "body" ->> '$.data.dossier_id' ELSE "body" ->> '$.data.id' END)`;

/** The feed's statement; parameters: organization, after (a seq), since (ISO), types (a JSON array
 * or null), limit and, `byDossier`, the dossier's id. Two statements rather than `?6 IS NULL OR`,
 * which would hide the dossier's equality from the planner. Exported for the test of its plan. */
export const feedSql = (byDossier: boolean) =>
  `SELECT seq, id, body FROM events
    WHERE organization_id = ?1 AND seq > ?2 AND created_at >= ?3 AND (?4 IS NULL OR type IN (SELECT value FROM json_each(?4)))
      ${byDossier ? `AND ${DOSSIER_OF} = ?6` : ""}
    ORDER BY seq LIMIT ?5`;

export function eventQueries({ sqlite }: QueryDeps) {
  // AUTOINCREMENT keeps the highest sequence ever used in sqlite_sequence, so a pruned event's
  // sequence (and so its id) is never given again.
  const nextSeq = sqlite.query<{ seq: number }, []>(
    `SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'events'), 0), coalesce((SELECT max(seq) FROM events), 0)) + 1 AS seq`,
  );
  const insert = sqlite.query(
    `INSERT INTO events (seq, id, organization_id, type, created_at, body, status, attempts, next_attempt_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?)`,
  );
  const cursor = sqlite.query<EventCursor, [string, string]>(`SELECT seq, created_at FROM events WHERE id = ? AND organization_id = ?`);
  const one = sqlite.query<{ body: string; created_at: string }, [string, string]>(
    `SELECT body, created_at FROM events WHERE id = ? AND organization_id = ?`,
  );
  const feed = sqlite.query<FeedRow, [string, number, string, string | null, number]>(feedSql(false));
  const dossierFeed = sqlite.query<FeedRow, [string, number, string, string | null, number, string]>(feedSql(true));
  // The sweep is the installation's upkeep, not a read or change of one organization's data: it
  // spans every organization. Oldest first by seq; pending deliveries stay until they end.
  const expired = sqlite.query<{ seq: number }, [string, number]>(
    `SELECT seq FROM events WHERE created_at < ? AND status <> 'pending' ORDER BY seq LIMIT ?`,
  );
  const dropAttempts = sqlite.query(`DELETE FROM delivery_attempts WHERE event_seq IN (SELECT value FROM json_each(?))`);
  const dropEvents = sqlite.query(`DELETE FROM events WHERE seq IN (SELECT value FROM json_each(?))`);

  return {
    /** The sequence the organization's next event gets; call inside the unit that records it. On
     * SQLite every number is taken by the one writer, in commit order: the organization names the
     * numbering lock on PostgreSQL (src/db/pg/events.ts). */
    nextSeq: (_organizationId: string): number => nextSeq.get()!.seq,

    /** Whether the organization has a webhook endpoint that is not disabled. */
    hasEnabledEndpoint(organizationId: string): boolean {
      const row = sqlite
        .query<{ ok: number }, [string]>(`SELECT 1 AS ok FROM webhook_endpoints WHERE organization_id = ? AND disabled_at IS NULL`)
        .get(organizationId);
      return Boolean(row);
    },

    insert(event: NewEvent) {
      insert.run(event.seq, event.id, event.organizationId, event.type, event.createdAt, event.body, event.status, event.nextAttemptAt);
    },

    /** The sequence number of the newest event of any organization (0 when there is none). */
    lastSeq(): number {
      return sqlite.query<{ seq: number | null }, []>(`SELECT max(seq) AS seq FROM events`).get()?.seq ?? 0;
    },

    /** Marks the organization's pending events after `seq` skipped (no delivery, ever). */
    skipPendingAfter(organizationId: string, seq: number) {
      sqlite
        .query(`UPDATE events SET status = 'skipped', next_attempt_at = NULL WHERE organization_id = ? AND seq > ? AND status = 'pending'`)
        .run(organizationId, seq);
    },

    /** The organization's event `id` as a feed cursor; null when it has none by that id. */
    cursor: (organizationId: string, id: string): EventCursor | null => cursor.get(id, organizationId) ?? null,

    /** The organization's event `id`: its body (JSON text) and time; null when none. */
    byId: (organizationId: string, id: string): { body: string; created_at: string } | null => one.get(id, organizationId) ?? null,

    /** The organization's events that pass `filter`, in commit order. */
    feed(organizationId: string, filter: FeedFilter): FeedRow[] {
      const types = filter.types === null ? null : JSON.stringify(filter.types);
      return filter.dossierId === null
        ? feed.all(organizationId, filter.afterSeq, filter.since, types, filter.limit)
        : dossierFeed.all(organizationId, filter.afterSeq, filter.since, types, filter.limit, filter.dossierId);
    },

    /** Deletes at most `limit` of the events recorded before `before` (ISO) whose delivery is over
     * (anything but pending), with their delivery attempts; returns how many went. */
    sweep(before: string, limit: number): number {
      const seqs = JSON.stringify(expired.all(before, limit).map((row) => row.seq));
      dropAttempts.run(seqs);
      return dropEvents.run(seqs).changes;
    },
  };
}
