// Authenticated principals remembered in memory by key hash (issue 6): a request with a known key
// then costs two PRAGMA reads instead of a join on api_keys and organizations.
//
// C10 wants operator changes (revoke, plan, rate limit, new keys) to take effect on the next
// request, and the CLI makes them from another process. So the memory is dropped whenever
//  - another connection has committed anything to the file (`PRAGMA data_version` moved: SQLite
//    changes it for every commit made by any other connection, in this process or another);
//  - the schema changed (`PRAGMA schema_version`), which covers our own connection's DDL;
//  - this process wrote keys or organizations (keys.ts, orgs.ts call forgetPrincipals): our own
//    commits do not move data_version.
// Expiry is not cached away: each entry keeps its expiry time, checked against ctx.now() on use.
import type { Database, Statement } from "bun:sqlite";
import type { Context } from "../context";
import type { Plan } from "./orgs";

export interface Principal {
  keyId: string;
  organizationId: string;
  plan: Plan;
  rateLimit: number;
  scopes: Set<string>;
}

export interface Remembered {
  principal: Principal;
  /** Epoch ms at which the key stops working (Infinity without an expiry). */
  expiresAt: number;
}

// Only keys that authenticated are remembered, so the map holds at most the live keys; the cap
// bounds it anyway should a deployment hold very many.
const MAX_ENTRIES = 10_000;

interface Versions {
  data_version: number;
  schema_version: number;
}

interface Cache {
  entries: Map<string, Remembered>;
  versions: Statement<Versions, []>;
  seen: Versions;
}

const caches = new WeakMap<Database, Cache>();

function cacheOf(sqlite: Database): Cache {
  let cache = caches.get(sqlite);
  if (!cache) {
    cache = {
      entries: new Map(),
      // One statement for both: each statement outside a transaction takes and drops WAL read
      // locks, which costs more than the pragmas themselves.
      versions: sqlite.query("SELECT data_version, schema_version FROM pragma_data_version(), pragma_schema_version()"),
      seen: { data_version: -1, schema_version: -1 },
    };
    caches.set(sqlite, cache);
  }
  return cache;
}

/** Drops every remembered principal when the file changed under us since the last look. Call it
 * before reading api_keys, so that a row read after it is never older than what it checked. */
function revalidate(cache: Cache) {
  const now = cache.versions.get()!;
  if (now.data_version !== cache.seen.data_version || now.schema_version !== cache.seen.schema_version) {
    cache.entries.clear();
    cache.seen = now;
  }
}

/** The remembered principal for this key hash, or undefined: then load it and `rememberPrincipal`. */
export function recallPrincipal(ctx: Context, keyHash: string): Remembered | undefined {
  const cache = cacheOf(ctx.store.sqlite);
  revalidate(cache);
  return cache.entries.get(keyHash);
}

export function rememberPrincipal(ctx: Context, keyHash: string, entry: Remembered) {
  const { entries } = cacheOf(ctx.store.sqlite);
  if (entries.size >= MAX_ENTRIES) entries.clear();
  entries.set(keyHash, entry);
}

export function forgetPrincipal(ctx: Context, keyHash: string) {
  cacheOf(ctx.store.sqlite).entries.delete(keyHash);
}

/** After this process changed keys or organizations: our own commits do not move data_version. */
export function forgetPrincipals(ctx: Context) {
  caches.get(ctx.store.sqlite)?.entries.clear();
}
