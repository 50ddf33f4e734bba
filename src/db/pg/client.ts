// The PostgreSQL store (C19, step 1): the interface of SQLite's (src/db/client.ts), one resource's
// query module at a time (src/db/pg/queries.ts). Not yet what `serve` opens: it is, once every
// resource has its module here and the whole suite runs on both engines.
//
// Where SQLite keeps one writer's connection and groups units into one transaction of its own
// (C11), PostgreSQL groups commits itself: each unit is a transaction of its own on a pooled
// connection, and a read snapshot a REPEATABLE READ, READ ONLY one, begun at the read's first
// query: a read that its caches answer (src/db/pg/answer-cache.ts) sends nothing. The work in
// progress finds its transaction through AsyncLocalStorage, as on SQLite (src/db/scope.ts), so that
// a service calls `ctx.store.orgs.byId(...)` the same way inside a unit, a snapshot or neither.
//
// A request's bookkeeping (its principal, its rate limit's count, its organization's cache
// generations) is one statement on the pool, outside any snapshot (src/db/pg/counters.ts).
import { SQL, type ReservedSQL } from "bun";
import { AsyncLocalStorage } from "node:async_hooks";
import type { Awaitable } from "../../awaitable";
import type { Logger } from "../../log";
import { storageUnavailable } from "../group-commit";
import type { NewEvent } from "../events";
import type { Admission, CacheGenerations, ReadAheadDone, SharedCounters, Store } from "../store";
import { cachedReads, dossierRecords } from "./answer-cache";
import { pgContactBatchQueries, type PgContactBatches } from "./contacts";
import { pgCounters } from "./counters";
import { pgLeaseQueries, type PgLeases } from "./leases";
import { migratePg } from "./migrate";
import { pgLaneQueries, type PgLanes } from "./outbox";
import { pgQueries } from "./queries";

/** The connection a query runs on: the pool, or the transaction of the work in progress. */
export type Db = () => SQL;

export interface PgStore extends Store {
  readonly engine: "postgres";
  /** Leases of work one node at a time does (C19): the job runner's (src/jobs/runner.ts). */
  readonly leases: PgLeases;
  /** The webhook lanes' claims, reads and announcements (src/webhooks/lanes.ts). */
  readonly lanes: PgLanes;
  /** A CSV import's batch of new contacts in one statement (src/services/imports.ts). */
  readonly contactBatches: PgContactBatches;
  readonly counters: SharedCounters | undefined;
}

export interface PgStoreOptions {
  logger?: Logger;
  /** Connections the store keeps at most (DOSSIER_DATABASE_POOL; default 10). */
  pool?: number;
}

interface Scope {
  /** The unit's transaction; a read's once its first query has begun it. */
  tx?: SQL;
  /** A read's transaction, being begun or begun. */
  opening?: Promise<ReservedSQL>;
  /** The generations the admission of the request this read serves read (a GET's, src/http/route.ts). */
  seen?: CacheGenerations;
  /** What that admission read ahead for it (src/db/pg/counters.ts). */
  read?: ReadAheadDone;
  writes: boolean;
  /** Drops when the unit or snapshot ends: a promise left floating after it is not taken for it. */
  open: boolean;
  /** The organizations whose events to deliver a unit recorded: announced to every node once it commits. */
  eventOrgs?: Set<string>;
}

/** Connections one store keeps at most, unless told. */
const POOL_SIZE = 10;
/** A connection idle this long is closed (seconds): a quiet node holds few. */
const IDLE_TIMEOUT_S = 60;
/** How long a connection attempt may take before the request it serves gets 503 (seconds). */
const CONNECT_TIMEOUT_S = 5;
/** How often a store that lost the database asks whether it is back. */
const RECONNECT_EVERY_MS = 1000;

