// Contacts: the organization's network of people (api-v1 "Contact", "Contacts", C3, C6, C10).
// Email uniqueness is the database's (unique index contacts_org_email on the folded email), and
// the search index (contact_search + contacts_fts, migration 0001) is kept in step by triggers,
// with the non-ASCII folding written here in the same transaction.
import { SQLiteError } from "bun:sqlite";
import { and, eq } from "drizzle-orm";
import type { Context } from "../context";
import { contacts, type ContactRow } from "../db/schema";
import { ApiError, invalidBody } from "../errors";
import { isEmailAddress } from "../schemas/contacts";
import { newId } from "../ids";
import { cachedPage, contactsGeneration, rememberPage, searchPage, type PoolFilter } from "./contact-search";

export type { ContactRow } from "../db/schema";

export const KINDS = ["candidate", "prospect", "client", "supplier", "partner"] as const;
export type Kind = (typeof KINDS)[number];

/** One bit per kind (the kind_mask column), so that "any of these kinds" is one integer test. */
export const kindBit = (kind: Kind) => 1 << KINDS.indexOf(kind);
export const kindMaskOf = (kinds: readonly Kind[]) => kinds.reduce((mask, k) => mask | kindBit(k), 0);

/** C10: duplicates dropped, order of first appearance kept. */
export function uniqueKinds(kinds: readonly string[]): Kind[] {
  for (const kind of kinds) if (!KINDS.includes(kind as Kind)) throw invalidBody(`kind: must be one of ${KINDS.join(", ")}`);
  return [...new Set(kinds)] as Kind[];
}

/** C10: case-insensitive matching folds as JavaScript's toLowerCase() does. */
export const fold = (text: string) => text.toLowerCase();

export interface ContactInput {
  full_name: string;
  email?: string | null;
  phone?: string | null;
  linkedin_url?: string | null;
  company?: string | null;
  role?: string | null;
  city?: string | null;
  kind?: string[];
  notes?: string | null;
  pool_added_at?: string | null;
  pool_expires_at?: string | null;
}

export type ContactPatch = Partial<ContactInput>;

/** The Contact representation (api-v1 "Contact" + C6): every field, null where unset. */
export interface Contact {
  id: string;
  full_name: string;
  email: string | null;
  phone: string | null;
  linkedin_url: string | null;
  company: string | null;
  role: string | null;
  city: string | null;
  kind: Kind[];
  notes: string | null;
  dossier_count: number;
  pool_added_at: string | null;
  pool_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

// ---------------------------------------------------------------------------------------------
// Validation (C3 text limits, C6 pool window, C10 nulls). Routes validate shapes with TypeBox;
// these are the rules TypeBox cannot say (code points, trimming, formats, cross-field).

const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-](\d{2}):(\d{2}))$/i;

/** An RFC 3339 date-time whose parts exist (no 30 February, no 25:00), with a zone. */
function parseDateTime(value: string): number {
  const m = ISO_DATE_TIME.exec(value);
  if (!m) return NaN;
  const [y, mo, d, h, mi, s = "0", oh = "0", om = "0"] = m.slice(1).map((x) => x ?? "0");
  const parts = [y, mo, d, h, mi, s, oh, om].map(Number);
  const probe = new Date(Date.UTC(parts[0], parts[1] - 1, parts[2], parts[3], parts[4], parts[5]));
  const real = probe.getUTCFullYear() === parts[0] && probe.getUTCMonth() === parts[1] - 1 && probe.getUTCDate() === parts[2] &&
    probe.getUTCHours() === parts[3] && probe.getUTCMinutes() === parts[4] && probe.getUTCSeconds() === parts[5];
  if (!real || parts[6] > 23 || parts[7] > 59) return NaN;
  return Date.parse(value);
}
const codePoints = (text: string) => [...text].length;

function checkText(field: string, value: string | null | undefined, max: number) {
  if (typeof value === "string" && codePoints(value) > max) throw invalidBody(`${field}: must be at most ${max} characters`);
}

