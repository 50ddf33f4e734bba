// Group commit (C11): every change goes through `await write(unit)`. A unit is a function that
// awaits nothing but the store (its queries answer at once on SQLite); units that arrive while a flush is in flight wait, and the next
// group commits them all in one transaction, each inside its own savepoint, so that a unit that
// throws (404, 409, a constraint) is rolled back alone and gets its own error while the rest of
// its group commits. A write on an idle store starts a group on the next turn of the event loop
// (setImmediate, no timer), so that the writes of the requests Bun hands over in the same turn
// join it: fewer commits and flushes per write under load (docs/decisions.md). A write nobody
// waits for (`atOnce`: a key's last_used_at) commits in its call when the store is idle (inside a
// so that what its caller does next sees it.
//
// Durability: with a `flush` (the server's store), the connection commits with
// synchronous=NORMAL, which writes the WAL without waiting for the disk, and `flush` then
// fdatasyncs the WAL on libuv's thread pool. Only after it returns are the group's writes
// answered and the commit listeners (the webhook dispatcher) told, so no answer and no delivery
// ever precedes the flush of its commit, and the thread that answers HTTP never waits on the disk:
// reads go on while the flush is in flight (they may see the commit a few ms before it is durable,
// as C11 allows; never an uncommitted change, since reads run on connections of their own:
// src/db/scope.ts). The units of a group run one after the other, each awaited before the next;
// on the server's store, once a group's units have held the thread for `sliceMs`, the next waits
// for a turn of the event loop, so reads and /healthz are answered between them (C11).
// A write lock another connection holds (a command in another process, another store of this
// one) is waited for in turns of the event loop, not in SQLite's busy handler, which would hold
// the thread: reads go on, and a holder on this thread (a sliced group) can finish.
// Without a flush (the CLI's store at synchronous=FULL, where SQLite fsyncs inside COMMIT; memory;
// DOSSIER_SYNC=normal) the same code commits and answers at once.
//
// A failed commit or flush (EIO, ENOSPC) fails every unit of its group with 503
// storage_unavailable, and the store refuses writes from then on (the file's state is unknown:
// C11); reads go on.
import type { Database } from "bun:sqlite";
import { bindActor, withoutActor } from "../actor";
import { ApiError } from "../errors";
import { currentScope, inScope, outsideScopes, type Side } from "./scope";

/** After the I/O callbacks of this turn of the event loop (the requests that arrived with this one). */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export const storageUnavailable = () =>
  new ApiError("storage_unavailable", "the server cannot store changes right now; nothing was saved");

/** A write that SQLite could not make durable: the disk is full (SQLITE_FULL) or refused a read or
 * write (SQLITE_IOERR and its extended codes). C11's "failed flush": the file's state is unknown. */
export function isWriteFailure(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && (code === "SQLITE_FULL" || code.startsWith("SQLITE_IOERR"));
}

export interface GroupCommitOptions {
  /** Makes every commit so far durable (fdatasync of the WAL); null when COMMIT itself is durable
   * enough (synchronous=FULL, memory, DOSSIER_SYNC=normal). */
  flush: (() => Promise<void>) | null;
  /** Runs between groups, when nothing is waiting for a flush (the WAL checkpoint); writes that
   * arrive meanwhile wait for the next group, reads do not wait. */
  betweenGroups?: () => Promise<void> | void;
  /** Told once, with the reason, when a write fails. */
  onFailure?: (reason: string) => void;
  /** The server's store: after this many milliseconds of a group's units, the next unit waits for
   * a turn of the event loop, so that a long group (16 creates at 1,000,000 dossiers) does not hold
   * the thread that answers reads and /healthz (C11). Without it a group runs in one go. */
  sliceMs?: number;
  /** The clock the slice is measured by (tests move their own). */
  clock?: () => number;
  /** The connection's busy timeout. A group waits this long for a write lock another connection
   * holds (a command, another store of this process), in turns of the event loop rather than in
   * SQLite's busy handler, which would hold the thread: reads go on meanwhile, and a holder on this
   * thread (a sliced group of another store) can finish. Without it BEGIN waits as the connection
   * is set to. */
  busyTimeoutMs?: number;
}

