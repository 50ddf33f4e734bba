// Which contacts a `search=` of GET /contacts matches, in the list's order (created_at desc, id
// desc), and how many (api-v1 "Contacts", C6, C10). The answer is a page of
// contact_search rowids and the exact total; src/db/contacts.ts turns the ids into rows.
//
// From 3 code points the matches come from the FTS5 trigram index (cost ∝ matches, not ∝
// contacts), shorter terms from a scan of the organization's folded text. Because even ∝ matches is
// ~30 ms for a 1 %-selective fragment at 1M contacts, the result (total + the first sorted ids) is
// remembered per organization and term, and trusted only while the organization's generation
// (contact_generations, bumped by triggers on contacts and dossier_contacts in every writing
// transaction, migration 0004) is the one it was computed at. When only inserts happened since
// (search_edits unchanged), the entry is caught up from the new matches alone (catchUp), so a
// dossier creation does not cost the next search a full recomputation. Whole answered pages are remembered
// the same way (cachedPage/rememberPage), for any GET /contacts without a pool filter: a repeated
// page then costs the generation read and a map lookup. Reading the generation is one primary-key
// lookup per request and sees writes by any connection or process on the file. Call inside one
// read transaction, so that the generation, the total and the page are one snapshot.
import type { Static } from "@sinclair/typebox";
import type { Database } from "bun:sqlite";
import { BoundedMap } from "./bounded-map";
import { readStamp } from "./snapshot";
import type { PoolFilter as PoolFilterSchema } from "../schemas/contacts";

export type PoolFilter = Static<typeof PoolFilterSchema>;

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
  /** C17: only contacts with updated_at at or after this ISO time; such queries are not cached. */
  updatedSince?: string | null;
}

/** The trigram index serves substrings of 3 code points or more. */
const TRIGRAM = 3;

// Memory bounds of the caches, per open database: search entries, and rowids over all of them (8
// bytes each, so at most 8 MB); an entry keeps at most the first idsPerEntry sorted ids, and a page
// beyond them is answered by SQL (the total stays cached). Pages: their number, and the length of
// their JSON over all of them (about 2 bytes a character in memory).
export const CACHE_LIMITS = { entries: 256, ids: 1_000_000, idsPerEntry: 50_000, pages: 512, pageChars: 2_000_000 };

/** A contact_search row's place in the list's order (created_at desc, then contact id desc). */
interface SortKey {
  created_at: string;
  contact_id: string;
}
const sortsBefore = (a: SortKey, b: SortKey) => a.created_at > b.created_at || (a.created_at === b.created_at && a.contact_id > b.contact_id);

interface Entry {
  generation: number;
  searchEdits: number;
  /** The organization's highest contact_search id when computed: later inserts are above it. */
  orgMax: number;
  total: number;
  ids: Float64Array;
  /** The first match's sort key (null when there is none). */
  first: SortKey | null;
}

/** contact_generations' row for the organization (zeros until its first contact write). */
export interface Generation {
  generation: number;
  searchEdits: number;
}

interface PageEntry {
  generation: number;
  total: number;
  data: readonly unknown[];
}

interface Cache {
  /** Weighed by their ids; least recently used first. */
  entries: BoundedMap<string, Entry>;
  /** Weighed by the length of their JSON; least recently used first. */
  pages: BoundedMap<string, PageEntry>;
}

// One cache per open database: two connections on the same file (server and CLI, or two contexts
// in a test) each keep their own and each check the generation stored in the file.
const caches = new WeakMap<Database, Cache>();

function cacheOf(sqlite: Database): Cache {
  let cache = caches.get(sqlite);
  if (!cache) {
    cache = {
      entries: new BoundedMap({ maxEntries: CACHE_LIMITS.entries, maxWeight: CACHE_LIMITS.ids }),
      pages: new BoundedMap({ maxEntries: CACHE_LIMITS.pages, maxWeight: CACHE_LIMITS.pageChars }),
    };
    caches.set(sqlite, cache);
  }
  return cache;
}

