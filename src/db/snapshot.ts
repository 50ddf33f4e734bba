// One read transaction around a read of several statements: the statements see one snapshot, and
// the WAL read lock is taken once instead of once per statement (in WAL mode each statement
// outside a transaction takes and drops it, which costs more than a small query itself: GET
// /dossiers' version check, count and page went from three to one).
import type { Database } from "bun:sqlite";
import type { CommitStamp } from "./commit-stamp";

/** Runs `read` (synchronous, no writes) in one read transaction; inside a transaction already, as is.
 * (`query` caches the statements and finalizes them when the database closes; `prepare`d ones
 * would keep a closed connection open until collected, and its WAL with it.) */
export function readSnapshot<T>(sqlite: Database, read: () => T): T {
  if (sqlite.inTransaction) return read();
  // Read before the snapshot begins (at its first statement): what it shows is at least this new.
  const stamp = stamps.get(sqlite)?.now() ?? -1;
  sqlite.query("BEGIN").run();
  reading.set(sqlite, stamp);
  try {
    return read();
  } finally {
    reading.delete(sqlite);
    sqlite.query("COMMIT").run();
  }
}

/** Begins a read snapshot on a connection outside any transaction (the store's read(), whose work
 * may await: it ends it with endSnapshot). */
export function beginSnapshot(sqlite: Database) {
  const stamp = stamps.get(sqlite)?.now() ?? -1;
  sqlite.query("BEGIN").run();
  reading.set(sqlite, stamp);
}

export function endSnapshot(sqlite: Database) {
  reading.delete(sqlite);
  sqlite.query("COMMIT").run();
}

/** The connections in a read snapshot of readSnapshot's (which writes nothing), with the commit
 * stamp read before it began. */
const reading = new WeakMap<Database, number>();
const stamps = new WeakMap<Database, CommitStamp>();

/** Gives the connection its commit stamp (src/db/commit-stamp.ts): the server's store does. */
export function stampCommits(sqlite: Database, stamp: CommitStamp) {
  stamps.set(sqlite, stamp);
}

/**
 * What a cache may compare its entries' stamps with: the stamp of the database as the reads now
 * under way see it (-1: none may be used). In a read snapshot, the stamp read before it began; in
 * a transaction that may write, -1 (its own changes are not committed, so not stamped); outside
 * any transaction, the stamp now (a statement run next sees at least that).
 */
export function readStamp(sqlite: Database): number {
  if (sqlite.inTransaction) return reading.get(sqlite) ?? -1;
  return stamps.get(sqlite)?.now() ?? -1;
}

/** Whether a transaction that may write is open on the connection (a unit of work, a migration):
 * what is read there may still roll back, so it is neither remembered nor taken as committed. A
 * read snapshot is not one. */
export const inWriteTransaction = (sqlite: Database): boolean => sqlite.inTransaction && !reading.has(sqlite);
