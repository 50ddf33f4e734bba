// The counts every node of one PostgreSQL database shares (C8, C15, C19, C20), and the request's
// bookkeeping in one statement: the principal of its API key or session, its organization's count
// in the sliding 60 s window, and the organization's cache generations (src/db/pg/answer-cache.ts).
// One round trip, whatever else the request reads; no principal is remembered on a node, so a key
// revoked, a member's role changed or a plan changed on another node holds on the next request.
// A request that will show one dossier by id (GET /dossiers/{id}) has it read by the same statement
// (its ReadAhead, drizzle-pg/0011): its only round trip, as a bare SELECT of the row would be.
// The statements call functions (drizzle-pg/0010 to 0015), which PL/pgSQL plans once per connection.
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
//
// Each statement that counts holds the counter's row to its commit, so one organization's counts
// run one at a time in the database. A node whose organization is busy reserves places of the
// window beside a count and gives them to its next requests, whose statement then only reads (no
// lock): drizzle-pg/0015 says why the window stays exact.
import type { SQL } from "bun";
import type { KeyHolder } from "../principals";
import type { SessionLookup } from "../sessions";
import type { Admission, CacheGenerations, RateDecision, ReadAhead, ReadAheadDone, SharedCounters } from "../store";
import type { DossierRecords } from "./answer-cache";
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

/** Places of an organization's window this node reserved (drizzle-pg/0015): `next` to `last`, given
 * to its requests until `until` (the callers' clock), with the window as their statement saw it. */
interface Reserved {
  lim: number;
  next: number;
  last: number;
  edge: number;
  leaving: number | null;
  until: number;
}

/** A lane's count: the admissions of `asked` by index, and the places reserved beside them. */
interface Counting<F> {
  organizationId: string;
  found: Map<number, Admission<F>>;
  reserved: Reserved | null;
}

/** What a request given a reserved place reads (its principal, plan, limit, generations, dossier). */
interface Reading<F> {
  found: F;
  plan: string;
  lim: number;
  generations: CacheGenerations;
  read: ReadAheadDone | undefined;
}

/** The two statements of a lane: the count (NULL organization: the first hash's), which reserves
 * `extra` places besides, and the read of requests given reserved places. */
interface LaneStatements<F> {
  count(organizationId: string | null, asked: Asked[], now: number, extra: number): Promise<Counting<F> | null>;
  read(organizationId: string, asked: Asked[], now: number): Promise<Map<number, Reading<F>>>;
}

/** How long a node gives its reserved places (the hit of their statement is dated at its end). */
const RESERVED_FOR_MS = 500;
/** Places a node asks for at once: from MIN_ASK, twice as many each time the last were all given,
 * half as many each time some lapsed. */
const MIN_ASK = 8;
const MAX_ASK = 256;

/**
 * The places each organization's window reserved for this node (both kinds of admission draw on
 * them), and how many to ask for next. One count statement at a time asks.
 */
class Reserves {
  private readonly of = new Map<string, { places: Reserved | null; ask: number; asking: boolean }>();

  /** Up to `wanted` places of `organizationId` that may be given at `now`: the first, and how many. */
  take(organizationId: string, wanted: number, now: number): { places: Reserved; first: number; count: number } | null {
    const places = this.of.get(organizationId)?.places;
    if (!places || now > places.until || places.next > places.last) return null;
    const count = Math.min(wanted, places.last - places.next + 1);
    const first = places.next;
    places.next += count;
    return { places, first, count };
  }

  /** How many places a count statement of a busy organization asks for (0: another one asks). */
  ask(organizationId: string): number {
    let state = this.of.get(organizationId);
    if (!state) {
      if (this.of.size >= MAX_HASHES_KNOWN) this.of.clear();
      this.of.set(organizationId, (state = { places: null, ask: MIN_ASK, asking: false }));
    }
    if (state.asking) return 0;
    state.asking = true;
    const last = state.places;
    if (last) state.ask = last.next > last.last ? Math.min(MAX_ASK, state.ask * 2) : Math.max(MIN_ASK, state.ask / 2);
    return state.ask;
  }