/** Entries, ids and pages held for this database (tests check the bounds). */
export function cacheStats(sqlite: Database) {
  const { entries, pages } = cacheOf(sqlite);
  return { entries: entries.size, ids: entries.weight, pages: pages.size, pageChars: pages.weight };
}

/** The organization's contacts generation and search edits: zeros until its first contact write.
 * Read again only when something was committed since it was last read (the commit stamp,
 * src/db/commit-stamp.ts): until then the row cannot have moved. */
export function contactsGeneration(sqlite: Database, organizationId: string): Generation {
  const stamp = readStamp(sqlite);
  const seen = stamp === -1 ? undefined : seenGenerations.get(sqlite)?.get(organizationId);
  if (seen !== undefined && seen.stamp === stamp) return seen.generation;
  const generation =
    sqlite
      .query<Generation, [string]>(`SELECT generation, search_edits AS searchEdits FROM contact_generations WHERE organization_id = ?`)
      .get(organizationId) ?? { generation: 0, searchEdits: 0 };
  if (stamp !== -1) {
    let byOrganization = seenGenerations.get(sqlite);
    if (!byOrganization) seenGenerations.set(sqlite, (byOrganization = new Map()));
    if (byOrganization.size >= MAX_SEEN_GENERATIONS) byOrganization.clear();
    byOrganization.set(organizationId, { stamp, generation });
  }
  return generation;
}

/** The generations last read per connection and organization, with the stamp they were read under. */
const seenGenerations = new WeakMap<Database, Map<string, { stamp: number; generation: Generation }>>();
const MAX_SEEN_GENERATIONS = 10_000;

/** A page answered at this generation, or null. `key` must start with the organization's id. */
export function cachedPage<T>(sqlite: Database, key: string, generation: number): { total: number; data: T[] } | null {
  const { pages } = cacheOf(sqlite);
  const page = pages.get(key);
  if (!page) return null;
  if (page.generation !== generation) {
    pages.delete(key);
    return null;
  }
  pages.touch(key);
  return { total: page.total, data: page.data.slice() as T[] };
}

export function rememberPage(sqlite: Database, key: string, generation: number, total: number, data: readonly unknown[]) {
  const chars = JSON.stringify(data).length;
  if (chars > CACHE_LIMITS.pageChars / 4) return; // a page of huge notes is not worth the room
  cacheOf(sqlite).pages.set(key, { generation, total, data: data.slice() }, chars);
}

type Params = Record<string, string | number>;

/** FROM and WHERE of the matches. The CROSS JOINs fix the join order: from the FTS index (or the
 * org's search rows), then contact_search by rowid, then contacts by id only when a kind or pool
 * filter needs its columns. Values are bound, never pasted. */
function matchSql(q: MatchQuery, after?: number): { sql: string; params: Params } {
  const params: Params = { org: q.organizationId };
  const where: string[] = [];
  let from: string;
  if (q.length >= TRIGRAM) {
    from = "contacts_fts f CROSS JOIN contact_search s ON s.id = f.rowid";
    where.push("contacts_fts MATCH $match", "s.organization_id = $org");
    // On the FTS side, so that the index skips the older entries of its lists.
    if (after !== undefined) where.push("f.rowid > $after");
    // A phrase query for FTS5: the folded text in double quotes, its own quotes doubled.
    params.match = `"${q.folded.replaceAll('"', '""')}"`;
  } else {
    from = "contact_search s";
    where.push(
      "s.organization_id = $org",
      "(instr(s.full_name, $needle) > 0 OR instr(s.email, $needle) > 0 OR instr(s.company, $needle) > 0 OR instr(s.role, $needle) > 0)",
    );
    params.needle = q.folded;
    if (after !== undefined) where.push("s.id > $after");
  }
  if (after !== undefined) params.after = after;
  const since = q.updatedSince ?? null;
  if (q.mask !== 0 || q.pool || since !== null) from += " CROSS JOIN contacts c ON c.id = s.contact_id";
  if (since !== null) {
    where.push("c.updated_at >= $since");
    params.since = since;
  }
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
  return sortedRows(sqlite, q, limit, offset).map((row) => row.id);
}

