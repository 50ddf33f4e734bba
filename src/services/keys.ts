// API keys (api-v1 "Authentication", C8): only a SHA-256 hash is stored.
import { chain, type Awaitable } from "../awaitable";
import type { Static } from "@sinclair/typebox";
import type { Context } from "../context";
import { ApiError, invalidBody, notFound } from "../errors";
import type { ApiKey, CreatedKey as CreatedKeySchema, CreateKey } from "../schemas/keys";
import type { KeyRow } from "../db/keys";
import { newId, randomAlphanumeric } from "../ids";
import { rememberedOf, type Principal, type Remembered } from "../db/principals";
import type { RateDecision, ReadAhead, SharedCounters } from "../db/store";

export type { Principal };

export const SCOPES = [
  "dossiers:read",
  "dossiers:write",
  "contacts:read",
  "contacts:write",
  "flows:read",
  "notes:read",
  "notes:write",
  // Round 2: the settings calls (C13), members (C12) and the events feed (C17).
  "flows:write",
  "members:manage",
  "keys:manage",
  "webhooks:manage",
  "events:read",
  "tasks:read", "tasks:write", "mail:read", // Round 3: tasks and outgoing mail (C22).
] as const;
export type Scope = (typeof SCOPES)[number];

export const KEY_PREFIX = "svc_live_";
const KEY_FORMAT = /^svc_live_[A-Za-z0-9]{32}$/;

export const hashKey = (key: string) => Bun.CryptoHasher.hash("sha256", key, "hex");

export type CreatedKey = Static<typeof CreatedKeySchema>;

type KeyInput = { organizationId: string; scopes: Scope[]; expiresAt?: string | null; name?: string | null };

export const createKey = (ctx: Context, input: KeyInput): Promise<CreatedKey> => ctx.store.write(() => writeKey(ctx, input));

/** createKey's unit of work. */
export async function writeKey(ctx: Context, input: KeyInput): Promise<CreatedKey> {
  const key = KEY_PREFIX + randomAlphanumeric(32);
  const row: KeyRow = {
    id: newId(),
    organization_id: input.organizationId,
    name: input.name ?? null,
    prefix: key.slice(0, 12),
    key_hash: hashKey(key),
    scopes: input.scopes.join(","),
    expires_at: input.expiresAt ?? null,
    revoked_at: null,
    last_used_at: null,
    created_at: ctx.now().toISOString(),
  };
  await ctx.store.keys.insert(row);
  return { id: row.id, key, scopes: input.scopes, expires_at: row.expires_at, name: row.name };
}

type ListedKey = Static<typeof ApiKey>;

const listed = (k: KeyRow): ListedKey => ({
  id: k.id,
  prefix: k.prefix,
  scopes: k.scopes.split(",").filter(Boolean) as Scope[],
  expires_at: k.expires_at,
  revoked_at: k.revoked_at,
  last_used_at: k.last_used_at,
  name: k.name,
});

/** Oldest first, revoked ones too. */
export async function listKeys(ctx: Context, organizationId: string): Promise<ListedKey[]> {
  return (await ctx.store.keys.ofOrganization(organizationId)).map(listed);
}

/** POST /keys (C13, C20): a key cannot grant a scope its creator (a key, or a member by its role)
 * lacks (403), nor expire before now. */
export function createKeyAs(ctx: Context, creator: { organizationId: string; scopes: ReadonlySet<string> }, body: Static<typeof CreateKey>): Promise<CreatedKey> {
  const scopes = [...new Set(body.scopes)];
  const lacking = scopes.filter((scope) => !creator.scopes.has(scope));
  if (lacking.length > 0) throw new ApiError("forbidden", `a key cannot grant a scope its creator lacks: ${lacking.join(", ")}`);
  const name = body.name ?? null;
  if (name !== null && [...name].length > 200) throw invalidBody("name: must be at most 200 characters");
  const expiresAt = body.expires_at ?? null;
  if (expiresAt !== null && Date.parse(expiresAt) <= ctx.now().getTime()) throw invalidBody("expires_at: must be in the future");
  return createKey(ctx, {
    organizationId: creator.organizationId,
    scopes,
    name,
    expiresAt: expiresAt === null ? null : new Date(expiresAt).toISOString(),
  });
}

/** The organization's key, or not_found. */
export async function getKey(ctx: Context, organizationId: string, id: string): Promise<ListedKey> {
  const row = await ctx.store.keys.byIdInOrganization(organizationId, id);
  if (!row) throw notFound("key not found");
  return listed(row);
}

