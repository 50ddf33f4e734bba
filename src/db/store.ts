// The store as the rest of the product sees it, whatever the engine (C19): SQLite's
// (src/db/client.ts, the default) or PostgreSQL's (src/db/pg/client.ts). Services, routes, the
// dispatcher and the job runner are written against this interface once.
import type { Awaitable } from "../awaitable";
import type { WriteOptions } from "./group-commit";
import type { StoreQueries } from "./queries";

export type { Awaitable };

/** A query module's methods as the store gives them. */
type Answering<F> = F extends (...args: infer A) => infer R ? (...args: A) => Awaitable<Awaited<R>> : never;
export type AsyncQueries<Q> = { readonly [R in keyof Q]: { readonly [M in keyof Q[R]]: Answering<Q[R][M]> } };

export type Engine = "sqlite" | "postgres";

export interface Store extends AsyncQueries<StoreQueries> {
  readonly engine: Engine;
  /** Runs `read` (no writes) in one read snapshot: its queries see one state of the database.
   * Inside a unit or a snapshot already, as is. */
  read<T>(read: () => Awaitable<T>): Awaitable<T>;
  /** Runs `unit` as one unit of work and resolves with its result once it is durable (C11, C19).
   * Every change goes through here. A unit awaits nothing but the store. */
  write<T>(unit: () => T | Promise<T>, options?: WriteOptions): Promise<T>;
  /** The outbox as the webhook dispatcher reads it, outside any unit: each call sees the latest
   * commit. */
  readonly outboxReader: AsyncQueries<StoreQueries>["outbox"];
  /** Whether the database holds secrets sealed with the master key (C20), answered at once: asked
   * before the key is read, which the context does synchronously (src/context.ts). */
  holdsSealedSecrets(): boolean;
  /** Calls `listener` after each of this store's commits is durable (the webhook dispatcher's and
   * the job runner's wake-up call). */
  onCommit(listener: () => void): () => void;
  /** Why writes are refused (C11, C19: 503 storage_unavailable, /healthz 503), or null while they
   * work. SQLite: a failed write, until a restart; PostgreSQL: the database cannot be reached, until
   * it can again. */
  readonly failure: string | null;
  /** True while a commit of this store is not yet durable: what is read then may not be. */
  readonly settling: boolean;
  /** Resolves once every write asked for so far is answered. */
  idle(): Promise<void>;
  /** Waits for the writes under way, then closes the database. */
  close(): Promise<void>;
}
