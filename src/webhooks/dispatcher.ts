// The webhook dispatcher (C7, C10): the shell that wires the outbox store (src/db/outbox.ts, all
// its SQL), the fair queue (fair-queue.ts, every decision of order, fairness and memory bounds;
// pure) and the sender (send.ts: signing, HTTP, time limit). It finds work, starts what the queue
// says, records the results in batches, and keeps the timers.
//
// How it finds work, without a sleep-poll loop, and the store's rules it keeps (C11):
//  - after each durable commit the store calls its commit listeners (store.onCommit), and this one
//    reads the events newer than the last one seen (a primary-key range read) at once, before the
//    next group commits: an event is read, and so sent, only once its commit is durable.
//    Any other read waits while the store has a commit in flight (store.settling);
//  - its results are committed through store.write (one unit per batch);
//  - one timer is armed at the earliest due time of the deliveries waiting for a retry;
//  - a light scan every 5 s picks up work that another process queued (`dossier webhook retry`).
// Time: every time decision (what is due, when the timer fires, when a retry is due) comes from
// ctx.now, the injected clock; the timers only wake it up.
// Memory bound: requests in flight at most laneSendingMax + retrySendingMax (4,096 + 512), each
// holding its event's body and one connection; deliveries held waiting for their turn: see
// fair-queue.ts.
// Durability: an event stays `pending` with its due time until the attempt's result is committed,
// so an attempt in flight at a crash is attempted again at the next start (at least once). Results
// are committed in batches (one transaction per turn of the event loop).
import type { Context } from "../context";
import type { AttemptCheck, PendingRow } from "../db/outbox";
import type { Store } from "../db/store";
import { unseal } from "../secrets";
import { FairQueue, type Start, type Take } from "./fair-queue";
import { startLaneDispatcher } from "./lanes";
import { recordOutcomes, type Outcome } from "./record";
import { sendSigned } from "./send";
import { signingSecrets } from "./signature";
import { WakeUp } from "./wake-up";

export interface Dispatcher {
  /** Stops taking new work and waits for the attempts in flight to be recorded. */
  stop(): Promise<void>;
}

const BATCH = 1000; // rows read per query
const NEW_ROUNDS = 5; // batches of new events read per turn of the event loop (then it goes on later)
const LOW_WATER = 1000; // a due read cut short (retries memory full) goes on below this many held
const ERROR_BACKOFF_MS = 1000;
// Results are committed in batches: at most this long after the first of a batch, or at once when
// this many are waiting. Fewer fsyncs block the event loop; a crash in between only means those
// deliveries are sent again (at least once).
const FLUSH_DELAY_MS = 20;
const FLUSH_MAX = 500;

/** The dispatcher of the store's engine: on SQLite this file's, the one process that uses the data
 * folder; on PostgreSQL the lanes' (lanes.ts), one of several nodes on the database (C19). */
export function startDispatcher(ctx: Context): Dispatcher {
  return ctx.store.engine === "postgres" ? startLaneDispatcher(ctx) : new WebhookDispatcher(ctx);
}

class WebhookDispatcher implements Dispatcher {
  private stopped = false;
  private readonly stopListening: () => void;
  private readonly outbox: Store["outboxReader"];
  private readonly queue = new FairQueue();
  /** Attempts not yet recorded (stop() waits for them). */
  private readonly inFlight = new Set<Promise<void>>();
  // Sealed secret → clear secret: an AES-GCM open per attempt is avoidable work on the hot path.
  private readonly secrets = new Map<string, string>();

  // What to read on the next pump.
  /** Null until the first pump has read it. */
  private lastSeq: number | null = null;
  /** One pump at a time: a pump asked for while one reads runs after it. */
  private pumping = false;
  private pumpAgain = false;
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
  private pumpQueued = false;
  private continueQueued = false;

  /** Wakes the pump at the earliest due time. */
  private readonly wakeUp = new WakeUp(
    () => this.ctx.now().getTime(),
    () => {
      this.wantDue = true;
      this.pump();
    },
  );
  private readonly scanTimer: ReturnType<typeof setInterval>;

  private outcomes: Outcome[] = [];
  private flushing: Promise<void> | null = null;
  private flushResolve: (() => void) | null = null;
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  /** Batches of results handed to the store and not yet committed. */
  private readonly committing = new Set<Promise<void>>();

  constructor(private readonly ctx: Context) {
    this.outbox = ctx.store.outboxReader;
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
      this.wakeUp.stop();
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
    // attempted after the restart that recovers the file (SQLite) or the reconnection (PostgreSQL).
    if (this.stopped || this.ctx.store.failure !== null) return;
    // What is read now may not be durable yet: the commit listener pumps once it is.
    if (this.ctx.store.settling) return;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    void this.pumpOnce().finally(() => {
      this.pumping = false;
      if (this.pumpAgain) {
        this.pumpAgain = false;
        this.pump();
      }
    });
  }