/** DELETE /keys/{id}: revokes the organization's key (the first revocation time stays) and answers
 * it as it is now. */
export async function revokeKeyOf(ctx: Context, organizationId: string, id: string): Promise<ListedKey> {
  await ctx.store.write(async () => {
    if (!(await ctx.store.keys.byIdInOrganization(organizationId, id))) throw notFound("key not found");
    await writeRevocation(ctx, id);
  });
  return getKey(ctx, organizationId, id);
}

/** Revokes the key (idempotent: the first revocation time stays). Null when the key is unknown. */
export async function revokeKey(ctx: Context, id: string): Promise<{ id: string; revoked_at: string } | null> {
  await ctx.store.write(() => writeRevocation(ctx, id));
  const row = await ctx.store.keys.byId(id);
  return row ? { id: row.id, revoked_at: row.revoked_at! } : null;
}

/** revokeKey's unit of work. */
export async function writeRevocation(ctx: Context, id: string) {
  await ctx.store.keys.revoke(id, ctx.now().toISOString());
}

// last_used_at is written at most once a minute per key, so reads stay reads. Kept apart from the
// principal cache: a new principal loaded (after any change to its organization's keys) must not
// cause a write.
const LAST_USED_GRANULARITY_MS = 60_000;
const lastUsedWritten = new Map<string, number>();

/** The key's principal, or null for any of C8's 401 causes (which are not told apart). The
 * lookup is by hash, so no comparison ever touches the stored secret. Known keys are served from
 * memory (src/db/principals.ts says how long, per C10); DOSSIER_CACHE=off reads every time. */
export function authenticate(ctx: Context, authorization: string | null): Awaitable<Principal | null> {
  const keyHash = keyHashOf(authorization);
  if (keyHash === null) return null;
  // Chained, not awaited: a GET that SQLite answers stays free of promises (src/awaitable.ts).
  return chain(ctx.store.principals.byKeyHash(keyHash, ctx.config.cache), (entry) => keyPrincipal(ctx, entry));
}

/** The hash of the key an Authorization header carries, or null when it carries none (C8's 401). */
function keyHashOf(authorization: string | null): string | null {
  if (!authorization?.startsWith("Bearer ")) return null;
  const key = authorization.slice(7);
  return KEY_FORMAT.test(key) ? hashKey(key) : null;
}

/** authenticate on a store whose nodes count together (C19): the key's principal and its
 * organization's count in one statement (src/db/pg/counters.ts), which also reads `ahead` for the
 * request; null, counted nowhere, for any of C8's 401 causes. */
export async function admitKey(ctx: Context, counters: SharedCounters, authorization: string | null, ahead?: ReadAhead): Promise<{ principal: Principal; rate: RateDecision } | null> {
  const keyHash = keyHashOf(authorization);
  if (keyHash === null) return null;
  const admitted = await counters.admitKey(keyHash, ctx.now().getTime(), ahead);
  const principal = admitted && (await keyPrincipal(ctx, rememberedOf(admitted.found) ?? null));
  return principal ? { principal, rate: admitted.rate } : null;
}

function keyPrincipal(ctx: Context, entry: Remembered | null): Awaitable<Principal | null> {
  if (!entry) return null;
  const now = ctx.now().getTime();
  if (entry.expiresAt <= now) return null;
  const { keyId } = entry.principal;
  // Once writes have failed, reads go on without it (C11).
  if (ctx.store.failure === null && now - (lastUsedWritten.get(keyId) ?? 0) >= LAST_USED_GRANULARITY_MS) {
    lastUsedWritten.set(keyId, now);
    // A failure is the store's (C11). On SQLite the request does not wait for it: at once when the
    // store is idle, so that the next request (GET /keys) sees it; else it joins the next group.
    const at = new Date(now).toISOString();
    const written = ctx.store.write(() => ctx.store.keys.setLastUsed(keyId, at), { atOnce: true }).catch(() => {});
    // On PostgreSQL the write is a round trip away and the next request may reach another node:
    // this answer waits for it (once a minute a key and node).
    if (ctx.store.engine === "postgres") return written.then(() => entry.principal);
  }
  return entry.principal;
}

/** The principal memory holds for this key hash, still valid; never read from api_keys. */
export const recallPrincipal = (ctx: Context, keyHash: string): Awaitable<Remembered | undefined> => ctx.store.principals.recall(keyHash);
