// Contacts: the organization's network of people (api-v1 "Contact", "Contacts", C3, C6, C10).
// Email uniqueness is the database's (unique index contacts_org_email on the folded email), and
// the search index (contact_search + contacts_fts, migration 0001) is kept in step by triggers,
// with the non-ASCII folding written here in the same unit. The SQL is in src/db/contacts.ts.
import { chain, type Awaitable } from "../awaitable";
import type { Static } from "@sinclair/typebox";
import type { Context } from "../context";
import { contactOf, type ContactRow } from "../db/contacts";
import { ApiError, invalidBody } from "../errors";
import { newId } from "../ids";
import {
  isEmailAddress,
  type Contact as ContactSchema,
  type ContactKind,
  type CreateContact,
  type PatchContact,
  type PoolFilter,
} from "../schemas/contacts";
import { createdKey, offsetOf, pageEnd, positionOf, rowsToRead, type PagedAnswer } from "./cursor";
import { linkEnded, recordHistory } from "./history";
import { applyMetadata, metadataFilters, metadataText } from "./metadata";
import { metadataOf } from "../db/metadata";
import { parseInstant } from "./timestamps";

export type { ContactRow } from "../db/contacts";

/** The Contact representation (api-v1 "Contact" + C6): every field, null where unset. */
export type Contact = Static<typeof ContactSchema>;
/** POST /contacts' body; `kind` may hold any strings here, since checkContactFields checks them. */
export type ContactInput = Omit<Static<typeof CreateContact>, "kind"> & { kind?: readonly string[] | null };
export type ContactPatch = Static<typeof PatchContact>;
export type Kind = Static<typeof ContactKind>;

/** The kinds in kind_mask's bit order, which the stored masks depend on: append only. */
export const KINDS = ["candidate", "prospect", "client", "supplier", "partner"] as const satisfies readonly Kind[];

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
export function checkContactFields<T extends Partial<ContactInput>>(input: T): T {
  const out: Partial<ContactInput> = { ...input };
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
// Search text and duplicates.

const NON_ASCII = /[^\x00-\x7f]/;

/** The triggers fold the search row with SQLite's lower(), which knows ASCII only: rewrite it with
 * C10's folding when the text is not plain ASCII. Inside the caller's unit. */
async function refreshSearch(ctx: Context, row: ContactRow) {
  const texts = [row.fullName, row.company, row.role];
  if (!texts.some((t) => t !== null && NON_ASCII.test(t))) return;
  await ctx.store.contacts.setSearchText(row.organizationId, row.id, {
    fullName: fold(row.fullName),
    company: row.company === null ? null : fold(row.company),
    role: row.role === null ? null : fold(row.role),
  });
}

const duplicate = () => new ApiError("duplicate_contact", "a contact with this email already exists in the organization", undefined, "email");

// ---------------------------------------------------------------------------------------------
// Building blocks, called inside a caller's unit (they open none).

/** The organization's contact with this email, compared case-insensitively (C10), or null. */
export function findContactByEmail(ctx: Context, organizationId: string, email: string): Awaitable<ContactRow | null> {
  return ctx.store.contacts.rowByEmail(organizationId, fold(email));
}

/** The organization's contact row, or null (another organization's is null too). */
export function findContact(ctx: Context, organizationId: string, contactId: string): Awaitable<ContactRow | null> {
  return ctx.store.contacts.rowById(organizationId, contactId);
}

/**
 * Inserts a contact; call inside a unit. `full_name` is stored trimmed, `kind` without
 * duplicates (its bit mask beside it), the folded email beside the email. An email already used in
 * the organization (case-insensitive) throws duplicate_contact (409), as the unique index says.
 * The input is expected valid (see checkContactFields); pool dates are stored as given.
 */
export async function insertContact(ctx: Context, organizationId: string, input: ContactInput): Promise<ContactRow> {
  const row = newContactRow(ctx, organizationId, input);
  if (!(await ctx.store.contacts.insert(row))) throw duplicate();
  await refreshSearch(ctx, row);
  return row;
}

/** The row insertContact writes for `input`, a new id and the unit's time. */
function newContactRow(ctx: Context, organizationId: string, input: ContactInput): ContactRow {
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
    metadata: metadataText(applyMetadata({}, input.metadata, { create: true })),
  };
  return row;
}

