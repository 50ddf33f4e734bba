// Dossiers (api-v1 "Dossier", "States and transitions", "Dossiers"; C3, C5, C7, C10).
// HTTP-free: the routes parse and shape; this module checks the rules, writes the change and its
// outbox events in one transaction, and places CV files (files/cv.ts) just before the commit.
import type { Database } from "bun:sqlite";
import type { Context } from "../context";
import { readSnapshot } from "../db/snapshot";
import { invalidBody, notFound } from "../errors";
import { stageCv, type StagedCv } from "../files/cv";
import { isEmailAddress } from "../schemas/contacts";
import { newId } from "../ids";
import { findContactByEmail, insertContact } from "./contacts";
import { JSON_COLUMNS, rowJson, type JsonRow } from "./dossier-json";
import { boundaryKey, hasCoverIndex, pageBoundaries, pageSql, rememberedAnswer, seekSql, type Boundary } from "./dossier-page";
import { insertPrimaryLink } from "./links";
import { recordEvent } from "./outbox";

export type DossierType = "candidate" | "sales";
export type DossierStatus = "active" | "won" | "lost" | "archived";

/** Every representation of a dossier (C5): the Dossier table of api-v1 plus cv_url, contact_id,
 * stage_entered_at and stage_due_at, null where unset. */
export interface Dossier {
  id: string;
  organization_id: string;
  flow_id: string | null;
  type: DossierType;
  name: string;
  email: string | null;
  phone: string | null;
  company: string | null;
  role: string | null;
  contact_person: string | null;
  status: DossierStatus;
  current_stage_id: string | null;
  assigned_to: string | null;
  deal_size: number | null;
  deal_currency: string | null;
  intake_notes: string | null;
  cv_url: string | null;
  contact_id: string | null;
  stage_entered_at: string | null;
  stage_due_at: string | null;
  created_at: string;
  updated_at: string;
}

// The table's columns are named as the representation's fields, in its order: a row is a Dossier.
const COLUMNS =
  "id, organization_id, flow_id, type, name, email, phone, company, role, contact_person, status, current_stage_id, " +
  "assigned_to, deal_size, deal_currency, intake_notes, cv_url, contact_id, stage_entered_at, stage_due_at, created_at, updated_at";

export interface CreateDossierInput {
  type: DossierType;
  name: string;
  email?: string | null;
  phone?: string | null;
  company?: string | null;
  role?: string | null;
  contact_id?: string | null;
  flow_id?: string | null;
  assigned_to?: string | null;
  intake_notes?: string | null;
  contact_person?: string | null;
  deal_size?: number | null;
  deal_currency?: string | null;
}

/** The fields of api-v1's PATCH table; `null` clears the nullable ones (C10). */
export interface PatchDossierInput {
  name?: string;
  email?: string | null;
  phone?: string | null;
  company?: string | null;
  role?: string | null;
  contact_person?: string | null;
  deal_size?: number | null;
  deal_currency?: string | null;
  status?: DossierStatus;
  assigned_to?: string | null;
  intake_notes?: string | null;
  current_stage_id?: string | null;
}

const PATCH_FIELDS = [
  "name", "email", "phone", "company", "role", "contact_person", "deal_size", "deal_currency",
  "status", "assigned_to", "intake_notes", "current_stage_id",
] as const satisfies readonly (keyof PatchDossierInput)[];

const SALES_ONLY = ["contact_person", "deal_size", "deal_currency"] as const;
const SHORT_TEXT = ["email", "phone", "company", "role", "contact_person"] as const;
const CURRENCIES = new Set(Intl.supportedValuesOf("currency"));
const DAY_MS = 86_400_000;

