// The counts every node of one PostgreSQL database shares (C8, C15, C19, C20), and the request's
// bookkeeping in one statement: the principal of its API key or session, its organization's count
// in the sliding 60 s window, and the organization's cache generations (src/db/pg/answer-cache.ts).
// One round trip, whatever else the request reads; no principal is remembered on a node, so a key
// revoked, a member's role changed or a plan changed on another node holds on the next request.
// A request that will show one dossier by id (GET /dossiers/{id}) has it read by the same statement
// (its ReadAhead, drizzle-pg/0011): its only round trip, as a bare SELECT of the row would be.
// The statements call functions (drizzle-pg/0010, 0011), which PL/pgSQL plans once per connection.
//
// The window is exact (C10's headers mean what they say on one node or many): each subject (an
// organization's id, "intake:" and an intake token's hash) has a counter row whose `cum` counts its
// counted requests since the first, and the requests each check counted a row of rate_hits (the
// place `cum` of the last, how many `n`, their time `at`, epoch ms: drizzle-pg/0013). The window's
// count is the counter less the place before the oldest hit of the window, read under the counter's
// row lock, after every count any node committed before; a hit's time is never earlier than the hit
// before it (drizzle-pg/0011: a node reads its clock before it waits for the lock), so the oldest
// hit by time is the first by place. So an
// organization limited to N gets at most N in any 60 s window (C19 allows N + nodes). The tables are
// UNLOGGED (drizzle-pg/0009): their commits write no WAL. Time comes from the caller (the context's
// clock).
import type { SQL } from "bun";
import type { KeyHolder } from "../principals";
import type { SessionLookup } from "../sessions";
import type { Admission, CacheGenerations, RateDecision, ReadAhead, ReadAheadDone, SharedCounters } from "../store";
import { dossierOfJson } from "./dossiers";
import { SIGN_IN_LOCK } from "./lock-classes";

const WINDOW_MS = 60_000;
/** Hits and failures older than this are swept (more than the windows, for clocks that differ by a
 * few seconds between nodes). */
const HITS_KEPT_MS = 2 * WINDOW_MS;
const SWEEP_EVERY_MS = 10_000;

/** A request as its statement counted it: the place before the window (`edge`), the limit, the
 * window's size for this request (after it when counted), whether it was counted, and the time of
 * the hit that must leave first for a request to be free (the function sees this statement's own
 * hits: never NULL while the window holds one). */
interface Counted {
  edge: number;
  lim: number;
  size: number;
  counted: boolean;
  leaving: number | null;
}

/** C8, C10: what the request sees of the window after it. */
function decided(row: Counted, now: number): RateDecision {
  const leaving = row.leaving ?? now;
  return {
    allowed: row.size - (row.counted ? 1 : 0) < row.lim,
    limit: row.lim,
    remaining: Math.max(0, row.lim - row.size),
    reset: row.size === 0 ? 0 : Math.max(1, Math.ceil((leaving + WINDOW_MS - now) / 1000)),
  };
}

interface Generations {
  dossiers_generation: number | null;
  contacts_generation: number | null;
}

const cacheGenerations = (organizationId: string, row: Generations): CacheGenerations => ({
  organizationId,
  dossiers: row.dossiers_generation ?? 0,
  contacts: row.contacts_generation ?? 0,
});

/** Requests waiting for their organization's next statement on this node. */
interface Waiting<F> {
  hash: string;
  ahead: ReadAhead | undefined;
  now: number;
  settle: (admission: Admission<F> | null) => void;
  fail: (error: unknown) => void;
}

/**
 * Admissions of one kind (keys or sessions) in lanes, one per organization: at most LANE_STATEMENTS
 * statements in flight per organization on this node, and the requests that arrive meanwhile go
 * together in the next (their number counted at once, in their order). Without lanes, the requests of one organization
 * would queue on its counter's row lock inside PostgreSQL, each waking the next: on this 2-core
 * machine that held an organization to about 250 requests a second (docs/performance.md). A hash whose organization the
 * node has not seen yet goes alone, and tells it (a key's or a session's organization never changes).
 */
class Lanes<F> {
  private readonly lanes = new Map<string, { waiting: Waiting<F>[]; running: number }>();
  private readonly organizationOf = new Map<string, string>();

  constructor(
    /** The admissions of `asked` (their organization's, or found by the first hash when null), by index. */
    private readonly run: (organizationId: string | null, asked: Asked[], now: number) => Promise<{ organizationId: string; found: Map<number, Admission<F>> } | null>,
  ) {}