/** A contact's inserts tried by findOrInsertContact (each lost race reads a committed contact). */
const FIND_OR_INSERT_TRIES = 3;

/**
 * The organization's contact with `input.email` (case-insensitive), else one inserted from `input`
 * (C5's find-or-create); call inside a unit. Units racing on a new email all get the one contact:
 * on PostgreSQL a unit that lost the race looked before the winner committed, its insert waits for
 * that commit (the organization's lock, src/db/pg/contacts.ts) and finds the email taken, and the
 * lookup made after it is a new statement (READ COMMITTED) that sees the winner's row; SQLite's one
 * writer runs the units one after another, and the first lookup finds it.
 */
export async function findOrInsertContact(ctx: Context, organizationId: string, input: ContactInput & { email: string }): Promise<ContactRow> {
  for (let tries = 1; ; tries++) {
    const found = await findContactByEmail(ctx, organizationId, input.email);
    if (found) return found;
    try {
      return await insertContact(ctx, organizationId, input);
    } catch (error) {
      // Taken, then deleted before this lookup: tried again, a few times.
      if (!(error instanceof ApiError && error.code === "duplicate_contact") || tries >= FIND_OR_INSERT_TRIES) throw error;
    }
  }
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
export async function writeNewContact(ctx: Context, organizationId: string, input: ContactInput): Promise<Contact> {
  const checked = checkContactFields(input);
  checkPoolWindow(checked.pool_added_at ?? null, checked.pool_expires_at ?? null);
  return contactOf((await insertContact(ctx, organizationId, checked)), 0);
}

/**
 * writeNewContact for each of `inputs`, in order, with the rows written by one call of `insert`
 * (a CSV import's batch on PostgreSQL: src/services/imports.ts); call inside a unit. `insert`
 * writes the rows it is given and answers the ids of those it left out because their folded email
 * was another contact's of the organization already. Answers, for each input, its contact or the
 * ApiError that refused it, as writeNewContact would have thrown it after the inputs before it:
 * a refused input writes nothing, and of two inputs with one email the later is the duplicate.
 */
export async function writeNewContacts(
  ctx: Context,
  organizationId: string,
  inputs: readonly ContactInput[],
  insert: (rows: ContactRow[]) => Promise<ReadonlySet<string>>,
): Promise<(Contact | ApiError)[]> {
  const answers: (ContactRow | ApiError)[] = [];
  const emails = new Set<string>();
  for (const input of inputs) {
    try {
      const checked = checkContactFields(input);
      checkPoolWindow(checked.pool_added_at ?? null, checked.pool_expires_at ?? null);
      const row = newContactRow(ctx, organizationId, checked);
      if (row.emailFolded !== null && emails.has(row.emailFolded)) throw duplicate();
      if (row.emailFolded !== null) emails.add(row.emailFolded);
      answers.push(row);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      answers.push(error);
    }
  }
  const taken = await insert(answers.filter((a): a is ContactRow => !(a instanceof ApiError)));
  const out: (Contact | ApiError)[] = [];
  for (const answer of answers) {
    if (answer instanceof ApiError) out.push(answer);
    else if (taken.has(answer.id)) out.push(duplicate());
    else {
      await refreshSearch(ctx, answer);
      out.push(contactOf(answer, 0));
    }
  }
  return out;
}

/** The contact with its dossier_count, or null when it is not the organization's. */
export function getContact(ctx: Context, organizationId: string, contactId: string): Awaitable<Contact | null> {
  return ctx.store.contacts.byId(organizationId, contactId);
}

/** The contact as GET /contacts/{id} shows it: the same as getContact, remembered (frozen) while
 * nothing is committed, unless DOSSIER_CACHE=off. */
export function showContact(ctx: Context, organizationId: string, contactId: string): Awaitable<Contact | null> {
  return ctx.store.contacts.shown(organizationId, contactId, { remember: ctx.config.cache });
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
} as const satisfies Record<Exclude<keyof ContactInput, "kind" | "metadata">, keyof ContactRow>;

/**
 * Applies a PATCH (only the keys sent change; C10 nulls); call inside a unit. A PATCH that
 * changes nothing writes nothing and keeps updated_at. Null when the contact is not the org's.
 */
export async function writeContactPatch(ctx: Context, organizationId: string, contactId: string, patch: ContactPatch): Promise<Contact | null> {
  const current = await findContact(ctx, organizationId, contactId);
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
  // Issue 38: the keys sent merge into those kept (src/services/metadata.ts).
  const metadata = metadataText(applyMetadata(metadataOf(current.metadata), patch.metadata, { create: false }));
  if (metadata !== current.metadata) changes.metadata = metadata;
  const next: ContactRow = { ...current, ...changes };
  checkPoolWindow(next.poolAddedAt, next.poolExpiresAt);
  if (Object.keys(changes).length > 0) {
    changes.updatedAt = ctx.now().toISOString();
    next.updatedAt = changes.updatedAt;
    if (!(await ctx.store.contacts.update(organizationId, contactId, changes))) throw duplicate();
    if ("fullName" in changes || "company" in changes || "role" in changes) await refreshSearch(ctx, next);
  }
  return getContact(ctx, organizationId, contactId);
}

/**
 * Hard delete (api-v1, C6): the links go with it, the dossiers stay, and a dossier whose primary
 * it was gets contact_id null; no event (C10). Call inside a unit. False when not the org's.
 */
export async function writeContactDeletion(ctx: Context, organizationId: string, contactId: string): Promise<boolean> {
  const { contacts, links } = ctx.store;
  if (!(await contacts.exists(organizationId, contactId))) return false;
  for (const link of (await ctx.store.history.linksOfContact(organizationId, contactId))) {
    await recordHistory(ctx, organizationId, link.dossier_id, "contact_unlinked", linkEnded(contactId, link));
  }
  await links.clearDossierContact(organizationId, contactId);
  await links.deleteAllOfContact(organizationId, contactId);
  await contacts.delete(organizationId, contactId);
  return true;
}

export interface ContactQuery {
  kinds?: Kind[];
  pool?: Static<typeof PoolFilter>;
  search?: string;
  /** C17: an ISO timestamp, checked here. */
  updatedSince?: string;
  /** Issue 38's `metadata[key]=value` filters, checked here. */
  metadata?: Record<string, string>;
  page: number;
  perPage: number;
  /** The cursor as sent (issue 38). */
  after?: string;
}

/**
 * GET /contacts: newest first (created_at desc, id desc; C3), `kinds` any of (C6), `pool` at
 * request time (C6, C10), `search` a case-insensitive substring of full_name, email, company or
 * role (C6, C10; see src/db/contact-search.ts), `updatedSince` (C17). Total and page agree (one snapshot).
 */
export function listContacts(ctx: Context, organizationId: string, query: ContactQuery): Awaitable<PagedAnswer<Contact>> {
  const listed = ctx.store.contacts.page({
    organizationId,
    mask: query.kinds && query.kinds.length > 0 ? kindMaskOf(query.kinds) : 0,
    search: query.search === undefined || query.search === "" ? null : fold(query.search),
    pool: query.pool ? { filter: query.pool, now: ctx.now().toISOString() } : undefined,
    updatedSince: query.updatedSince === undefined ? null : parseInstant("updated_since", query.updatedSince),
    metadata: metadataFilters(query.metadata),
    offset: offsetOf(query),
    limit: rowsToRead(query),
    after: query.after === undefined ? undefined : positionOf("contacts", query.after),
    cache: ctx.config.cache,
  });
  return chain(listed, ({ data, total }) => pageEnd("contacts", query, data, total, createdKey));
}