  /** The places a count statement that asked got (null: none, or it failed). */
  got(organizationId: string, places: Reserved | null) {
    const state = this.of.get(organizationId);
    if (!state) return;
    state.asking = false;
    if (places) state.places = places;
  }

  /** Gives no more of the organization's places (its plan or limit changed since they were reserved). */
  drop(organizationId: string) {
    const state = this.of.get(organizationId);
    if (state) state.places = null;
  }
}

/** C8, C10: what a request given reserved place `place` sees of the window. */
const decidedReserved = (places: Reserved, place: number, now: number): RateDecision =>
  decided({ edge: places.edge, lim: places.lim, size: place - places.edge, counted: true, leaving: places.leaving }, now);

/**
 * Admissions of one kind (keys or sessions) in lanes, one per organization: at most LANE_STATEMENTS
 * statements in flight per organization on this node, and the requests that arrive meanwhile go
 * together in the next (their number counted at once, in their order). Without lanes, the requests of one organization
 * would queue on its counter's row lock inside PostgreSQL, each waking the next: on this 2-core
 * machine that held an organization to about 250 requests a second (docs/performance.md). A hash whose organization the
 * node has not seen yet goes alone, and tells it (a key's or a session's organization never changes).
 *
 * Requests that arrive while a statement of their organization is out make it busy: its next count
 * reserves places besides (Reserves), and the node gives them to the requests after it, whose
 * statement only reads, with no lock (drizzle-pg/0015), until they run out or lapse. An
 * organization whose requests come one at a time reserves nothing: each is counted by its own
 * statement and sees the window exactly.
 */
class Lanes<F> {
  private readonly lanes = new Map<string, { waiting: Waiting<F>[]; running: number }>();
  private readonly organizationOf = new Map<string, string>();

  constructor(
    private readonly statements: LaneStatements<F>,
    private readonly reserves: Reserves,
  ) {}