  admit(hash: string, now: number, ahead: ReadAhead | undefined): Promise<Admission<F> | null> {
    const organizationId = this.organizationOf.get(hash);
    if (organizationId === undefined) {
      return this.run(null, [{ hash, ahead }], now).then((done) => {
        if (!done) return null;
        if (this.organizationOf.size >= MAX_HASHES_KNOWN) this.organizationOf.clear();
        this.organizationOf.set(hash, done.organizationId);
        return done.found.get(0) ?? null;
      });
    }
    return new Promise((settle, fail) => {
      let lane = this.lanes.get(organizationId);
      if (!lane) this.lanes.set(organizationId, (lane = { waiting: [], running: 0 }));
      lane.waiting.push({ hash, ahead, now, settle, fail });
      if (lane.running < LANE_STATEMENTS) void this.drain(organizationId, lane);
    });
  }

  /** Runs the lane's waiting requests, then those that came meanwhile, until none wait. */
  private async drain(organizationId: string, lane: { waiting: Waiting<F>[]; running: number }) {
    lane.running++;
    while (lane.waiting.length > 0) {
      const batch = lane.waiting.splice(0, MAX_BATCH);
      try {
        const done = await this.run(organizationId, batch, Math.max(...batch.map((w) => w.now)));
        batch.forEach((w, i) => w.settle(done?.found.get(i) ?? null));
      } catch (error) {
        for (const w of batch) w.fail(error);
      }
    }
    if (--lane.running === 0) this.lanes.delete(organizationId);
  }
}

/** A request as its lane sends it: its key's or session's hash, and what it reads ahead. */
interface Asked {
  hash: string;
  ahead: ReadAhead | undefined;
}

/** The dossier ids `asked` read ahead, by index, for the statement (NULL when none does). */
const dossierIds = (asked: Asked[]) => (asked.some((a) => a.ahead) ? asked.map((a) => a.ahead?.dossierId ?? null) : null);

/** What a statement's row read ahead for its request: only a counted request of a Growth
 * organization's (drizzle-pg/0011), else nothing. */
function readAhead(organizationId: string, asked: Asked, row: Counted & { plan: string; dossier: Record<string, unknown> | null }): ReadAheadDone | undefined {
  if (!asked.ahead || !row.counted || row.plan !== "growth") return undefined;
  return { organizationId, dossierId: asked.ahead.dossierId, dossier: row.dossier && dossierOfJson(row.dossier) };
}

/** Statements in flight per organization on one node. One would leave a request that arrives just
 * after a statement left to wait for all of it before its own begins; two halve that wait, and
 * keep the queue on the counter's row lock to one statement. */
const LANE_STATEMENTS = 2;
/** Requests counted by one statement at most. */
const MAX_BATCH = 256;
/** Hashes whose organization a node remembers (then it starts again). */
const MAX_HASHES_KNOWN = 100_000;

/**
 * The shared counters on `sql` (the pool: each statement commits by itself). Each admission also
 * answers the generations its statement read, for the answer caches of the request it admits.
 */
