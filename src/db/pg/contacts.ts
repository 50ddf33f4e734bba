// The contacts' queries on PostgreSQL, with the list's search: src/db/contacts.ts's and
// src/db/contact-search.ts's statements, the same answers. SQLite's modules keep caches (the
// contacts shown, whole pages, search matches per generation); this one reads the database each
// time it is called: the contacts shown are remembered by src/db/pg/answer-cache.ts, in front of it,
// against the generations the request's own bookkeeping statement read (C19); pages and searches
// are read every time.
//
// The search: contact_search.search_text (the four folded fields joined by U+001F, a generated
// column, drizzle-pg/0001) `LIKE '%' || term || '%'`, served by the trigram GIN index
// contact_search_trgm, where SQLite asks its FTS5 trigram table (3 code points and more) or scans
// with instr (shorter terms). The term comes folded (C10) and has LIKE's `\`, `%` and `_` escaped
// here, so it matches as a plain substring, as on SQLite.
//
// Writes (C19): inside a unit, a contact's insert, update or delete first takes the organization's
// numbering lock (holdOrganization, src/db/pg/events.ts), so that no deadlock arises where SQLite's
// one writer has none: a contact's INSERT waits for another unit's uncommitted contact of the same
// folded email, and its triggers take rows every writer of the organization shares, while a unit
// that recorded an event (a CSV import's, across its rows) holds that lock to its commit. With the
// lock taken first, units racing on one new email (C5's find-or-create) run one after the other;
// the later one finds the email taken and links the contact that won (src/services/contacts.ts).
//
// A page and its total are one statement (the total's row LEFT JOINed to the page's rows): one
// state of the database without a read snapshot, as SQLite's page reads in a snapshot of its own.
import type { SQL, TransactionSQL } from "bun";
import { contactOf, type ContactPageQuery } from "../contacts";
import type { ContactRow } from "../schema";
import { metadataOf, pairsOf, sortedKeys } from "../metadata";
import type { Db } from "./client";
import { holdOrganization } from "./events";
import type { EngineQueries } from "./queries";

type CountedRow = ContactRow & { dossierCount: number };
/** A page's row beside the total; a page with no rows gives one row of nulls beside it. */
type PageRow = { total: number; id: string | null; sort_at?: string } & Omit<CountedRow, "id">;

const present = (row: CountedRow) => contactOf(row, row.dossierCount);

