// The events feed (C17, C20): the organization's events as their webhook bodies, in commit order,
// read with a cursor (`after`) that misses nothing and repeats nothing while events are written;
// and the retention sweep that deletes them after DOSSIER_EVENT_RETENTION.
import type { Context } from "../context";
import { ApiError } from "../errors";
import { newId } from "../ids";
import { underLease } from "../jobs/lease";
import type { EventType } from "./outbox";

export interface EventFeedQuery {
  /** An event id: only the events after it. */
  after?: string;
  /** Only these types (empty: all). */
  types: EventType[];
  dossierId?: string;
  /** 1 to 100 (the route's schema checks it). */
  limit: number;
}

export interface EventPage {
  /** The events' bodies, each the exact JSON text their webhook carries. */
  bodies: string[];
  hasMore: boolean;
  nextAfter: string | null;
}

const cursorExpired = () =>
  new ApiError("cursor_expired", "the event after which to read is unknown or older than the retention: read again without after");

/** The oldest time an event may have and still be served: older ones count as pruned (C20), even
 * while the sweep has not reached their rows. */
const retentionEdge = (ctx: Context) => new Date(ctx.now().getTime() - ctx.config.eventRetentionMs).toISOString();

/**
 * GET /events: up to `limit` events after `after`, oldest first. `next_after` is the last event's
 * id, else the `after` sent (null without one). Event sequences are taken inside the writing unit
 * and units commit one after another, so a read never sees an event while an earlier one is still
 * to commit: reading on from the last id seen misses nothing.
 */
export async function listEvents(ctx: Context, organizationId: string, query: EventFeedQuery): Promise<EventPage> {
  const since = retentionEdge(ctx);
  return await ctx.store.read(async () => {
    let afterSeq = 0;
    if (query.after !== undefined) {
      // Ids of either form (docs/decisions.md, "Event ids") stand for their row's sequence.
      const cursor = await ctx.store.events.cursor(organizationId, query.after);
      if (!cursor || cursor.created_at < since) throw cursorExpired();
      afterSeq = cursor.seq;
    }
    const rows = await ctx.store.events.feed(organizationId, {
      afterSeq,
      since,
      types: query.types.length > 0 ? [...new Set(query.types)] : null,
      dossierId: query.dossierId ?? null,
      limit: query.limit + 1,
    });
    const page = rows.slice(0, query.limit);
    return {
      bodies: page.map((row) => row.body),
      hasMore: rows.length > query.limit,
      nextAfter: page.length > 0 ? page[page.length - 1].id : (query.after ?? null),
    };
  });
}

/** GET /events/{id}: the event's body as JSON text; null when the organization has none by that
 * id within the retention. */
export async function getEvent(ctx: Context, organizationId: string, id: string): Promise<string | null> {
  const found = await ctx.store.events.byId(organizationId, id);
  return found && found.created_at >= retentionEdge(ctx) ? found.body : null;
}

/** Events deleted per unit: each batch is a short write, so requests' writes never wait long. */
export const SWEEP_BATCH = 500;

/**
 * Deletes the events older than the retention, with their delivery attempts, in batches of
 * SWEEP_BATCH, each its own write; a delivery still pending stays until it succeeds or fails.
 * At most `maxBatches` batches (the rest waits for the next sweep). Returns how many went.
 */
export async function sweepEvents(ctx: Context, maxBatches = 100): Promise<number> {
  const before = retentionEdge(ctx);
  let swept = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const n = await ctx.store.write(() => ctx.store.events.sweep(before, SWEEP_BATCH));
    swept += n;
    if (n < SWEEP_BATCH) break;
  }
  return swept;
}

/** How often the server sweeps. */
export const SWEEP_EVERY_MS = 10 * 60_000;

/** Sweeps now and every SWEEP_EVERY_MS, off the request path (a timer), until the call it returns
 * stops it and waits for a sweep under way. A failed sweep is logged and tried again next time.
 * Several nodes on one PostgreSQL database: one sweeps at a time (a lease, src/jobs/lease.ts), the
 * others skip that turn. */
export function startEventSweep(ctx: Context, everyMs = SWEEP_EVERY_MS): () => Promise<void> {
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const holder = `sweep_${newId()}`;
  const sweep = () => {
    if (stopped || running !== null || ctx.store.failure !== null) return;
    running = underLease(ctx, holder, "job:event-sweep", () => sweepEvents(ctx))
      .then(
        (swept) => swept !== null && swept.value > 0 && ctx.logger.log("info", "old events deleted", { swept: swept.value }),
        (error) => ctx.logger.log("warn", "the event sweep failed; it is tried again later", { error: String(error) }),
      )
      .finally(() => (running = null));
  };
  const first = setTimeout(sweep, 0);
  const timer = setInterval(sweep, everyMs);
  first.unref?.();
  timer.unref?.();
  return async () => {
    stopped = true;
    clearTimeout(first);
    clearInterval(timer);
    await running;
  };
}
