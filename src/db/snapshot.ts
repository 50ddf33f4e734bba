// One read transaction around a read of several statements: the statements see one snapshot, and
// the WAL read lock is taken once instead of once per statement (in WAL mode each statement
// outside a transaction takes and drops it, which costs more than a small query itself: GET
// /dossiers' version check, count and page went from three to one).
import type { Database, Statement } from "bun:sqlite";

const statements = new WeakMap<Database, { begin: Statement; commit: Statement }>();

/** Runs `read` (synchronous, no writes) in one read transaction; inside a transaction already, as is. */
export function readSnapshot<T>(sqlite: Database, read: () => T): T {
  if (sqlite.inTransaction) return read();
  let prepared = statements.get(sqlite);
  if (!prepared) {
    prepared = { begin: sqlite.prepare("BEGIN"), commit: sqlite.prepare("COMMIT") };
    statements.set(sqlite, prepared);
  }
  prepared.begin.run();
  try {
    return read();
  } finally {
    prepared.commit.run();
  }
}