/** A substring pattern for LIKE (default escape `\`): the term's `\`, `%` and `_` taken literally. */
export const likePattern = (folded: string) => `%${folded.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** ContactRow's columns, under its names (quoted: PostgreSQL folds unquoted names). */
const COLUMN_OF: Record<keyof ContactRow, string> = {
  id: "id",
  organizationId: "organization_id",
  fullName: "full_name",
  email: "email",
  emailFolded: "email_folded",
  phone: "phone",
  linkedinUrl: "linkedin_url",
  company: "company",
  role: "role",
  city: "city",
  kind: "kind",
  kindMask: "kind_mask",
  notes: "notes",
  poolAddedAt: "pool_added_at",
  poolExpiresAt: "pool_expires_at",
  createdAt: "created_at",
  updatedAt: "updated_at",
  metadata: "metadata",
};

/** ContactRow's columns of `c`, a contacts row, under ContactRow's names (quoted aliases). */
const columns = (sql: SQL) => sql`c.id, c.organization_id AS "organizationId", c.full_name AS "fullName", c.email, c.email_folded AS "emailFolded",
  c.phone, c.linkedin_url AS "linkedinUrl", c.company, c.role, c.city, c.kind, c.kind_mask AS "kindMask", c.notes, c.pool_added_at AS "poolAddedAt",
  c.pool_expires_at AS "poolExpiresAt", c.created_at AS "createdAt", c.updated_at AS "updatedAt", c.metadata`;

/** The columns and the contact's dossier_count: a CountedRow. */
const countedColumns = (sql: SQL) =>
  sql`${columns(sql)}, (SELECT count(*)::integer FROM dossier_contacts dc WHERE dc.contact_id = c.id) AS "dossierCount"`;

/** The list's filters on `c` other than the search: the kinds (a mask of 0 for any), updated_since,
 * the pool and the metadata pairs; one not asked for is NULL (or absent) and drops out. */
function listFilter(sql: SQL, q: Pick<ContactPageQuery, "organizationId" | "mask" | "pool" | "updatedSince" | "metadata">) {
  const mask = q.mask;
  const poolFilter = q.pool?.filter ?? null;
  const now = q.pool?.now ?? null;
  const since = q.updatedSince;
  return sql`(${mask}::integer = 0 OR (c.kind_mask & ${mask}::integer) <> 0)
    AND (${since}::text IS NULL OR c.updated_at >= ${since}::text)
    AND (${poolFilter}::text IS NULL
      OR (${poolFilter}::text = 'in_pool' AND (c.pool_added_at IS NOT NULL OR c.pool_expires_at IS NOT NULL)
          AND (c.pool_added_at IS NULL OR c.pool_added_at <= ${now}::text) AND (c.pool_expires_at IS NULL OR ${now}::text < c.pool_expires_at))
      OR (${poolFilter}::text = 'expired' AND c.pool_expires_at IS NOT NULL AND c.pool_expires_at <= ${now}::text))${metadataWhere(sql, q)}`;
}

/** Issue 38's `metadata[key]=value` filters: each pair an index lookup in contact_metadata_lookup. */
const metadataWhere = (sql: SQL, q: Pick<ContactPageQuery, "organizationId" | "metadata">) =>
  Object.entries(q.metadata ?? {}).reduce(
    (clauses, [key, value]) =>
      sql`${clauses} AND c.id IN (SELECT contact_id FROM contact_metadata WHERE organization_id = ${q.organizationId} AND key = ${key} AND value = ${value})`,
    sql``,
  );

const isEmailClash = (error: unknown) =>
  error instanceof Error && (error as { errno?: unknown }).errno === "23505" && (error as { constraint?: unknown }).constraint === "contacts_org_email";

export function pgContactQueries(db: Db, inUnit: () => boolean): EngineQueries<"contacts"> {
  // The pool itself (what db() gives outside any unit), told apart from a transaction's connection.
  const pool = db();
  // Inside a unit the row is locked to its commit, as the dossiers' (src/db/pg/dossiers.ts): an
  // If-Match checked again in the unit holds until its change commits (C16).
  const byId = async (organizationId: string, contactId: string) => {
    const sql = db();
    // The organization's write order before the row's lock (see above).
    if (inUnit()) await holdOrganization(sql, organizationId);
    const [row] = inUnit()
      ? await sql<CountedRow[]>`SELECT ${countedColumns(sql)}
      FROM contacts c WHERE c.id = ${contactId} AND c.organization_id = ${organizationId} FOR NO KEY UPDATE OF c`
      : await sql<CountedRow[]>`SELECT ${countedColumns(sql)}
      FROM contacts c WHERE c.id = ${contactId} AND c.organization_id = ${organizationId}`;
    return row ? present(row) : null;
  };

  const rowOf = async (organizationId: string, where: "id" | "email", value: string) => {
    const sql = db();
    const rows =
      where === "id"
        ? await sql<ContactRow[]>`SELECT ${columns(sql)}
            FROM contacts c WHERE id = ${value} AND organization_id = ${organizationId}`
        : await sql<ContactRow[]>`SELECT ${columns(sql)}
            FROM contacts c WHERE organization_id = ${organizationId} AND email_folded = ${value}`;
    return rows[0] ?? null;
  };

  /** Runs `write`, inside a savepoint when the work in progress is a transaction (a unique
   * violation aborts a PostgreSQL transaction; SQLite undoes the statement alone); false when it
   * broke the organization's unique email. */
  async function unlessEmailTaken(write: (sql: SQL) => Promise<unknown>): Promise<boolean> {
    const sql = db();
    try {
      if (sql !== pool) {
        await (sql as TransactionSQL).savepoint((sp: SQL) => write(sp));
      } else {
        await write(sql);
      }
      return true;
    } catch (error) {
      if (isEmailClash(error)) return false;
      throw error;
    }
  }

  /** Inside a unit, the organization's write order before a contact's row is written (see above). */
  async function inOrder(organizationId: string) {
    if (inUnit()) await holdOrganization(db(), organizationId);
  }

  /** The contact's metadata pairs as contact_metadata holds them (from its stored text): replaced whole. */
  async function setPairs(organizationId: string, contactId: string, text: string, replace: boolean) {
    const sql = db();
    if (replace) await sql`DELETE FROM contact_metadata WHERE contact_id = ${contactId} AND organization_id = ${organizationId}`;
    const rows = pairsOf(metadataOf(text)).map(([key, value]) => ({ contact_id: contactId, organization_id: organizationId, key, value }));
    if (rows.length > 0) await sql`INSERT INTO contact_metadata ${sql(rows)}`;
  }

  /** One batch of the export (C21): the list's filters and order, the rows after `after` (the
   * previous batch's last row; undefined for the first), at most `limit`, each with its
   * dossier_count. Each batch is its own short read, as on SQLite. */
  async function exportPage(
    q: Pick<ContactPageQuery, "organizationId" | "mask" | "search" | "pool" | "updatedSince" | "metadata">,
    after: { created_at: string; id: string } | undefined,
    limit: number,
  ) {
    const sql = db();
    const pattern = q.search === null ? null : likePattern(q.search);
    const afterCreated = after?.created_at ?? null;
    const afterId = after?.id ?? null;
    const rows = await sql<CountedRow[]>`SELECT ${countedColumns(sql)}
      FROM contacts c
      WHERE c.organization_id = ${q.organizationId}
        AND ${listFilter(sql, q)}
        AND (${pattern}::text IS NULL OR EXISTS (SELECT 1 FROM contact_search s
              WHERE s.contact_id = c.id AND s.organization_id = ${q.organizationId} AND s.search_text LIKE ${pattern}::text))
        AND (${afterCreated}::text IS NULL OR (c.created_at, c.id) < (${afterCreated}::text, ${afterId}::text))
      ORDER BY c.created_at DESC, c.id DESC LIMIT ${limit}::bigint`;
    return rows.map(present);
  }

  /** The metadata keys of the contacts an export with these filters holds, sorted (as on SQLite). */
  async function metadataKeys(q: Pick<ContactPageQuery, "organizationId" | "mask" | "search" | "pool" | "updatedSince" | "metadata">) {
    const sql = db();
    const pattern = q.search === null ? null : likePattern(q.search);
    const rows = await sql<{ key: string }[]>`SELECT DISTINCT key FROM contact_metadata
      WHERE organization_id = ${q.organizationId} AND contact_id IN (SELECT c.id FROM contacts c
        WHERE c.organization_id = ${q.organizationId} AND ${listFilter(sql, q)}
          AND (${pattern}::text IS NULL OR EXISTS (SELECT 1 FROM contact_search s
                WHERE s.contact_id = c.id AND s.organization_id = ${q.organizationId} AND s.search_text LIKE ${pattern}::text)))`;
    return sortedKeys(rows.map((row) => row.key));
  }

  /** A page of GET /contacts and its exact total, in one statement. Filters not asked for are
   * NULL (or a mask of 0) and drop out; the search, when there is one, leads from the trigram
   * index. */
  async function page(q: ContactPageQuery): Promise<{ data: ReturnType<typeof present>[]; total: number }> {
    const sql = db();
    const mask = q.mask;
    // A cursor page (issue 38): the page's rows after the cursor; the total stays the list's.
    const after = q.after;
    const seek = (over: "matches" | "contacts") =>
      after === undefined
        ? sql``
        : over === "matches"
          ? sql`AND (created_at, contact_id) < (${after.created_at}::text, ${after.id}::text)`
          : sql`AND (c.created_at, c.id) < (${after.created_at}::text, ${after.id}::text)`;
    let rows: PageRow[];
    if (q.search !== null) {
      const pattern = likePattern(q.search);
      rows = await sql<PageRow[]>`WITH m AS (
          SELECT s.contact_id, s.created_at FROM contact_search s JOIN contacts c ON c.id = s.contact_id AND c.organization_id = s.organization_id
           WHERE s.organization_id = ${q.organizationId} AND s.search_text LIKE ${pattern}::text
             AND ${listFilter(sql, q)})
        SELECT t.total, p.* FROM (SELECT count(*)::integer AS total FROM m) t LEFT JOIN (
          SELECT ${countedColumns(sql)}, m.created_at AS sort_at
            FROM (SELECT contact_id, created_at FROM m
                   WHERE true ${seek("matches")}
                   ORDER BY created_at DESC, contact_id DESC LIMIT ${q.limit}::bigint OFFSET ${q.offset}::bigint) m
            JOIN contacts c ON c.id = m.contact_id AND c.organization_id = ${q.organizationId}) p ON true
        ORDER BY p.sort_at DESC, p.id DESC`;
    } else if (q.pool === undefined && q.updatedSince === null && q.metadata === undefined) {
      // Kinds or none: the exact total from contact_kind_counts, kept by the triggers.
      rows = await sql<PageRow[]>`SELECT t.total, p.* FROM (
            SELECT coalesce(sum(n), 0)::integer AS total FROM contact_kind_counts
             WHERE organization_id = ${q.organizationId} AND (${mask}::integer = 0 OR (kind_mask & ${mask}::integer) <> 0)) t
          LEFT JOIN (
          SELECT ${countedColumns(sql)}
            FROM contacts c WHERE c.organization_id = ${q.organizationId} AND (${mask}::integer = 0 OR (c.kind_mask & ${mask}::integer) <> 0)
              ${seek("contacts")}
            ORDER BY c.created_at DESC, c.id DESC LIMIT ${q.limit}::bigint OFFSET ${q.offset}::bigint) p ON true
        ORDER BY p."createdAt" DESC, p.id DESC`;
    } else {
      // A pool filter or updated_since: no count is kept for these; the total comes from the rows.
      rows = await sql<PageRow[]>`WITH m AS (
          SELECT c.* FROM contacts c
           WHERE c.organization_id = ${q.organizationId}
             AND ${listFilter(sql, q)})
        SELECT t.total, p.* FROM (SELECT count(*)::integer AS total FROM m) t LEFT JOIN (
          SELECT ${countedColumns(sql)}
            FROM m c WHERE true ${seek("contacts")}
            ORDER BY c.created_at DESC, c.id DESC LIMIT ${q.limit}::bigint OFFSET ${q.offset}::bigint) p ON true
        ORDER BY p."createdAt" DESC, p.id DESC`;
    }
    const total = rows[0]?.total ?? 0;
    const data = [];
    for (const { total: _, sort_at: _at, ...row } of rows) {
      if (row.id !== null) data.push(present(row as CountedRow));
    }
    return { data, total };
  }

  return {
    /** The organization's contact with its dossier_count, or null (another organization's is null too). */
    byId,

    /** The contact as a GET shows it; read each time, `remember` or not (see above). */
    shown: (organizationId: string, contactId: string, _options: { remember: boolean }) => byId(organizationId, contactId),

    rowById: (organizationId: string, contactId: string) => rowOf(organizationId, "id", contactId),

    rowByEmail: (organizationId: string, emailFolded: string) => rowOf(organizationId, "email", emailFolded),

    async exists(organizationId: string, contactId: string) {
      return (await db()`SELECT 1 AS ok FROM contacts WHERE id = ${contactId} AND organization_id = ${organizationId}`).length > 0;
    },

    /** Inserts the row; false (nothing written) when its folded email is another contact's of the organization. */
    async insert(row: ContactRow) {
      await inOrder(row.organizationId);
      // ON CONFLICT on the email's index rather than a savepoint around the INSERT: a taken email
      // aborts nothing, and the unit sends one statement where a savepoint made three.
      const sql = db();
      const inserted = await sql`INSERT INTO contacts ${sql(columnsOf(row), ...CONTACT_COLUMNS)}
        ON CONFLICT (organization_id, email_folded) DO NOTHING RETURNING id`;
      if (inserted.length === 0) return false;
      await setPairs(row.organizationId, row.id, row.metadata, false);
      return true;
    },

    /** Sets the given columns; false (nothing written) when the new folded email is another contact's. */
    update(organizationId: string, contactId: string, changes: Partial<ContactRow>) {
      // Column names go into the SQL: only ContactRow's, through the fixed map, never a name from elsewhere.
      const set: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(changes)) {
        if (value === undefined) continue;
        const column = COLUMN_OF[key as keyof ContactRow];
        if (column === undefined || !Object.hasOwn(COLUMN_OF, key)) throw new Error(`contacts: ${key} is not a column`);
        set[column] = value;
      }
      if (Object.keys(set).length === 0) return Promise.resolve(true);
      return inOrder(organizationId).then(() => unlessEmailTaken((sql) => sql`UPDATE contacts SET ${sql(set)} WHERE id = ${contactId} AND organization_id = ${organizationId}`).then(
        async (updated) => {
          if (updated && changes.metadata !== undefined) await setPairs(organizationId, contactId, changes.metadata, true);
          return updated;
        },
      ));
    },

    /** Replaces the search row's folded texts (the triggers fold with lower() COLLATE "C", ASCII only). */
    async setSearchText(organizationId: string, contactId: string, folded: { fullName: string; company: string | null; role: string | null }) {
      await db()`UPDATE contact_search SET full_name = ${folded.fullName}, company = ${folded.company}, role = ${folded.role}
        WHERE contact_id = ${contactId} AND organization_id = ${organizationId}`;
    },

    /** Deletes the contact row (its search row goes with it, by a trigger). */
    async delete(organizationId: string, contactId: string) {
      await inOrder(organizationId);
      await db()`DELETE FROM contacts WHERE id = ${contactId} AND organization_id = ${organizationId}`;
    },

    /** A page of GET /contacts, newest first (created_at desc, id desc), and the exact total, in one
     * statement. Read each time, `cache` or not (see above). */
    page,

    exportPage,

    metadataKeys,
  };
}

/** Contacts per INSERT of a batch (18 parameters each, well under PostgreSQL's 65,535). */
const INSERT_CHUNK = 1_000;

/**
 * What a CSV import's batch of new contacts sends (C21, src/services/contacts.ts writeNewContacts),
 * inside its unit: one INSERT for the batch's rows (its triggers keep contact_search and the counts
 * as for one row) and one for their metadata pairs, where a row at a time took five round trips
 * (two savepoints, the INSERT, two releases). A row whose folded email another contact of the
 * organization has already is left out by ON CONFLICT DO NOTHING, which needs no savepoint: the
 * statement does not fail. The organization's write order first, as for one contact (see above).
 */
export function pgContactBatchQueries(db: Db) {
  return {
    /** Inserts the organization's new rows; answers the ids of those left out (their folded email
     * was taken). Rows of one batch carry distinct folded emails (the service's check). */
    async insertNew(organizationId: string, rows: readonly ContactRow[]): Promise<ReadonlySet<string>> {
      if (rows.length === 0) return new Set();
      if (rows.some((row) => row.organizationId !== organizationId)) throw new Error("contacts: a batch holds one organization's rows");
      const sql = db();
      await holdOrganization(sql, organizationId);
      const inserted = new Set<string>();
      for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
        const chunk = rows.slice(start, start + INSERT_CHUNK).map(columnsOf);
        const done = await sql<{ id: string }[]>`INSERT INTO contacts ${sql(chunk, ...CONTACT_COLUMNS)}
          ON CONFLICT (organization_id, email_folded) DO NOTHING RETURNING id`;
        for (const { id } of done) inserted.add(id);
      }
      const pairs = rows
        .filter((row) => inserted.has(row.id))
        .flatMap((row) => pairsOf(metadataOf(row.metadata)).map(([key, value]) => ({ contact_id: row.id, organization_id: organizationId, key, value })));
      // 4 parameters a pair: a chunk of 10,000 stays under the limit.
      for (let start = 0; start < pairs.length; start += 10 * INSERT_CHUNK) {
        await sql`INSERT INTO contact_metadata ${sql(pairs.slice(start, start + 10 * INSERT_CHUNK), "contact_id", "organization_id", "key", "value")}`;
      }
      return new Set(rows.filter((row) => !inserted.has(row.id)).map((row) => row.id));
    },
  };
}

export type PgContactBatches = ReturnType<typeof pgContactBatchQueries>;

/** A contact's row by column name, as an INSERT of one or of a batch sends it. */
const columnsOf = (row: ContactRow) => ({
  id: row.id, organization_id: row.organizationId, full_name: row.fullName, email: row.email, email_folded: row.emailFolded,
  phone: row.phone, linkedin_url: row.linkedinUrl, company: row.company, role: row.role, city: row.city, kind: row.kind,
  kind_mask: row.kindMask, notes: row.notes, pool_added_at: row.poolAddedAt, pool_expires_at: row.poolExpiresAt,
  created_at: row.createdAt, updated_at: row.updatedAt, metadata: row.metadata,
});

/** The contacts' columns an INSERT names, in order. */
const CONTACT_COLUMNS = [
  "id", "organization_id", "full_name", "email", "email_folded", "phone", "linkedin_url", "company", "role", "city", "kind", "kind_mask",
  "notes", "pool_added_at", "pool_expires_at", "created_at", "updated_at", "metadata",
] as const;
