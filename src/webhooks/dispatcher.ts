// The webhook dispatcher (C7, C10): delivers the outbox's pending events.
//
// How it finds work, without a sleep-poll loop:
//  - a commit that recorded events calls ctx.onEventsCommitted(), which reads the events newer than
//    the last one seen (a primary-key range read) on the next microtask;
//  - one timer is armed at the earliest due time of the deliveries waiting for a retry;
//  - a light scan every 5 s picks up work that another process queued (`dossier webhook retry`).
// Order and fairness:
//  - first attempts of an organization go out one at a time, in event order (its "lane"); the lane
//    moves on as soon as an answer (or a failure) is in, so a delivery waiting for its retry never
//    holds back later events; organizations have separate lanes, so a slow endpoint holds back
//    only its own organization;
//  - retries run beside the lanes, a few per organization at a time;
//  - memory is bounded: at most LANE_MAX first attempts per organization and MAX_QUEUED in all are
//    held; a full lane is refilled from the database by organization, in event order.
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
/** How often the dispatcher looks for work queued by another process (C10: within 5 s). */
export const SCAN_INTERVAL_MS = 5000;
const BATCH = 1000; // rows read per query
const MAX_QUEUED = 5000; // due deliveries held in memory, waiting for a slot
const LOW_WATER = 1000; // below this many, read on where a read cut short stopped
const LANE_MAX = 100; // first attempts held in memory per organization (the rest wait in the database)
const MAX_SENDING = 256; // requests waiting for their answer, all organizations together
const MAX_RETRIES_PER_ORG = 8; // retries in flight per organization
const MAX_TIMER_MS = 2 ** 31 - 1;
const ERROR_BACKOFF_MS = 1000;
// Results are committed in batches: at most this long after the first of a batch, or at once when
// this many are waiting. Fewer fsyncs block the event loop; a crash in between only means those
// deliveries are sent again (at least once).
const FLUSH_DELAY_MS = 20;
const FLUSH_MAX = 500;

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
  private readonly previousWake: () => void;

  // Due deliveries known to this process: queued (in a lane or the retry list) or in flight.
  private readonly known = new Set<number>();
  private readonly lanes = new Map<string, PendingRow[]>(); // first attempts, event order
  private readonly laneBusy = new Set<string>();
  private retries: PendingRow[] = [];
  private readonly retriesInFlight = new Map<string, number>();
  private queued = 0;
  /** Attempts not yet recorded (stop() waits for them). */
  private readonly inFlight = new Set<Promise<void>>();
  /** Requests still waiting for their answer (bounded by MAX_SENDING). */
  private sending = 0;
  /** Organizations whose endpoint just answered 410: nothing more is sent until that is recorded. */
  private readonly gone = new Set<string>();
  // Sealed secret → clear secret: an AES-GCM open per attempt is avoidable work on the hot path.
  private readonly secrets = new Map<string, string>();

  // What to read on the next pump.
  private lastSeq: number;
  private wantNew = false;
  private wantDue = true;
  private moreNew = false;
  private moreDue = false;
  /** Where the last due read stopped (next_attempt_at, seq); reads continue from there. */
  private dueCursor: [number, number] = [-1, 0];
  /** Organizations whose lane was full: their next first attempts wait in the database and are
   * read by organization, in event order, as the lane drains (the value: the last seq taken). */
  private readonly overflow = new Map<string, number>();
  private pumpQueued = false;

  private timer: ReturnType<typeof setTimeout> | null = null;
  private timerAt = Infinity;
  private readonly scanTimer: ReturnType<typeof setInterval>;

  private outcomes: Outcome[] = [];
  private flushing: Promise<void> | null = null;
  private flushResolve: (() => void) | null = null;
  private flushTimer: ReturnType<typeof setTimeout> | null = null;

  private readonly sql: Database;
  private readonly newRows: Statement<PendingRow, [number, number]>;
  private readonly dueRows: Statement<PendingRow, [number, number, number, number]>;
  private readonly orgRows: Statement<PendingRow, [string, number, number, number]>;
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
    this.previousWake = ctx.onEventsCommitted;
    ctx.onEventsCommitted = () => {
      this.wantNew = true;
      this.schedulePump();
    };
    this.scanTimer = setInterval(() => {
      this.wantDue = true;
      this.schedulePump();
    }, SCAN_INTERVAL_MS);
    this.scanTimer.unref?.();
    // Deliveries already due at start are attempted at once, the others at their due time (C10).
    this.schedulePump();
  }

  async stop(): Promise<void> {
    if (!this.stopped) {
      this.stopped = true;
      this.ctx.onEventsCommitted = this.previousWake;
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
  }

  private schedulePump() {
    if (this.pumpQueued || this.stopped) return;
    this.pumpQueued = true;
    queueMicrotask(() => this.pump());
  }

  private pump() {
    this.pumpQueued = false;
    if (this.stopped) return;
    try {
      // Reads cut short (memory bounds) resume once the queue has drained enough.
      if (this.moreNew && this.queued < LOW_WATER) this.wantNew = true;
      if (this.moreDue && this.queued < LOW_WATER) this.wantDue = true;
      if (this.wantNew) this.loadNew();
      if (this.wantDue) this.loadDue();
      this.startWork();
    } catch (error) {
      this.ctx.logger.log("error", "webhook dispatcher: cannot read the outbox", { error: String(error) });
      this.wantDue = true;
      this.armAt(this.ctx.now().getTime() + ERROR_BACKOFF_MS);
    }
  }

  /** Events committed since the last read (seq is the commit order: one writer at a time). */
  private loadNew() {
    this.wantNew = false;
    this.moreNew = false;
    const now = this.ctx.now().getTime();
    for (let round = 0; round < MAX_QUEUED / BATCH + 1; round++) {
      if (this.queued >= MAX_QUEUED) {
        this.moreNew = true;
        return;
      }
      const rows = this.newRows.all(this.lastSeq, BATCH);
      for (const row of rows) {
        this.lastSeq = Math.max(this.lastSeq, row.seq);
        this.take(row, now);
      }
      if (rows.length < BATCH) return;
    }
    this.moreNew = true;
  }

  /** Deliveries due now (retries, work left by a previous run or another process), then the timer.
   * A read continues where the previous one stopped; a pass that reaches the end starts over. */
  private loadDue() {
    this.wantDue = false;
    const now = this.ctx.now().getTime();
    if (this.queued < MAX_QUEUED) {
      if (!this.moreDue) this.dueCursor = [-1, 0]; // a new pass
      this.moreDue = false;
      const [afterAt, afterSeq] = this.dueCursor;
      const rows = this.dueRows.all(now, afterAt, afterSeq, BATCH);
      for (const row of rows) this.take(row, now);
      if (rows.length === BATCH) {
        const last = rows[rows.length - 1];
        this.dueCursor = [last.next_attempt_at!, last.seq];
        this.moreDue = true;
      } else {
        this.dueCursor = [-1, 0];
      }
    } else {
      this.moreDue = true;
    }
    const next = this.nextDue.get(now)?.at;
    if (next != null) this.armAt(next);
  }

  /** Takes a due row into memory; false when it stays in the database for now. */
  private take(row: PendingRow, now: number, refill = false): boolean {
    if (this.known.has(row.seq) || this.gone.has(row.organization_id)) return false;
    if (row.next_attempt_at !== null && row.next_attempt_at > now) {
      this.armAt(row.next_attempt_at);
      return false;
    }
    const org = row.organization_id;
    const lane = row.attempts > 0 ? undefined : this.lanes.get(org);
    if (row.attempts === 0 && !refill) {
      // A slow organization does not fill the memory queue: its lane is refilled from the database.
      const last = this.overflow.get(org);
      if (last !== undefined && row.seq > last) return false;
      if (lane !== undefined && lane.length >= LANE_MAX) {
        this.overflow.set(org, lane[lane.length - 1].seq);
        return false;
      }
    }
    this.known.add(row.seq);
    this.queued++;
    if (row.attempts > 0) {
      this.retries.push(row);
      return true;
    }
    if (!lane) this.lanes.set(row.organization_id, [row]);
    else if (lane[lane.length - 1].seq < row.seq) lane.push(row);
    else {
      const at = lane.findIndex((other) => other.seq > row.seq);
      lane.splice(at < 0 ? lane.length : at, 0, row);
    }
    return true;
  }

  private startWork() {
    for (const [org, last] of this.overflow) {
      const lane = this.lanes.get(org);
      if (lane && lane.length >= LANE_MAX / 2) continue;
      const now = this.ctx.now().getTime();
      const rows = this.orgRows.all(org, last, now, LANE_MAX);
      for (const row of rows) this.take(row, now, true);
      if (rows.length < LANE_MAX) this.overflow.delete(org); // caught up: new events flow again
      else this.overflow.set(org, rows[rows.length - 1].seq);
    }
    for (const [org, lane] of this.lanes) {
      if (this.sending >= MAX_SENDING) return;
      if (this.laneBusy.has(org)) continue;
      const row = lane.shift()!;
      if (lane.length === 0) this.lanes.delete(org);
      this.queued--;
      this.laneBusy.add(org);
      this.launch(row, true);
    }
    if (this.retries.length === 0) return;
    const waiting: PendingRow[] = [];
    for (const row of this.retries) {
      const org = row.organization_id;
      const running = this.retriesInFlight.get(org) ?? 0;
      if (this.sending >= MAX_SENDING || running >= MAX_RETRIES_PER_ORG) {
        waiting.push(row);
        continue;
      }
      this.queued--;
      this.retriesInFlight.set(org, running + 1);
      this.launch(row, false);
    }
    this.retries = waiting;
  }

  private launch(row: PendingRow, inLane: boolean) {
    const org = row.organization_id;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.sending--;
      if (inLane) this.laneBusy.delete(org);
      else {
        const running = (this.retriesInFlight.get(org) ?? 1) - 1;
        if (running > 0) this.retriesInFlight.set(org, running);
        else this.retriesInFlight.delete(org);
      }
      this.schedulePump();
    };
    this.sending++;
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
    const lane = this.lanes.get(org);
    if (lane) {
      for (const row of lane) this.known.delete(row.seq);
      this.queued -= lane.length;
      this.lanes.delete(org);
    }
    const kept = this.retries.filter((row) => row.organization_id !== org);
    for (const row of this.retries) if (row.organization_id === org) this.known.delete(row.seq);
    this.queued -= this.retries.length - kept.length;
    this.retries = kept;
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
    try {
      this.flush();
    } finally {
      this.flushing = null;
      resolve?.();
    }
  }

  /** Commits the results gathered in the last few ms in one transaction (one fsync for many). */
  private flush() {
    const batch = this.outcomes.splice(0);
    const goneOrgs = [...this.gone];
    const { ctx } = this;
    const schedule = ctx.config.webhookRetrySchedule;
    const nextTimes: number[] = [];
    const logged: Record<string, unknown>[] = [];
    try {
      this.sql
        .transaction(() => {
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
        })
        .immediate();
    } catch (error) {
      // The deliveries stay pending with their due time: they are attempted again (at least once).
      ctx.logger.log("error", "webhook dispatcher: cannot record attempts", { error: String(error), count: batch.length });
      if (!this.stopped) this.armAt(ctx.now().getTime() + ERROR_BACKOFF_MS);
      logged.length = 0;
    }
    // Logged once committed (issue 8: one line per attempt), so the log never shows an attempt
    // that a crash took back.
    for (const fields of logged) {
      const level = fields.outcome === "succeeded" || fields.outcome === "retry" ? "info" : "warn";
      ctx.logger.log(level, "webhook attempt", fields);
    }
    for (const next of nextTimes) this.armAt(next);
    for (const org of goneOrgs) this.gone.delete(org);
    if (goneOrgs.length > 0) {
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