/** Opens the database at `url` (postgres://...), migrating it first (src/db/pg/migrate.ts). */
export async function openPgStore(url: string, options: PgStoreOptions = {}): Promise<PgStore> {
  const pool = options.pool ?? POOL_SIZE;
  const sql = new SQL(url, { max: pool, connectionTimeout: CONNECT_TIMEOUT_S, idleTimeout: IDLE_TIMEOUT_S });
  let holdsSealed: boolean;
  try {
    await migratePg(sql);
    await checkSynchronousCommit(sql, options.logger);
    holdsSealed = (await sql`SELECT EXISTS (SELECT 1 FROM webhook_endpoints) AS any`)[0].any === true;
  } catch (error) {
    await sql.close();
    throw error;
  }
  const log = options.logger?.log.bind(options.logger);
  const scopes = new AsyncLocalStorage<Scope>();
  const current = () => {
    const scope = scopes.getStore();
    return scope?.open ? scope : undefined;
  };
  const unitScope = <T>(scope: Scope, work: () => Awaitable<T>): Promise<T> =>
    scopes.run(scope, async () => {
      try {
        return await work();
      } finally {
        scope.open = false;
      }
    });

  // C19: a lost connection answers 503 storage_unavailable (never a false 2xx), as does a database
  // that refuses writes (a standby after a failover, a read-only default): /healthz says 503 until
  // a new session may write again; the pool opens new connections by itself.
  let failure: string | null = null;
  let probe: ReturnType<typeof setInterval> | null = null;
  const back = () => {
    if (probe) clearInterval(probe);
    probe = null;
    failure = null;
    log?.("info", "PostgreSQL takes writes again");
  };
  const lost = (error: unknown): never => {
    if (!isConnectionLoss(error) && !isWriteRefusal(error)) throw error;
    if (failure === null) {
      failure = `the database cannot take writes: ${(error as Error).message}`;
      log?.("error", "PostgreSQL cannot take writes: answering 503 until it can", { error: (error as Error).message });
      probe = setInterval(() => {
        sql`SELECT current_setting('transaction_read_only') AS read_only`.then(([row]) => row.read_only === "off" && back(), () => {});
      }, RECONNECT_EVERY_MS);
      probe.unref?.();
    }
    throw storageUnavailable();
  };

  // A read's snapshot, begun at its first query on a connection of its own until it ends.
  const begun = (scope: Scope) =>
    (scope.opening ??= (async () => {
      const reserved = await sql.reserve();
      try {
        await reserved`BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY`;
      } catch (error) {
        // A connection left inside a transaction that did not begin is closed, not pooled again.
        await reserved.release();
        throw error;
      }
      scope.tx = reserved;
      return reserved;
    })());
  const ended = async (scope: Scope) => {
    scope.open = false;
    const reserved = await scope.opening?.catch(() => undefined);
    if (!reserved) return;
    // What was read stands whether or not the end of a read-only transaction is heard; Bun closes a
    // connection released inside a transaction instead of pooling it again.
    await reserved`COMMIT`.catch(() => {});
    await reserved.release();
  };
  /** `read` in a snapshot of its own; its value at once when it sent no query. */
  const readOnce = <T>(read: () => Awaitable<T>): Awaitable<T> => {
    const scope: Scope = { writes: false, open: true };
    let value: Awaitable<T>;
    try {
      value = scopes.run(scope, read);
    } catch (error) {
      if (!scope.opening) {
        scope.open = false;
        throw error;
      }
      return ended(scope).then(() => Promise.reject(error));
    }
    if (!(value instanceof Promise) && !scope.opening) {
      scope.open = false;
      return value;
    }
    return Promise.resolve(value).then(
      async (done) => {
        await ended(scope);
        return done;
      },
      async (error: unknown) => {
        await ended(scope);
        throw error;
      },
    );
  };

  const listeners = new Set<() => void>();
  const writing = new Set<Promise<unknown>>();
  // Inside a unit or a snapshot, its transaction is lost with its connection: read() and write()
  // decide. Outside, the query alone is tried again on another connection.
  const inScope = <T>(query: () => Promise<T>) => {
    const scope = current();
    if (!scope) return retried(pool + 1, query).catch(lost);
    return scope.tx ? query() : begun(scope).then(query);
  };
  const contactBatches = guarded({ batches: pgContactBatchQueries(() => current()?.tx ?? sql) }, inScope).batches;
  // A remembered read that is not remembered yet: outside the read's snapshot, on the pool (see
  // src/db/pg/answer-cache.ts).
  const alone = <T>(load: () => Promise<T>) => scopes.run({ writes: false, open: false }, load);
  // The dossiers this node holds, shared by its answer caches and its admissions (drizzle-pg/0016).
  const held = dossierRecords(alone);
  const queries = cachedReads(
    guarded(
      pgQueries(
        () => current()?.tx ?? sql,
        () => current()?.writes === true,
      ),
      inScope,
    ),
    () => current()?.seen,
    () => current()?.read,
    alone,
    held,
  );
  const leases = guarded({ leases: pgLeaseQueries(() => sql) }, (query) => retried(pool + 1, query).catch(lost)).leases;
  const lanes = guarded({ lanes: pgLaneQueries(() => sql) }, (query) => retried(pool + 1, query).catch(lost)).lanes;
  // New events to deliver are announced to every node's dispatcher (src/webhooks/lanes.ts) after
  // their commit, one notification for the commits of a turn of the event loop. A lost one is found
  // by the dispatchers' scan (C10: within 5 s).
  let announcing: Set<string> | null = null;
  const announce = (orgs: Set<string>) => {
    if (announcing === null) {
      announcing = new Set();
      setImmediate(() => {
        const batch = [...announcing!];
        announcing = null;
        lanes.announce(batch).catch(() => {});
      });
    }
    for (const org of orgs) announcing.add(org);
  };
  // Each admission is its own statement and commit, on the pool: tried again on a lost connection
  // (a count may then be taken twice, never missed). The generations it read, and what it read
  // ahead, go to the read of the request it admits (a GET's), for the answer caches.
  const shared = pgCounters(sql, held);
  const counters = Object.fromEntries(
    Object.entries(shared).map(([name, method]) => [
      name,
      (...args: unknown[]) =>
        retried(pool + 1, () => (method as (...a: unknown[]) => Promise<unknown>)(...args))
          .catch(lost)
          .then((answer) => {
            const scope = current();
            const admitted = answer as Partial<Admission<unknown>> | null;
            if (admitted?.generations && scope && !scope.writes) {
              scope.seen = admitted.generations;
              scope.read = admitted.read;
            }
            return answer;
          }),
    ]),
  ) as unknown as SharedCounters;
  return {
    ...queries,
    events: {
      ...queries.events,
      // Only an event to deliver is announced: one that is skipped (no endpoint) gives no node
      // work, and each announcement is a transaction of its own and a claim on every node.
      async insert(event: NewEvent) {
        await queries.events.insert(event);
        const scope = current();
        if (scope?.writes && event.status === "pending") (scope.eventOrgs ??= new Set()).add(event.organizationId);
      },
    },
    engine: "postgres",
    outboxReader: queries.outbox,
    leases,
    lanes,
    contactBatches,
    // While the database refuses writes (C11, C19: reads still work) the shared counts, writes
    // themselves, cannot be taken: callers then count in this process alone (src/http/auth.ts,
    // src/intake/desk.ts, src/services/sessions.ts) until the probe finds the database writable.
    get counters() {
      return failure === null ? counters : undefined;
    },
    holdsSealedSecrets: () => holdsSealed,
    read<T>(read: () => Awaitable<T>): Awaitable<T> {
      if (current()) return read();
      // A read changes nothing: tried again whole on a connection lost under it.
      const attempt = (tries: number): Awaitable<T> => {
        const value = readOnce(read);
        if (!(value instanceof Promise)) return value;
        return value.catch((error: unknown) => (tries > 1 && isConnectionLoss(error) ? attempt(tries - 1) : Promise.reject(error)));
      };
      const value = attempt(pool + 1);
      return value instanceof Promise ? value.catch(lost) : value;
    },
    write<T>(unit: () => T | Promise<T>): Promise<T> {
      // A write inside a unit would be a transaction beside it, not part of it.
      if (current()?.writes) return Promise.reject(new Error("store.write called inside a unit of work"));
      // As on SQLite (C11): while the database cannot take writes, a change is refused before it runs
      // (its checks too), until the probe finds it writable again.
      if (failure !== null) return Promise.reject(storageUnavailable());
      // Tried again only when its connection was found lost before the unit began: once the unit
      // ran, a lost connection leaves its commit unknown, and the answer is 503, never a false 2xx.
      let scope: Scope | undefined;
      const done = retried(
        pool + 1,
        () => sql.begin((tx) => unitScope((scope = { tx, writes: true, open: true }), unit)),
        () => scope === undefined,
      ).catch(lost);
      writing.add(done);
      const settle = () => void writing.delete(done);
      done.then(() => {
        settle();
        if (scope?.eventOrgs) announce(scope.eventOrgs);
        // The webhook dispatcher and the job runner look for what this commit queued.
        for (const listener of listeners) listener();
      }, settle);
      return done;
    },
    onCommit(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    get failure() {
      return failure;
    },
    settling: false,
    async idle() {
      while (writing.size > 0) await Promise.allSettled([...writing]);
    },
    async close() {
      if (probe) clearInterval(probe);
      await Promise.allSettled([...writing]);
      await sql.close();
    },
  };
}

/** `work`, tried again while it fails on a lost connection and `again()` allows, at most `tries`
 * times in all: the pool may hold as many connections the server ended (a restart, a failover)
 * before it notices, plus one. */
async function retried<T>(tries: number, work: () => Promise<T>, again: () => boolean = () => true): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= tries || !isConnectionLoss(error) || !again()) throw error;
    }
  }
}

