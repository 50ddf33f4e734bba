// The PostgreSQL store (C19, step 1): the interface of SQLite's (src/db/client.ts), one resource's
// query module at a time (src/db/pg/queries.ts). Not yet what `serve` opens: it is, once every
// resource has its module here and the whole suite runs on both engines.
//
// Where SQLite keeps one writer's connection and groups units into one transaction of its own
// (C11), PostgreSQL groups commits itself: each unit is a transaction of its own on a pooled
// connection, and a read snapshot a REPEATABLE READ, READ ONLY one. The work in progress finds
// its transaction through AsyncLocalStorage, as on SQLite (src/db/scope.ts), so that a service
// calls `ctx.store.orgs.byId(...)` the same way inside a unit, a snapshot or neither.
import { SQL } from "bun";
import { AsyncLocalStorage } from "node:async_hooks";
import type { Awaitable } from "../../awaitable";
import { migratePg } from "./migrate";
import { pgQueries, type PgQueries } from "./queries";

/** The connection a query runs on: the pool, or the transaction of the work in progress. */
export type Db = () => SQL;

export interface PgStore extends PgQueries {
  /** Runs `read` (no writes) in one read snapshot; inside a unit or a snapshot already, as is. */
  read<T>(read: () => Awaitable<T>): Promise<T>;
  /** Runs `unit` in a transaction of its own; resolves with its result once committed (durable
   * with the server's synchronous_commit, which serve checks). */
  write<T>(unit: () => Awaitable<T>): Promise<T>;
  /** Waits for the queries under way, then closes the pool. */
  close(): Promise<void>;
}

interface Scope {
  tx: SQL;
  writes: boolean;
  /** Drops when the unit or snapshot ends: a promise left floating after it is not taken for it. */
  open: boolean;
}

/** Connections one store keeps at most. */
const POOL_SIZE = 10;

/** Opens the database at `url` (postgres://...), migrating it first (src/db/pg/migrate.ts). */
export async function openPgStore(url: string): Promise<PgStore> {
  const sql = new SQL(url, { max: POOL_SIZE });
  try {
    await migratePg(sql);
  } catch (error) {
    await sql.close();
    throw error;
  }
  const scopes = new AsyncLocalStorage<Scope>();
  const current = () => {
    const scope = scopes.getStore();
    return scope?.open ? scope : undefined;
  };
  const inside = <T>(tx: SQL, writes: boolean, work: () => Awaitable<T>): Promise<T> => {
    const scope: Scope = { tx, writes, open: true };
    return scopes.run(scope, async () => {
      try {
        return await work();
      } finally {
        scope.open = false;
      }
    });
  };
  return {
    ...pgQueries(
      () => current()?.tx ?? sql,
      () => current()?.writes === true,
    ),
    async read(read) {
      if (current()) return await read();
      return await sql.begin("isolation level repeatable read read only", (tx) => inside(tx, false, read));
    },
    async write(unit) {
      // A write inside a unit would be a transaction beside it, not part of it.
      if (current()?.writes) throw new Error("store.write called inside a unit of work");
      return await sql.begin((tx) => inside(tx, true, unit));
    },
    close: () => sql.close(),
  };
}
