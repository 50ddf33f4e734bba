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

interface Cache {
  entries: Map<string, Remembered>;
  dataVersion: Statement<{ data_version: number }, []>;
  schemaVersion: Statement<{ schema_version: number }, []>;
  seen: { data: number; schema: number };
}

const caches = new WeakMap<Database, Cache>();

function cacheOf(sqlite: Database): Cache {
  let cache = caches.get(sqlite);
  if (!cache) {
    cache = {
      entries: new Map(),
      dataVersion: sqlite.query("PRAGMA data_version"),
      schemaVersion: sqlite.query("PRAGMA schema_version"),
      seen: { data: -1, schema: -1 },
    };
    caches.set(sqlite, cache);
  }
  return cache;
}

/** Drops every remembered principal when the file changed under us since the last look. Call it
 * before reading api_keys, so that a row read after it is never older than what it checked. */
function revalidate(cache: Cache) {
  const data = cache.dataVersion.get()!.data_version;
  const schema = cache.schemaVersion.get()!.schema_version;
  if (data !== cache.seen.data || schema !== cache.seen.schema) {
    cache.entries.clear();
    cache.seen = { data, schema };
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
