// Which connection a query runs on. The store's units of work may await (C19: the same services
// run on PostgreSQL), so a unit's transaction stays open across awaits while other requests go on:
// a read that ran on the writer's connection then could see a unit half done. So the store keeps
// sides: the writer's connection, used by units alone, and read connections (query_only), each
// holding at most one read snapshot at a time. The work in progress knows its side through
// AsyncLocalStorage, so that a service calls `ctx.store.dossiers.byId(...)` the same way inside a
// unit, inside a read snapshot or outside both.
import type { Database } from "bun:sqlite";
import { AsyncLocalStorage } from "node:async_hooks";
import type { Generations } from "./generations";
import type { StoreQueries } from "./queries";

/** A connection and the query modules built on it (their statements and caches are its own). */
export interface Side {
  sqlite: Database;
  queries: StoreQueries;
  generations: Generations;
  /** Its query methods in one array, in the store's order (src/db/client.ts, filled on first use). */
  methods?: Method[];
}

export type Method = (...args: unknown[]) => unknown;

/** A unit of work or a read snapshot in progress on a side; `open` drops when it ends, so that
 * work it started and that outlives it (a promise nobody awaited) is not taken for it. */
export interface Scope {
  side: Side;
  open: boolean;
  /** A unit of work: the writer's connection, inside the group's transaction. */
  writes: boolean;
}

const current = new AsyncLocalStorage<Scope>();

/** The scope of the work in progress, if it is still open. */
export function currentScope(): Scope | undefined {
  const scope = current.getStore();
  return scope?.open ? scope : undefined;
}

/** Runs `work` (and what it awaits) in `scope`. */
export const inScope = <T>(scope: Scope, work: () => T): T => current.run(scope, work);

/** Runs `work` outside any scope: what it starts outlives the caller's (a group commit's run). */
export const outsideScopes = <T>(work: () => T): T => current.exit(work);
