// The transactional outbox (C7): call recordEvent inside the transaction of the change it reports.
import type { Awaitable } from "../awaitable";
import { AsyncLocalStorage } from "node:async_hooks";
import type { Context } from "../context";

/** Work whose changes emit no event: a CSV import given `emit_events=false` (C21). */
const muted = new AsyncLocalStorage<true>();

/** Runs `work` (inside a unit of work) so that the changes it makes record no event. */
export const withoutEvents = <T>(work: () => T): T => muted.run(true, work);

export type EventType = "dossier.created" | "dossier.updated" | "dossier.stage_changed" | "dossier.deleted" | "note.created";

/** An event's id (C17, C20): `evt_` and its commit sequence, zero-padded to 26 digits, so that ids
 * sort as strings in commit order (docs/decisions.md, "Event ids"). */
export const eventIdOf = (seq: number) => "evt_" + String(seq).padStart(26, "0");

/** Writes the event with its exact delivery body. It is `pending` when the organization has an
 * enabled endpoint now, else `skipped` (C7: never delivered later). Returns the event id.
 * Its sequence is taken here, inside the writing unit: units run one after another, so the order in
 * which sequences are taken is the order in which they commit. */
export async function recordEvent(
  ctx: Context,
  organizationId: string,
  type: EventType,
  data: unknown,
  extra: Record<string, unknown> = {},
): Promise<string> {
  // Nothing recorded: no event id (its callers pass an id on only for a CV, which no import has).
  if (muted.getStore()) return "";
  const seq = await ctx.store.events.nextSeq(organizationId);
  const id = eventIdOf(seq);
  const createdAt = ctx.now().toISOString();
  const body = JSON.stringify({ id, type, created_at: createdAt, organization_id: organizationId, data, ...extra });
  const deliverable = await ctx.store.events.hasEnabledEndpoint(organizationId);
  await ctx.store.events.insert({
    seq,
    id,
    organizationId,
    type,
    createdAt,
    body,
    status: deliverable ? "pending" : "skipped",
    nextAttemptAt: deliverable ? ctx.now().getTime() : null,
  });
  return id;
}

/** The sequence number of the newest event (0 when there is none). */
export const lastEventSeq = (ctx: Context): Awaitable<number> => ctx.store.events.lastSeq();

/** Marks the organization's pending events recorded after `seq` as never to be delivered
 * (`skipped`, C7), within the transaction that recorded them: no dispatcher ever sees them pending. */
export async function skipEventsAfter(ctx: Context, organizationId: string, seq: number) {
  await ctx.store.events.skipPendingAfter(organizationId, seq);
}
