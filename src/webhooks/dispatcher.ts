// The webhook dispatcher (C7, C10): delivers the outbox's pending events.
//
// How it finds work, without a sleep-poll loop:
//  - after each durable commit the store calls its commit listeners (store.onCommit), and this one
//    reads the events newer than the last one seen (a primary-key range read) at once, before the
//    next group commits: an event is read, and so sent, only once its commit is durable (C11).
//    Any other read waits while the store has a commit in flight (store.settling);
//  - one timer is armed at the earliest due time of the deliveries waiting for a retry;
//  - a light scan every 5 s picks up work that another process queued (`dossier webhook retry`).
// Order and fairness (C7: "a slow or failing endpoint does not hold back other organizations'
// deliveries"; "a new event is attempted within 100 ms of its commit"):
//  - first attempts of an organization go out one at a time, in event order (its "lane"); the lane
//    moves on as soon as an answer (or a failure) is in, so a delivery waiting for its retry never
//    holds back later events;
//  - budgets: first attempts and retries have separate ones, so retries never take a first
//    attempt's place. First attempts: one in flight per organization, LANE_SENDING_MAX in all (an
//    organization whose lane is idle starts at once unless that many OTHER organizations each
//    have a request in flight at the same time). Retries: MAX_RETRIES_PER_ORG per organization and
//    RETRY_SENDING_MAX in all. Requests go through node:http (send.ts), which has no process-wide
//    limit of its own (Bun's fetch queues everything beyond 256 requests in flight);
//  - an organization's backlog waits in the database, not in memory: once its lane holds LANE_MAX
//    events (or memory is tight), its later events are read by organization, in event order, as
//    its lane drains ("overflow"); reading new events never stops for a busy organization, so a
//    healthy organization's new event is read and sent at once whatever the others' backlogs.
// Memory bound (whatever the backlog in the database):
//  - requests in flight: at most LANE_SENDING_MAX + RETRY_SENDING_MAX (4,096 + 512), each holding
//    its event's body and one connection;
//  - events held in memory waiting for their turn: at most LANE_HARD first attempts (LANE_MAX per
//    organization while fewer than MAX_LANE_QUEUED are held, LANE_TIGHT per organization beyond)
//    and MAX_RETRY_QUEUED retries (RETRY_HELD_PER_ORG per organization; an organization's further
//    due retries stay in the database and are read by organization as its queue drains);
//  - per organization with a backlog in the database: a map entry or two (its id and a sequence
//    number), whatever the size of the backlog.
// Durability: an event stays `pending` with its due time until the attempt's result is committed,
// so an attempt in flight at a crash is attempted again at the next start (at least once). Results
// are committed in batches (one transaction per turn of the event loop).
import type { Database, Statement } from "bun:sqlite";
import type { Context } from "../context";
import { skipPending } from "../services/webhooks";
import { unseal } from "../secrets";
import { retryDelay } from "./schedule";
import { isSuccess, sendAttempt, type SendResult } from "./send";
import { signatureHeader, signingSecrets } from "./signature";

export interface Dispatcher {
  /** Stops taking new work and waits for the attempts in flight to be recorded. */
  stop(): Promise<void>;
}

export const USER_AGENT = "Dossier-Webhooks/1";
const BATCH = 1000; // rows read per query
const NEW_ROUNDS = 5; // batches of new events read per turn of the event loop (then it goes on later)
const LANE_SENDING_MAX = 4096; // first attempts in flight, all organizations together (one per organization)
const RETRY_SENDING_MAX = 512; // retries in flight, all organizations together
const MAX_RETRIES_PER_ORG = 4; // retries in flight per organization
const LANE_MAX = 32; // first attempts held in memory per organization (the rest wait in the database)
const MAX_LANE_QUEUED = 5000; // beyond this many first attempts held, each lane holds at most LANE_TIGHT
const LANE_TIGHT = 1;
const LANE_HARD = 2 * MAX_LANE_QUEUED; // never more first attempts held than this
const MAX_RETRY_QUEUED = 5000; // due retries held in memory, waiting for a slot
const RETRY_HELD_PER_ORG = 32; // due retries held per organization (the rest wait in the database)
const LOW_WATER = 1000; // a due read cut short (retries memory full) goes on below this many
const MAX_TIMER_MS = 2 ** 31 - 1;
const ERROR_BACKOFF_MS = 1000;
// Results are committed in batches: at most this long after the first of a batch, or at once when
// this many are waiting. Fewer fsyncs block the event loop; a crash in between only means those
// deliveries are sent again (at least once).
const FLUSH_DELAY_MS = 20;
const FLUSH_MAX = 500;