export interface WriteOptions {
  /** When the store is idle, commit in this call rather than on the next turn: for a write its
   * caller does not wait for, which what the caller does next must still see. */
  atOnce?: boolean;
}

interface Waiting {
  unit: () => unknown | Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

export class GroupCommit {
  /** Why a write failed, once one has; null while writes work. */
  failure: string | null = null;
  private queue: Waiting[] = [];
  /** Set from the first unit of a run until the queue is found empty, in the same turn: a write
   * that arrives after that starts a new run. */
  private active = false;
  private running: Promise<void> = Promise.resolve();
  private unflushed = false;
  private wakeOnFree: (() => void) | null = null;
  private groupOpen = false;
  private readonly listeners = new Set<() => void>();
  private readonly begin;
  private readonly commit;
  private readonly rollback;
  private readonly savepoint;
  private readonly release;
  private readonly rollbackTo;

  constructor(
    private readonly sqlite: Database,
    private readonly options: GroupCommitOptions,
    /** The writer's connection and its query modules: the units' side (src/db/scope.ts). Without
     * one (a test of the group commit alone), units speak to `sqlite` themselves. */
    private readonly writer?: Side,
  ) {
    this.begin = sqlite.query("BEGIN IMMEDIATE");
    this.commit = sqlite.query("COMMIT");
    this.rollback = sqlite.query("ROLLBACK");
    this.savepoint = sqlite.query("SAVEPOINT unit");
    this.release = sqlite.query("RELEASE unit");
    this.rollbackTo = sqlite.query("ROLLBACK TO unit");
  }

