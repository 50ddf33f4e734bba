// One read transaction around a read of several statements: the statements see one snapshot, and
// the WAL read lock is taken once instead of once per statement (in WAL mode each statement
// outside a transaction takes and drops it, which costs more than a small query itself: GET
// /dossiers' version check, count and page went from three to one).
import type { Database } from "bun:sqlite";

/** Runs `read` (synchronous, no writes) in one read transaction; inside a transaction already, as is.
 * (`query` caches the statements and finalizes them when the database closes; `prepare`d ones
 * would keep a closed connection open until collected, and its WAL with it.) */
export function readSnapshot<T>(sqlite: Database, read: () => T): T {
  if (sqlite.inTransaction) return read();
  sqlite.query("BEGIN").run();
  try {
    return read();
  } finally {
    sqlite.query("COMMIT").run();
  }
}
