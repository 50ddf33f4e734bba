// The list query of GET /dossiers: its WHERE, its exact total, and its pages (issue 6).
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
// no dossier changed. All boundaries are dropped as soon as anything may have changed: another
// connection committed (`PRAGMA data_version`), or this connection changed any row
// (`total_changes()`, which counts every INSERT, UPDATE and DELETE, triggers included).
//
// Whole answers (the page's JSON text and the total) are remembered under the same rule: a list
// asked again before anything changed (a dashboard refreshing, a client paging back) costs one
// version read. Answers that depend on the clock (`overdue`) are never remembered.
import type { Static } from "@sinclair/typebox";
import type { Database, Statement } from "bun:sqlite";
import type { DossierStatus, DossierType } from "../schemas/dossiers";

/** C5's filters of GET /dossiers. */
export interface DossierFilters {
  type?: Static<typeof DossierType>;
  status?: Static<typeof DossierStatus>;
  stageId?: string;
  overdue?: boolean;
  assignedTo?: string;
  flowId?: string;
  q?: string;
}

export interface ListDossiersQuery extends DossierFilters {
  page: number;
  perPage: number;
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
export function dossierListWhere(query: DossierFilters, organizationId: string, now: string) {
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
    // js_lower (src/db/dossiers.ts) lower-cases as JavaScript does (C10), which SQLite's lower() does not.
    const n = params.length + 1;
    add(`(instr(js_lower(name), ?${n}) > 0 OR instr(js_lower(email), ?${n}) > 0 OR instr(js_lower(company), ?${n}) > 0)`, query.q.toLowerCase());
  }
  return { where: clauses.join(" AND "), params };
}

export interface Boundary {
  created_at: string;
  id: string;
}

/**
 * The page's rows as `columns` selects them (fixed SQL with created_at and id among them), newest
 * first (created_at desc, id desc), and the exact total. `now` (ISO) is the clock for `overdue`;
 * `remember`: page boundaries may be kept for the next request.
 */
export function listRows<T extends Boundary>(
  sqlite: Database, organizationId: string, query: ListDossiersQuery, columns: string, now: string, remember: boolean,
): { rows: T[]; total: number } {
  const { where, params } = dossierListWhere(query, organizationId, now);
  const total = countDossiers(sqlite, organizationId, query, where, params);
  const offset = (query.page - 1) * query.perPage;
  if (offset >= total) return { rows: [], total };
  const cover = isUnfiltered(query) && hasCoverIndex(sqlite);
  if (offset === 0) return { rows: sqlite.query<T, (string | number)[]>(pageSql(columns, where, { offset, cover })).all(...params, query.perPage, 0), total };
  // Without remembering (DOSSIER_CACHE=off) no boundary outlives the request: every page steps over OFFSET.
  const known = remember ? pageBoundaries(sqlite) : new Map<string, Boundary>();
  return { rows: deepPage<T>(sqlite, known, columns, where, params, query.perPage, offset, cover), total };
}

/** A page past the first: from its remembered boundary when there is one, else by offset with one
 * row more, the one before the page, which becomes the boundary. The page's last row is remembered
 * as the next page's boundary, for a client paging through. */
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
const isUnfiltered = (query: DossierFilters) =>
  query.type === undefined && query.status === undefined && query.stageId === undefined && query.flowId === undefined &&
  query.assignedTo === undefined && query.overdue === undefined && (query.q === undefined || query.q === "");

/** The exact total: from the counts the triggers of migration 0003 keep when the filters are
 * among the counts' key (type, status, flow, stage), else a COUNT over the same WHERE. */
function countDossiers(sqlite: Database, organizationId: string, query: DossierFilters, where: string, params: (string | number)[]): number {
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

/** The page after a remembered boundary; parameters: the WHERE's, the boundary's created_at and id,
 * then LIMIT. Plain `?` continue the numbering of any `?N` in the WHERE. */
const seekSql = (columns: string, where: string) =>
  `SELECT ${columns} FROM dossiers WHERE ${where} AND (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT ?`;

/** The key of a page start: the WHERE (fixed SQL), its bound values (the organization among them)
 * and the offset. */
const boundaryKey = (where: string, params: readonly (string | number)[], offset: number) =>
  `${offset} ${JSON.stringify(params)} ${where}`;

interface Changes {
  data_version: number;
  changes: number;
}

export interface Answer {
  json: string;
  total: number;
}

interface Memo {
  changes: Statement<Changes, []>;
  seen: Changes;
  keys: Map<string, Boundary>;
  answers: Map<string, Answer>;
  answerChars: number;
}

// Distinct (filters, offset) pairs asked since the last change, and remembered answers (their
// number and the length of their JSON): the caps bound the memory.
const MAX_BOUNDARIES = 1000;
const MAX_ANSWERS = 512;
const MAX_ANSWER_CHARS = 4_000_000;
const memos = new WeakMap<Database, Memo>();

/** This connection's memo, emptied first when any data may have changed. Read it once per request,
 * before the data: what is remembered after this check is then dropped by the next request's check
 * if a change came in between. */
function freshMemo(sqlite: Database): Memo {
  let memo = memos.get(sqlite);
  if (!memo) {
    memo = {
      changes: sqlite.query("SELECT data_version, total_changes() AS changes FROM pragma_data_version()"),
      seen: { data_version: -1, changes: -1 },
      keys: new Map(),
      answers: new Map(),
      answerChars: 0,
    };
    memos.set(sqlite, memo);
  }
  const now = memo.changes.get()!;
  if (now.data_version !== memo.seen.data_version || now.changes !== memo.seen.changes) {
    memo.keys.clear();
    memo.answers.clear();
    memo.answerChars = 0;
    memo.seen = now;
  }
  return memo;
}

/** The remembered page boundaries, for look-up and remembering in the same request. */
export function pageBoundaries(sqlite: Database): Map<string, Boundary> {
  const memo = freshMemo(sqlite);
  if (memo.keys.size >= MAX_BOUNDARIES) memo.keys.clear();
  return memo.keys;
}

/** The answer to `key` if nothing changed since it was given, else what `answer` gives now
 * (remembered for next time). */
export function rememberedAnswer(sqlite: Database, key: string, answer: () => Answer): Answer {
  const memo = freshMemo(sqlite);
  const known = memo.answers.get(key);
  if (known) return known;
  const fresh = answer();
  if (memo.answers.size >= MAX_ANSWERS || memo.answerChars + fresh.json.length > MAX_ANSWER_CHARS) {
    memo.answers.clear();
    memo.answerChars = 0;
  }
  memo.answers.set(key, fresh);
  memo.answerChars += fresh.json.length;
  return fresh;
}