  admit(hash: string, now: number, ahead: ReadAhead | undefined): Promise<Admission<F> | null> {
    const organizationId = this.organizationOf.get(hash);
    if (organizationId === undefined) {
      return this.statements.count(null, [{ hash, ahead }], now, 0).then((done) => {
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
    let busy = lane.running > 1;
    while (lane.waiting.length > 0) {
      const batch = lane.waiting.splice(0, MAX_BATCH);
      const now = Math.max(...batch.map((w) => w.now));
      const taken = this.reserves.take(organizationId, batch.length, now);
      const given = taken ? batch.slice(0, taken.count) : [];
      const counted = batch.slice(given.length);
      await Promise.all([
        taken && given.length > 0 ? this.readGiven(organizationId, given, now, taken) : undefined,
        counted.length > 0 ? this.count(organizationId, counted, now, busy) : undefined,
      ]);
      busy = true;
    }
    if (--lane.running === 0) this.lanes.delete(organizationId);
  }

  private async count(organizationId: string, batch: Waiting<F>[], now: number, busy: boolean) {
    const extra = busy ? this.reserves.ask(organizationId) : 0;
    let reserved: Reserved | null = null;
    try {
      const done = await this.statements.count(organizationId, batch, now, extra);
      reserved = done?.reserved ?? null;
      batch.forEach((w, i) => w.settle(done?.found.get(i) ?? null));
    } catch (error) {
      for (const w of batch) w.fail(error);
    } finally {
      if (extra > 0) this.reserves.got(organizationId, reserved);
    }
  }

  /** Requests given places `taken.first` on: each found one takes the next, in order. */
  private async readGiven(organizationId: string, batch: Waiting<F>[], now: number, taken: { places: Reserved; first: number }) {
    try {
      const read = await this.statements.read(organizationId, batch, now);
      let place = taken.first;
      batch.forEach((w, i) => {
        const row = read.get(i);
        if (!row) return w.settle(null);
        if (row.plan !== "growth" || row.lim !== taken.places.lim) this.reserves.drop(organizationId);
        w.settle({ found: row.found, rate: decidedReserved(taken.places, place++, w.now), generations: row.generations, read: row.read });
      });
    } catch (error) {
      for (const w of batch) w.fail(error);
    }
  }
}

/** A request as its lane sends it: its key's or session's hash, and what it reads ahead. */
interface Asked {
  hash: string;
  ahead: ReadAhead | undefined;
}

/** The dossier ids `asked` read ahead, by index, for the statement (NULL when none does). */
const dossierIds = (asked: Asked[]) => (asked.some((a) => a.ahead) ? asked.map((a) => a.ahead?.dossierId ?? null) : null);

/** By request, the dossiers generation under which the node holds the dossier it reads ahead
 * (NULL: it does not; all NULL when the organization is not known yet). */
const knownGenerations = (held: DossierRecords | undefined, organizationId: string | null, asked: Asked[]) =>
  held && organizationId !== null && asked.some((a) => a.ahead) ? asked.map((a) => (a.ahead && held.generationOf(organizationId, a.ahead.dossierId)) ?? null) : null;

interface ReadRow {
  counted: boolean;
  plan: string;
  dossier: Record<string, unknown> | null;
  /** The statement left the dossier out: the node holds it under the generation read (drizzle-pg/0016). */
  dossier_known: boolean;
  dossiers_generation: number;
}

/** What a statement's row read ahead for its request: only a counted request of a Growth
 * organization's (drizzle-pg/0011), else nothing; nothing too when the statement left out the
 * record the node held and it has gone since (the request reads it by itself). */
function readAhead(held: DossierRecords | undefined, organizationId: string, asked: Asked, row: ReadRow): ReadAheadDone | undefined {
  if (!asked.ahead || !row.counted || row.plan !== "growth") return undefined;
  const { dossierId } = asked.ahead;
  if (!row.dossier_known) return { organizationId, dossierId, dossier: row.dossier && dossierOfJson(row.dossier) };
  const dossier = held?.heldUnder(organizationId, dossierId, row.dossiers_generation);
  return dossier && { organizationId, dossierId, dossier };
}

/** The places a count statement's rows say it reserved (from > to: none). */
function reservedOf(row: Counted & { reserved_from: number; reserved_to: number; leaving: number | null }, now: number): Reserved | null {
  if (row.reserved_from > row.reserved_to) return null;
  return { lim: row.lim, next: row.reserved_from, last: row.reserved_to, edge: row.edge, leaving: row.leaving, until: now + RESERVED_FOR_MS };
}

const keyHolder = ({ id, organization_id, scopes, expires_at, revoked_at, plan, rate_limit }: KeyHolder): KeyHolder => ({
  id,
  organization_id,
  scopes,
  expires_at,
  revoked_at,
  plan,
  rate_limit,
});

const sessionLookup = ({ id, organizationId, memberId, csrfToken, createdAt, lastUsedAt, role, disabledAt, plan, rateLimit }: SessionLookup): SessionLookup => ({
  id,
  organizationId,
  memberId,
  csrfToken,
  createdAt,
  lastUsedAt,
  role,
  disabledAt,
  plan,
  rateLimit,
});

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
export function pgCounters(sql: SQL, held?: DossierRecords): SharedCounters {
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

  type Read = Omit<ReadRow, "counted">;
  type Reserving = { reserved_from: number; reserved_to: number };
  const reserves = new Reserves();
  const keys = new Lanes<KeyHolder>(
    {
      async count(organizationId, asked, now, extra) {
        const ids = dossierIds(asked);
        const known = knownGenerations(held, organizationId, asked);
        const rows = await sql<(KeyHolder & Counted & Generations & Read & Reserving & { i: number })[]>`SELECT * FROM dossier_admit_keys_known(${organizationId}::text,
          ${sql.array(asked.map((a) => a.hash), "TEXT")}, ${ids && sql.array(ids, "TEXT")}::text[], ${known && sql.array(known, "FLOAT8")}::float8[],
          ${new Date(now).toISOString()}::text,
          ${extra}::bigint, ${RESERVED_FOR_MS}::bigint, ${now}::bigint)`;
        if (rows.length === 0) return null;
        const organizationOf = rows[0].organization_id;
        sweep(organizationOf, now);
        const generations = cacheGenerations(organizationOf, rows[0]);
        const found = new Map<number, Admission<KeyHolder>>();
        for (const row of rows) {
          found.set(row.i, { found: keyHolder(row), rate: decided(row, now), generations, read: readAhead(held, organizationOf, asked[row.i], row) });
        }
        return { organizationId: organizationOf, found, reserved: reservedOf(rows[0], now) };
      },
      async read(organizationId, asked, now) {
        const ids = dossierIds(asked);
        const known = knownGenerations(held, organizationId, asked);
        const rows = await sql<(KeyHolder & Generations & Read & { i: number })[]>`SELECT * FROM dossier_read_keys_known(${organizationId}::text,
          ${sql.array(asked.map((a) => a.hash), "TEXT")}, ${ids && sql.array(ids, "TEXT")}::text[], ${known && sql.array(known, "FLOAT8")}::float8[],
          ${new Date(now).toISOString()}::text)`;
        const found = new Map<number, Reading<KeyHolder>>();
        for (const row of rows) {
          const read = readAhead(held, organizationId, asked[row.i], { ...row, counted: true });
          found.set(row.i, { found: keyHolder(row), plan: row.plan, lim: row.rate_limit, generations: cacheGenerations(organizationId, row), read });
        }
        return found;
      },
    },
    reserves,
  );

  // Sessions end by time: the cut-offs are those of the statement's `now` (the latest of its
  // requests'), with the lifetimes the service gives (the same on every call).
  let lifetimes = { idleMs: 0, lifetimeMs: 0 };
  const cutOffs = (now: number) => [new Date(now - lifetimes.idleMs).toISOString(), new Date(now - lifetimes.lifetimeMs).toISOString()];
  const sessions = new Lanes<SessionLookup>(
    {
      async count(organizationId, asked, now, extra) {
        const [idleSince, madeSince] = cutOffs(now);
        const ids = dossierIds(asked);
        const known = knownGenerations(held, organizationId, asked);
        const rows = await sql<(SessionLookup & Counted & Generations & Read & Reserving & { i: number })[]>`SELECT * FROM dossier_admit_sessions_known(${organizationId}::text,
          ${sql.array(asked.map((a) => a.hash), "TEXT")}, ${ids && sql.array(ids, "TEXT")}::text[], ${known && sql.array(known, "FLOAT8")}::float8[],
          ${idleSince}::text, ${madeSince}::text,
          ${extra}::bigint, ${RESERVED_FOR_MS}::bigint, ${now}::bigint)`;
        if (rows.length === 0) return null;
        const organizationOf = rows[0].organizationId;
        sweep(organizationOf, now);
        const generations = cacheGenerations(organizationOf, rows[0]);
        const found = new Map<number, Admission<SessionLookup>>();
        for (const row of rows) {
          found.set(row.i, { found: sessionLookup(row), rate: decided(row, now), generations, read: readAhead(held, organizationOf, asked[row.i], row) });
        }
        return { organizationId: organizationOf, found, reserved: reservedOf(rows[0], now) };
      },
      async read(organizationId, asked, now) {
        const [idleSince, madeSince] = cutOffs(now);
        const ids = dossierIds(asked);
        const known = knownGenerations(held, organizationId, asked);
        const rows = await sql<(SessionLookup & Generations & Read & { i: number })[]>`SELECT * FROM dossier_read_sessions_known(${organizationId}::text,
          ${sql.array(asked.map((a) => a.hash), "TEXT")}, ${ids && sql.array(ids, "TEXT")}::text[], ${known && sql.array(known, "FLOAT8")}::float8[],
          ${idleSince}::text, ${madeSince}::text)`;
        const found = new Map<number, Reading<SessionLookup>>();
        for (const row of rows) {
          const read = readAhead(held, organizationId, asked[row.i], { ...row, counted: true });
          found.set(row.i, { found: sessionLookup(row), plan: row.plan, lim: row.rateLimit, generations: cacheGenerations(organizationId, row), read });
        }
        return found;
      },
    },
    reserves,
  );

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