/** What take() did with a row. */
type Take = 0 | 1 | 2;
const TAKEN: Take = 0;
const SKIPPED: Take = 1;
const FULL: Take = 2;

interface PendingRow {
  seq: number;
  id: string;
  organization_id: string;
  type: string;
  body: string;
  attempts: number;
  next_attempt_at: number | null;
}

interface CheckRow {
  status: string;
  attempts: number;
  next_attempt_at: number | null;
  url: string | null;
  secret: string | null;
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  disabled_at: string | null;
}

interface Outcome {
  row: PendingRow;
  at: Date;
  endedAt: number;
  attemptsBefore: number;
  url: string;
  secret: string;
  result: SendResult;
}

export function startDispatcher(ctx: Context): Dispatcher {
  return new WebhookDispatcher(ctx);
}

class WebhookDispatcher implements Dispatcher {
  private stopped = false;
  private readonly stopListening: () => void;

  // Due deliveries known to this process: held in memory (a lane or a retry queue) or in flight.
  private readonly known = new Set<number>();
  /** First attempts held per organization, in event order (the one in flight is not among them). */
  private readonly lanes = new Map<string, PendingRow[]>();
  private laneQueued = 0;
  /** Organizations with their first attempt in flight (one each). */
  private readonly laneSending = new Set<string>();
  /** Organizations whose lane holds an event and has none in flight: they start next, in turn. */
  private readonly ready = new Set<string>();
  /** Due retries held per organization. */
  private readonly retryQueues = new Map<string, PendingRow[]>();
  private retryQueued = 0;
  /** Retries in flight per organization, and in all. */
  private readonly retrySending = new Map<string, number>();
  private retriesSending = 0;
  /** Organizations with retries held and fewer than MAX_RETRIES_PER_ORG in flight, in turn. */
  private readonly retryReady = new Set<string>();
  /** Organizations with due retries left in the database (they held RETRY_HELD_PER_ORG already):
   * read by organization as their queue drains. The value: every such retry has a seq at least it. */
  private readonly retryOverflow = new Map<string, number>();
  private readonly retryRefillWanted = new Set<string>();
  /** Attempts not yet recorded (stop() waits for them). */
  private readonly inFlight = new Set<Promise<void>>();
  /** Organizations whose endpoint just answered 410: nothing more is sent until that is recorded. */
  private readonly gone = new Set<string>();
  // Sealed secret → clear secret: an AES-GCM open per attempt is avoidable work on the hot path.
  private readonly secrets = new Map<string, string>();

  // What to read on the next pump.
  private lastSeq: number;
  private wantNew = false;
  private wantDue = true;
  private moreDue = false;
  /** Where the last due read stopped (next_attempt_at, seq); reads continue from there, so a
   * timer's read costs what became due since, not the whole backlog of due rows. Every due row at
   * or before it was taken, is in flight, or is covered by its organization's overflow. */
  private dueCursor: [number, number] = [-1, 0];
  /** The next due read starts over from the first due row (the 5 s scan: work queued by another
   * process; after a failed commit; after a 410; when a retry was recorded behind the cursor). */
  private dueFromStart = true;
  /** Organizations whose next first attempts wait in the database (their lane was full, or memory
   * tight), read by organization in event order as the lane drains. The value: every such event
   * has a larger seq (events at or below it are in memory, in flight or done). */
  private readonly overflow = new Map<string, number>();
  /** Overflowing organizations whose lane has room: their next events are read on the next pump. */
  private readonly refillWanted = new Set<string>();
  private pumpQueued = false;
  private continueQueued = false;

