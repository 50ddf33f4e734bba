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
  reading.add(sqlite);
  try {
    return read();
  } finally {
    reading.delete(sqlite);
    sqlite.query("COMMIT").run();
  }
}

/** The connections in a read snapshot of readSnapshot's (which writes nothing). */
const reading = new WeakSet<Database>();

/** Whether a transaction that may write is open on the connection (a unit of work, a migration):
 * what is read there may still roll back, so it is neither remembered nor taken as committed. A
 * read snapshot is not one. */
export const inWriteTransaction = (sqlite: Database): boolean => sqlite.inTransaction && !reading.has(sqlite);
