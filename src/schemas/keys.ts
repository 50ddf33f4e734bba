// API keys as the settings calls show them (C2 `key` shapes, C8, C13, C20).
import { Type as t } from "@sinclair/typebox";
import { SCOPES } from "../services/keys";
import { closed, DateTime, Nullable, Uuid } from "./common";

const KeyName = t.String({ description: "A label for the key; at most 200 characters" });
export const ScopeName = t.Union(
  SCOPES.map((scope) => t.Literal(scope)),
  { description: "A scope (C12): what a key or a role may do" },
);
const Scopes = t.Array(ScopeName, { description: "The scopes the key grants" });

export const ApiKey = t.Object(
  {
    id: Uuid,
    prefix: t.String({ description: "The first 12 characters of the key, for telling keys apart (the key itself is never shown again)" }),
    scopes: Scopes,
    expires_at: Nullable(DateTime),
    revoked_at: Nullable(DateTime),
    last_used_at: Nullable(t.String({ format: "date-time", description: "Written at most once a minute per key" })),
    name: Nullable(KeyName),
  },
  {
    ...closed,
    examples: [
      {
        id: "3c2b1a0f-9e8d-4c7b-8a6f-5e4d3c2b1a0f",
        prefix: "svc_live_Ab3",
        scopes: ["dossiers:read", "dossiers:write"],
        expires_at: null,
        revoked_at: null,
        last_used_at: "2026-11-22T04:21:26.123Z",
        name: "Website form",
      },
    ],
  },
);

export const CreateKey = t.Object(
  {
    scopes: t.Array(ScopeName, { minItems: 1, description: "At least one; each one the caller holds itself (else 403 forbidden)" }),
    name: t.Optional(Nullable(KeyName)),
    expires_at: t.Optional(Nullable(t.String({ format: "date-time", description: "ISO 8601, in the future: after it the key answers 401 (default: never)" }))),
  },
  { ...closed, examples: [{ scopes: ["dossiers:read", "dossiers:write"], name: "Website form", expires_at: "2027-12-31T23:59:59.000Z" }] },
);

export const CreatedKey = t.Object(
  {
    id: Uuid,
    key: t.String({ pattern: "^svc_live_[A-Za-z0-9]{32}$", description: "The key, shown this once only: only its SHA-256 hash is stored" }),
    scopes: Scopes,
    expires_at: Nullable(DateTime),
    name: Nullable(KeyName),
  },
  {
    ...closed,
    examples: [
      {
        id: "3c2b1a0f-9e8d-4c7b-8a6f-5e4d3c2b1a0f",
        key: "svc_live_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z",
        scopes: ["dossiers:read", "dossiers:write"],
        expires_at: "2027-12-31T23:59:59.000Z",
        name: "Website form",
      },
    ],
  },
);
