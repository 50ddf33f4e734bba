import { Database } from "bun:sqlite";
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import type { Awaitable } from "../awaitable";
import type { Logger } from "../log";
import { Generations } from "./generations";
import { GroupCommit, type WriteOptions } from "./group-commit";
import { migrate } from "./migrate";
import { storeQueries, type StoreQueries } from "./queries";
import type { AsyncQueries, Store } from "./store";
import * as schema from "./schema";
import { CommitStamp } from "./commit-stamp";
import { currentScope, inScope, type Method, type Scope, type Side } from "./scope";
import { beginSnapshot, endSnapshot, stampCommits } from "./snapshot";
import { WalKeeper } from "./wal";


export type Orm = BunSQLiteDatabase<typeof schema>;

export type { Awaitable, AsyncQueries, Store };

/** SQLite's store (the default engine), with what src/db and the tests reach beyond `Store`. */
export interface SqliteStore extends Store {
  readonly engine: "sqlite";
  /** For src/db and tests only: the writer's connection (everything else goes through the query
   * modules, src/db/queries.ts). */
  sqlite: Database;
  /** For src/db and tests only: where reads run and the caches fill while no group is open (the
   * writer's connection; read connections open only for reads that meet an open group). */
  reader: Database;
  orm: Orm;
  /** The caches' one invalidation rule (src/db/generations.ts), as the reads see it. */
  readonly generations: Generations;
  /** On a read connection of its own, answered at once. */
  readonly outboxReader: StoreQueries["outbox"];
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

/** How long a statement waits for another connection's lock before it fails with SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 10_000;

/** Puts the file in WAL mode. On a new file that writes its header, and SQLite refuses at once,
 * busy timeout or not, a connection whose read meets another connection's write (it will not
 * wait on what may be a deadlock): processes opening a new data folder at once (C2) met it as
 * "database is locked". So the switch is tried again, for as long as the busy timeout. */
function enterWal(sqlite: Database) {
  const deadline = performance.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      sqlite.run("PRAGMA journal_mode = WAL");
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== "SQLITE_BUSY" || performance.now() >= deadline) throw error;
      Bun.sleepSync(5);
    }
  }
}

/** How long the server's group of writes holds the thread before it lets reads in (C11: /healthz
 * under 20 ms p99 while writes run flat out; a group of 16 creates at 1,000,000 dossiers held it
 * about 20 ms). */
const GROUP_SLICE_MS = 4;

/** Read connections one store opens at most: one more each time a read meets the writer's
 * connection and every open read connection inside a transaction (a unit or read that awaits
 * something besides the store, a file). */
const MAX_READERS = 64;

/**
 * Opens (and migrates) the database. `path` is a file, or ":memory:" for a database of the
 * store's own in a temporary folder that close() removes (units and reads need two connections
 * to one database: see src/db/scope.ts).
 * WAL lets readers run beside the one writer.
 */
