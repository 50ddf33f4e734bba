// The transactional outbox (C7): call recordEvent inside the transaction of the change it reports.
import type { Context } from "../context";
import { timeOrderedId } from "../ids";

export type EventType = "dossier.created" | "dossier.updated" | "dossier.stage_changed" | "dossier.deleted" | "note.created";

export const newEventId = () => "evt_" + timeOrderedId();

/** Writes the event with its exact delivery body. It is `pending` when the organization has an
 * enabled endpoint now, else `skipped` (C7: never delivered later). Returns the event id. */
export function recordEvent(
  ctx: Context,
  organizationId: string,
  type: EventType,
  data: unknown,
  extra: Record<string, unknown> = {},
): string {
  const id = newEventId();
  const createdAt = ctx.now().toISOString();
  const body = JSON.stringify({ id, type, created_at: createdAt, organization_id: organizationId, data, ...extra });
  const { sqlite } = ctx.store;
  const endpoint = sqlite
    .query<{ ok: number }, [string]>(`SELECT 1 AS ok FROM webhook_endpoints WHERE organization_id = ? AND disabled_at IS NULL`)
    .get(organizationId);
  sqlite
    .query(
      `INSERT INTO events (id, organization_id, type, created_at, body, status, attempts, next_attempt_at)
       VALUES (?, ?, ?, ?, ?, ?, 0, ?)`,
    )
    .run(id, organizationId, type, createdAt, body, endpoint ? "pending" : "skipped", endpoint ? ctx.now().getTime() : null);
  return id;
}

/** The sequence number of the newest event (0 when there is none). */
export function lastEventSeq(ctx: Context): number {
  return ctx.store.sqlite.query<{ seq: number | null }, []>(`SELECT max(seq) AS seq FROM events`).get()?.seq ?? 0;
}

/** Marks the organization's pending events recorded after `seq` as never to be delivered
 * (`skipped`, C7), within the transaction that recorded them: no dispatcher ever sees them pending. */
export function skipEventsAfter(ctx: Context, organizationId: string, seq: number) {
  ctx.store.sqlite
    .query(`UPDATE events SET status = 'skipped', next_attempt_at = NULL WHERE organization_id = ? AND seq > ? AND status = 'pending'`)
    .run(organizationId, seq);
}
