// The list query of GET /dossiers: its WHERE, its exact total, and its pages.
//
// C3's page/per_page cannot be keyset-paged, so a page past the first steps over `offset` index
// entries. Reading the table row of every skipped entry (for `status <> 'archived'` and for the
// columns) made page 1000 cost 15 ms at 1M rows. Past the first page, the page's rowids are
// therefore picked first, from an index alone when one covers the filters, and only the page's own
// rows are read. The first page reads its rows directly: it skips nothing, and the extra lookups
// and sort would only cost.
//
// Even from an index, a deep page steps over `offset` entries (2.6 ms for page 1000 at 1M rows).
// So the sort key of the row just before a page (its boundary) is remembered, and the next request
// for that page seeks to it: `(created_at, id) < (boundary)` is the same set as OFFSET as long as
// none of the organization's dossiers changed.
//
// Whole answers (the page's JSON text and the total) are remembered the same way: a list asked
// again before the organization's dossiers changed (a dashboard refreshing, a client paging back)
// costs one generation read. Both follow the caches' one rule (src/db/generations.ts): an entry
// holds while the generation of its organization's dossiers is unchanged; the totals' counts
// (dossier_counts) move only with the dossiers. Answers that depend on the clock (`overdue`), and
// those filtered by a contact's links (which change without the dossiers), are never remembered.
//
// A cursor page (`after`, issue 38) is a keyset page from the start: `(created_at, id) <` the
// cursor's key, as a remembered boundary seeks, with one row more read to tell whether rows follow.
// Its answer is remembered under the same rule, the cursor being part of the query that keys it;
// it needs no boundary.
import type { Static } from "@sinclair/typebox";
import type { Database } from "bun:sqlite";
import type { DossierStatus, DossierType } from "../schemas/dossiers";
import type { GenerationCache, Generations } from "./generations";

/** C5's filters of GET /dossiers. */
export interface DossierFilters {
  type?: Static<typeof DossierType>;
  status?: Static<typeof DossierStatus>;
  stageId?: string;
  overdue?: boolean;
  assignedTo?: string;
  flowId?: string;
  q?: string;
  /** Only dossiers linked to this contact (any link, primary or not). */
  contactId?: string;
  /** C22: only dossiers with an open task assigned to this member. */
  taskAssignedTo?: string;
  /** C17: only rows with updated_at at or after this ISO time (as stored: toISOString). */
  updatedSince?: string;
  /** Issue 38: only dossiers whose metadata holds each of these values under its key. */
  metadata?: Record<string, string>;
}

export interface ListDossiersQuery extends DossierFilters {
  page: number;
  perPage: number;
  /** A cursor page (issue 38): the rows after this one in the list's order, not `page`'s. */
  after?: Boundary;
}

/** Migration 0004's (organization_id, created_at desc, id desc, status): the unfiltered list's
 * WHERE and ORDER BY from the index alone. */
export const COVER_INDEX = "dossiers_org_created_cover";

const coverPresent = new WeakMap<Database, boolean>();

/** Whether the file has the covering index. Looked up once per connection, on first use: indexes
 * are created by the migrations, which run before a connection serves anything. */
function hasCoverIndex(sqlite: Database): boolean {
  let present = coverPresent.get(sqlite);
  if (present === undefined) {
    present = sqlite.query(`SELECT 1 FROM sqlite_master WHERE type = 'index' AND tbl_name = 'dossiers' AND name = ?`).get(COVER_INDEX) !== null;
    coverPresent.set(sqlite, present);
  }
  return present;
}

/** The WHERE of GET /dossiers, assembled from a fixed set of clauses chosen by which filters are
 * present; every value is a bound parameter. `now` is only read by `overdue`. */
/** Whether a list's answer and page boundaries may be remembered under the dossiers' generation:
 * not when they depend on the clock (`overdue`) or on the links (`contactId`). */
export const rememberable = (query: DossierFilters) => query.overdue === undefined && query.contactId === undefined && query.taskAssignedTo === undefined;

export function dossierListWhere(query: DossierFilters, organizationId: string, now: string) {
  // With a metadata filter (issue 38), its lookups lead: `+` keeps the planner from walking the
  // organization's dossiers in the list's order (an index on organization_id) and probing each,
  // which it prefers without statistics. The matches are then read by id and sorted.
  const clauses = [query.metadata === undefined ? "organization_id = ?" : "+organization_id = ?"];
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
    // js_lower (src/db/dossiers.ts) lower-cases as JavaScript does (C10), which SQLite's lower() does not.
    const n = params.length + 1;
    add(`(instr(js_lower(name), ?${n}) > 0 OR instr(js_lower(email), ?${n}) > 0 OR instr(js_lower(company), ?${n}) > 0)`, query.q.toLowerCase());
  }
  if (query.updatedSince !== undefined) add("updated_at >= ?", query.updatedSince);
  if (query.contactId !== undefined) add("id IN (SELECT dossier_id FROM dossier_contacts WHERE organization_id = ? AND contact_id = ?)", organizationId, query.contactId);
  if (query.taskAssignedTo !== undefined) {
    add("id IN (SELECT dossier_id FROM tasks WHERE organization_id = ? AND assigned_to = ? AND status = 'open' AND dossier_id IS NOT NULL)", organizationId, query.taskAssignedTo);
  }
  // Issue 38: each pair an index lookup in dossier_metadata_lookup.
  for (const [key, value] of Object.entries(query.metadata ?? {})) {
    add("id IN (SELECT dossier_id FROM dossier_metadata WHERE organization_id = ? AND key = ? AND value = ?)", organizationId, key, value);
  }
  return { where: clauses.join(" AND "), params };
}