  private timer: ReturnType<typeof setTimeout> | null = null;
  private timerAt = Infinity;
  private readonly scanTimer: ReturnType<typeof setInterval>;

  private outcomes: Outcome[] = [];
  private flushing: Promise<void> | null = null;
  private flushResolve: (() => void) | null = null;
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  /** Batches of results handed to the store and not yet committed. */
  private readonly committing = new Set<Promise<void>>();

  private readonly sql: Database;
  private readonly newRows: Statement<PendingRow, [number, number]>;
  private readonly dueRows: Statement<PendingRow, [number, number, number, number]>;
  private readonly orgRows: Statement<PendingRow, [string, number, number, number]>;
  private readonly orgRetryRows: Statement<PendingRow, [string, number, number, number]>;
  private readonly nextDue: Statement<{ at: number | null }, [number]>;
  private readonly check: Statement<CheckRow, [number]>;
  private readonly insertAttempt: Statement<unknown, [number, string, number | null, string | null, number, string | null]>;
  private readonly markSucceeded: Statement<unknown, [number, number]>;
  private readonly markFailure: Statement<unknown, [string, number | null, number | null, string | null, number]>;
  private readonly markSkipped: Statement<unknown, [number]>;
  private readonly disableEndpoint: Statement<unknown, [string, string, string, string]>;

  constructor(private readonly ctx: Context) {
    const sql = (this.sql = ctx.store.sqlite);
    const columns = `seq, id, organization_id, type, body, attempts, next_attempt_at`;
    this.newRows = sql.query(`SELECT ${columns} FROM events WHERE seq > ? AND status = 'pending' ORDER BY seq LIMIT ?`);
    this.dueRows = sql.query(
      `SELECT ${columns} FROM events
       WHERE status = 'pending' AND next_attempt_at <= ?1 AND next_attempt_at >= ?2 AND (next_attempt_at, seq) > (?2, ?3)
       ORDER BY next_attempt_at, seq LIMIT ?4`,
    );
    this.orgRows = sql.query(
      `SELECT ${columns} FROM events
       WHERE organization_id = ? AND seq > ? AND status = 'pending' AND attempts = 0 AND next_attempt_at <= ? ORDER BY seq LIMIT ?`,
    );
    // An organization's due retries from a seq on (events_org_seq), in seq order: the order of
    // retries does not matter (C7 orders first attempts).
    this.orgRetryRows = sql.query(
      `SELECT ${columns} FROM events
       WHERE organization_id = ? AND seq >= ? AND status = 'pending' AND attempts > 0 AND next_attempt_at <= ? ORDER BY seq LIMIT ?`,
    );
    this.nextDue = sql.query(`SELECT MIN(next_attempt_at) AS at FROM events WHERE status = 'pending' AND next_attempt_at > ?`);
    this.check = sql.query(
      `SELECT e.status, e.attempts, e.next_attempt_at, w.url, w.secret, w.previous_secret, w.previous_secret_expires_at, w.disabled_at
       FROM events e LEFT JOIN webhook_endpoints w ON w.organization_id = e.organization_id WHERE e.seq = ?`,
    );
    this.insertAttempt = sql.query(
      `INSERT INTO delivery_attempts (event_seq, at, status_code, error, duration_ms, response_snippet) VALUES (?, ?, ?, ?, ?, ?)`,
    );
    // A delivery skipped while its attempt was in flight, and then received, is `succeeded`.
    this.markSucceeded = sql.query(
      `UPDATE events SET status = CASE WHEN status IN ('pending', 'skipped') THEN 'succeeded' ELSE status END,
         attempts = attempts + 1, next_attempt_at = NULL, last_status_code = ?, last_error = NULL WHERE seq = ?`,
    );
    // A failure only moves a delivery that is still pending (a skip is never revived, C10).
    this.markFailure = sql.query(
      `UPDATE events SET status = CASE WHEN status = 'pending' THEN ?1 ELSE status END,
         next_attempt_at = CASE WHEN status = 'pending' THEN ?2 ELSE next_attempt_at END,
         attempts = attempts + 1, last_status_code = ?3, last_error = ?4 WHERE seq = ?5`,
    );
    this.markSkipped = sql.query(`UPDATE events SET status = 'skipped', next_attempt_at = NULL WHERE seq = ? AND status = 'pending'`);
    this.disableEndpoint = sql.query(
      `UPDATE webhook_endpoints SET disabled_at = ?1, updated_at = ?1
       WHERE organization_id = ?2 AND secret = ?3 AND url = ?4 AND disabled_at IS NULL`,
    );

    this.lastSeq = sql.query<{ seq: number | null }, []>(`SELECT MAX(seq) AS seq FROM events`).get()?.seq ?? 0;
    this.stopListening = ctx.store.onCommit(() => {
      this.wantNew = true;
      this.pump();
    });
    this.scanTimer = setInterval(() => {
      this.wantDue = true;
      this.dueFromStart = true;
      this.schedulePump();
    }, ctx.config.webhookScanMs);
    this.scanTimer.unref?.();
    // Deliveries already due at start are attempted at once, the others at their due time (C10).
    this.schedulePump();
  }

