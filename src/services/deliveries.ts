// The delivery log and the manual retry (C2 `webhook deliveries`, `webhook retry`; C10). HTTP-free.
import type { Static } from "@sinclair/typebox";
import type { Context } from "../context";
import { ApiError, notFound } from "../errors";
import type { DeliveryPageFilter, DeliveryRow, DeliveryStatus } from "../db/deliveries";
import type { Delivery as DeliverySchema, DeliveryAttempt } from "../schemas/webhooks";
import { offsetOf, pageEnd, positionOf, rowsToRead, type CursorPaging, type PagedAnswer } from "./cursor";

export type { DeliveryStatus };
export const DELIVERY_STATUSES = ["pending", "succeeded", "failed", "skipped"] as const satisfies readonly DeliveryStatus[];

export type AttemptLogEntry = Static<typeof DeliveryAttempt>;

/** `attempt_log` is present when the log is filtered by event: that event's attempts, oldest first. */
export type Delivery = Static<typeof DeliverySchema> & { attempt_log?: AttemptLogEntry[] };

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

const toDelivery = (row: DeliveryRow): Delivery => ({
  event_id: row.id,
  type: row.type as Delivery["type"],
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
export async function listDeliveries(ctx: Context, organizationId: string, filter: DeliveryFilter = {}): Promise<{ data: Delivery[] }> {
  const { deliveries } = ctx.store;
  if (filter.status !== undefined && !DELIVERY_STATUSES.includes(filter.status)) {
    throw new TypeError(`unknown delivery status "${filter.status}": expected ${DELIVERY_STATUSES.join(", ")}`);
  }
  if (filter.eventId !== undefined) {
    const eventId = filter.eventId;
    return await ctx.store.read(async () => {
      const row = await deliveries.byEventId(organizationId, eventId);
      if (!row) throw new DeliveryError("not_found", `no event ${eventId} in organization ${organizationId}`);
      if (filter.status !== undefined && row.status !== filter.status) return { data: [] };
      return { data: [{ ...toDelivery(row), attempt_log: (await deliveries.attempts(row.seq)) }] };
    });
  }
  return { data: (await deliveries.newest(organizationId, filter.status, filter.limit ?? null)).map(toDelivery) };
}

/**
 * Queues a `failed` delivery again, due now, with the retry schedule from its start (C10). The
 * attempt log and the last status/error are kept. A running server (this process or another on
 * the same data folder) picks it up within 5 s, on its dispatcher's periodic scan.
 * Throws DeliveryError: `not_found` (no event with that id), `not_failed` (pending, succeeded or
 * skipped), `no_endpoint` (the organization has no enabled endpoint: `webhook set` first).
 */
export function retryDelivery(ctx: Context, eventId: string): Promise<{ event_id: string; status: "pending" }> {
  return ctx.store.write(async () => {
    await writeRetry(ctx, (await ctx.store.deliveries.byEventIdInAnyOrganization(eventId)), eventId);
    return { event_id: eventId, status: "pending" as const };
  });
}

/** The retry's unit of work, shared by the CLI and the API; throws DeliveryError. */
async function writeRetry(ctx: Context, row: DeliveryRow | null, eventId: string) {
  if (!row) throw new DeliveryError("not_found", `no event ${eventId}`);
  if (row.status !== "failed") {
    throw new DeliveryError("not_failed", `delivery ${eventId} is ${row.status}: only a failed delivery can be retried`);
  }
  if (!(await ctx.store.webhooks.hasEnabled(row.organization_id))) {
    throw new DeliveryError(
      "no_endpoint",
      `organization ${row.organization_id} has no enabled webhook endpoint: run "dossier webhook set" first`,
    );
  }
  await ctx.store.deliveries.requeue(row.seq, ctx.now().getTime());
}

/** GET /webhook-deliveries (C13, C20): a page of the log, newest first. */
export async function deliveryPage(ctx: Context, organizationId: string, query: DeliveryPageFilter & CursorPaging): Promise<PagedAnswer<Delivery>> {
  const { deliveries } = ctx.store;
  const filter = { status: query.status, type: query.type };
  const after = query.after === undefined ? undefined : positionOf("webhook-deliveries", query.after).seq;
  const { rows, total } = await ctx.store.read(async () => ({
    total: await deliveries.count(organizationId, filter),
    rows: await deliveries.page(organizationId, filter, rowsToRead(query), offsetOf(query), after),
  }));
  const { data, next_after } = pageEnd("webhook-deliveries", query, rows, total, (row) => ({ seq: row.seq }));
  return { data: data.map(toDelivery), total, next_after };
}

/** GET /webhook-deliveries/{event_id}: the delivery with its attempt log, or not_found. */
export async function getDelivery(ctx: Context, organizationId: string, eventId: string): Promise<Delivery & { attempt_log: AttemptLogEntry[] }> {
  const { deliveries } = ctx.store;
  return await ctx.store.read(async () => {
    const row = await deliveries.byEventId(organizationId, eventId);
    if (!row) throw notFound("delivery not found");
    return { ...toDelivery(row), attempt_log: (await deliveries.attempts(row.seq)) };
  });
}

/** POST /webhook-deliveries/{event_id}/retry (C13, C20): `webhook retry` for the organization's
 * delivery, answered as it is now (pending). Not failed: 409 delivery_not_failed; no enabled
 * endpoint to send it to: 404 not_found. */
export async function retryDeliveryOf(ctx: Context, organizationId: string, eventId: string): Promise<Delivery & { attempt_log: AttemptLogEntry[] }> {
  try {
    await ctx.store.write(async () => writeRetry(ctx, (await ctx.store.deliveries.byEventId(organizationId, eventId)), eventId));
  } catch (error) {
    if (!(error instanceof DeliveryError)) throw error;
    if (error.code === "not_failed") throw new ApiError("delivery_not_failed", error.message);
    throw notFound(error.code === "no_endpoint" ? "no enabled webhook endpoint to send it to: set one first (PUT /webhook-endpoint)" : "delivery not found");
  }
  return getDelivery(ctx, organizationId, eventId);
}