export interface Boundary {
  created_at: string;
  id: string;
}

/** A page's rows, the list's total, and the last row's key when rows follow it (else null): the
 * next page's cursor (issue 38). */
export interface ListPage<T> {
  rows: T[];
  total: number;
  next: Boundary | null;
}

/**
 * The page's rows as `columns` selects them (fixed SQL with created_at and id among them), newest
 * first (created_at desc, id desc), and the exact total. `now` (ISO) is the clock for `overdue`;
 * `boundaries`: where page boundaries are remembered, null to remember none. A cursor page
 * (`after`) seeks past its key, as a remembered boundary does, reading one row more to know
 * whether rows follow.
 */
export function listRows<T extends Boundary>(
  sqlite: Database, organizationId: string, query: ListDossiersQuery, columns: string, now: string, boundaries: GenerationCache<Boundary> | null,
): ListPage<T> {
  const { where, params } = dossierListWhere(query, organizationId, now);
  const total = countDossiers(sqlite, organizationId, query, where, params);
  if (query.after !== undefined) {
    const read = sqlite.query<T, (string | number)[]>(seekSql(columns, where)).all(...params, query.after.created_at, query.after.id, query.perPage + 1);
    const rows = read.slice(0, query.perPage);
    return { rows, total, next: read.length > query.perPage ? keyOf(rows.at(-1)!) : null };
  }
  const offset = (query.page - 1) * query.perPage;
  if (offset >= total) return { rows: [], total, next: null };
  const cover = isUnfiltered(query) && hasCoverIndex(sqlite);
  const rows =
    offset === 0
      ? sqlite.query<T, (string | number)[]>(pageSql(columns, where, { offset, cover })).all(...params, query.perPage, 0)
      : deepPage<T>({ sqlite, organizationId, columns, where, params, perPage: query.perPage, offset, cover }, boundaries);
  // The count and the rows are one snapshot: rows follow when the page ends before the total.
  return { rows, total, next: offset + rows.length < total && rows.length > 0 ? keyOf(rows.at(-1)!) : null };
}

const keyOf = (row: Boundary): Boundary => ({ created_at: row.created_at, id: row.id });

interface DeepPage {
  sqlite: Database;
  organizationId: string;
  columns: string;
  where: string;
  params: (string | number)[];
  perPage: number;
  offset: number;
  cover: boolean;
}

/** A page past the first: from its remembered boundary when there is one, else by offset with one
 * row more, the one before the page, which becomes the boundary. The page's last row is remembered
 * as the next page's boundary, for a client paging through. Without `known` (DOSSIER_CACHE=off),
 * every page steps over OFFSET. */
function deepPage<T extends Boundary>(page: DeepPage, known: GenerationCache<Boundary> | null): T[] {
  const { sqlite, organizationId, columns, where, params, perPage, offset, cover } = page;
  let rows: T[] | undefined;
  const byOffset = () => {
    const withBoundary = sqlite.query<T, (string | number)[]>(pageSql(columns, where, { offset, cover })).all(...params, perPage + 1, offset - 1);
    rows = withBoundary.slice(1);
    return withBoundary[0] as Boundary | undefined;
  };
  const remember = (boundary: Boundary | undefined) => boundary && { organizationId, value: { created_at: boundary.created_at, id: boundary.id } };
  const boundary = known ? known.get(boundaryKey(where, params, offset), () => remember(byOffset())) : byOffset();
  if (rows === undefined) {
    // Remembered: nothing was read yet.
    rows = sqlite.query<T, (string | number)[]>(seekSql(columns, where)).all(...params, boundary!.created_at, boundary!.id, perPage);
  }
  if (known && rows.length === perPage) known.get(boundaryKey(where, params, offset + perPage), () => remember(rows![perPage - 1]));
  return rows;
}

/** No filter but the organization and C10's "archived left out": the covering index's WHERE. */
const isUnfiltered = (query: DossierFilters) =>
  query.type === undefined && query.status === undefined && query.stageId === undefined && query.flowId === undefined &&
  query.assignedTo === undefined && query.overdue === undefined && (query.q === undefined || query.q === "") &&
  query.updatedSince === undefined && query.contactId === undefined && query.metadata === undefined && query.taskAssignedTo === undefined;

