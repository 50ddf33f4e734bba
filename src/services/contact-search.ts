// Which contacts a `search=` of GET /contacts matches, in the list's order (created_at desc, id
// desc), and how many (api-v1 "Contacts", C6, C10; issue 6). The answer is a page of
// contact_search rowids and the exact total; src/services/contacts.ts turns the ids into rows.
//
// From 3 code points the matches come from the FTS5 trigram index (cost ∝ matches, not ∝
// contacts), shorter terms from a scan of the organization's folded text. Because even ∝ matches is
// ~30 ms for a 1 %-selective fragment at 1M contacts, the result (total + the first sorted ids) is
// remembered per organization and term, and trusted only while the organization's generation
// (contact_generations, bumped by triggers on contacts and dossier_contacts in every writing
// transaction, migration 0004) is the one it was computed at. Whole answered pages are remembered
// the same way (cachedPage/rememberPage), for any GET /contacts without a pool filter: a repeated
// page then costs the generation read and a map lookup. Reading the generation is one primary-key
// lookup per request and sees writes by any connection or process on the file. Call inside one
// read transaction, so that the generation, the total and the page are one snapshot.
import type { Database } from "bun:sqlite";

export type PoolFilter = "in_pool" | "expired";

export interface MatchQuery {
  organizationId: string;
  /** The search term, already folded (C10). */
  folded: string;
  /** Code points of `folded`: below 3 the trigram index cannot serve it. */
  length: number;
  /** kind_mask bits of "any of these kinds"; 0 for no kind filter. */
  mask: number;
  /** A pool filter depends on the time, not only on the rows: such queries are never cached. */
  pool?: { filter: PoolFilter; now: string };
}

/** The trigram index serves substrings of 3 code points or more. */
const TRIGRAM = 3;

// Memory bounds of the caches, per open database: search entries, and rowids over all of them (8
// bytes each, so at most 8 MB); an entry keeps at most the first idsPerEntry sorted ids, and a page
// beyond them is answered by SQL (the total stays cached). Pages: their number, and the length of
// their JSON over all of them (about 2 bytes a character in memory).
export const CACHE_LIMITS = { entries: 256, ids: 1_000_000, idsPerEntry: 50_000, pages: 512, pageChars: 2_000_000 };

interface Entry {
  generation: number;
  total: number;
  ids: Float64Array;
}

interface PageEntry {
  generation: number;
  total: number;
  data: readonly unknown[];
  chars: number;
}

interface Cache {
  /** Least recently used first (Map keeps insertion order; a hit re-inserts). */
  entries: Map<string, Entry>;
  ids: number;
  pages: Map<string, PageEntry>;
  pageChars: number;
}

// One cache per open database: two connections on the same file (server and CLI, or two contexts
// in a test) each keep their own and each check the generation stored in the file.
const caches = new WeakMap<Database, Cache>();

function cacheOf(sqlite: Database): Cache {
  let cache = caches.get(sqlite);
  if (!cache) {
    cache = { entries: new Map(), ids: 0, pages: new Map(), pageChars: 0 };
    caches.set(sqlite, cache);
  }
  return cache;
}

function remember(cache: Cache, key: string, entry: Entry) {
  const old = cache.entries.get(key);
  if (old) {
    cache.entries.delete(key);
    cache.ids -= old.ids.length;
  }
  cache.entries.set(key, entry);
  cache.ids += entry.ids.length;
  for (const [oldest, value] of cache.entries) {
    if (cache.entries.size <= CACHE_LIMITS.entries && cache.ids <= CACHE_LIMITS.ids) break;
    cache.entries.delete(oldest);
    cache.ids -= value.ids.length;
  }
}

/** Entries, ids and pages held for this database (tests check the bounds). */
export function cacheStats(sqlite: Database) {
  const cache = cacheOf(sqlite);
  return { entries: cache.entries.size, ids: cache.ids, pages: cache.pages.size, pageChars: cache.pageChars };
}

/** The organization's contacts generation: 0 until its first contact is written. */
export function contactsGeneration(sqlite: Database, organizationId: string): number {
  return (
    sqlite
      .query<{ generation: number }, [string]>(`SELECT generation FROM contact_generations WHERE organization_id = ?`)
      .get(organizationId)?.generation ?? 0
  );
}

/** A page answered at this generation, or null. `key` must start with the organization's id. */
export function cachedPage<T>(sqlite: Database, key: string, generation: number): { total: number; data: T[] } | null {
  const cache = cacheOf(sqlite);
  const page = cache.pages.get(key);
  if (!page) return null;
  cache.pages.delete(key);
  if (page.generation !== generation) {
    cache.pageChars -= page.chars;
    return null;
  }
  cache.pages.set(key, page); // most recently used
  return { total: page.total, data: page.data.slice() as T[] };
}