/** Length in Unicode code points (C10). */
export function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** The text, number and sales-only rules of C3 on the fields present in `input` (not null). */
function checkFields(fields: object, type: DossierType) {
  const input = fields as Record<string, unknown>;
  if (input.name !== undefined) {
    const length = codePoints((input.name as string).trim());
    if (length < 1 || length > 200) throw invalidBody("name: must be 1 to 200 characters after trimming");
  }
  for (const field of SHORT_TEXT) {
    const value = input[field];
    if (typeof value === "string" && codePoints(value) > 200) throw invalidBody(`${field}: must be at most 200 characters`);
  }
  if (typeof input.email === "string" && !isEmailAddress(input.email)) throw invalidBody("email: must be an email address");
  if (typeof input.intake_notes === "string" && codePoints(input.intake_notes) > 20_000) {
    throw invalidBody("intake_notes: must be at most 20000 characters");
  }
  if (typeof input.deal_size === "number" && !(Number.isFinite(input.deal_size) && input.deal_size >= 0)) {
    throw invalidBody("deal_size: must be a finite number >= 0");
  }
  if (typeof input.deal_currency === "string" && !CURRENCIES.has(input.deal_currency)) {
    throw invalidBody("deal_currency: must be an upper-case ISO 4217 currency code");
  }
  if (type === "candidate") {
    for (const field of SALES_ONLY) {
      if (input[field] !== undefined && input[field] !== null) throw invalidBody(`${field}: sales-only field, not allowed on a candidate dossier`);
    }
  }
}

// `q` compares both sides lower-cased as JavaScript does (C10), which SQLite's lower() does not.
const withFunctions = new WeakSet<Database>();
export function sqliteOf(ctx: Context): Database {
  const { sqlite } = ctx.store;
  if (!withFunctions.has(sqlite)) {
    sqlite.function("js_lower", { deterministic: true }, (value: unknown) => (typeof value === "string" ? value.toLowerCase() : null));
    withFunctions.add(sqlite);
  }
  return sqlite;
}

export function getDossier(ctx: Context, organizationId: string, id: string): Dossier | null {
  return (
    ctx.store.sqlite
      .query<Dossier, [string, string]>(`SELECT ${COLUMNS} FROM dossiers WHERE id = ? AND organization_id = ?`)
      .get(id, organizationId) ?? null
  );
}

function mustGet(ctx: Context, organizationId: string, id: string): Dossier {
  const dossier = getDossier(ctx, organizationId, id);
  if (!dossier) throw notFound("dossier not found");
  return dossier;
}

export interface ListDossiersQuery {
  type?: DossierType;
  status?: DossierStatus;
  stageId?: string;
  overdue?: boolean;
  assignedTo?: string;
  flowId?: string;
  q?: string;
  page: number;
  perPage: number;
}

/** The WHERE of GET /dossiers, assembled from a fixed set of clauses chosen by which filters are
 * present; every value is a bound parameter. Exported for the query-plan tests. */
export function dossierListWhere(query: Omit<ListDossiersQuery, "page" | "perPage">, organizationId: string, now: string) {
  const clauses = ["organization_id = ?"];
  const params: (string | number)[] = [organizationId];
  const add = (clause: string, ...values: (string | number)[]) => {
    clauses.push(clause);
    params.push(...values);
  };
  if (query.type !== undefined) add("type = ?", query.type);
  if (query.status !== undefined) add("status = ?", query.status);
  else if (query.overdue !== true) add("status <> 'archived'"); // C10 (overdue=true implies active)
  if (query.stageId !== undefined) add("current_stage_id = ?", query.stageId);
  if (query.flowId !== undefined) add("flow_id = ?", query.flowId);
  if (query.assignedTo !== undefined) add("assigned_to = ?", query.assignedTo);
  if (query.overdue === true) add("status = 'active' AND stage_due_at <= ?", now);
  else if (query.overdue === false) add("(status <> 'active' OR stage_due_at IS NULL OR stage_due_at > ?)", now);
  if (query.q !== undefined && query.q !== "") {
    // One numbered parameter used three times; plain `?` after it (LIMIT, OFFSET) go on from it.
    const n = params.length + 1;
    add(`(instr(js_lower(name), ?${n}) > 0 OR instr(js_lower(email), ?${n}) > 0 OR instr(js_lower(company), ?${n}) > 0)`, query.q.toLowerCase());
  }
  return { where: clauses.join(" AND "), params };
}