  async stop(): Promise<void> {
    if (!this.stopped) {
      this.stopped = true;
      this.stopListening();
      clearInterval(this.scanTimer);
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      if (this.flushTimer) {
        clearTimeout(this.flushTimer);
        this.flushTimer = setTimeout(() => this.runFlush(), 0);
      }
    }
    // Attempts in flight finish and their results are committed; nothing new starts.
    for (let round = 0; this.inFlight.size > 0 && round < 1000; round++) await Promise.allSettled([...this.inFlight]);
    if (this.flushing) await this.flushing;
    await Promise.all(this.committing);
  }

  private schedulePump() {
    if (this.pumpQueued || this.stopped) return;
    this.pumpQueued = true;
    queueMicrotask(() => this.pump());
  }

  private pump() {
    this.pumpQueued = false;
    // After a failed write no attempt could be recorded (C11): deliveries stay pending, and are
    // attempted after the restart that recovers the file.
    if (this.stopped || this.ctx.store.failure !== null) return;
    // What is read now may not be durable yet: the commit listener pumps once it is.
    if (this.ctx.store.settling) return;
    try {
      // A due read cut short because the retries held were at their bound goes on once they drain.
      if (this.moreDue && this.retryQueued < LOW_WATER) this.wantDue = true;
      if (this.wantNew) this.loadNew();
      if (this.wantDue) this.loadDue();
      this.startWork();
    } catch (error) {
      this.ctx.logger.log("error", "webhook dispatcher: cannot read the outbox", { error: String(error) });
      this.wantDue = true;
      this.dueFromStart = true;
      this.armAt(this.ctx.now().getTime() + ERROR_BACKOFF_MS);
    }
  }

  /** Goes on with a long read on a later turn of the event loop (answers and timers run between). */
  private continueLater() {
    if (this.continueQueued || this.stopped) return;
    this.continueQueued = true;
    setTimeout(() => {
      this.continueQueued = false;
      this.pump();
    }, 0);
  }

  /** Events committed since the last read (seq is the commit order: one writer at a time). Every
   * row is taken or left to its organization's refill, so reading never waits for a busy one. */
  private loadNew() {
    this.wantNew = false;
    const now = this.ctx.now().getTime();
    for (let round = 0; round < NEW_ROUNDS; round++) {
      const rows = this.newRows.all(this.lastSeq, BATCH);
      for (const row of rows) {
        this.lastSeq = Math.max(this.lastSeq, row.seq);
        this.take(row, now);
      }
      if (rows.length < BATCH) return;
    }
    this.wantNew = true;
    this.continueLater();
  }