function checkFullName(value: string): string {
  const trimmed = value.trim();
  const n = codePoints(trimmed);
  if (n < 1 || n > 200) throw invalidBody("full_name: must be 1 to 200 characters after trimming");
  return trimmed;
}

function checkDate(field: string, value: string | null | undefined): string | null | undefined {
  if (value === null || value === undefined) return value;
  const time = parseDateTime(value);
  if (Number.isNaN(time)) throw invalidBody(`${field}: must be an ISO 8601 date-time`);
  const normalized = new Date(time).toISOString();
  if (!/^\d{4}-/.test(normalized)) throw invalidBody(`${field}: must be an ISO 8601 date-time`);
  return normalized;
}

function checkUrl(value: string | null | undefined) {
  if (value === null || value === undefined) return;
  checkText("linkedin_url", value, 500);
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || !url.hostname) {
    throw invalidBody("linkedin_url: must be an http(s) URL");
  }
}

/**
 * Checks and normalizes the fields present in `input` (C3, C10): full_name trimmed, pool dates in
 * C3's form. Keys absent stay absent. Throws invalid_body naming the field.
 */
export function checkContactFields<T extends ContactPatch>(input: T): T {
  const out: ContactPatch = { ...input };
  if (input.full_name !== undefined) {
    if (input.full_name === null) throw invalidBody("full_name: cannot be null");
    out.full_name = checkFullName(input.full_name);
  }
  if (input.kind === null) throw invalidBody("kind: cannot be null");
  if (input.email !== undefined && input.email !== null) {
    checkText("email", input.email, 200);
    if (!isEmailAddress(input.email)) throw invalidBody("email: must be an email address");
  }
  for (const field of ["phone", "company", "role", "city"] as const) checkText(field, input[field], 200);
  checkUrl(input.linkedin_url);
  checkText("notes", input.notes, 20_000);
  if (input.kind !== undefined) out.kind = uniqueKinds(input.kind);
  if (input.pool_added_at !== undefined) out.pool_added_at = checkDate("pool_added_at", input.pool_added_at);
  if (input.pool_expires_at !== undefined) out.pool_expires_at = checkDate("pool_expires_at", input.pool_expires_at);
  return out as T;
}

function checkPoolWindow(added: string | null, expires: string | null) {
  if (added !== null && expires !== null && !(expires > added)) {
    throw invalidBody("pool_expires_at: must be later than pool_added_at");
  }
}

// ---------------------------------------------------------------------------------------------
// Rows and their representation.

const SELECT_CONTACT = `SELECT c.*, (SELECT count(*) FROM dossier_contacts dc WHERE dc.contact_id = c.id) AS dossier_count FROM contacts c`;

interface ContactSqlRow {
  id: string;
  organization_id: string;
  full_name: string;
  email: string | null;
  phone: string | null;
  linkedin_url: string | null;
  company: string | null;
  role: string | null;
  city: string | null;
  kind: string;
  notes: string | null;
  pool_added_at: string | null;
  pool_expires_at: string | null;
  created_at: string;
  updated_at: string;
  dossier_count: number;
}