/** GET /dossiers: C5's filters, newest first (created_at desc, id desc), C3 paging, exact total. */
export function listDossiers(ctx: Context, organizationId: string, query: ListDossiersQuery): { data: Dossier[]; total: number } {
  const { rows, total } = listRows<Dossier>(ctx, organizationId, query, COLUMNS);
  return { data: rows, total };
}

/** The same list as the route answers it: `json` is the page's array as JSON text, the same text
 * as JSON.stringify(listDossiers(...).data), made without building the rows as objects. */
export function listDossiersJson(ctx: Context, organizationId: string, query: ListDossiersQuery): { json: string; total: number } {
  const answer = () => {
    const { rows, total } = listRows<JsonRow>(ctx, organizationId, query, JSON_COLUMNS);
    return { json: `[${rows.map(rowJson).join(",")}]`, total };
  };
  const sqlite = sqliteOf(ctx);
  // `overdue` compares with the clock: its answer changes with no write (dossier-page.ts).
  if (query.overdue !== undefined || !ctx.config.cache) return readSnapshot(sqlite, answer);
  return readSnapshot(sqlite, () => rememberedAnswer(sqlite, JSON.stringify([organizationId, query]), answer));
}

/** The page's rows as `columns` selects them (fixed SQL with created_at and id among them). */
function listRows<T extends Boundary>(ctx: Context, organizationId: string, query: ListDossiersQuery, columns: string): { rows: T[]; total: number } {
  // Only `overdue` compares with the clock; the others need no timestamp.
  const now = query.overdue === undefined ? "" : ctx.now().toISOString();
  const { where, params } = dossierListWhere(query, organizationId, now);
  const sqlite = sqliteOf(ctx);
  const total = countDossiers(sqlite, organizationId, query, where, params);
  const offset = (query.page - 1) * query.perPage;
  if (offset >= total) return { rows: [], total };
  const cover = isUnfiltered(query) && hasCoverIndex(sqlite);
  if (offset === 0) return { rows: sqlite.query<T, (string | number)[]>(pageSql(columns, where, { offset, cover })).all(...params, query.perPage, 0), total };
  // With the caches off (DOSSIER_CACHE=off) no boundary outlives the request: every page steps over OFFSET.
  const known = ctx.config.cache ? pageBoundaries(sqlite) : new Map<string, Boundary>();
  return { rows: deepPage<T>(sqlite, known, columns, where, params, query.perPage, offset, cover), total };
}

/** A page past the first: from its remembered boundary when there is one (dossier-page.ts), else
 * by offset with one row more, the one before the page, which becomes the boundary. The page's
 * last row is remembered as the next page's boundary, for a client paging through. */
function deepPage<T extends Boundary>(
  sqlite: Database, known: Map<string, Boundary>, columns: string, where: string, params: (string | number)[], perPage: number, offset: number, cover: boolean,
): T[] {
  const key = boundaryKey(where, params, offset);
  const boundary = known.get(key);
  let rows: T[];
  if (boundary) {
    rows = sqlite.query<T, (string | number)[]>(seekSql(columns, where)).all(...params, boundary.created_at, boundary.id, perPage);
  } else {
    const withBoundary = sqlite.query<T, (string | number)[]>(pageSql(columns, where, { offset, cover })).all(...params, perPage + 1, offset - 1);
    if (withBoundary.length === 0) return [];
    known.set(key, { created_at: withBoundary[0].created_at, id: withBoundary[0].id });
    rows = withBoundary.slice(1);
  }
  const last = rows[rows.length - 1];
  if (rows.length === perPage) known.set(boundaryKey(where, params, offset + perPage), { created_at: last.created_at, id: last.id });
  return rows;
}

