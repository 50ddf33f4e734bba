// The outbox's rows as the services write them (C7): recording an event inside the change's own
// unit. The dispatcher's side of the same table is src/db/outbox.ts.
import type { QueryDeps } from "./queries";

export interface NewEvent {
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

export function eventQueries({ sqlite }: QueryDeps) {
  return {
    /** Whether the organization has a webhook endpoint that is not disabled. */
    hasEnabledEndpoint(organizationId: string): boolean {
      const row = sqlite
        .query<{ ok: number }, [string]>(`SELECT 1 AS ok FROM webhook_endpoints WHERE organization_id = ? AND disabled_at IS NULL`)
        .get(organizationId);
      return Boolean(row);
    },

    insert(event: NewEvent) {
      sqlite
        .query(
          `INSERT INTO events (id, organization_id, type, created_at, body, status, attempts, next_attempt_at)
           VALUES (?, ?, ?, ?, ?, ?, 0, ?)`,
        )
        .run(event.id, event.organizationId, event.type, event.createdAt, event.body, event.status, event.nextAttemptAt);
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
  };
}
