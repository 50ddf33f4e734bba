// The document's `webhooks` (OpenAPI 3.1): the POST the service sends for each of the five events
// (api-v1 "Events", C7), with its headers and its body, so that a receiver can be generated and
// typed from the same document as the client.
import { EVENT_BODIES } from "../schemas/events";
import { documentSchema } from "./openapi-components";

const HEADERS = [
  {
    name: "X-Service-Signature",
    description:
      "`t=<unix seconds>,v1=<hex>`: HMAC-SHA256 keyed with the UTF-8 bytes of the whole secret (`whsec_...`) over `<t>.<raw body>`. " +
      "During a rotation's 24 h a second `v1=` for the old secret follows. Compare in constant time and refuse a `t` older than 300 s.",
    schema: { type: "string", pattern: "^t=\\d+(,v1=[0-9a-f]{64}){1,2}$" },
  },
  { name: "X-Service-Event-Id", description: "The body's `id`", schema: { type: "string" } },
  { name: "X-Service-Event-Type", description: "The body's `type`", schema: { type: "string" } },
  { name: "User-Agent", description: "Always this value", schema: { type: "string", const: "Dossier-Webhooks/1" } },
];

const SUMMARIES: Record<keyof typeof EVENT_BODIES, string> = {
  "dossier.created": "A dossier was created",
  "dossier.updated": "A dossier changed",
  "dossier.stage_changed": "A dossier moved to another stage",
  "dossier.deleted": "A dossier was archived",
  "note.created": "A note was added",
};

const operationIdOf = (type: string) => "on" + type.split(/[._]/).map((word) => word[0].toUpperCase() + word.slice(1)).join("");

/** `webhooks`: one POST per event type, its body a reference to the event's named schema. */
export function webhooks(): Record<string, unknown> {
  return Object.fromEntries(
    Object.keys(EVENT_BODIES).map((type) => [
      type,
      {
        post: {
          operationId: operationIdOf(type),
          summary: SUMMARIES[type as keyof typeof EVENT_BODIES],
          description:
            `${EVENT_BODIES[type as keyof typeof EVENT_BODIES].description}. Sent to the organization's webhook endpoint; delivery is at least once, ` +
            "retried on failure for about 3 days.",
          tags: ["Webhooks"],
          security: [],
          parameters: HEADERS.map((header) => ({ ...header, in: "header", required: true })),
          requestBody: { required: true, content: { "application/json": { schema: documentSchema(EVENT_BODIES[type as keyof typeof EVENT_BODIES]) } } },
          responses: {
            "2XX": { description: "Received: any 2xx within 10 s (the body is ignored)" },
            "410": { description: "Gone: the endpoint is disabled and nothing more is sent until it is set again" },
          },
        },
      },
    ]),
  );
}