export function openStore(path: string, options: StoreOptions = {}): SqliteStore {
  const memory = path === ":memory:";
  const scratch = memory ? mkdtempSync(join(tmpdir(), "dossier-db-")) : null;
  const file = scratch ? join(scratch, "dossier.db") : path;
  createPrivately(file);
  const sqlite = new Database(file, { create: true, strict: true });
  sqlite.run(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  enterWal(sqlite);
  const full = (options.sync ?? "full") === "full";
  const offThread = options.flushOffThread === true && !memory;
  // A scratch database is lost with its process anyway: nothing of it is flushed.
  sqlite.run(`PRAGMA synchronous = ${memory ? "OFF" : full && !offThread ? "FULL" : "NORMAL"}`);
  sqlite.run("PRAGMA foreign_keys = ON");
  // The server's units each run in a savepoint, which keeps the original of each page the unit
  // changes (the statement journal; a create changes about 50): in memory, not in a temporary file
  // opened, written and unlinked for every write (1.5 ms of CPU per create with the file, 1.1 ms
  // without). Its large sorts are bounded by LIMIT (the contact search keeps at most 50,001 ids).
  if (offThread || memory) sqlite.run("PRAGMA temp_store = MEMORY");
  migrate(sqlite);
  const orm = drizzle({ client: sqlite, schema });
  const log = options.logger?.log.bind(options.logger);
  const wal = offThread ? new WalKeeper(sqlite, file, (msg, fields) => log?.("warn", msg, fields)) : null;
  // The server's store only: a command runs once and keeps no cache worth a stamp.
  const stamp = new CommitStamp(offThread ? file : null);
  const sideOf = (connection: Database, inWriteUnit: () => boolean): Side => {
    stampCommits(connection, stamp);
    const generations = new Generations(connection, inWriteUnit);
    const deps = { sqlite: connection, orm: connection === sqlite ? orm : drizzle({ client: connection, schema }), generations };
    return { sqlite: connection, queries: storeQueries(deps), generations };
  };
  // Reads run here too while no group is open on it (src/db/scope.ts): its page cache and the
  // query modules' caches stay warm, where a connection of its own would find its page cache
  // dropped after every commit of the writer's.
  const writer = sideOf(sqlite, () => commits.inGroup);
  const commits = new GroupCommit(sqlite, {
    flush: wal && full ? () => wal.flush() : null,
    betweenGroups: wal ? () => wal.checkpointIfDue() : undefined,
    onFailure: (reason) => log?.("error", "a write to the database failed: refusing writes until a restart", { error: reason }),
    sliceMs: offThread ? GROUP_SLICE_MS : undefined,
    busyTimeoutMs: BUSY_TIMEOUT_MS,
  }, writer);

  const readers: Side[] = [];
  const readerOn = (connection: Database): Side => {
    connection.run(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    // Reads only: a change made outside a unit of work is a bug, refused here rather than
    // committed outside the group (and outside its durability).
    connection.run("PRAGMA query_only = ON");
    if (offThread || memory) connection.run("PRAGMA temp_store = MEMORY");
    return sideOf(connection, () => false);
  };
  /** The side for a read snapshot: the writer's connection when no transaction is open on it (the
   * common case: a group's units await nothing but the store, so a group opens and closes within
   * one turn of the event loop), else a read connection not inside a snapshot. */
  const freeSide = (): Side => {
    if (!sqlite.inTransaction) return writer;
    for (const reader of readers) if (!reader.sqlite.inTransaction) return reader;
    if (readers.length >= MAX_READERS) throw new Error(`more than ${MAX_READERS} read snapshots at once`);
    const reader = readerOn(new Database(file, { strict: true }));
    readers.push(reader);
    return reader;
  };
  // Not among `readers`: never inside a read snapshot, so each of its statements sees the latest commit.
  let dispatcherSide: Side | null = null;
  const sideNow = (): Side => currentScope()?.side ?? freeSide();

  return {
    ...answering(writer.queries, sideNow),
    engine: "sqlite",
    generations: writer.generations,
    sqlite,
    reader: sqlite,
    orm,
    read<T>(read: () => Awaitable<T>): Awaitable<T> {
      if (currentScope()) return read();
      const side = freeSide();
      const scope: Scope = { side, open: true, writes: false };
      const end = () => {
        scope.open = false;
        endSnapshot(side.sqlite);
        // A group waiting for the writer's connection may begin.
        if (side === writer) commits.connectionFreed();
      };
      beginSnapshot(side.sqlite);
      let result: Awaitable<T>;
      try {
        result = inScope(scope, read);
      } catch (error) {
        end();
        throw error;
      }
      if (!(result instanceof Promise)) {
        end();
        return result;
      }
      return result.finally(end);
    },
    write: (unit, options) => commits.write(unit, options),
    holdsSealedSecrets: () => writer.queries.sealedSecrets.any(),
    get outboxReader() {
      dispatcherSide ??= readerOn(new Database(file, { strict: true }));
      return dispatcherSide.queries.outbox;
    },
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
        for (const reader of readers) reader.sqlite.close();
        dispatcherSide?.sqlite.close();
        sqlite.close();
        stamp.close(); // after SQLite, as below
        // After SQLite: closing any descriptor of the -shm file drops the process's locks on it.
        await wal?.close();
        if (scratch) rmSync(scratch, { recursive: true, force: true });
      };
      return commits.busy ? commits.idle().then(finish) : finish();
    },
  };
}

/** The query modules as the store gives them: each method runs on the side of the work in
 * progress (`sideNow`) and answers a promise. `shape` names the resources and their methods; each
 * side keeps its methods in one array in that order (`methodsOf`), so a call costs one lookup. */
function answering(shape: StoreQueries, sideNow: () => Side): AsyncQueries<StoreQueries> {
  const store: Record<string, Record<string, unknown>> = {};
  let index = 0;
  for (const [resource, methods] of Object.entries(shape)) {
    const forwards: Record<string, unknown> = {};
    for (const [name, method] of Object.entries(methods as Record<string, unknown>)) {
      if (typeof method !== "function") continue;
      if (method.length > 6) throw new Error(`${resource}.${name} takes more than the six arguments a store query may`);
      const at = index++;
      // Six arguments at most (every query method takes fewer), passed without a spread.
      forwards[name] = (a?: unknown, b?: unknown, c?: unknown, d?: unknown, e?: unknown, f?: unknown) => {
        const side = sideNow();
        return (side.methods ??= methodsOf(side.queries))[at](a, b, c, d, e, f);
      };
    }
    store[resource] = forwards;
  }
  return store as unknown as AsyncQueries<StoreQueries>;
}

/** A side's query methods in `answering`'s order, bound to their modules. */
function methodsOf(queries: StoreQueries): Method[] {
  const all: Method[] = [];
  for (const methods of Object.values(queries) as Record<string, unknown>[]) {
    for (const method of Object.values(methods)) if (typeof method === "function") all.push((method as Method).bind(methods));
  }
  return all;
}

/** The database holds personal data (docs/security.md): a folder made for it is 0700 and a new
 * database file 0600, created here before SQLite opens it, since SQLite creates its -wal and -shm
 * files with the database file's mode. An existing file keeps the mode its operator gave it. */
export function createPrivately(path: string) {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  closeSync(openSync(path, "a", 0o600));
}
