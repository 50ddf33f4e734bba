import { Database } from "bun:sqlite";
import { closeSync, mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import type { Logger } from "../log";
import { Generations } from "./generations";
import { GroupCommit, type WriteOptions } from "./group-commit";
import { migrate } from "./migrate";
import { storeQueries, type StoreQueries } from "./queries";
import * as schema from "./schema";
import { CommitStamp } from "./commit-stamp";
import { readSnapshot, stampCommits } from "./snapshot";
import { WalKeeper } from "./wal";


export type Orm = BunSQLiteDatabase<typeof schema>;

export interface Store extends StoreQueries {
  /** For src/db and tests only: everything else goes through the query modules (src/db/queries.ts). */
  sqlite: Database;
  orm: Orm;
  /** Runs `read` (synchronous, no writes) in one read transaction: its statements see one
   * snapshot and take the WAL read lock once (src/db/snapshot.ts). */
  read<T>(read: () => T): T;
  /** The caches' one invalidation rule (src/db/generations.ts). */
  readonly generations: Generations;
  /** Runs `unit` (synchronous SQL) in the next group commit and resolves with its result once the
   * commit is durable (src/db/group-commit.ts, C11). Every change goes through here. */
  write<T>(unit: () => T, options?: WriteOptions): Promise<T>;
  /** Calls `listener` after each group is durable (the webhook dispatcher's wake-up call). */
  onCommit(listener: () => void): () => void;
  /** Why a write failed, once one has (C11): from then on writes are refused (503) and /healthz
   * says storage_unavailable, until a restart. Null while writes work. */
  readonly failure: string | null;
  /** True while a commit of this store is not yet durable: what is read then may not be. */
  readonly settling: boolean;
  /** Resolves once every write asked for so far is answered. */
  idle(): Promise<void>;
  /** Waits for the writes under way, then closes the database. */
  close(): Promise<void>;
}

export interface StoreOptions {
  /** C1: "full" (default) makes a commit durable before it is answered; "normal" does not wait. */
  sync?: "full" | "normal";
  /** The server's way (C11): commits at synchronous=NORMAL, with the WAL flushed and checkpointed
   * off this thread. Otherwise (the CLI: one writer, one write at a time) SQLite flushes inside
   * COMMIT at synchronous=FULL and checkpoints by itself. */
  flushOffThread?: boolean;
  logger?: Logger;
}

/**
 * Opens (and migrates) the database. `path` is a file or ":memory:".
 * WAL lets readers run beside the one writer.
 */
export function openStore(path: string, options: StoreOptions = {}): Store {
  const memory = path === ":memory:";
  if (!memory) createPrivately(path);
  const sqlite = new Database(path, { create: true, strict: true });
  sqlite.run("PRAGMA busy_timeout = 10000");
  if (!memory) sqlite.run("PRAGMA journal_mode = WAL");
  const full = (options.sync ?? "full") === "full";
  const offThread = options.flushOffThread === true && !memory;
  sqlite.run(`PRAGMA synchronous = ${full && !offThread ? "FULL" : "NORMAL"}`);
  sqlite.run("PRAGMA foreign_keys = ON");
  // The server's units each run in a savepoint, which keeps the original of each page the unit
  // changes (the statement journal; a create changes about 50): in memory, not in a temporary file
  // opened, written and unlinked for every write (1.5 ms of CPU per create with the file, 1.1 ms
  // without). Its large sorts are bounded by LIMIT (the contact search keeps at most 50,001 ids).
  if (offThread) sqlite.run("PRAGMA temp_store = MEMORY");
  migrate(sqlite);
  const orm = drizzle({ client: sqlite, schema });
  const log = options.logger?.log.bind(options.logger);
  const wal = offThread ? new WalKeeper(sqlite, path, (msg, fields) => log?.("warn", msg, fields)) : null;
  const commits = new GroupCommit(sqlite, {
    flush: wal && full ? () => wal.flush() : null,
    betweenGroups: wal ? () => wal.checkpointIfDue() : undefined,
    onFailure: (reason) => log?.("error", "a write to the database failed: refusing writes until a restart", { error: reason }),
  });
  const generations = new Generations(sqlite, () => commits.inWriteUnit);
  // The server's store only: a command runs once and keeps no cache worth a stamp.
  const stamp = new CommitStamp(offThread ? path : null);
  stampCommits(sqlite, stamp);
  return {
    ...storeQueries({ sqlite, orm, generations }),
    generations,
    sqlite,
    orm,
    read: (read) => readSnapshot(sqlite, read),
    write: (unit, options) => commits.write(unit, options),
    onCommit: (listener) => commits.onCommit(listener),
    get failure() {
      return commits.failure;
    },
    get settling() {
      return commits.settling;
    },
    idle: () => commits.idle(),
    close() {
      // At once when idle, so that a caller that does not wait finds the file closed.
      const finish = async () => {
        await wal?.closeThread();
        sqlite.close();
        stamp.close(); // after SQLite, as below
        // After SQLite: closing any descriptor of the -shm file drops the process's locks on it.
        await wal?.close();
      };
      return commits.busy ? commits.idle().then(finish) : finish();
    },
  };
}

/** The database holds personal data (docs/security.md): a folder made for it is 0700 and a new
 * database file 0600, created here before SQLite opens it, since SQLite creates its -wal and -shm
 * files with the database file's mode. An existing file keeps the mode its operator gave it. */
export function createPrivately(path: string) {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  closeSync(openSync(path, "a", 0o600));
}