/** No filter but the organization and C10's "archived left out": the covering index's WHERE. */
const isUnfiltered = (query: ListDossiersQuery) =>
  query.type === undefined && query.status === undefined && query.stageId === undefined && query.flowId === undefined &&
  query.assignedTo === undefined && query.overdue === undefined && (query.q === undefined || query.q === "");

/** The exact total: from the counts the triggers of migration 0003 keep when the filters are
 * among the counts' key (type, status, flow, stage), else a COUNT over the same WHERE. */
function countDossiers(
  sqlite: Database,
  organizationId: string,
  query: Omit<ListDossiersQuery, "page" | "perPage">,
  where: string,
  params: (string | number)[],
): number {
  if (query.overdue !== undefined || query.assignedTo !== undefined || (query.q !== undefined && query.q !== "")) {
    return sqlite.query<{ n: number }, (string | number)[]>(`SELECT count(*) AS n FROM dossiers WHERE ${where}`).get(...params)!.n;
  }
  const clauses = ["organization_id = ?", query.status === undefined ? "status <> 'archived'" : "status = ?"];
  const values = [organizationId, query.status].filter((v): v is string => v !== undefined);
  for (const [column, value] of [["type", query.type], ["stage_id", query.stageId], ["flow_id", query.flowId]] as const) {
    if (value !== undefined) {
      clauses.push(`${column} = ?`);
      values.push(value);
    }
  }
  return sqlite.query<{ n: number }, string[]>(`SELECT coalesce(sum(n), 0) AS n FROM dossier_counts WHERE ${clauses.join(" AND ")}`).get(...values)!.n;
}

interface StageInfo {
  id: string;
  deadline_days: number | null;
}

function dueAt(enteredAt: string, deadlineDays: number | null): string | null {
  return deadlineDays === null ? null : new Date(Date.parse(enteredAt) + deadlineDays * DAY_MS).toISOString();
}

/** C10: `null` for an optional field on create is the same as leaving it out. */
function dropNulls<T extends object>(input: T): T {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null && v !== undefined)) as T;
}

/**
 * POST /dossiers (C4, C5): into the first stage of the given or default flow, linked as primary to
 * the given contact, the contact with the same email, or a new contact; with an optional CV. All
 * of it, the `dossier.created` event and the CV's placing happen in one transaction; a failure
 * leaves no row and no file.
 */
export async function createDossier(ctx: Context, organizationId: string, raw: CreateDossierInput, cv?: Uint8Array): Promise<Dossier> {
  checkFields(dropNulls(raw), raw.type); // before a CV is staged for a request that fails anyway
  const id = newId();
  const staged: StagedCv | null = cv ? await stageCv(ctx, organizationId, id, cv) : null;
  let created: Dossier;
  try {
    created = await ctx.store.write(() => writeNewDossier(ctx, organizationId, raw, id, staged));
  } catch (error) {
    staged?.discard();
    throw error;
  }
  staged?.committed();
  return created;
}

