// The page query of GET /dossiers (issue 6). C3's page/per_page cannot be keyset-paged, so a page
// past the first steps over `offset` index entries. Reading the table row of every skipped entry
// (for `status <> 'archived'` and for the columns) made page 1000 cost 15 ms at 1M rows. Past the
// first page, the page's rowids are therefore picked first, from an index alone when one covers
// the filters, and only the page's own rows are read. The first page reads its rows directly: it
// skips nothing, and the extra lookups and sort would only cost.
import type { Database } from "bun:sqlite";

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