  /** Deliveries due now (retries, work left by a previous run or another process), then the timer.
   * A read continues where the previous one stopped; a pass over the whole due set starts when
   * asked (dueFromStart) once the current one has reached its end. */
  private loadDue() {
    this.wantDue = false;
    const now = this.ctx.now().getTime();
    if (!this.moreDue && this.dueFromStart) {
      this.dueCursor = [-1, 0];
      this.dueFromStart = false;
    }
    this.moreDue = false;
    const [afterAt, afterSeq] = this.dueCursor;
    const rows = this.dueRows.all(now, afterAt, afterSeq, BATCH);
    let full = false;
    for (const row of rows) {
      if (this.take(row, now) === FULL) {
        full = true;
        break;
      }
      this.dueCursor = [row.next_attempt_at!, row.seq];
    }
    if (full) {
      this.moreDue = true; // goes on once the retries held drop below LOW_WATER (pump)
    } else if (rows.length === BATCH) {
      this.moreDue = true;
      this.wantDue = true;
      this.continueLater();
    }
    const next = this.nextDue.get(now)?.at;
    if (next != null) this.armAt(next);
  }

  /** How many first attempts a lane may hold: fewer once memory is tight. */
  private laneLimit(): number {
    return this.laneQueued < MAX_LANE_QUEUED ? LANE_MAX : LANE_TIGHT;
  }

  /** An overflowing organization's lane is refilled once it is down to half (one read per
   * LANE_MAX / 2 deliveries, not one per delivery). */
  private askRefill(org: string) {
    if (this.overflow.has(org) && (this.lanes.get(org)?.length ?? 0) <= this.laneLimit() / 2) this.refillWanted.add(org);
  }

  /**
   * Takes a due row into memory (TAKEN). SKIPPED: it stays in the database for now and is read
   * again later (by its organization's refill, or at its due time). FULL: the retries held are at
   * their bound (a due read stops there and goes on once they drain).
   */
  private take(row: PendingRow, now: number, refill = false): Take {
    if (this.known.has(row.seq) || this.gone.has(row.organization_id)) return SKIPPED;
    if (row.next_attempt_at !== null && row.next_attempt_at > now) {
      this.armAt(row.next_attempt_at);
      return SKIPPED;
    }
    const org = row.organization_id;
    if (row.attempts > 0) {
      if (this.retryQueued >= MAX_RETRY_QUEUED) return FULL;
      const queue = this.retryQueues.get(org);
      if (queue && queue.length >= RETRY_HELD_PER_ORG) {
        // The organization's further due retries wait in the database, read by organization as its
        // queue drains: one organization's backlog does not fill the memory others need.
        this.retryOverflow.set(org, Math.min(this.retryOverflow.get(org) ?? Infinity, row.seq));
        return SKIPPED;
      }
      this.known.add(row.seq);
      this.retryQueued++;
      if (queue) queue.push(row);
      else this.retryQueues.set(org, [row]);
      if ((this.retrySending.get(org) ?? 0) < MAX_RETRIES_PER_ORG) this.retryReady.add(org);
      return TAKEN;
    }
    const lane = this.lanes.get(org);
    if (!refill) {
      const last = this.overflow.get(org);
      if (last !== undefined && row.seq > last) return SKIPPED; // its organization's refill reads it
      if ((lane?.length ?? 0) >= this.laneLimit() || this.laneQueued >= LANE_HARD) {
        // The organization's backlog waits in the database; it is read by organization, in event
        // order, as its lane drains (or, when memory was full, as soon as there is room).
        this.overflow.set(org, Math.min(last ?? Infinity, row.seq - 1));
        if (!lane && !this.laneSending.has(org)) this.refillWanted.add(org); // nothing else would ask
        return SKIPPED;
      }
    }
    this.known.add(row.seq);
    this.laneQueued++;
    if (!lane) this.lanes.set(org, [row]);
    else if (lane[lane.length - 1].seq < row.seq) lane.push(row);
    else {
      const at = lane.findIndex((other) => other.seq > row.seq);
      lane.splice(at < 0 ? lane.length : at, 0, row);
    }
    if (!this.laneSending.has(org)) this.ready.add(org);
    return TAKEN;
  }

