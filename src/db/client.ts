import { Database } from "bun:sqlite";
import { closeSync, mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { migrate } from "./migrate";
import * as schema from "./schema";

export type Orm = BunSQLiteDatabase<typeof schema>;

export interface Store {
  sqlite: Database;
  orm: Orm;
  close(): void;
}

/**
 * Opens (and migrates) the database. `path` is a file or ":memory:".
 * WAL lets readers run beside the one writer; synchronous=FULL makes a commit durable (C1).
 */
export function openStore(path: string, sync: "full" | "normal" = "full"): Store {
  if (path !== ":memory:") createPrivately(path);
  const sqlite = new Database(path, { create: true, strict: true });
  sqlite.run("PRAGMA busy_timeout = 10000");
  if (path !== ":memory:") sqlite.run("PRAGMA journal_mode = WAL");
  sqlite.run(`PRAGMA synchronous = ${sync === "full" ? "FULL" : "NORMAL"}`);
  sqlite.run("PRAGMA foreign_keys = ON");
  migrate(sqlite);
  const orm = drizzle({ client: sqlite, schema });
  return { sqlite, orm, close: () => sqlite.close() };
}

/** The database holds personal data (docs/security.md): a folder made for it is 0700 and a new
 * database file 0600, created here before SQLite opens it, since SQLite creates its -wal and -shm
 * files with the database file's mode. An existing file keeps the mode its operator gave it. */
export function createPrivately(path: string) {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  closeSync(openSync(path, "a", 0o600));
}

/** A write that SQLite could not make durable: the disk is full (SQLITE_FULL) or refused a read or
 * write (SQLITE_IOERR and its extended codes). C11's "failed flush": the file's state is unknown. */
export function isWriteFailure(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && (code === "SQLITE_FULL" || code.startsWith("SQLITE_IOERR"));
}

/** Runs `work` in one BEGIN IMMEDIATE transaction: the write lock is taken up front, so two
 * writers never deadlock on an upgrade and SQLITE_BUSY waits on the busy timeout instead. */
export function inTransaction<T>(store: Store, work: () => T): T {
  return store.sqlite.transaction(work).immediate();
}
