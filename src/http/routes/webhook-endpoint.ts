// The organization's webhook endpoint (C7, C13, C20): the CLI's `webhook set|unset|rotate-secret`.
//   GET    /webhook-endpoint                 {url, enabled}
//   PUT    /webhook-endpoint                 set or replace; a new secret, shown once
//   DELETE /webhook-endpoint                 no more deliveries
//   POST   /webhook-endpoint/rotate-secret   a new secret, shown once; the old one signs for 24 h
import { One } from "../../schemas/common";
import { RemovedWebhookEndpoint, RotatedSecret, SetWebhookEndpoint, WebhookEndpoint, WebhookEndpointWithSecret } from "../../schemas/webhooks";
import { getEndpoint, putEndpoint, removeEndpoint, rotateEndpointSecret } from "../../services/webhooks";
import { defineRoute } from "../route";
import { one } from "../request";

export const webhookEndpointRoutes = [
  defineRoute({
    id: "getWebhookEndpoint",
    method: "GET",
    path: "/webhook-endpoint",
    summary: "Show the webhook endpoint",
    tag: "Webhooks",
    description: "The URL events are sent to and whether it is enabled (a 410 Gone answer disables it); never the secret. 404 not_found when none is set.",
    scopes: ["webhooks:manage"],
    responses: { 200: { schema: One(WebhookEndpoint), description: "The organization's webhook endpoint" } },
    errors: ["not_found"],
    handler: async ({ ctx, principal }) => one(await getEndpoint(ctx, principal.organizationId)),
  }),
  defineRoute({
    id: "setWebhookEndpoint",
    // The answer shows a secret once: never stored for a replay (C20), so Idempotency-Key is ignored.
    secret: true,
    method: "PUT",
    path: "/webhook-endpoint",
    summary: "Set the webhook endpoint",
    tag: "Webhooks",
    description:
      "Sets or replaces the endpoint, enables it and gives it a new secret (no overlap with the old one), shown in this answer only. The URL must be http or https and must not resolve to a link-local address or another cloud metadata address (fd00:ec2::254, 100.100.100.200) (nor, when the server runs with DOSSIER_WEBHOOK_ALLOW_PRIVATE=0, to a loopback or private one): each attempt checks again.",
    scopes: ["webhooks:manage"],
    body: SetWebhookEndpoint,
    responses: { 200: { schema: One(WebhookEndpointWithSecret), description: "The endpoint is set and enabled; `secret` is shown this once only" } },
    handler: async ({ ctx, principal, body }) => one(await putEndpoint(ctx, principal.organizationId, body.url)),
  }),
  defineRoute({
    id: "removeWebhookEndpoint",
    method: "DELETE",
    path: "/webhook-endpoint",
    summary: "Remove the webhook endpoint",
    tag: "Webhooks",
    description: "No more deliveries: pending ones become skipped, and events from now on are skipped until an endpoint is set.",
    scopes: ["webhooks:manage"],
    responses: { 200: { schema: One(RemovedWebhookEndpoint), description: "No endpoint is set any more" } },
    handler: async ({ ctx, principal }) => one(await removeEndpoint(ctx, principal.organizationId)),
  }),
  defineRoute({
    id: "rotateWebhookSecret",
    // The answer shows a secret once: never stored for a replay (C20), so Idempotency-Key is ignored.
    secret: true,
    method: "POST",
    path: "/webhook-endpoint/rotate-secret",
    summary: "Rotate the webhook secret",
    tag: "Webhooks",
    description:
      "A new secret, shown in this answer only. For 24 h deliveries carry a second signature made with the secret it replaced. 404 not_found when no endpoint is set.",
    scopes: ["webhooks:manage"],
    responses: { 200: { schema: One(RotatedSecret), description: "The secret was replaced; `secret` is shown this once only" } },
    errors: ["not_found"],
    handler: async ({ ctx, principal }) => one(await rotateEndpointSecret(ctx, principal.organizationId)),
  }),
];
