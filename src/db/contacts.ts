// The contacts' queries (api-v1 "Contact", "Contacts", C6): rows in, rows and Contact records out.
// Email uniqueness is the unique index contacts_org_email on the folded email, reported here as a
// false return; the search index (contact_search + contacts_fts, migration 0001) and the kind
// counts and generations (migration 0004) are kept in step by triggers. The list's search and its
// caches are in ./contact-search.ts.
import type { Static } from "@sinclair/typebox";
import { SQLiteError } from "bun:sqlite";
import { and, eq } from "drizzle-orm";
import type { Contact as ContactSchema } from "../schemas/contacts";
import { cachedPage, contactsGeneration, rememberPage, searchPage, type PoolFilter } from "./contact-search";
import { metadataOf, pairsOf, sortedKeys } from "./metadata";
import type { QueryDeps } from "./queries";
import { contacts, type ContactRow } from "./schema";
import { inWriteTransaction, readSnapshot } from "./snapshot";
import { StampCache } from "./stamp-cache";

export type { ContactRow } from "./schema";
export type { PoolFilter } from "./contact-search";

type Contact = Static<typeof ContactSchema>;

/** What decides a page of GET /contacts, the rules already applied (kinds to bits, term folded). */
export interface ContactPageQuery {
  organizationId: string;
  /** kind_mask bits of "any of these kinds"; 0 for no kind filter. */
  mask: number;
  /** The search term folded (C10); null for none. */
  search: string | null;
  /** Membership at `now`; such pages are never cached. */
  pool?: { filter: PoolFilter; now: string };
  /** C17: only contacts with updated_at at or after this ISO time (as stored); null for all. */
  updatedSince: string | null;
  /** Issue 38: only contacts whose metadata holds each of these values under its key; such pages
   * are never cached. */
  metadata?: Record<string, string>;
  offset: number;
  limit: number;
  /** A cursor page (issue 38): the contacts after this one in the list's order; offset is 0. */
  after?: { created_at: string; id: string };
  /** False reads without the caches (DOSSIER_CACHE=off). */
  cache: boolean;
}

/** A contact row as the API shows it, given its number of linked dossiers. */
export const contactOf = (row: ContactRow, dossierCount: number): Contact => ({
  id: row.id,
  full_name: row.fullName,
  email: row.email,
  phone: row.phone,
  linkedin_url: row.linkedinUrl,
  company: row.company,
  role: row.role,
  city: row.city,
  kind: JSON.parse(row.kind),
  notes: row.notes,
  dossier_count: dossierCount,
  pool_added_at: row.poolAddedAt,
  pool_expires_at: row.poolExpiresAt,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
  metadata: metadataOf(row.metadata),
});

/** The columns of contacts `c` under ContactRow's names. */
const ROW_COLUMNS = `c.id, c.organization_id AS organizationId, c.full_name AS fullName, c.email, c.email_folded AS emailFolded,
  c.phone, c.linkedin_url AS linkedinUrl, c.company, c.role, c.city, c.kind, c.kind_mask AS kindMask, c.notes,
  c.pool_added_at AS poolAddedAt, c.pool_expires_at AS poolExpiresAt, c.created_at AS createdAt, c.updated_at AS updatedAt, c.metadata`;

/** Computed for the selected rows only, in the same statement: never a query per row. */
const WITH_COUNT = `${ROW_COLUMNS}, (SELECT count(*) FROM dossier_contacts dc WHERE dc.contact_id = c.id) AS dossierCount`;

type CountedRow = ContactRow & { dossierCount: number };
type Params = Record<string, string | number>;

const present = (row: CountedRow) => contactOf(row, row.dossierCount);

const IN_POOL =
  "(c.pool_added_at IS NOT NULL OR c.pool_expires_at IS NOT NULL) AND (c.pool_added_at IS NULL OR c.pool_added_at <= $now) AND (c.pool_expires_at IS NULL OR $now < c.pool_expires_at)";
const EXPIRED = "c.pool_expires_at IS NOT NULL AND c.pool_expires_at <= $now";

const isEmailClash = (error: unknown) =>
  error instanceof SQLiteError && error.code === "SQLITE_CONSTRAINT_UNIQUE" && error.message.includes("contacts.email_folded");

/** Runs `write`; false when it broke the organization's unique email, which rolls back that statement only. */
function unlessEmailTaken(write: () => void): boolean {
  try {
    write();
    return true;
  } catch (error) {
    if (isEmailClash(error)) return false;
    throw error;
  }
}

/** The WHERE (over contacts `c`) of a page without search: kinds, pool, updated_since, metadata;
 * every value bound. Exported for the test of its query plan. */
