// The webhook delivery log (C7, C13, C20): the CLI's `webhook deliveries` and `webhook retry`.
//   GET  /webhook-deliveries                    newest first, paged; status, type
//   GET  /webhook-deliveries/:event_id          one delivery with its attempts
//   POST /webhook-deliveries/:event_id/retry    queue a failed delivery again
import { One, Paged } from "../../schemas/common";
import { EVENT_ID } from "../../schemas/events";
import { Delivery, DeliveryQuery, DeliveryWithAttempts } from "../../schemas/webhooks";
import { deliveryPage, getDelivery, retryDeliveryOf } from "../../services/deliveries";
import { defineRoute } from "../route";
import { cursorPaging, one, pagedAnswer } from "../request";

const ofEvent = "The event's id (evt_...)";

export const deliveryRoutes = [
  defineRoute({
    id: "listWebhookDeliveries",
    method: "GET",
    path: "/webhook-deliveries",
    summary: "List webhook deliveries",
    tag: "Webhooks",
    description: "One delivery per event, newest event first.",
    scopes: ["webhooks:manage"],
    query: DeliveryQuery,
    responses: { 200: { schema: Paged(Delivery), description: "A page of the organization's delivery log, newest first, with the total across all pages" } },
    handler: async ({ ctx, principal, query, request }) => {
      const paged = cursorPaging(query, request);
      return pagedAnswer(await deliveryPage(ctx, principal.organizationId, { status: query.status, type: query.type, ...paged }), paged);
    },
  }),
  defineRoute({
    id: "getWebhookDelivery",
    method: "GET",
    path: "/webhook-deliveries/:event_id",
    summary: "Show a webhook delivery and its attempts",
    tag: "Webhooks",
    scopes: ["webhooks:manage"],
    params: { event_id: ofEvent },
    idPattern: EVENT_ID,
    load: ({ ctx, principal, params }) => getDelivery(ctx, principal.organizationId, params.event_id),
    responses: { 200: { schema: One(DeliveryWithAttempts), description: "The delivery, with every attempt (time, status or error, duration, first 1 KB of the answer)" } },
    handler: ({ resource }) => one(resource),
  }),
  defineRoute({
    id: "retryWebhookDelivery",
    method: "POST",
    path: "/webhook-deliveries/:event_id/retry",
    summary: "Retry a failed webhook delivery",
    tag: "Webhooks",
    description:
      "Queues a failed delivery again, due now, with the retry schedule from its start; its attempt log is kept. Only a failed delivery (else 409 delivery_not_failed), and only while an endpoint is set and enabled (else 404 not_found).",
    scopes: ["webhooks:manage"],
    params: { event_id: ofEvent },
    idPattern: EVENT_ID,
    load: async ({ ctx, principal, params }) => (await getDelivery(ctx, principal.organizationId, params.event_id)).event_id,
    responses: { 200: { schema: One(DeliveryWithAttempts), description: "The delivery, pending again" } },
    errors: ["delivery_not_failed"],
    handler: async ({ ctx, principal, resource: id }) => one(await retryDeliveryOf(ctx, principal.organizationId, id)),
  }),
];
