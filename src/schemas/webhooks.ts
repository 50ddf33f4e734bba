// The webhook endpoint and the delivery log as the settings calls show them (C2 `webhook` shapes,
// C7, C13, C20).
import { Type as t } from "@sinclair/typebox";
import { closed, CursorPagingQuery, DateTime, Nullable } from "./common";
import { EVENT_BODIES } from "./events";

const Url = t.String({ description: "http or https; a URL that resolves to a link-local address or another cloud metadata address (fd00:ec2::254, 100.100.100.200) is refused" });

export const WebhookEndpoint = t.Object(
  {
    url: Url,
    enabled: t.Boolean({ description: "false after the receiver answered 410 Gone: PUT the URL again to enable it" }),
  },
  { ...closed, examples: [{ url: "https://hooks.example.com/dossier", enabled: true }] },
);

export const SetWebhookEndpoint = t.Object({ url: Url }, { ...closed, examples: [{ url: "https://hooks.example.com/dossier" }] });

const Secret = t.String({ pattern: "^whsec_", description: "The signing secret, shown this once only" });

export const WebhookEndpointWithSecret = t.Object(
  { url: Url, enabled: t.Boolean(), secret: Secret },
  { ...closed, examples: [{ url: "https://hooks.example.com/dossier", enabled: true, secret: "whsec_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z" }] },
);

export const RotatedSecret = t.Object(
  { secret: t.String({ pattern: "^whsec_", description: "The new secret, shown this once only; the previous one keeps signing for 24 h" }) },
  { ...closed, examples: [{ secret: "whsec_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z" }] },
);

export const RemovedWebhookEndpoint = t.Object(
  { url: t.Null(), enabled: t.Literal(false) },
  { ...closed, examples: [{ url: null, enabled: false }] },
);

const EVENT_TYPES = Object.keys(EVENT_BODIES).map((type) => t.Literal(type));

export const DeliveryStatus = t.Union([t.Literal("pending"), t.Literal("succeeded"), t.Literal("failed"), t.Literal("skipped")]);

export const DeliveryAttempt = t.Object(
  {
    at: DateTime,
    status_code: Nullable(t.Integer({ description: "The receiver's status; null when none came" })),
    error: Nullable(t.String({ description: "The network error, time limit or HTTP status that made the attempt fail" })),
    duration_ms: t.Integer({ minimum: 0 }),
    response_snippet: Nullable(t.String({ description: "The first 1 KB of the answer's body" })),
  },
  closed,
);

const EXAMPLE_DELIVERY = {
  event_id: "evt_00000000000000000000000042",
  type: "dossier.created",
  status: "failed",
  attempts: 10,
  next_attempt_at: null,
  last_status_code: 500,
  last_error: "HTTP 500",
};

export const Delivery = t.Object(
  {
    event_id: t.String({ pattern: "^evt_", description: "The event's id" }),
    type: t.Union(EVENT_TYPES, { description: "The event's type" }),
    status: DeliveryStatus,
    attempts: t.Integer({ minimum: 0 }),
    next_attempt_at: Nullable(t.String({ format: "date-time", description: "When it is tried next; null unless pending" })),
    last_status_code: Nullable(t.Integer()),
    last_error: Nullable(t.String()),
  },
  { ...closed, examples: [EXAMPLE_DELIVERY] },
);

export const DeliveryWithAttempts = t.Object(
  { ...Delivery.properties, attempt_log: t.Array(DeliveryAttempt, { description: "Every attempt, oldest first" }) },
  {
    ...closed,
    examples: [
      {
        ...EXAMPLE_DELIVERY,
        attempt_log: [{ at: "2026-11-22T04:21:26.123Z", status_code: 500, error: "HTTP 500", duration_ms: 41, response_snippet: "oops" }],
      },
    ],
  },
);

/** The filters of GET /webhook-deliveries. */
export const DeliveryQuery = t.Object({
  status: t.Optional(t.Union(DeliveryStatus.anyOf, { description: "Only deliveries in this state" })),
  type: t.Optional(t.Union(EVENT_TYPES, { description: "Only events of this type" })),
  ...CursorPagingQuery,
});