  private async pumpOnce() {
    try {
      // Events before the first read of it are found by the first due read (their first attempt is due).
      this.lastSeq ??= await this.outbox.lastSeq();
      // A due read cut short because the retries held were at their bound goes on once they drain.
      if (this.moreDue && this.queue.held.retries < LOW_WATER) this.wantDue = true;
      if (this.wantNew) await this.loadNew(this.lastSeq);
      if (this.wantDue) await this.loadDue();
      await this.startWork();
    } catch (error) {
      this.ctx.logger.log("error", "webhook dispatcher: cannot read the outbox", { error: String(error) });
      this.wantDue = true;
      this.dueFromStart = true;
      this.wakeUp.armAt(this.ctx.now().getTime() + ERROR_BACKOFF_MS);
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
  private async loadNew(lastSeq: number) {
    this.wantNew = false;
    const now = this.ctx.now().getTime();
    for (let round = 0; round < NEW_ROUNDS; round++) {
      const rows = await this.outbox.newEvents(lastSeq, BATCH);
      for (const row of rows) {
        lastSeq = Math.max(lastSeq, row.seq);
        this.take(row, now);
      }
      this.lastSeq = lastSeq;
      if (rows.length < BATCH) return;
    }
    this.wantNew = true;
    this.continueLater();
  }

  /** Deliveries due now (retries, work left by a previous run or another process), then the timer.
   * A read continues where the previous one stopped; a pass over the whole due set starts when
   * asked (dueFromStart) once the current one has reached its end. */
  private async loadDue() {
    this.wantDue = false;
    const now = this.ctx.now().getTime();
    if (!this.moreDue && this.dueFromStart) {
      this.dueCursor = [-1, 0];
      this.dueFromStart = false;
    }
    this.moreDue = false;
    const rows = await this.outbox.dueEvents(now, this.dueCursor, BATCH);
    let full = false;
    for (const row of rows) {
      if (this.take(row, now) === "full") {
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
    const next = await this.outbox.nextDueAfter(now);
    if (next !== null) this.wakeUp.armAt(next);
  }

  /** A row not yet due (by the clock) waits for its time; a due one goes to the queue. */
  private take(row: PendingRow, now: number): Take {
    if (row.next_attempt_at !== null && row.next_attempt_at > now) {
      this.wakeUp.armAt(row.next_attempt_at);
      return "skipped";
    }
    return this.queue.take(row);
  }

  private async startWork() {
    const now = this.ctx.now().getTime();
    const asks = this.queue.refillAsks();
    const found = await Promise.all(
      asks.map(({ organizationId, retries, seq, limit }) =>
        retries ? this.outbox.organizationRetries(organizationId, seq, now, limit) : this.outbox.organizationFirstAttempts(organizationId, seq, now, limit),
      ),
    );
    asks.forEach((ask, i) => this.queue.refilled(ask, found[i]));
    for (const start of this.queue.startable()) this.launch(start);
    if (this.queue.wantsRefill) this.schedulePump();
  }

  private launch(start: Start) {
    const { row } = start;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.queue.answered(start);
      this.schedulePump();
    };
    const work = this.attempt(row, release)
      .catch((error) => this.ctx.logger.log("error", "webhook dispatcher: attempt failed", { event_id: row.id, error: String(error) }))
      .finally(() => {
        this.inFlight.delete(work);
        this.queue.finished(row.seq);
        release();
        this.schedulePump(); // more work may be waiting for a slot
      });
    this.inFlight.add(work);
  }

  private unsealed(sealed: string): string {
    let secret = this.secrets.get(sealed);
    if (secret === undefined) {
      if (this.secrets.size >= 1_000) this.secrets.clear();
      secret = unseal(this.ctx.masterKey, sealed);
      this.secrets.set(sealed, secret);
    }
    return secret;
  }

  /** One attempt: check the delivery is still due, sign, send, then record (batched). */
  private async attempt(row: PendingRow, release: () => void): Promise<void> {
    const { ctx } = this;
    const org = row.organization_id;
    if (this.queue.isGone(org)) return; // the 410 being recorded skips it
    const current: AttemptCheck | null = await this.outbox.check(row.seq);
    if (!current || current.status !== "pending") return;
    if (current.next_attempt_at !== null && current.next_attempt_at > ctx.now().getTime()) {
      this.wakeUp.armAt(current.next_attempt_at);
      return;
    }
    if (!current.url || !current.secret || current.disabled_at) {
      // No enabled endpoint any more (C7: not delivered later). A result like any other: committed
      // through the store (C11).
      await ctx.store.write(() => ctx.store.outbox.markSkipped(row.seq));
      return;
    }
    const at = ctx.now();
    const secrets = signingSecrets({ ...current, secret: current.secret }, at).map((sealed) => this.unsealed(sealed));
    const result = await sendSigned(current.url, row, secrets, at, ctx.config.webhookTimeoutMs, ctx.now, ctx.config.webhookAllowPrivate);
    const endedAt = ctx.now().getTime();
    // A 410: nothing more goes to that organization until the disabling is committed.
    if (result.statusCode === 410) this.queue.markGone(org);
    // The answer is in: the organization's next first attempt may go (C7 order, no head-of-line wait).
    release();
    await this.record({ row, at, endedAt, attemptsBefore: current.attempts, url: current.url, secret: current.secret, result });
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
    const goneOrgs = this.queue.goneOrganizations();
    const { ctx } = this;
    let nextTimes: number[] = [];
    try {
      nextTimes = await recordOutcomes(ctx, batch);
    } catch (error) {
      // The deliveries stay pending with their due time: they are attempted again (at least once).
      ctx.logger.log("error", "webhook dispatcher: cannot record attempts", { error: String(error), count: batch.length });
      this.dueFromStart = true;
      if (!this.stopped) this.wakeUp.armAt(ctx.now().getTime() + ERROR_BACKOFF_MS);
    }
    for (const next of nextTimes) {
      // A retry due at or before where the due reads stand (a wait of ~0 ms) is read from the start.
      if (next <= this.dueCursor[0]) this.dueFromStart = true;
      this.wakeUp.armAt(next);
    }
    for (const org of goneOrgs) this.queue.clearGone(org);
    if (goneOrgs.length > 0) {
      this.dueFromStart = true;
      this.wantDue = true;
      this.schedulePump();
    }
  }
}