/** Each query method of `modules`, run through `run` (which decides what a lost connection does). */
function guarded<Q extends Record<string, Record<string, unknown>>>(modules: Q, run: <T>(query: () => Promise<T>) => Promise<T>): Q {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [resource, methods] of Object.entries(modules)) {
    const wrapped: Record<string, unknown> = {};
    for (const [name, method] of Object.entries(methods)) {
      wrapped[name] =
        typeof method !== "function" ? method : (...args: unknown[]) => run(() => (method as (...a: unknown[]) => Promise<unknown>).apply(methods, args));
    }
    out[resource] = wrapped;
  }
  return out as Q;
}

/** A connection lost or refused: the server ended the session (severity FATAL: shut down,
 * terminated, not accepting connections), a connection exception (SQLSTATE class 08, 57P0x), or the
 * driver's own codes for a socket that closed, timed out or never opened. */
const LOSS_STATES = /^(08...|57P01|57P02|57P03)$/;
const LOSS_CODES = /^(ERR_POSTGRES_CONNECTION_\w+|ERR_POSTGRES_IDLE_TIMEOUT|ERR_POSTGRES_LIFETIME_TIMEOUT|ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT)$/;

/** A write refused by a database in read-only mode (SQLSTATE 25006): a hot standby, or
 * default_transaction_read_only. */
export const isWriteRefusal = (error: unknown) => (error as { errno?: unknown } | null)?.errno === "25006";

export function isConnectionLoss(error: unknown): boolean {
  const { code, errno, severity } = (error ?? {}) as { code?: unknown; errno?: unknown; severity?: unknown };
  return (
    severity === "FATAL" ||
    severity === "PANIC" ||
    (typeof errno === "string" && LOSS_STATES.test(errno)) ||
    (typeof code === "string" && LOSS_CODES.test(code))
  );
}

/** C19: a 2xx is sent once PostgreSQL has committed and flushed, which `synchronous_commit` off
 * would not wait for: said at start, as a warning (the operator's choice, not ours to refuse). */
async function checkSynchronousCommit(sql: SQL, logger: Logger | undefined) {
  const [row] = await sql`SELECT current_setting('synchronous_commit') AS setting`;
  if (row.setting === "off") {
    logger?.log("warn", "PostgreSQL's synchronous_commit is not on: an acknowledged write may be lost in a crash of the database server", {
      synchronous_commit: row.setting,
    });
  }
}
