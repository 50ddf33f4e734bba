// The export's reading (round 3 notes, "Streaming on SQLite"): one read transaction held for a
// 1,000,000-row export stops WAL checkpoints for its whole length, so the rows are read in keyset
// batches, each its own short read (its own snapshot), in the list's order, each batch starting
// after the last row of the one before. The store's query is the caller's: this only drives it.

/** Pages of at most `limit` rows from `fetchPage(after, limit)`, where `after` is the key of the
 * previous page's last row (undefined for the first): until a page comes back short. The next page
 * is asked for only when the consumer pulls (csvStream), so a slow client holds the reading back. */
export async function* keysetBatches<Row, Key>(
  fetchPage: (after: Key | undefined, limit: number) => Promise<readonly Row[]> | readonly Row[],
  keyOf: (row: Row) => Key,
  limit = 1_000,
): AsyncGenerator<readonly Row[]> {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError("keysetBatches: limit must be a positive integer");
  let after: Key | undefined;
  for (;;) {
    const page = await fetchPage(after, limit);
    if (page.length > 0) yield page;
    if (page.length < limit) return;
    after = keyOf(page[page.length - 1]);
  }
}