  /** Reads the next events of overflowing organizations whose lane (or retry queue) has room. */
  private refill() {
    if (this.retryRefillWanted.size > 0) this.refillRetries();
    if (this.refillWanted.size === 0) return;
    const now = this.ctx.now().getTime();
    for (const org of this.refillWanted) {
      if (this.laneQueued >= LANE_HARD) return; // the rest wait for room
      this.refillWanted.delete(org);
      const last = this.overflow.get(org);
      if (last === undefined || this.gone.has(org)) continue;
      const room = Math.min(this.laneLimit() - (this.lanes.get(org)?.length ?? 0), LANE_HARD - this.laneQueued);
      if (room <= 0) continue; // asked again as its lane drains
      const rows = this.orgRows.all(org, last, now, room);
      for (const row of rows) this.take(row, now, true);
      if (rows.length < room) this.overflow.delete(org); // caught up: its new events flow again
      else this.overflow.set(org, rows[rows.length - 1].seq);
    }
  }

  private refillRetries() {
    const now = this.ctx.now().getTime();
    for (const org of this.retryRefillWanted) {
      if (this.retryQueued >= MAX_RETRY_QUEUED) return; // the rest wait for room
      this.retryRefillWanted.delete(org);
      const from = this.retryOverflow.get(org);
      if (from === undefined || this.gone.has(org)) continue;
      const room = Math.min(RETRY_HELD_PER_ORG - (this.retryQueues.get(org)?.length ?? 0), MAX_RETRY_QUEUED - this.retryQueued);
      if (room <= 0) continue; // asked again as its queue drains
      const rows = this.orgRetryRows.all(org, from, now, room);
      for (const row of rows) this.take(row, now);
      if (rows.length < room) this.retryOverflow.delete(org); // caught up (later ones come with their due time)
      else this.retryOverflow.set(org, rows[rows.length - 1].seq + 1);
    }
  }

  private startWork() {
    this.refill();
    // First attempts: one in flight per organization; the organizations take turns.
    for (const org of this.ready) {
      if (this.laneSending.size >= LANE_SENDING_MAX) break;
      this.ready.delete(org);
      const lane = this.lanes.get(org);
      if (!lane || this.laneSending.has(org)) continue;
      const row = lane.shift()!;
      if (lane.length === 0) this.lanes.delete(org);
      this.laneQueued--;
      this.askRefill(org);
      this.launch(row, true);
    }
    // Retries: their own budget, a few per organization, the organizations taking turns.
    for (const org of this.retryReady) {
      if (this.retriesSending >= RETRY_SENDING_MAX) break;
      this.retryReady.delete(org);
      const queue = this.retryQueues.get(org);
      const running = this.retrySending.get(org) ?? 0;
      if (!queue || running >= MAX_RETRIES_PER_ORG) continue;
      const row = queue.shift()!;
      if (queue.length === 0) this.retryQueues.delete(org);
      else if (running + 1 < MAX_RETRIES_PER_ORG) this.retryReady.add(org); // its next turn
      this.retryQueued--;
      if (this.retryOverflow.has(org) && queue.length < RETRY_HELD_PER_ORG / 2) this.retryRefillWanted.add(org);
      this.launch(row, false);
    }
    if ((this.refillWanted.size > 0 && this.laneQueued < LANE_HARD) || (this.retryRefillWanted.size > 0 && this.retryQueued < MAX_RETRY_QUEUED)) {
      this.schedulePump();
    }
  }

