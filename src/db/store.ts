// The store as the rest of the product sees it, whatever the engine (C19): SQLite's
// (src/db/client.ts, the default) or PostgreSQL's (src/db/pg/client.ts). Services, routes, the
// dispatcher and the job runner are written against this interface once.
import type { Static } from "@sinclair/typebox";
import type { Awaitable } from "../awaitable";
import type { Dossier } from "../schemas/dossiers";
import type { WriteOptions } from "./group-commit";
import type { KeyHolder } from "./principals";
import type { StoreQueries } from "./queries";
import type { SessionLookup } from "./sessions";

export type { Awaitable };

/** A query module's methods as the store gives them. */
type Answering<F> = F extends (...args: infer A) => infer R ? (...args: A) => Awaitable<Awaited<R>> : never;
export type AsyncQueries<Q> = { readonly [R in keyof Q]: { readonly [M in keyof Q[R]]: Answering<Q[R][M]> } };

export type Engine = "sqlite" | "postgres";

/** What a request sees of its rate limit (C8, C10). */
export interface RateDecision {
  /** The window had room: a request that may be refused with 429 was not. */
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until a request is free again: until the oldest counted request leaves the window,
   * or, with more counted than the limit (it was lowered, or 402s were counted past it), until
   * enough of them have left (0 when none is counted). */
  reset: number;
}

/** A request's principal as the database has it now, and its count (C8: counted unless refused). */
export interface Admission<F> {
  found: F;
  rate: RateDecision;
  /** The organization's generations, read in the same statement (src/db/pg/answer-cache.ts). */
  generations?: CacheGenerations;
  /** What the statement read ahead for the request (`ReadAhead`), when it was counted and its
   * organization is on Growth: refused, it reads nothing (C3). */
  read?: ReadAheadDone;
}

/** A record a request will show by id, told to its admission (GET /dossiers/{id}): PostgreSQL's
 * reads it in the same statement (src/db/pg/answer-cache.ts), which saves the request a round trip. */
export interface ReadAhead {
  dossierId: string;
}

/** A ReadAhead as read, under the admitted organization: null when it has no such dossier. */
export interface ReadAheadDone {
  organizationId: string;
  dossierId: string;
  dossier: Static<typeof Dossier> | null;
}

/** An organization's generations as one admission read them (src/db/pg/answer-cache.ts). */
export interface CacheGenerations {
  organizationId: string;
  dossiers: number;
  contacts: number;
}

/** Counts that every node of one database shares (C19: rate limits, sign-in throttles and intake
 * limits count across nodes), PostgreSQL's (src/db/pg/counters.ts). SQLite's one process counts in
 * memory instead (src/http/rate-limiter.ts, src/services/throttle.ts). Time comes from the caller. */
export interface SharedCounters {
  /** The live key with this hash (not revoked, not expired at `now`) counted in its organization's
   * window; null (nothing counted) without one. */
  admitKey(keyHash: string, now: number, ahead?: ReadAhead): Promise<Admission<KeyHolder> | null>;
  /** The same for a session, alive: its member not disabled, used less than `idleMs` and made less
   * than `lifetimeMs` before `now`. */
  admitSession(tokenHash: string, now: number, ends: { idleMs: number; lifetimeMs: number }, ahead?: ReadAhead): Promise<Admission<SessionLookup> | null>;
  /** Counts a request of `subject` against `limit` a minute; a full window refuses it, uncounted. */
  hit(subject: string, limit: number, now: number): Promise<RateDecision>;
  /** A sign-in attempt from `address`: the ms to wait while a key is at its limit of failures in the
   * window (nothing counted), else counted as a failure of each key, with the way to take it back. */
  failSignIn(address: string, keys: { key: string; limit: number }[], windowMs: number, now: number): Promise<{ wait: number; forgive?: () => Promise<void> }>;
}

export interface Store extends AsyncQueries<StoreQueries> {
  readonly engine: Engine;
  /** The counters the nodes share, on an engine that several nodes use (PostgreSQL). */
  readonly counters?: SharedCounters;
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
