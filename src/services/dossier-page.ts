// The page query of GET /dossiers (issue 6). C3's page/per_page cannot be keyset-paged, so a page
// past the first steps over `offset` index entries. Reading the table row of every skipped entry
// (for `status <> 'archived'` and for the columns) made page 1000 cost 15 ms at 1M rows. Past the
// first page, the page's rowids are therefore picked first, from an index alone when one covers
// the filters, and only the page's own rows are read. The first page reads its rows directly: it
// skips nothing, and the extra lookups and sort would only cost.
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
import type { Database, Statement } from "bun:sqlite";

/** Migration 0004's (organization_id, created_at desc, id desc, status): the unfiltered list's
 * WHERE and ORDER BY from the index alone. */
export const COVER_INDEX = "dossiers_org_created_cover";

const coverPresent = new WeakMap<Database, boolean>();

/** Whether the file has the covering index. Looked up once per connection: indexes are created
 * by the migrations, which run before a connection serves anything. */
export function hasCoverIndex(sqlite: Database): boolean {
  let present = coverPresent.get(sqlite);
  if (present === undefined) {
    present = sqlite.query(`SELECT 1 FROM sqlite_master WHERE type = 'index' AND tbl_name = 'dossiers' AND name = ?`).get(COVER_INDEX) !== null;
    coverPresent.set(sqlite, present);
  }
  return present;
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

export interface Boundary {
  created_at: string;
  id: string;
}

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

/** The key of a page start: the WHERE (fixed SQL), its bound values (the organization among them)
 * and the offset. */
export const boundaryKey = (where: string, params: readonly (string | number)[], offset: number) =>
  `${offset} ${JSON.stringify(params)} ${where}`;

/** The page after a remembered boundary; parameters: the WHERE's, the boundary's created_at and id,
 * then LIMIT. Plain `?` continue the numbering of any `?N` in the WHERE. */
export const seekSql = (columns: string, where: string) =>
  `SELECT ${columns} FROM dossiers WHERE ${where} AND (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT ?`;