/** The exact total: from the counts the triggers of migration 0003 keep when the filters are
 * among the counts' key (type, status, flow, stage), else a COUNT over the same WHERE. */
function countDossiers(sqlite: Database, organizationId: string, query: DossierFilters, where: string, params: (string | number)[]): number {
  if (query.overdue !== undefined || query.assignedTo !== undefined || (query.q !== undefined && query.q !== "") || query.updatedSince !== undefined || query.contactId !== undefined || query.metadata !== undefined ||
    query.taskAssignedTo !== undefined) {
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

/**
 * The SELECT of one page; its parameters are the WHERE's, then LIMIT and OFFSET. `columns` and
 * `where` are fixed SQL chosen by the caller (values are bound). `cover`: the WHERE is the
 * unfiltered list's, which the covering index answers (when the file has it). The planner is told
 * to use that index because, without ANALYZE statistics, it does not pick it by itself.
 */
export function pageSql(columns: string, where: string, options: { offset: number; cover: boolean }): string {
  const order = "ORDER BY created_at DESC, id DESC";
  if (options.offset === 0) return `SELECT ${columns} FROM dossiers WHERE ${where} ${order} LIMIT ? OFFSET ?`;
  const source = options.cover ? `dossiers INDEXED BY ${COVER_INDEX}` : "dossiers";
  return `SELECT ${columns} FROM dossiers WHERE rowid IN (SELECT rowid FROM ${source} WHERE ${where} ${order} LIMIT ? OFFSET ?) ${order}`;
}

/** The page after a remembered boundary or a cursor (exported for the test of its plan); parameters: the WHERE's, the boundary's created_at and id,
 * then LIMIT. Plain `?` continue the numbering of any `?N` in the WHERE. */
export const seekSql = (columns: string, where: string) =>
  `SELECT ${columns} FROM dossiers WHERE ${where} AND (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT ?`;

/** The key of a page start: the WHERE (fixed SQL), its bound values (the organization among them)
 * and the offset. */
const boundaryKey = (where: string, params: readonly (string | number)[], offset: number) =>
  `${offset} ${JSON.stringify(params)} ${where}`;

export interface Answer {
  json: string;
  total: number;
  /** The last row's key when rows follow (ListPage's `next`). */
  next: Boundary | null;
  /** The route's whole answer, its length in bytes, and its bytes once it has been written
   * after an await (src/http/one-write.ts): made once per remembered answer
   * (src/http/routes/dossiers.ts). */
  envelope?: { text: string; length: number; bytes?: Uint8Array };
}

/** What a store remembers of GET /dossiers. */
export interface ListCaches {
  /** Whole answers, by organization and query. */
  answers: GenerationCache<Answer>;
  /** Page boundaries, by WHERE, bound values and offset. */
  boundaries: GenerationCache<Boundary>;
}

// The caps bound the memory: the answers together hold at most ANSWERS_CHARS characters of JSON (a
// page of 25 typical dossiers is about 19,000, of 100 about 77,000; their envelopes, as text and,
// on PostgreSQL, as bytes, as much again each),
// the oldest going first. A single answer of more than MAX_ANSWER_CHARS (a page of long intake
// notes) is not remembered.
const MAX_BOUNDARIES = 1000;
const MAX_ANSWERS = 128;
const ANSWERS_CHARS = 4_000_000;
const MAX_ANSWER_CHARS = 256_000;
const answerChars = (answer: Answer) => 3 * answer.json.length;
const cachesOf = new WeakMap<Database, ListCaches>();

/** The store's caches of GET /dossiers (made once per connection, by its query module). */
export function listCaches(sqlite: Database, generations: Generations): ListCaches {
  let caches = cachesOf.get(sqlite);
  if (!caches) {
    caches = {
      answers: generations.cache<Answer>(["dossiers"], { maxEntries: MAX_ANSWERS, weigh: answerChars, maxWeight: ANSWERS_CHARS }),
      boundaries: generations.cache<Boundary>(["dossiers"], { maxEntries: MAX_BOUNDARIES }),
    };
    cachesOf.set(sqlite, caches);
  }
  return caches;
}

/** The page boundaries the connection remembers (for tests: their number). */
export const pageBoundaries = (sqlite: Database): { readonly size: number } => cachesOf.get(sqlite)?.boundaries ?? { size: 0 };

/** The remembered answer to `key` while the organization's dossiers are unchanged, else what
 * `answer` gives now (remembered for next time unless it is too long). */
export function rememberedAnswer(answers: GenerationCache<Answer>, organizationId: string, key: string, answer: () => Answer): Answer {
  let fresh: Answer | undefined;
  const known = answers.get(key, () => {
    fresh = answer();
    return fresh.json.length <= MAX_ANSWER_CHARS ? { organizationId, value: fresh } : undefined;
  });
  return known ?? fresh!;
}