export function scanWhere(q: Pick<ContactPageQuery, "organizationId" | "mask" | "pool" | "updatedSince" | "metadata">): { clause: string; params: Params } {
  // With a metadata filter its lookups lead, as on dossiers (src/db/dossier-page.ts dossierListWhere).
  const where: string[] = [q.metadata === undefined ? "c.organization_id = $org" : "+c.organization_id = $org"];
  const params: Params = { org: q.organizationId };
  if (q.mask !== 0) {
    where.push("(c.kind_mask & $mask) != 0");
    params.mask = q.mask;
  }
  if (q.pool) {
    where.push(q.pool.filter === "in_pool" ? IN_POOL : EXPIRED);
    params.now = q.pool.now;
  }
  if (q.updatedSince !== null) {
    where.push("c.updated_at >= $since");
    params.since = q.updatedSince;
  }
  // Issue 38: each pair an index lookup in contact_metadata_lookup.
  Object.entries(q.metadata ?? {}).forEach(([key, value], i) => {
    where.push(`c.id IN (SELECT contact_id FROM contact_metadata WHERE organization_id = $org AND key = $mk${i} AND value = $mv${i})`);
    params[`mk${i}`] = key;
    params[`mv${i}`] = value;
  });
  return { clause: where.join(" AND "), params };
}

/** The scan's WHERE with the search tested row by row through contact_search (the list's substring
 * of the folded texts, C10), as the scan walks the list's index: the export's, and a page with
 * metadata filters, which the search index's paths do not take. */
function withSearch(q: Pick<ContactPageQuery, "search">, scan: { clause: string; params: Params }): { clause: string; params: Params } {
  if (q.search === null) return scan;
  const clause = `${scan.clause} AND EXISTS (SELECT 1 FROM contact_search s WHERE s.contact_id = c.id AND s.organization_id = $org AND
    (instr(s.full_name, $needle) > 0 OR instr(s.email, $needle) > 0 OR instr(s.company, $needle) > 0 OR instr(s.role, $needle) > 0))`;
  return { clause, params: { ...scan.params, needle: q.search } };
}

/** Contacts a GET showed, kept while nothing is committed: at most 8 M characters in all. */
const REMEMBERED = { maxEntries: 2048, maxWeight: 8 << 20 };

