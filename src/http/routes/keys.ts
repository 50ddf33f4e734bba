// API keys of the organization (C8, C13, C20): the CLI's `key` commands over the API.
//   GET    /keys       every key, revoked ones too (never the key itself); not paged
//   POST   /keys       a new key, shown once
//   DELETE /keys/:id   revoke
import { List, One } from "../../schemas/common";
import { ApiKey, CreatedKey, CreateKey } from "../../schemas/keys";
import { createKeyAs, getKey, listKeys, revokeKeyOf } from "../../services/keys";
import { defineRoute } from "../route";
import { all, one } from "../request";

export const keyRoutes = [
  defineRoute({
    id: "listKeys",
    method: "GET",
    path: "/keys",
    summary: "List the organization's API keys",
    tag: "Keys",
    description: "Oldest first, revoked ones too; the key itself is never shown again, only its prefix. Not paginated: meta is {total: n, page: 1, per_page: n}.",
    scopes: ["keys:manage"],
    responses: { 200: { schema: List(ApiKey), description: "Every key of the organization: prefix, scopes, expiry, revocation and last use" } },
    handler: async ({ ctx, principal }) => all((await listKeys(ctx, principal.organizationId))),
  }),
  defineRoute({
    id: "createKey",
    location: (created) => `/keys/${created.id}`,
    // The answer shows a secret once: never stored for a replay (C20), so Idempotency-Key is ignored.
    secret: true,
    method: "POST",
    path: "/keys",
    summary: "Create an API key",
    tag: "Keys",
    description:
      "The key is in this answer only: store it now (only its SHA-256 hash is kept). A key cannot grant a scope its creator lacks (403 forbidden); an unknown scope is 400 invalid_body.",
    scopes: ["keys:manage"],
    body: CreateKey,
    responses: { 201: { schema: One(CreatedKey), description: "The key was created; `key` is shown this once only" } },
    handler: async ({ ctx, principal, body }) => one(await createKeyAs(ctx, principal, body)),
  }),
  defineRoute({
    id: "revokeKey",
    method: "DELETE",
    path: "/keys/:id",
    summary: "Revoke an API key",
    tag: "Keys",
    description: "The key answers 401 from the next request on. Revoking a revoked key changes nothing.",
    scopes: ["keys:manage"],
    params: { id: "The key's id" },
    load: async ({ ctx, principal, params }) => (await getKey(ctx, principal.organizationId, params.id)).id,
    responses: { 200: { schema: One(ApiKey), description: "The key as it is now, revoked" } },
    handler: async ({ ctx, principal, resource: id }) => one(await revokeKeyOf(ctx, principal.organizationId, id)),
  }),
];
