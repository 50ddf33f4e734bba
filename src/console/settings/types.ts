// The shapes the settings screens use, from the API's document (api/schema.d.ts). Keys, the webhook
// endpoint and deliveries have no named schema there, so they are taken from their operations.
import type { components, operations } from "../api/schema";

type Json<T> = T extends { content: { "application/json": infer B } } ? B : never;
type Ok<Op extends keyof operations, Status extends keyof operations[Op]["responses"]> = Json<operations[Op]["responses"][Status]>;

export type Member = components["schemas"]["Member"];
export type Role = components["schemas"]["MemberRole"];
export type Flow = components["schemas"]["Flow"];
export type FlowType = components["schemas"]["FlowType"];
export type Stage = components["schemas"]["Stage"];
export type ApiKey = Ok<"listKeys", 200>["data"][number];
export type NewKey = Ok<"createKey", 201>["data"];
export type Scope = ApiKey["scopes"][number];
export type Endpoint = Ok<"getWebhookEndpoint", 200>["data"];
export type Delivery = Ok<"listWebhookDeliveries", 200>["data"][number];
export type DeliveryStatus = Delivery["status"];
export type DeliveryDetail = Ok<"getWebhookDelivery", 200>["data"];
export type Attempt = DeliveryDetail["attempt_log"][number];

export const ROLES: readonly Role[] = ["viewer", "member", "admin", "owner"];

/** Every scope, in the order of C12's roles; the compiler checks the list against the document's. */
export const SCOPES = [
  "dossiers:read",
  "contacts:read",
  "flows:read",
  "notes:read",
  "dossiers:write",
  "contacts:write",
  "notes:write",
  "flows:write",
  "members:manage",
  "keys:manage",
  "webhooks:manage",
  "events:read",
  "tasks:read",
  "tasks:write",
  "mail:read",
] as const satisfies readonly Scope[];
type None<T extends never> = T;
/** A scope the document adds and SCOPES lacks fails the type-check here. */
export type MissingScopes = None<Exclude<Scope, (typeof SCOPES)[number]>>;