export function contactQueries({ sqlite, orm }: QueryDeps) {
  /** A page's rows from their contact_search rowids, in the given order (one JSON array parameter,
   * whatever the page size). */
  function bySearchIds(organizationId: string, ids: number[]): CountedRow[] {
    if (ids.length === 0) return [];
    return sqlite
      .query<CountedRow, [Params]>(
        `SELECT ${WITH_COUNT}
           FROM json_each($ids) j CROSS JOIN contact_search s ON s.id = j.value CROSS JOIN contacts c ON c.id = s.contact_id
          WHERE s.organization_id = $org AND c.organization_id = $org
          ORDER BY j.key`,
      )
      .all({ ids: JSON.stringify(ids), org: organizationId });
  }

  /** Kind filter only, or none: the exact total from contact_kind_counts (migration 0004), the
   * page's ids from the covering index contacts_org_created_kind (kind test in the index), then its rows. */
  function byKinds(q: ContactPageQuery) {
    const kindTest = q.mask === 0 ? "" : "AND (kind_mask & $mask) != 0";
    const params: Params = { org: q.organizationId };
    if (q.mask !== 0) params.mask = q.mask;
    const total = sqlite
      .query<{ n: number }, [Params]>(`SELECT coalesce(sum(n), 0) AS n FROM contact_kind_counts WHERE organization_id = $org ${kindTest}`)
      .get(params)!.n;
    const rows = sqlite
      .query<CountedRow, [Params]>(
        `SELECT ${WITH_COUNT}
           FROM (SELECT id FROM contacts INDEXED BY contacts_org_created_kind WHERE organization_id = $org ${kindTest}
                  ORDER BY created_at DESC, id DESC LIMIT $limit OFFSET $offset) p
          CROSS JOIN contacts c ON c.id = p.id
          ORDER BY c.created_at DESC, c.id DESC`,
      )
      .all({ ...params, limit: q.limit, offset: q.offset });
    return { total, rows };
  }

  /** A pool filter, updated_since or metadata (with or without search, see exportPage): no count is
   * kept for these, so the page and its total come from the rows. */
  function byScan(q: ContactPageQuery) {
    const { clause, params } = withSearch(q, scanWhere(q));
    const total = sqlite.query<{ n: number }, [Params]>(`SELECT count(*) AS n FROM contacts c WHERE ${clause}`).get(params)!.n;
    const rows = sqlite
      .query<CountedRow, [Params]>(
        `SELECT ${WITH_COUNT} FROM contacts c WHERE ${clause} ORDER BY c.created_at DESC, c.id DESC LIMIT $limit OFFSET $offset`,
      )
      .all({ ...params, limit: q.limit, offset: q.offset });
    return { total, rows };
  }

  /** The list's total for its filters, as the pages without `after` count it (their cached
   * matches too, when the search's generation allows). */
  function totalOf(q: ContactPageQuery, cacheable: boolean): number {
    const counted = { ...q, offset: 0, limit: 0 };
    if (q.metadata !== undefined) return byScan(counted).total;
    if (q.search === null) return q.pool || q.updatedSince !== null ? byScan(counted).total : byKinds(counted).total;
    const match = { organizationId: q.organizationId, folded: q.search, length: [...q.search].length, mask: q.mask, pool: q.pool, updatedSince: q.updatedSince };
    const state = cacheable && q.updatedSince === null ? contactsGeneration(sqlite, q.organizationId) : null;
    return searchPage(sqlite, match, 0, 0, state).total;
  }

  const byId = (organizationId: string, contactId: string): Contact | null => {
    const row = sqlite
      .query<CountedRow, [string, string]>(`SELECT ${WITH_COUNT} FROM contacts c WHERE c.id = ?1 AND c.organization_id = ?2`)
      .get(contactId, organizationId);
    return row ? present(row) : null;
  };
  const shown = new StampCache<Contact>(sqlite, REMEMBERED);

  /** The contact's metadata pairs as contact_metadata holds them (from its stored text): replaced whole. */
  const setPairs = (organizationId: string, contactId: string, text: string, replace: boolean) => {
    if (replace) sqlite.query(`DELETE FROM contact_metadata WHERE contact_id = ?1 AND organization_id = ?2`).run(contactId, organizationId);
    const insert = sqlite.query(`INSERT INTO contact_metadata (contact_id, organization_id, key, value) VALUES (?1, ?2, ?3, ?4)`);
    for (const [key, value] of pairsOf(metadataOf(text))) insert.run(contactId, organizationId, key, value);
  };

  const queries = {
    /** The organization's contact with its dossier_count, or null (another organization's is null too). */
    byId,

    /** The contact as a GET shows it; with `remember`, kept (frozen) while nothing is committed
     * (src/db/stamp-cache.ts). */
    shown: (organizationId: string, contactId: string, options: { remember: boolean }): Contact | null =>
      options.remember ? shown.get(`${organizationId}\u0000${contactId}`, () => byId(organizationId, contactId)) : byId(organizationId, contactId),

    /** The organization's contact row, or null. */
    rowById(organizationId: string, contactId: string): ContactRow | null {
      return orm.select().from(contacts).where(and(eq(contacts.id, contactId), eq(contacts.organizationId, organizationId))).get() ?? null;
    },

    // Runs on every POST /dossiers: query() keeps the prepared statement, where drizzle's builder
    // prepares a new one on each call.
    /** The organization's contact whose folded email is `emailFolded`, or null. */
    rowByEmail(organizationId: string, emailFolded: string): ContactRow | null {
      return sqlite
        .query<ContactRow, [string, string]>(`SELECT ${ROW_COLUMNS} FROM contacts c WHERE c.organization_id = ?1 AND c.email_folded = ?2`)
        .get(organizationId, emailFolded);
    },

    exists(organizationId: string, contactId: string): boolean {
      return sqlite.query(`SELECT 1 FROM contacts WHERE id = ?1 AND organization_id = ?2`).get(contactId, organizationId) !== null;
    },

    /** Inserts the row; false (nothing written) when its folded email is another contact's of the organization. */
    insert(row: ContactRow): boolean {
      const inserted = unlessEmailTaken(() =>
        sqlite
          .query(
            `INSERT INTO contacts (id, organization_id, full_name, email, email_folded, phone, linkedin_url, company, role, city,
               kind, kind_mask, notes, pool_added_at, pool_expires_at, created_at, updated_at, metadata)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)`,
          )
          .run(
            row.id, row.organizationId, row.fullName, row.email, row.emailFolded, row.phone, row.linkedinUrl, row.company, row.role,
            row.city, row.kind, row.kindMask, row.notes, row.poolAddedAt, row.poolExpiresAt, row.createdAt, row.updatedAt, row.metadata,
          ),
      );
      if (inserted) setPairs(row.organizationId, row.id, row.metadata, false);
      return inserted;
    },

    /** Sets the given columns; false (nothing written) when the new folded email is another contact's. */
    update(organizationId: string, contactId: string, changes: Partial<ContactRow>): boolean {
      const updated = unlessEmailTaken(() =>
        orm.update(contacts).set(changes).where(and(eq(contacts.id, contactId), eq(contacts.organizationId, organizationId))).run(),
      );
      if (updated && changes.metadata !== undefined) setPairs(organizationId, contactId, changes.metadata, true);
      return updated;
    },

    /** Replaces the search row's folded texts (the triggers fold with SQLite's lower(), ASCII only). */
    setSearchText(organizationId: string, contactId: string, folded: { fullName: string; company: string | null; role: string | null }) {
      sqlite
        .query(`UPDATE contact_search SET full_name = ?1, company = ?2, role = ?3 WHERE contact_id = ?4 AND organization_id = ?5`)
        .run(folded.fullName, folded.company, folded.role, contactId, organizationId);
    },

    /** Deletes the contact row (its search rows go with it, by triggers). */
    delete(organizationId: string, contactId: string) {
      sqlite.query(`DELETE FROM contacts WHERE id = ?1 AND organization_id = ?2`).run(contactId, organizationId);
    },

    /** One batch of the export (C21): GET /contacts' filters and order, the contacts after `after`
     * (the previous batch's last row; undefined for the first), at most `limit`, each with its
     * dossier_count. The search is the list's (a substring of the folded texts, C10), tested row by
     * row through contact_search as the scan walks the list's index. Each batch is its own short
     * read (round 3 notes). */
    exportPage(
      q: Pick<ContactPageQuery, "organizationId" | "mask" | "search" | "pool" | "updatedSince" | "metadata">,
      after: { created_at: string; id: string } | undefined,
      limit: number,
    ): Contact[] {
      const { clause, params } = withSearch(q, scanWhere(q));
      const where = [clause];
      const values: Params = { ...params, limit };
      if (after !== undefined) {
        where.push("(c.created_at, c.id) < ($afterCreated, $afterId)");
        values.afterCreated = after.created_at;
        values.afterId = after.id;
      }
      return sqlite
        .query<CountedRow, [Params]>(`SELECT ${WITH_COUNT} FROM contacts c WHERE ${where.join(" AND ")} ORDER BY c.created_at DESC, c.id DESC LIMIT $limit`)
        .all(values)
        .map(present);
    },

    /** The metadata keys of the contacts an export with these filters holds (its metadata.<key>
     * columns, C21 and issue 38), sorted. */
    metadataKeys(q: Pick<ContactPageQuery, "organizationId" | "mask" | "search" | "pool" | "updatedSince" | "metadata">): string[] {
      const { clause, params } = withSearch(q, scanWhere(q));
      const rows = sqlite
        .query<{ key: string }, [Params]>(
          `SELECT DISTINCT key FROM contact_metadata m
            WHERE m.organization_id = $org AND EXISTS (SELECT 1 FROM contacts c WHERE c.id = m.contact_id AND ${clause})`,
        )
        .all(params);
      return sortedKeys(rows.map((row) => row.key));
    },

    /**
     * A page of GET /contacts, newest first (created_at desc, id desc), and the exact total, read
     * in one snapshot of its own. Pages without a pool filter are remembered per organization's
     * contacts generation (./contact-search.ts); a read inside a caller's transaction neither uses
     * nor fills the caches, since the generation may then count writes that are later rolled back,
     * after which the same number would stand for other rows. A cursor page (`after`) is not
     * remembered: its rows are the export's batch after the cursor, its total the list's.
     */
    page(q: ContactPageQuery): { data: Contact[]; total: number } {
      const cacheable = q.cache && !q.pool && !inWriteTransaction(sqlite);
      return readSnapshot(sqlite, () => {
        if (q.after !== undefined) return { data: queries.exportPage(q, q.after, q.limit), total: totalOf(q, cacheable) };
        if ((q.pool && q.search === null) || q.metadata !== undefined) {
          const { total, rows } = byScan(q);
          return { data: rows.map(present), total };
        }
        const state = cacheable ? contactsGeneration(sqlite, q.organizationId) : null;
        const generation = state === null ? null : state.generation;
        // The organization first, "s"/"k" so that no term can pose as another key.
        const key = `${q.organizationId}\u0000${q.mask}\u0000${q.offset}\u0000${q.limit}\u0000${q.updatedSince ?? "-"}\u0000${q.search === null ? "k" : `s${q.search}`}`;
        if (generation !== null) {
          const hit = cachedPage<Contact>(sqlite, key, generation);
          if (hit) return hit;
        }
        let result: { total: number; rows: CountedRow[] };
        if (q.search !== null) {
          const match = {
            organizationId: q.organizationId, folded: q.search, length: [...q.search].length, mask: q.mask, pool: q.pool, updatedSince: q.updatedSince,
          };
          // The remembered matches are caught up by new rows alone, which updated_since does not fit.
          const { total, ids } = searchPage(sqlite, match, q.offset, q.limit, q.updatedSince === null ? state : null);
          result = { total, rows: bySearchIds(q.organizationId, ids) };
        } else if (q.updatedSince !== null) {
          result = byScan(q);
        } else {
          result = byKinds(q);
        }
        const answer = { data: result.rows.map(present), total: result.total };
        if (generation !== null) rememberPage(sqlite, key, generation, answer.total, answer.data);
        return answer;
      });
    },
  };
  return queries;
}