/** createDossier's unit of work (for a caller that makes several in one). */
export function writeNewDossier(ctx: Context, organizationId: string, raw: CreateDossierInput, id = newId(), staged: StagedCv | null = null): Dossier {
  const input = dropNulls(raw);
  checkFields(input, input.type);
  const sqlite = ctx.store.sqlite;
  const flow = input.flow_id
    ? sqlite.query<{ id: string; type: DossierType }, [string, string]>(`SELECT id, type FROM flows WHERE id = ? AND organization_id = ?`)
        .get(input.flow_id.toLowerCase(), organizationId)
    : sqlite.query<{ id: string; type: DossierType }, [string, string]>(
        `SELECT id, type FROM flows WHERE organization_id = ? AND type = ? AND is_default = 1`,
      ).get(organizationId, input.type);
  if (!flow) {
    if (input.flow_id) throw notFound("flow_id: flow not found");
    throw invalidBody(`flow_id: the organization has no default ${input.type} flow; give flow_id`);
  }
  if (flow.type !== input.type) throw invalidBody(`flow_id: the flow is a ${flow.type} flow, the dossier a ${input.type} dossier`);
  let contactId: string | null = null;
  if (input.contact_id) {
    const contact = sqlite.query<{ id: string }, [string, string]>(`SELECT id FROM contacts WHERE id = ? AND organization_id = ?`)
      .get(input.contact_id.toLowerCase(), organizationId);
    if (!contact) throw notFound("contact_id: contact not found");
    contactId = contact.id;
  }
  const stage = sqlite.query<StageInfo, [string]>(`SELECT id, deadline_days FROM stages WHERE flow_id = ? ORDER BY position LIMIT 1`)
    .get(flow.id);
  const now = ctx.now().toISOString();
  const name = input.name.trim();
  // The contact first, so that the dossier's INSERT carries its contact_id (C5: the primary's).
  if (!contactId && input.email) contactId = findContactByEmail(ctx, organizationId, input.email)?.id ?? null;
  if (!contactId) {
    contactId = insertContact(ctx, organizationId, {
      full_name: name,
      email: input.email ?? null,
      phone: input.phone ?? null,
      company: input.company ?? null,
      role: input.role ?? null,
      kind: [input.type === "candidate" ? "candidate" : "prospect"],
    }).id;
  }
  // RETURNING gives the row as stored (the event's and the answer's Dossier) without reading it again.
  const dossier = sqlite
    .query<Dossier, (string | number | null)[]>(
      `INSERT INTO dossiers (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${COLUMNS}`,
    )
    .get(
      id, organizationId, flow.id, input.type, name, input.email ?? null, input.phone ?? null, input.company ?? null,
      input.role ?? null, input.contact_person ?? null, stage?.id ?? null, input.assigned_to?.toLowerCase() ?? null,
      input.deal_size ?? null, input.deal_currency ?? null, input.intake_notes ?? null, staged?.url ?? null, contactId,
      stage ? now : null, stage ? dueAt(now, stage.deadline_days) : null, now, now,
    )!;
  insertPrimaryLink(ctx, organizationId, id, contactId);
  const eventId = recordEvent(ctx, organizationId, "dossier.created", dossier);
  staged?.place(eventId); // last: the commit follows
  return dossier;
}

/**
 * PATCH /dossiers/{id} (C5, C7, C10): only the fields whose value changes count. Nothing changed:
 * the dossier as it is, no event, `updated_at` kept. A new stage emits `dossier.stage_changed`,
 * then `dossier.updated` with `previous_attributes` (the changed fields' old values).
 */
export const updateDossier = (ctx: Context, organizationId: string, id: string, patch: PatchDossierInput): Promise<Dossier> =>
  ctx.store.write(() => writeDossierPatch(ctx, organizationId, id, patch));