  /** Runs `unit` in the next group; resolves with its result once its commit is durable. */
  write<T>(unit: () => T | Promise<T>, options: WriteOptions = {}): Promise<T> {
    // A write inside a unit would wait for its own group.
    if (currentScope()?.writes) throw new Error("store.write called inside a unit of work");
    if (this.failure !== null) return Promise.reject(storageUnavailable());
    // The unit runs later, in the context of whoever started the run: it keeps its writer's actor.
    const work = bindActor(unit);
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ unit: work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.active) {
        this.active = true;
        const start = () => outsideScopes(() => withoutActor(() => this.run()));
        this.running = options.atOnce ? start() : nextTurn().then(start);
      }
    });
  }

  /** Calls `listener` after each group is durable, before the next one starts: whatever it reads
   * then is durable. Returns the call that removes it. */
  onCommit(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** True while this store has committed changes that are not yet durable. */
  get settling(): boolean {
    return this.unflushed;
  }

  /** True while a group's transaction is open: what is read on the connection then may still roll back. */
  get inGroup(): boolean {
    return this.groupOpen;
  }

  /** True while a group is being committed, flushed or followed by a checkpoint. */
  get busy(): boolean {
    return this.active;
  }

  /** Resolves once every write asked for so far is answered. */
  async idle(): Promise<void> {
    for (let round = 0; this.active && round < 1_000_000; round++) await this.running;
  }

  /** Records the failure (once) and refuses writes from now on. */
  fail(error: unknown) {
    if (this.failure !== null) return;
    const err = error as { code?: string; message?: string };
    this.failure = `${err.code ?? "error"}: ${err.message ?? String(error)}`;
    this.options.onFailure?.(this.failure);
  }

  private async run() {
    for (;;) {
      // `active` drops in the same turn as the empty queue is seen, with no await between them.
      if (this.queue.length === 0) {
        this.active = false;
        return;
      }
      const group = this.queue;
      this.queue = [];
      if (this.failure !== null) {
        for (const waiting of group) waiting.reject(storageUnavailable());
        continue;
      }
      const outcomes = await this.commitGroup(group);
      if (outcomes && this.options.flush) {
        this.unflushed = true;
        try {
          await this.options.flush();
        } catch (error) {
          this.fail(error);
        } finally {
          this.unflushed = false;
        }
      }
      if (!outcomes || this.failure !== null) {
        for (const waiting of group) waiting.reject(storageUnavailable());
        continue;
      }
      group.forEach((waiting, i) => {
        const outcome = outcomes[i];
        if (outcome.ok) waiting.resolve(outcome.value);
        else waiting.reject(outcome.error);
      });
      for (const listener of this.listeners) {
        try {
          listener();
        } catch {
          // A listener's failure is its own (it logs it); the store goes on.
        }
      }
      try {
        await this.options.betweenGroups?.();
      } catch {
        // The checkpoint reports its own failures; the next group goes on.
      }
    }
  }

  /** Tells a group waiting for the connection that the read snapshot on it has ended. */
  connectionFreed() {
    const wake = this.wakeOnFree;
    this.wakeOnFree = null;
    wake?.();
  }

  /** Resolves once no read snapshot is open on the connection (reads run there between groups:
   * src/db/client.ts). A read asked for while a group is open runs elsewhere, so this waits at
   * most for the reads under way. */
  private async connectionFree() {
    while (this.sqlite.inTransaction) await new Promise<void>((resolve) => (this.wakeOnFree = resolve));
  }

  /** BEGIN IMMEDIATE without waiting for another connection's write lock: false when one holds it. */
  private tryBegin(): boolean {
    if (this.options.busyTimeoutMs === undefined) {
      this.begin.run();
      return true;
    }
    // Not a prepared statement: SQLite sets a pragma's value when it compiles the statement.
    this.sqlite.run("PRAGMA busy_timeout = 0");
    try {
      this.begin.run();
      return true;
    } catch (error) {
      if ((error as { code?: unknown }).code === "SQLITE_BUSY") return false;
      throw error;
    } finally {
      this.sqlite.run(`PRAGMA busy_timeout = ${Math.trunc(this.options.busyTimeoutMs)}`);
    }
  }

  /** Begins the group's transaction once another connection's write lock is released, trying
   * again every few milliseconds (as SQLite's busy handler does) up to the busy timeout. */
  private async beginOnceFree(): Promise<void> {
    const clock = this.options.clock ?? performance.now.bind(performance);
    const deadline = clock() + (this.options.busyTimeoutMs ?? 0);
    for (let attempt = 1; clock() < deadline && attempt < 1_000_000; attempt++) {
      await Bun.sleep(Math.min(attempt, 20));
      // Reads run on this connection while no group is open: one may have begun meanwhile.
      if (this.sqlite.inTransaction) await this.connectionFree();
      if (this.tryBegin()) return;
    }
    throw Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" });
  }

  /** One transaction for the whole group; null when the transaction itself failed. */
  private async commitGroup(group: Waiting[]): Promise<({ ok: true; value: unknown } | { ok: false; error: unknown })[] | null> {
    if (this.sqlite.inTransaction) await this.connectionFree();
    try {
      if (!this.tryBegin()) await this.beginOnceFree();
    } catch (error) {
      if (isWriteFailure(error)) this.fail(error);
      const outcome = { ok: false as const, error: isWriteFailure(error) ? storageUnavailable() : error };
      return group.map(() => outcome);
    }
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    const { sliceMs, clock = performance.now.bind(performance) } = this.options;
    let sliceStart = sliceMs === undefined ? 0 : clock();
    this.groupOpen = true;
    try {
      for (const waiting of group) {
        // The group's transaction stays open across the turn: reads run on read connections then
        // (src/db/client.ts), and writes that arrive wait for the next group.
        if (sliceMs !== undefined && clock() - sliceStart >= sliceMs) {
          await nextTurn();
          sliceStart = clock();
        }
        this.savepoint.run();
        // Without a writer side, the unit's queries are its own; the scope still tells a write
        // asked for inside it.
        const scope = { side: this.writer as Side, open: true, writes: true };
        try {
          let value = inScope(scope, waiting.unit);
          if (value instanceof Promise) value = await value;
          scope.open = false;
          this.release.run();
          outcomes.push({ ok: true, value });
        } catch (error) {
          scope.open = false;
          if (isWriteFailure(error)) throw error;
          this.rollbackTo.run();
          this.release.run();
          outcomes.push({ ok: false, error });
        }
      }
      this.commit.run();
      return outcomes;
    } catch (error) {
      try {
        if (this.sqlite.inTransaction) this.rollback.run();
      } catch {
        // The rollback of a failed transaction: after a write failure the file's state is unknown
        // either way.
      }
      if (!isWriteFailure(error)) return group.map(() => ({ ok: false as const, error }));
      this.fail(error);
      return null;
    } finally {
      this.groupOpen = false;
    }
  }
}