  private launch(row: PendingRow, inLane: boolean) {
    const org = row.organization_id;
    if (inLane) this.laneSending.add(org);
    else {
      this.retriesSending++;
      this.retrySending.set(org, (this.retrySending.get(org) ?? 0) + 1);
    }
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      if (inLane) {
        this.laneSending.delete(org);
        if (this.lanes.has(org)) this.ready.add(org);
        this.askRefill(org);
      } else {
        this.retriesSending--;
        const running = (this.retrySending.get(org) ?? 1) - 1;
        if (running > 0) this.retrySending.set(org, running);
        else this.retrySending.delete(org);
        if (this.retryQueues.has(org)) this.retryReady.add(org);
      }
      this.schedulePump();
    };
    const work = this.attempt(row, release)
      .catch((error) => this.ctx.logger.log("error", "webhook dispatcher: attempt failed", { event_id: row.id, error: String(error) }))
      .finally(() => {
        this.inFlight.delete(work);
        this.known.delete(row.seq);
        release();
        this.schedulePump(); // more work may be waiting for a slot
      });
    this.inFlight.add(work);
  }

  /** One attempt: check the delivery is still due, sign, send, then record (batched). */
  private unsealed(sealed: string): string {
    let secret = this.secrets.get(sealed);
    if (secret === undefined) {
      if (this.secrets.size >= 1_000) this.secrets.clear();
      secret = unseal(this.ctx.masterKey, sealed);
      this.secrets.set(sealed, secret);
    }
    return secret;
  }

  private async attempt(row: PendingRow, release: () => void): Promise<void> {
    const { ctx } = this;
    const org = row.organization_id;
    if (this.gone.has(org)) return; // the 410 being recorded skips it
    const current = this.check.get(row.seq);
    if (!current || current.status !== "pending") return;
    if (current.next_attempt_at !== null && current.next_attempt_at > ctx.now().getTime()) {
      this.armAt(current.next_attempt_at);
      return;
    }
    if (!current.url || !current.secret || current.disabled_at) {
      // No enabled endpoint any more (C7: not delivered later).
      this.markSkipped.run(row.seq);
      return;
    }
    const at = ctx.now();
    const timestamp = Math.floor(at.getTime() / 1000);
    const headers = {
      "content-type": "application/json",
      "user-agent": USER_AGENT,
      "x-service-event-id": row.id,
      "x-service-event-type": row.type,
      "x-service-signature": signatureHeader(
        signingSecrets({ ...current, secret: current.secret }, at).map((sealed) => this.unsealed(sealed)),
        timestamp,
        row.body,
      ),
    };
    const result = await sendAttempt(current.url, row.body, headers, ctx.config.webhookTimeoutMs, ctx.now);
    const endedAt = ctx.now().getTime();
    if (result.statusCode === 410) this.markGone(org);
    // The answer is in: the organization's next first attempt may go (C7 order, no head-of-line wait).
    release();
    await this.record({ row, at, endedAt, attemptsBefore: current.attempts, url: current.url, secret: current.secret, result });
  }

  /** A 410: send nothing more to that organization until the disabling is committed. */
  private markGone(org: string) {
    this.gone.add(org);
    this.overflow.delete(org);
    this.refillWanted.delete(org);
    this.ready.delete(org);
    this.retryReady.delete(org);
    this.retryOverflow.delete(org);
    this.retryRefillWanted.delete(org);
    const lane = this.lanes.get(org);
    if (lane) {
      for (const row of lane) this.known.delete(row.seq);
      this.laneQueued -= lane.length;
      this.lanes.delete(org);
    }
    const queue = this.retryQueues.get(org);
    if (queue) {
      for (const row of queue) this.known.delete(row.seq);
      this.retryQueued -= queue.length;
      this.retryQueues.delete(org);
    }
  }

  /** Queues a result for the next batch; resolves once it is committed (or its commit failed). */
  private record(outcome: Outcome): Promise<void> {
    this.outcomes.push(outcome);
    if (!this.flushing) {
      this.flushing = new Promise<void>((resolve) => {
        this.flushResolve = resolve;
        this.flushTimer = setTimeout(() => this.runFlush(), this.stopped ? 0 : FLUSH_DELAY_MS);
      });
    } else if (this.outcomes.length >= FLUSH_MAX || this.stopped) {
      if (this.flushTimer) clearTimeout(this.flushTimer);
      this.flushTimer = setTimeout(() => this.runFlush(), 0);
    }
    return this.flushing;
  }

  private runFlush() {
    const resolve = this.flushResolve;
    this.flushTimer = null;
    this.flushResolve = null;
    this.flushing = null; // results from now on go into the next batch
    const done: Promise<void> = this.flush().finally(() => {
      this.committing.delete(done);
      resolve?.();
    });
    this.committing.add(done);
  }

  /** Commits the results gathered in the last few ms in one unit of work (one flush for many). */
  private async flush() {
    const batch = this.outcomes.splice(0);
    const goneOrgs = [...this.gone];
    const { ctx } = this;
    const schedule = ctx.config.webhookRetrySchedule;
    const nextTimes: number[] = [];
    const logged: Record<string, unknown>[] = [];
    try {
      await ctx.store.write(() => {
          for (const { row, at, endedAt, attemptsBefore, url, secret, result } of batch) {
            this.insertAttempt.run(row.seq, at.toISOString(), result.statusCode, result.error, result.durationMs, result.responseSnippet);
            const line = {
              event_id: row.id,
              event_type: row.type,
              organization_id: row.organization_id,
              attempt: attemptsBefore + 1,
              status_code: result.statusCode,
              error: result.error,
              duration_ms: result.durationMs,
            };
            if (isSuccess(result)) {
              this.markSucceeded.run(result.statusCode!, row.seq);
              logged.push({ ...line, outcome: "succeeded" });
              continue;
            }
            if (result.statusCode === 410) {
              // C10: the delivery fails at once, the endpoint is disabled, pending deliveries skipped
              // (unless `webhook set` replaced the endpoint meanwhile).
              this.markFailure.run("failed", null, 410, result.error, row.seq);
              const disabled = this.disableEndpoint.run(ctx.now().toISOString(), row.organization_id, secret, url);
              if (disabled.changes > 0) skipPending(ctx, row.organization_id);
              logged.push({ ...line, outcome: "endpoint_disabled" });
              continue;
            }
            const wait = retryDelay(schedule, attemptsBefore + 1, result.retryAfterMs);
            if (wait === null) {
              this.markFailure.run("failed", null, result.statusCode, result.error, row.seq);
              logged.push({ ...line, outcome: "failed" });
            } else {
              const next = endedAt + wait;
              this.markFailure.run("pending", next, result.statusCode, result.error, row.seq);
              nextTimes.push(next);
              logged.push({ ...line, outcome: "retry", next_attempt_at: new Date(next).toISOString() });
            }
          }
      });
    } catch (error) {
      // The deliveries stay pending with their due time: they are attempted again (at least once).
      ctx.logger.log("error", "webhook dispatcher: cannot record attempts", { error: String(error), count: batch.length });
      this.dueFromStart = true;
      if (!this.stopped) this.armAt(ctx.now().getTime() + ERROR_BACKOFF_MS);
      logged.length = 0;
    }
    // Logged once committed (issue 8: one line per attempt), so the log never shows an attempt
    // that a crash took back.
    for (const fields of logged) {
      const level = fields.outcome === "succeeded" || fields.outcome === "retry" ? "info" : "warn";
      ctx.logger.log(level, "webhook attempt", fields);
    }
    for (const next of nextTimes) {
      // A retry due at or before where the due reads stand (a wait of ~0 ms) is read from the start.
      if (next <= this.dueCursor[0]) this.dueFromStart = true;
      this.armAt(next);
    }
    for (const org of goneOrgs) this.gone.delete(org);
    if (goneOrgs.length > 0) {
      this.dueFromStart = true;
      this.wantDue = true;
      this.schedulePump();
    }
  }

  /** Arms the one timer for `at` (epoch ms) unless it is already armed earlier. */
  private armAt(at: number) {
    if (this.stopped || at >= this.timerAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    const delay = Math.min(Math.max(0, at - this.ctx.now().getTime()), MAX_TIMER_MS);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.timerAt = Infinity;
      this.wantDue = true;
      this.pump();
    }, delay);
    this.timer.unref?.();
  }
}