export function rememberPage(sqlite: Database, key: string, generation: number, total: number, data: readonly unknown[]) {
  const cache = cacheOf(sqlite);
  const chars = JSON.stringify(data).length;
  if (chars > CACHE_LIMITS.pageChars / 4) return; // a page of huge notes is not worth the room
  const old = cache.pages.get(key);
  if (old) {
    cache.pages.delete(key);
    cache.pageChars -= old.chars;
  }
  cache.pages.set(key, { generation, total, data: data.slice(), chars });
  cache.pageChars += chars;
  for (const [oldest, value] of cache.pages) {
    if (cache.pages.size <= CACHE_LIMITS.pages && cache.pageChars <= CACHE_LIMITS.pageChars) break;
    cache.pages.delete(oldest);
    cache.pageChars -= value.chars;
  }
}

type Params = Record<string, string | number>;

/** FROM and WHERE of the matches. The CROSS JOINs fix the join order: from the FTS index (or the
 * org's search rows), then contact_search by rowid, then contacts by id only when a kind or pool
 * filter needs its columns. Values are bound, never pasted. */
function matchSql(q: MatchQuery): { sql: string; params: Params } {
  const params: Params = { org: q.organizationId };
  const where: string[] = [];
  let from: string;
  if (q.length >= TRIGRAM) {
    from = "contacts_fts f CROSS JOIN contact_search s ON s.id = f.rowid";
    where.push("contacts_fts MATCH $match", "s.organization_id = $org");
    // A phrase query for FTS5: the folded text in double quotes, its own quotes doubled.
    params.match = `"${q.folded.replaceAll('"', '""')}"`;
  } else {
    from = "contact_search s";
    where.push(
      "s.organization_id = $org",
      "(instr(s.full_name, $needle) > 0 OR instr(s.email, $needle) > 0 OR instr(s.company, $needle) > 0 OR instr(s.role, $needle) > 0)",
    );
    params.needle = q.folded;
  }
  if (q.mask !== 0 || q.pool) from += " CROSS JOIN contacts c ON c.id = s.contact_id";
  if (q.mask !== 0) {
    where.push("(c.kind_mask & $mask) != 0");
    params.mask = q.mask;
  }
  if (q.pool) {
    params.now = q.pool.now;
    where.push(
      q.pool.filter === "in_pool"
        ? "(c.pool_added_at IS NOT NULL OR c.pool_expires_at IS NOT NULL) AND (c.pool_added_at IS NULL OR c.pool_added_at <= $now) AND (c.pool_expires_at IS NULL OR $now < c.pool_expires_at)"
        : "c.pool_expires_at IS NOT NULL AND c.pool_expires_at <= $now",
    );
  }
  return { sql: `FROM ${from} WHERE ${where.join(" AND ")}`, params };
}

const ORDER = "ORDER BY s.created_at DESC, s.contact_id DESC";

function countMatches(sqlite: Database, q: MatchQuery): number {
  const { sql, params } = matchSql(q);
  return sqlite.query<{ n: number }, [Params]>(`SELECT count(*) AS n ${sql}`).get(params)!.n;
}

function sortedIds(sqlite: Database, q: MatchQuery, limit: number, offset: number): number[] {
  const { sql, params } = matchSql(q);
  return sqlite
    .query<{ id: number }, [Params]>(`SELECT s.id AS id ${sql} ${ORDER} LIMIT $limit OFFSET $offset`)
    .all({ ...params, limit, offset })
    .map((row) => row.id);
}

/**
 * The exact total of the matches and the contact_search rowids of the page
 * [offset, offset + limit), in the list's order. `generation` is contactsGeneration's, read in the
 * same read transaction; null bypasses the cache (see listContacts).
 */
export function searchPage(sqlite: Database, q: MatchQuery, offset: number, limit: number, generation: number | null): { total: number; ids: number[] } {
  if (q.pool || generation === null) return { total: countMatches(sqlite, q), ids: sortedIds(sqlite, q, limit, offset) };
  const cache = cacheOf(sqlite);
  const key = `${q.organizationId}\u0000${q.mask}\u0000${q.folded}`;
  let entry = cache.entries.get(key);
  if (entry && entry.generation === generation) {
    // Most recently used: move to the end.
    cache.entries.delete(key);
    cache.entries.set(key, entry);
  } else {
    const first = sortedIds(sqlite, q, CACHE_LIMITS.idsPerEntry + 1, 0);
    const complete = first.length <= CACHE_LIMITS.idsPerEntry;
    const ids = Float64Array.from(complete ? first : first.slice(0, CACHE_LIMITS.idsPerEntry));
    entry = { generation, total: complete ? first.length : countMatches(sqlite, q), ids };
    remember(cache, key, entry);
  }
  if (offset >= entry.total) return { total: entry.total, ids: [] };
  if (offset + limit <= entry.ids.length || entry.ids.length === entry.total) {
    return { total: entry.total, ids: Array.from(entry.ids.subarray(offset, offset + limit)) };
  }
  return { total: entry.total, ids: sortedIds(sqlite, q, limit, offset) };
}