export function pgCounters(sql: SQL): SharedCounters {
  const touched = new Set<string>();
  let swept = -Infinity;
  // Old hits go by subject (an index range each), at most every SWEEP_EVERY_MS of the callers'
  // clock; the request does not wait for it.
  const sweep = (subject: string, now: number) => {
    touched.add(subject);
    if (now - swept < SWEEP_EVERY_MS && now >= swept) return;
    swept = now;
    const subjects = [...touched];
    touched.clear();
    void (async () => {
      for (const s of subjects) await sql`DELETE FROM rate_hits WHERE subject = ${s} AND at < ${now - HITS_KEPT_MS}::bigint`;
    })().catch(() => {});
  };

  type Read = { plan: string; dossier: Record<string, unknown> | null };
  const keys = new Lanes<KeyHolder>(async (organizationId, asked, now) => {
    const ids = dossierIds(asked);
    const rows = await sql<(KeyHolder & Counted & Generations & Read & { i: number })[]>`SELECT * FROM dossier_admit_keys_reading(${organizationId}::text,
      ${sql.array(asked.map((a) => a.hash), "TEXT")}, ${ids && sql.array(ids, "TEXT")}::text[], ${new Date(now).toISOString()}::text, ${now}::bigint)`;
    if (rows.length === 0) return null;
    const organizationOf = rows[0].organization_id;
    sweep(organizationOf, now);
    const generations = cacheGenerations(organizationOf, rows[0]);
    const found = new Map<number, Admission<KeyHolder>>();
    for (const row of rows) {
      const { id, organization_id, scopes, expires_at, revoked_at, plan, rate_limit } = row;
      found.set(row.i, {
        found: { id, organization_id, scopes, expires_at, revoked_at, plan, rate_limit },
        rate: decided(row, now),
        generations,
        read: readAhead(organizationOf, asked[row.i], row),
      });
    }
    return { organizationId: organizationOf, found };
  });

  // Sessions end by time: the cut-offs are those of the statement's `now` (the latest of its
  // requests'), with the lifetimes the service gives (the same on every call).
  let lifetimes = { idleMs: 0, lifetimeMs: 0 };
  const sessions = new Lanes<SessionLookup>(async (organizationId, asked, now) => {
    const idleSince = new Date(now - lifetimes.idleMs).toISOString();
    const madeSince = new Date(now - lifetimes.lifetimeMs).toISOString();
    const ids = dossierIds(asked);
    const rows = await sql<(SessionLookup & Counted & Generations & Read & { i: number })[]>`SELECT * FROM dossier_admit_sessions_reading(${organizationId}::text,
      ${sql.array(asked.map((a) => a.hash), "TEXT")}, ${ids && sql.array(ids, "TEXT")}::text[], ${idleSince}::text, ${madeSince}::text, ${now}::bigint)`;
    if (rows.length === 0) return null;
    const organizationOf = rows[0].organizationId;
    sweep(organizationOf, now);
    const generations = cacheGenerations(organizationOf, rows[0]);
    const found = new Map<number, Admission<SessionLookup>>();
    for (const row of rows) {
      const { id, organizationId, memberId, csrfToken, createdAt, lastUsedAt, role, disabledAt, plan, rateLimit } = row;
      found.set(row.i, {
        found: { id, organizationId, memberId, csrfToken, createdAt, lastUsedAt, role, disabledAt, plan, rateLimit },
        rate: decided(row, now),
        generations,
        read: readAhead(organizationOf, asked[row.i], row),
      });
    }
    return { organizationId: organizationOf, found };
  });

  return {
    admitKey: (keyHash: string, now: number, ahead?: ReadAhead) => keys.admit(keyHash, now, ahead),

    admitSession(tokenHash: string, now: number, ends: { idleMs: number; lifetimeMs: number }, ahead?: ReadAhead) {
      lifetimes = ends;
      return sessions.admit(tokenHash, now, ahead);
    },

    async hit(subject: string, limit: number, now: number): Promise<RateDecision> {
      const [row] = await sql<(Omit<Counted, "lim"> & { lim_out: number })[]>`SELECT * FROM dossier_count_hit(${subject}::text, ${limit}::integer, ${now}::bigint)`;
      sweep(subject, now);
      return decided({ ...row, lim: row.lim_out }, now);
    },

    async failSignIn(address: string, keys: { key: string; limit: number }[], windowMs: number, now: number) {
      // Under a lock on the address (both keys name it), so that attempts sent to several nodes at
      // once are counted one after the other, as in one process.
      const ids = await sql.begin(async (tx) => {
        await tx`SELECT pg_advisory_xact_lock(${SIGN_IN_LOCK}::integer, hashtext(${address}))`;
        let wait = 0;
        for (const { key, limit } of keys) {
          const [row] = await tx<{ at: number }[]>`SELECT at::float8 AS at FROM sign_in_failures
            WHERE key = ${key} AND at > ${now - windowMs}::bigint ORDER BY at DESC LIMIT 1 OFFSET ${limit - 1}::bigint`;
          if (row) wait = Math.max(wait, row.at + windowMs - now);
        }
        if (wait > 0) return wait;
        const made: number[] = [];
        for (const { key } of keys) {
          const [row] = await tx<{ id: number }[]>`INSERT INTO sign_in_failures (key, at) VALUES (${key}, ${now}::bigint) RETURNING id::float8 AS id`;
          made.push(row.id);
        }
        // Failures past the window count no more, whoever made them (sign-ins are few: argon2id).
        await tx`DELETE FROM sign_in_failures WHERE at < ${now - windowMs - HITS_KEPT_MS}::bigint`;
        return made;
      });
      if (typeof ids === "number") return { wait: ids };
      return { wait: 0, forgive: () => sql`DELETE FROM sign_in_failures WHERE id = ANY(${sql.array(ids, "BIGINT")})`.then(() => {}) };
    },
  };
}