/** updateDossier's unit of work. */
export function writeDossierPatch(ctx: Context, organizationId: string, id: string, patch: PatchDossierInput): Dossier {
  const sqlite = ctx.store.sqlite;
  const before = mustGet(ctx, organizationId, id);
  checkFields(patch, before.type);
  const next: Record<string, unknown> = {};
  for (const field of PATCH_FIELDS) {
    if (patch[field] === undefined) continue;
    let value = patch[field];
    if (field === "name") value = (value as string).trim();
    if ((field === "assigned_to" || field === "current_stage_id") && typeof value === "string") value = value.toLowerCase();
    if (value !== before[field]) next[field] = value;
  }
  let stage: StageInfo | null = null;
  if (typeof next.current_stage_id === "string") {
    stage = sqlite.query<StageInfo, [string, string, string]>(
      `SELECT id, deadline_days FROM stages WHERE id = ? AND flow_id = ? AND organization_id = ?`,
    ).get(next.current_stage_id, before.flow_id ?? "", organizationId);
    if (!stage) throw invalidBody("current_stage_id: the stage does not belong to the dossier's flow");
  }
  const changed = Object.keys(next) as (keyof PatchDossierInput)[];
  if (changed.length === 0) return before;
  const now = ctx.now().toISOString();
  const set: Record<string, unknown> = { ...next, updated_at: now };
  const stageChanged = "current_stage_id" in next;
  if (stageChanged) {
    set.stage_entered_at = stage ? now : null;
    set.stage_due_at = stage ? dueAt(now, stage.deadline_days) : null;
  }
  // Column names come from PATCH_FIELDS and the fixed names above, never from the request.
  const columns = Object.keys(set);
  sqlite
    .query(`UPDATE dossiers SET ${columns.map((c) => `${c} = ?`).join(", ")} WHERE id = ? AND organization_id = ?`)
    .run(...(columns.map((c) => set[c]) as (string | number | null)[]), id, organizationId);
  const after = mustGet(ctx, organizationId, id);
  if (stageChanged) {
    recordEvent(ctx, organizationId, "dossier.stage_changed", {
      id,
      current_stage_id: after.current_stage_id,
      previous_stage_id: before.current_stage_id,
      status: after.status,
    });
  }
  const previous = Object.fromEntries(changed.map((field) => [field, before[field]]));
  recordEvent(ctx, organizationId, "dossier.updated", after, { previous_attributes: previous });
  return after;
}

/** DELETE /dossiers/{id}: archives and keeps the data; `dossier.deleted` only, and nothing at all
 * when the dossier is archived already (C5, C10). */
export const archiveDossier = (ctx: Context, organizationId: string, id: string): Promise<{ id: string; status: "archived" }> =>
  ctx.store.write(() => writeArchive(ctx, organizationId, id));

/** archiveDossier's unit of work. */
export function writeArchive(ctx: Context, organizationId: string, id: string): { id: string; status: "archived" } {
  const before = mustGet(ctx, organizationId, id);
  if (before.status !== "archived") {
    ctx.store.sqlite
      .query(`UPDATE dossiers SET status = 'archived', updated_at = ? WHERE id = ? AND organization_id = ?`)
      .run(ctx.now().toISOString(), id, organizationId);
    recordEvent(ctx, organizationId, "dossier.deleted", mustGet(ctx, organizationId, id));
  }
  return { id, status: "archived" as const };
}

/** POST /dossiers/{id}/cv (C5): the new file replaces the old one; `dossier.updated` with
 * `previous_attributes: { cv_url: <old value> }`. Archived dossiers take CVs too (C10). */
export async function attachCv(ctx: Context, organizationId: string, id: string, bytes: Uint8Array): Promise<Dossier> {
  mustGet(ctx, organizationId, id);
  const staged = await stageCv(ctx, organizationId, id, bytes);
  let updated: Dossier;
  try {
    updated = await ctx.store.write(() => {
      const before = mustGet(ctx, organizationId, id);
      ctx.store.sqlite
        .query(`UPDATE dossiers SET cv_url = ?, updated_at = ? WHERE id = ? AND organization_id = ?`)
        .run(staged.url, ctx.now().toISOString(), id, organizationId);
      const after = mustGet(ctx, organizationId, id);
      const eventId = recordEvent(ctx, organizationId, "dossier.updated", after, { previous_attributes: { cv_url: before.cv_url } });
      // Last, the commit follows. Over an existing CV, the old file is kept aside until the
      // transaction has ended: a failed commit puts it back (C5, C7), see files/cv.ts.
      staged.place(eventId);
      return after;
    });
  } catch (error) {
    staged.discard();
    throw error;
  }
  staged.committed();
  return updated;
}

/** Where a dossier's CV lies on disk (its cv_url), or null without a dossier or a CV. */
export function cvOf(ctx: Context, organizationId: string, id: string): string | null {
  return (
    ctx.store.sqlite
      .query<{ cv_url: string | null }, [string, string]>(`SELECT cv_url FROM dossiers WHERE id = ? AND organization_id = ?`)
      .get(id, organizationId)?.cv_url ?? null
  );
}