function sortedRows(sqlite: Database, q: MatchQuery, limit: number, offset: number, after?: number): (SortKey & { id: number })[] {
  const { sql, params } = matchSql(q, after);
  return sqlite
    .query<SortKey & { id: number }, [Params]>(`SELECT s.id AS id, s.created_at, s.contact_id ${sql} ${ORDER} LIMIT $limit OFFSET $offset`)
    .all({ ...params, limit, offset });
}

function orgMaxId(sqlite: Database, organizationId: string): number {
  return (
    sqlite
      .query<{ id: number }, [string]>(`SELECT id FROM contact_search WHERE organization_id = ? ORDER BY id DESC LIMIT 1`)
      .get(organizationId)?.id ?? 0
  );
}

/** The matches from scratch: the first idsPerEntry sorted ids, and the total. */
function compute(sqlite: Database, q: MatchQuery, state: Generation): Entry {
  const orgMax = orgMaxId(sqlite, q.organizationId);
  const rows = sortedRows(sqlite, q, CACHE_LIMITS.idsPerEntry + 1, 0);
  const complete = rows.length <= CACHE_LIMITS.idsPerEntry;
  const kept = complete ? rows : rows.slice(0, CACHE_LIMITS.idsPerEntry);
  return {
    ...state,
    orgMax,
    total: complete ? rows.length : countMatches(sqlite, q),
    ids: Float64Array.from(kept, (row) => row.id),
    first: rows[0] ?? null,
  };
}

/**
 * An entry whose search_edits are current has only missed inserts: the new matches are the ones
 * above its orgMax. When they all sort before its first match (new contacts are the newest), they
 * go in front; otherwise (e.g. a created_at set in the past through the CLI) null: recompute.
 */
function catchUp(sqlite: Database, q: MatchQuery, entry: Entry, state: Generation): Entry | null {
  const orgMax = orgMaxId(sqlite, q.organizationId);
  const fresh = sortedRows(sqlite, q, CACHE_LIMITS.idsPerEntry + 1, 0, entry.orgMax);
  if (fresh.length > CACHE_LIMITS.idsPerEntry) return null;
  if (fresh.length > 0 && entry.first !== null && !sortsBefore(fresh[fresh.length - 1], entry.first)) return null;
  const ids = new Float64Array(Math.min(CACHE_LIMITS.idsPerEntry, fresh.length + entry.ids.length));
  ids.set(fresh.slice(0, ids.length).map((row) => row.id));
  if (ids.length > fresh.length) ids.set(entry.ids.subarray(0, ids.length - fresh.length), fresh.length);
  return { ...state, orgMax, total: entry.total + fresh.length, ids, first: fresh[0] ?? entry.first };
}

/**
 * The exact total of the matches and the contact_search rowids of the page
 * [offset, offset + limit), in the list's order. `state` is contactsGeneration's, read in the
 * same read transaction; null bypasses the cache (see contactQueries().page).
 */
export function searchPage(sqlite: Database, q: MatchQuery, offset: number, limit: number, state: Generation | null): { total: number; ids: number[] } {
  if (q.pool || q.updatedSince || state === null) return { total: countMatches(sqlite, q), ids: sortedIds(sqlite, q, limit, offset) };
  const cache = cacheOf(sqlite);
  const key = `${q.organizationId}\u0000${q.mask}\u0000${q.folded}`;
  let entry = cache.entries.get(key);
  if (entry && entry.generation === state.generation && entry.searchEdits === state.searchEdits) {
    cache.entries.touch(key);
  } else {
    const caughtUp = entry && entry.searchEdits === state.searchEdits ? catchUp(sqlite, q, entry, state) : null;
    entry = caughtUp ?? compute(sqlite, q, state);
    cache.entries.set(key, entry, entry.ids.length);
  }
  if (offset >= entry.total) return { total: entry.total, ids: [] };
  if (offset + limit <= entry.ids.length || entry.ids.length === entry.total) {
    return { total: entry.total, ids: Array.from(entry.ids.subarray(offset, offset + limit)) };
  }
  return { total: entry.total, ids: sortedIds(sqlite, q, limit, offset) };
}