const presentSql = (row: ContactSqlRow): Contact => ({
  id: row.id,
  full_name: row.full_name,
  email: row.email,
  phone: row.phone,
  linkedin_url: row.linkedin_url,
  company: row.company,
  role: row.role,
  city: row.city,
  kind: JSON.parse(row.kind),
  notes: row.notes,
  dossier_count: row.dossier_count,
  pool_added_at: row.pool_added_at,
  pool_expires_at: row.pool_expires_at,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

/** A contact row (drizzle's shape) as the API shows it, given its number of linked dossiers. */
export const presentContact = (row: ContactRow, dossierCount: number): Contact => ({
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
});

const NON_ASCII = /[^\x00-\x7f]/;

/** The triggers fold with SQLite's lower(), which knows ASCII only: rewrite the search row with
 * JavaScript's folding when the text is not plain ASCII (C10). Inside the caller's transaction. */
function refreshSearch(ctx: Context, row: ContactRow) {
  const texts = [row.fullName, row.company, row.role];
  if (!texts.some((t) => t !== null && NON_ASCII.test(t))) return;
  ctx.store.sqlite
    .query(`UPDATE contact_search SET full_name = ?1, company = ?2, role = ?3 WHERE contact_id = ?4`)
    .run(fold(row.fullName), row.company === null ? null : fold(row.company), row.role === null ? null : fold(row.role), row.id);
}

const isEmailClash = (error: unknown) =>
  error instanceof SQLiteError && error.code === "SQLITE_CONSTRAINT_UNIQUE" && error.message.includes("contacts.email_folded");

const duplicate = () => new ApiError("duplicate_contact", "a contact with this email already exists in the organization");

// ---------------------------------------------------------------------------------------------
// Building blocks, called inside a caller's transaction (they open none).

// findContactByEmail and insertContact run on every POST /dossiers: bun:sqlite's query() keeps the
// prepared statement per SQL text, where drizzle's builder prepares a new one on each call (issue 6).
const ROW_COLUMNS = `id, organization_id AS organizationId, full_name AS fullName, email, email_folded AS emailFolded, phone,
  linkedin_url AS linkedinUrl, company, role, city, kind, kind_mask AS kindMask, notes, pool_added_at AS poolAddedAt,
  pool_expires_at AS poolExpiresAt, created_at AS createdAt, updated_at AS updatedAt`;

/** The organization's contact with this email, compared case-insensitively (C10), or null. */
export function findContactByEmail(ctx: Context, organizationId: string, email: string): ContactRow | null {
  return ctx.store.sqlite
    .query<ContactRow, [string, string]>(`SELECT ${ROW_COLUMNS} FROM contacts WHERE organization_id = ?1 AND email_folded = ?2`)
    .get(organizationId, fold(email));
}

/** The organization's contact row, or null (another organization's is null too). */
export function findContact(ctx: Context, organizationId: string, contactId: string): ContactRow | null {
  return ctx.store.orm.select().from(contacts)
    .where(and(eq(contacts.id, contactId), eq(contacts.organizationId, organizationId)))
    .get() ?? null;
}

/**
 * Inserts a contact; call inside a transaction. `full_name` is stored trimmed, `kind` without
 * duplicates (its bit mask beside it), the folded email beside the email. An email already used in
 * the organization (case-insensitive) throws duplicate_contact (409), as the unique index says.
 * The input is expected valid (see checkContactFields); pool dates are stored as given.
 */
export function insertContact(ctx: Context, organizationId: string, input: ContactInput): ContactRow {
  const kinds = uniqueKinds(input.kind ?? []);
  const now = ctx.now().toISOString();
  const email = input.email ?? null;
  const row: ContactRow = {
    id: newId(),
    organizationId,
    fullName: input.full_name.trim(),
    email,
    emailFolded: email === null ? null : fold(email),
    phone: input.phone ?? null,
    linkedinUrl: input.linkedin_url ?? null,
    company: input.company ?? null,
    role: input.role ?? null,
    city: input.city ?? null,
    kind: JSON.stringify(kinds),
    kindMask: kindMaskOf(kinds),
    notes: input.notes ?? null,
    poolAddedAt: input.pool_added_at ?? null,
    poolExpiresAt: input.pool_expires_at ?? null,
    createdAt: now,
    updatedAt: now,
  };
  try {
    ctx.store.sqlite
      .query(
        `INSERT INTO contacts (id, organization_id, full_name, email, email_folded, phone, linkedin_url, company, role, city,
           kind, kind_mask, notes, pool_added_at, pool_expires_at, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)`,
      )
      .run(
        row.id, row.organizationId, row.fullName, row.email, row.emailFolded, row.phone, row.linkedinUrl, row.company, row.role,
        row.city, row.kind, row.kindMask, row.notes, row.poolAddedAt, row.poolExpiresAt, row.createdAt, row.updatedAt,
      );
  } catch (error) {
    if (isEmailClash(error)) throw duplicate();
    throw error;
  }
  refreshSearch(ctx, row);
  return row;
}

// ---------------------------------------------------------------------------------------------
// The operations behind the endpoints. Each change is one unit of the store's group commit
// (C11); the write* functions are its bodies, for callers that combine several in one unit.

export const createContact = (ctx: Context, organizationId: string, input: ContactInput): Promise<Contact> =>
  ctx.store.write(() => writeNewContact(ctx, organizationId, input));

export const updateContact = (ctx: Context, organizationId: string, contactId: string, patch: ContactPatch): Promise<Contact | null> =>
  ctx.store.write(() => writeContactPatch(ctx, organizationId, contactId, patch));

export const deleteContact = (ctx: Context, organizationId: string, contactId: string): Promise<boolean> =>
  ctx.store.write(() => writeContactDeletion(ctx, organizationId, contactId));

/** Checks and inserts a contact; call inside a unit of work. */
export function writeNewContact(ctx: Context, organizationId: string, input: ContactInput): Contact {
  const checked = checkContactFields(input);
  checkPoolWindow(checked.pool_added_at ?? null, checked.pool_expires_at ?? null);
  return presentContact(insertContact(ctx, organizationId, checked), 0);
}

/** The contact with its dossier_count, or null when it is not the organization's. */
export function getContact(ctx: Context, organizationId: string, contactId: string): Contact | null {
  const row = ctx.store.sqlite
    .query<ContactSqlRow, [string, string]>(`${SELECT_CONTACT} WHERE c.id = ?1 AND c.organization_id = ?2`)
    .get(contactId, organizationId);
  return row ? presentSql(row) : null;
}

const COLUMN_OF = {
  full_name: "fullName",
  email: "email",
  phone: "phone",
  linkedin_url: "linkedinUrl",
  company: "company",
  role: "role",
  city: "city",
  notes: "notes",
  pool_added_at: "poolAddedAt",
  pool_expires_at: "poolExpiresAt",
} as const satisfies Record<Exclude<keyof ContactInput, "kind">, keyof ContactRow>;

/**
 * Applies a PATCH (only the keys sent change; C10 nulls); call inside a transaction. A PATCH that
 * changes nothing writes nothing and keeps updated_at. Null when the contact is not the org's.
 */
export function writeContactPatch(ctx: Context, organizationId: string, contactId: string, patch: ContactPatch): Contact | null {
  const current = findContact(ctx, organizationId, contactId);
  if (!current) return null;
  const checked = checkContactFields(patch);
  const changes: Partial<ContactRow> = {};
  for (const field of Object.keys(COLUMN_OF) as (keyof typeof COLUMN_OF)[]) {
    const column = COLUMN_OF[field];
    const value = checked[field];
    if (value === undefined) continue;
    if (value !== current[column]) (changes as Record<string, unknown>)[column] = value;
  }
  if (checked.kind !== undefined) {
    const kind = JSON.stringify(checked.kind);
    if (kind !== current.kind) {
      changes.kind = kind;
      changes.kindMask = kindMaskOf(checked.kind as Kind[]);
    }
  }
  if ("email" in changes) changes.emailFolded = changes.email === null ? null : fold(changes.email!);
  const next: ContactRow = { ...current, ...changes };
  checkPoolWindow(next.poolAddedAt, next.poolExpiresAt);
  if (Object.keys(changes).length > 0) {
    changes.updatedAt = ctx.now().toISOString();
    next.updatedAt = changes.updatedAt;
    try {
      ctx.store.orm.update(contacts).set(changes)
        .where(and(eq(contacts.id, contactId), eq(contacts.organizationId, organizationId))).run();
    } catch (error) {
      if (isEmailClash(error)) throw duplicate();
      throw error;
    }
    if ("fullName" in changes || "company" in changes || "role" in changes) refreshSearch(ctx, next);
  }
  return getContact(ctx, organizationId, contactId);
}

/**
 * Hard delete (api-v1, C6): the links go with it, the dossiers stay, and a dossier whose primary
 * it was gets contact_id null; no event (C10). Call inside a transaction. False when not the org's.
 */
export function writeContactDeletion(ctx: Context, organizationId: string, contactId: string): boolean {
  const { sqlite } = ctx.store;
  const found = sqlite.query(`SELECT 1 FROM contacts WHERE id = ?1 AND organization_id = ?2`).get(contactId, organizationId);
  if (!found) return false;
  sqlite.query(`UPDATE dossiers SET contact_id = NULL WHERE contact_id = ?1 AND organization_id = ?2`).run(contactId, organizationId);
  sqlite.query(`DELETE FROM dossier_contacts WHERE contact_id = ?1`).run(contactId);
  sqlite.query(`DELETE FROM contacts WHERE id = ?1 AND organization_id = ?2`).run(contactId, organizationId);
  return true;
}

export type { PoolFilter } from "./contact-search";

export interface ContactQuery {
  kinds?: Kind[];
  pool?: PoolFilter;
  search?: string;
  page: number;
  perPage: number;
}

const DOSSIER_COUNT = `(SELECT count(*) FROM dossier_contacts dc WHERE dc.contact_id = c.id) AS dossier_count`;

/** The page's rows from their contact_search rowids, in the given order: dossier_count is computed
 * for these rows only, in the same statement (one JSON array parameter, whatever the page size). */
function rowsBySearchIds(ctx: Context, organizationId: string, ids: number[]): ContactSqlRow[] {
  if (ids.length === 0) return [];
  return ctx.store.sqlite
    .query<ContactSqlRow, [Record<string, string>]>(
      `SELECT c.*, ${DOSSIER_COUNT}
         FROM json_each($ids) j CROSS JOIN contact_search s ON s.id = j.value CROSS JOIN contacts c ON c.id = s.contact_id
        WHERE s.organization_id = $org AND c.organization_id = $org
        ORDER BY j.key`,
    )
    .all({ ids: JSON.stringify(ids), org: organizationId });
}

/** Kind filter only, or none: the exact total from contact_kind_counts (migration 0004), the page's
 * ids from the covering index contacts_org_created_kind (kind test in the index), then its rows. */
function listByKinds(ctx: Context, organizationId: string, mask: number, query: ContactQuery) {
  const { sqlite } = ctx.store;
  const kindTest = mask === 0 ? "" : "AND (kind_mask & $mask) != 0";
  const params: Record<string, string | number> = { org: organizationId };
  if (mask !== 0) params.mask = mask;
  const total = sqlite
    .query<{ n: number }, [Record<string, string | number>]>(
      `SELECT coalesce(sum(n), 0) AS n FROM contact_kind_counts WHERE organization_id = $org ${kindTest}`,
    )
    .get(params)!.n;
  const rows = sqlite
    .query<ContactSqlRow, [Record<string, string | number>]>(
      `SELECT c.*, ${DOSSIER_COUNT}
         FROM (SELECT id FROM contacts INDEXED BY contacts_org_created_kind WHERE organization_id = $org ${kindTest}
                ORDER BY created_at DESC, id DESC LIMIT $limit OFFSET $offset) p
        CROSS JOIN contacts c ON c.id = p.id
        ORDER BY c.created_at DESC, c.id DESC`,
    )
    .all({ ...params, limit: query.perPage, offset: (query.page - 1) * query.perPage });
  return { total, rows };
}

/** A pool filter without search: the time decides membership, so no count is kept for it. */
function listByPool(ctx: Context, organizationId: string, mask: number, pool: PoolFilter, query: ContactQuery) {
  const where: string[] = ["c.organization_id = $org"];
  const params: Record<string, string | number> = { org: organizationId, now: ctx.now().toISOString() };
  if (mask !== 0) {
    where.push("(c.kind_mask & $mask) != 0");
    params.mask = mask;
  }
  where.push(
    pool === "in_pool"
      ? "(c.pool_added_at IS NOT NULL OR c.pool_expires_at IS NOT NULL) AND (c.pool_added_at IS NULL OR c.pool_added_at <= $now) AND (c.pool_expires_at IS NULL OR $now < c.pool_expires_at)"
      : "c.pool_expires_at IS NOT NULL AND c.pool_expires_at <= $now",
  );
  const clause = where.join(" AND ");
  const { sqlite } = ctx.store;
  const total = sqlite.query<{ n: number }, [Record<string, string | number>]>(`SELECT count(*) AS n FROM contacts c WHERE ${clause}`).get(params)!.n;
  const rows = sqlite
    .query<ContactSqlRow, [Record<string, string | number>]>(
      `${SELECT_CONTACT} WHERE ${clause} ORDER BY c.created_at DESC, c.id DESC LIMIT $limit OFFSET $offset`,
    )
    .all({ ...params, limit: query.perPage, offset: (query.page - 1) * query.perPage });
  return { total, rows };
}

/**
 * GET /contacts: newest first (created_at desc, id desc; C3), `kinds` any of (C6), `pool` at
 * request time (C6, C10), `search` a case-insensitive substring of full_name, email, company or
 * role (C6, C10; see contact-search.ts). One read transaction, so that total and page agree.
 */
export function listContacts(ctx: Context, organizationId: string, query: ContactQuery): { data: Contact[]; total: number } {
  const mask = query.kinds && query.kinds.length > 0 ? kindMaskOf(query.kinds) : 0;
  const { sqlite } = ctx.store;
  // Inside a caller's transaction the generation may count writes that are later rolled back, after
  // which the same number would stand for other rows: such reads neither use nor fill the caches
  // (nor does any read with DOSSIER_CACHE=off).
  const cacheable = ctx.config.cache && !query.pool && !sqlite.inTransaction;
  return sqlite.transaction(() => {
    // A pool filter depends on the time, not only on the rows: never cached.
    if (query.pool && (query.search === undefined || query.search === "")) {
      const { total, rows } = listByPool(ctx, organizationId, mask, query.pool, query);
      return { data: rows.map(presentSql), total };
    }
    const state = cacheable ? contactsGeneration(sqlite, organizationId) : null;
    const generation = state === null ? null : state.generation;
    const folded = query.search === undefined || query.search === "" ? null : fold(query.search);
    // What decides the page; the organization first, "s"/"k" so that no term can pose as another key.
    const pageKey = `${organizationId}\u0000${mask}\u0000${query.page}\u0000${query.perPage}\u0000${folded === null ? "k" : `s${folded}`}`;
    if (generation !== null) {
      const hit = cachedPage<Contact>(sqlite, pageKey, generation);
      if (hit) return hit;
    }
    let result: { total: number; rows: ContactSqlRow[] };
    if (folded !== null) {
      const pool = query.pool ? { filter: query.pool, now: ctx.now().toISOString() } : undefined;
      const match = { organizationId, folded, length: codePoints(folded), mask, pool };
      const { total, ids } = searchPage(sqlite, match, (query.page - 1) * query.perPage, query.perPage, state);
      result = { total, rows: rowsBySearchIds(ctx, organizationId, ids) };
    } else {
      result = listByKinds(ctx, organizationId, mask, query);
    }
    const answer = { data: result.rows.map(presentSql), total: result.total };
    if (generation !== null) rememberPage(sqlite, pageKey, generation, answer.total, answer.data);
    return answer;
  })();
}
