// The principals of API keys (C8), remembered by key hash: a request with a known key then costs
// one read of its organization's generations (src/db/generations.ts) instead of a join on api_keys
// and organizations.
//
// C10 wants an operator's change (revoke, plan, rate limit) to take effect on the next request,
// and the CLI makes them from another process. A remembered principal holds while the generations
// of its organization's api_keys and organizations rows hold, which every such change moves,
// whichever connection or process commits it. Only keys that authenticate are remembered, so a new
// key works at once. Expiry is not cached away: each entry keeps its expiry time, and the service
// checks it against its clock on every use. Writing last_used_at keeps the generation.
import type { Plan } from "./orgs";
import type { QueryDeps } from "./queries";

export interface Principal {
  keyId: string;
  organizationId: string;
  plan: Plan;
  rateLimit: number;
  scopes: ReadonlySet<string>;
}

export interface Remembered {
  principal: Principal;
  /** Epoch ms at which the key stops working (Infinity without an expiry). */
  expiresAt: number;
}

/** A key with what authentication needs of its organization. */
export interface KeyHolder {
  id: string;
  organization_id: string;
  scopes: string;
  expires_at: string | null;
  revoked_at: string | null;
  plan: Plan;
  rate_limit: number;
}

// Only keys that authenticated are remembered, so the cache holds at most the live keys; the cap
// bounds it anyway should a deployment hold very many.
const MAX_ENTRIES = 10_000;

// Scalar subqueries rather than a JOIN: with bun:sqlite the JOIN form took about 10 times as long
// per read (11.6 against 1.1 µs on the bench host, same plan), and with DOSSIER_CACHE=off every
// request reads its key this way.
const KEY_HOLDER = `SELECT k.id, k.organization_id, k.scopes, k.expires_at, k.revoked_at,
    (SELECT plan FROM organizations WHERE id = k.organization_id) AS plan,
    (SELECT rate_limit FROM organizations WHERE id = k.organization_id) AS rate_limit
  FROM api_keys k WHERE k.key_hash = ?`;

// A key's scopes as a set, one per list (keys share a few): PostgreSQL reads the key on every request
// (src/db/pg/counters.ts), and so does SQLite with its caches off; made each time, the set cost
// about 2 µs of a request. Bounded, since a list is whatever a key was made with.
const SCOPE_SETS_LIMIT = 256;
const scopeSets = new Map<string, ReadonlySet<string>>();

function scopeSetOf(scopes: string): ReadonlySet<string> {
  let set = scopeSets.get(scopes);
  if (!set) {
    set = new Set(scopes.split(","));
    if (scopeSets.size >= SCOPE_SETS_LIMIT) scopeSets.clear();
    scopeSets.set(scopes, set);
  }
  return set;
}

/** The principal a key's row gives; undefined when the key is unknown or revoked (either engine). */
export function rememberedOf(row: KeyHolder | null | undefined): Remembered | undefined {
  if (!row || row.revoked_at !== null) return undefined;
  return {
    principal: {
      keyId: row.id,
      organizationId: row.organization_id,
      plan: row.plan,
      rateLimit: row.rate_limit,
      scopes: scopeSetOf(row.scopes),
    },
    expiresAt: row.expires_at === null ? Infinity : Date.parse(row.expires_at),
  };
}

export function principalQueries({ sqlite, generations }: QueryDeps) {
  const remembered = generations.cache<Remembered>(["api_keys", "organizations"], { maxEntries: MAX_ENTRIES });

  /** The key's principal from its rows; undefined when the key is unknown or revoked. */
  const load = (keyHash: string) => {
    const row = sqlite.query<KeyHolder, [string]>(KEY_HOLDER).get(keyHash);
    const value = rememberedOf(row);
    return value && { organizationId: value.principal.organizationId, value };
  };

  return {
    /** The principal of the key with this hash, expired or not; null when the key is unknown or
     * revoked. With `remember`, served from and kept in memory while its rows are unchanged. */
    byKeyHash(keyHash: string, remember: boolean): Remembered | null {
      if (!remember) return load(keyHash)?.value ?? null;
      return remembered.get(keyHash, () => load(keyHash)) ?? null;
    },

    /** What memory holds for this key hash and still holds (nothing is read from api_keys). */
    recall(keyHash: string): Remembered | undefined {
      return remembered.get(keyHash, () => undefined);
    },
  };
}
