// The webhook dispatcher on PostgreSQL (C7, C10, C19): any number of `dossier serve` nodes on one
// database, each delivery attempt made by one of them.
//
// Lanes. An organization's deliveries are one lane, and a node delivers only the lanes it holds: it
// claims them (src/db/pg/outbox.ts, pgLaneQueries.claim: the free lanes with work due, locked FOR
// UPDATE SKIP LOCKED and given a lease in one short statement), renews their leases every third of
// the lease (DOSSIER_LEASE, at most 60 s) while it holds them, and gives back a lane that has been
// idle for two renewals, so that the work spreads over the nodes as it comes. Holding whole lanes
// keeps C7's order: an organization's first attempts go out one at a time, in event order, from one
// node. A node killed mid-delivery holds its lanes until their leases pass; then another node's
// claim takes them, and sends again what was in flight (still `pending`: at least once).
// A node starts an attempt only while its lease has more than a third of its length left: one
// renewal late, it stops, before another node may take the lane.
//
// Finding work without a sleep-poll loop:
//  - every node announces the organizations whose events to deliver it committed (a NOTIFY after
//    the commit, src/db/pg/client.ts; a skipped event gives no work); a node holding the lane reads
//    it, the others try to claim it;
//  - a lane's first attempts are read by organization after the last one read (its cursor): an
//    organization's event numbers follow its commit order (src/db/pg/events.ts numbers them under a
//    lock per organization), so no event of it can commit below the cursor later;
//  - retries (and deliveries given again by `webhook retry`) are read by their due time, for the
//    lanes held; one timer at the earliest due time of any lane, when every node tries to claim;
//  - a scan every 5 s (C10) claims what an announcement missed: a lease that passed, a lost
//    notification.
// Time: what is due comes from ctx.now (the injected clock); leases are the database's clock
// (every node's lease ends by the same clock) and performance.now() here (how long a lease is
// still sure).
import type { Context } from "../context";
import type { PendingRow } from "../db/outbox";
import type { PgStore } from "../db/pg/client";
import { pgStoreOf } from "../db/pg/store-of";
import type { LanePosition } from "../db/pg/outbox";
import { newId } from "../ids";
import { unseal } from "../secrets";
import type { Dispatcher } from "./dispatcher";
import { recordOutcomes, type Outcome } from "./record";
import { sendSigned } from "./send";
import { signingSecrets } from "./signature";
import { WakeUp } from "./wake-up";

/** Lanes one node holds at most, and claims at once. */
const LANES_MAX = 1000;
const CLAIM_BATCH = 100;
/** First attempts a lane holds in memory (the rest wait in the database). */
const LANE_HELD = 32;
/** Retries held and in flight per lane. */
const RETRIES_HELD = 32;
const RETRIES_SENDING = 4;
/** Requests in flight: first attempts (one per lane) and retries. */
const FIRST_SENDING_MAX = 4096;
const RETRY_SENDING_MAX = 512;
const DUE_BATCH = 1000;
/** A lane with nothing to do for this many renewal periods is given back. */
const IDLE_RENEWALS = 2;
const ERROR_BACKOFF_MS = 1000;
const FLUSH_DELAY_MS = 20;
const FLUSH_MAX = 500;

interface Lane {
  organizationId: string;
  /** performance.now() at which the lease may have passed (it was set before the claim or renewal
   * was sent, so the database's lease ends no earlier). */
  leaseEnd: number;
  /** The highest seq of the first attempts read (from where the previous holder left it). */
  cursor: number;
  /** First attempts read (held, in flight, being recorded) and not yet recorded: the lane's
   * position for the next holder stays below the least of them. */
  unrecorded: Set<number>;
  /** A read of first attempts after the cursor is wanted. */
  read: boolean;
  /** First attempts held, in event order. */
  held: PendingRow[];
  sending: boolean;
  retries: PendingRow[];
  retriesSending: number;
  /** A 410 is being recorded: nothing starts. */
  gone: boolean;
  /** Attempts answered whose result is not yet committed: the lane is not idle while any is, or
   * another node could take it and send again what is still `pending` in the database. */
  recording: number;
  /** performance.now() of its last start, answer or record. */
  active: number;
}

export function startLaneDispatcher(ctx: Context): Dispatcher {
  const store = pgStoreOf(ctx.store);
  if (!store) throw new Error("the lane dispatcher runs on PostgreSQL");
  return new LaneDispatcher(ctx, store);
}

class LaneDispatcher implements Dispatcher {
  /** This process, as the leases name their holder. */
  private readonly me = `node_${newId()}`;
  private readonly leaseMs: number;
  private stopped = false;
  private readonly lanes = new Map<string, Lane>();
  /** Deliveries held or in flight, until their result is recorded. */
  private readonly known = new Set<number>();
  private firstSending = 0;
  private retrySending = 0;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly secrets = new Map<string, string>();

  /** The pump under way, if any (stop() waits for it). */
  private pumping: Promise<void> | null = null;
  private pumpAgain = false;
  private pumpQueued = false;
  /** A claim of every free lane with work due; of these organizations' lanes only. */
  private claimAll = true;
  private readonly claimOrgs = new Set<string>();
  private wantDue = true;

  private unlisten: Promise<(() => Promise<void>) | null>;
  /** Wakes the pump at the earliest due time: then every free lane with work due is claimed and the lanes held read their due deliveries. */
  private readonly wakeUp = new WakeUp(
    () => this.ctx.now().getTime(),
    () => {
      this.claimAll = true;
      this.wantDue = true;
      this.pump();
    },
  );
  private readonly scanTimer: ReturnType<typeof setInterval>;
  private readonly renewTimer: ReturnType<typeof setInterval>;
  private renewing: Promise<void> | null = null;

  private outcomes: Outcome[] = [];
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  private flushWaiters: ((committed: boolean) => void)[] = [];
  private readonly committing = new Set<Promise<void>>();

  constructor(
    private readonly ctx: Context,
    private readonly store: PgStore,
  ) {
    this.leaseMs = ctx.config.leaseMs;
    ctx.logger.log("info", "webhook dispatcher: one of the nodes on the database, holding lanes with leases", { node: this.me, lease_ms: this.leaseMs });
    this.unlisten = store.lanes.listen((orgs) => this.heard(orgs)).catch((error) => {
      ctx.logger.log("error", "webhook dispatcher: cannot listen for new events; the 5 s scan finds them", { error: String(error) });
      return null;
    });
    this.scanTimer = setInterval(() => {
      this.claimAll = true;
      this.wantDue = true;
      for (const lane of this.lanes.values()) lane.read = true;
      this.schedulePump();
    }, ctx.config.webhookScanMs);
    this.scanTimer.unref?.();
    this.renewTimer = setInterval(() => {
      this.renewing ??= this.renew().finally(() => (this.renewing = null));
    }, this.leaseMs / 3);
    this.renewTimer.unref?.();
    this.schedulePump();
  }

  async stop(): Promise<void> {
    if (!this.stopped) {
      this.stopped = true;
      clearInterval(this.scanTimer);
      clearInterval(this.renewTimer);
      this.wakeUp.stop();
      const unlisten = await this.unlisten;
      await unlisten?.().catch(() => {});
    }
    // A pump under way starts nothing more once stopped; its reads end first.
    await this.pumping;
    for (let round = 0; this.inFlight.size > 0 && round < 1000; round++) await Promise.allSettled([...this.inFlight]);
    this.flushNow();
    await Promise.all(this.committing);
    await this.renewing;
    // Given back at once: another node takes them on its next claim, not after the lease.
    const held = this.positions([...this.lanes.keys()]);
    this.lanes.clear();
    await this.store.lanes.release(this.me, held).catch(() => {});
  }

  /** Organizations whose new events a node announced (none: unknown, after a reconnection). */
  private heard(orgs: string[]) {
    if (this.stopped) return;
    if (orgs.length === 0) this.claimAll = true;
    for (const org of orgs) {
      const lane = this.lanes.get(org);
      if (lane) lane.read = true;
      else this.claimOrgs.add(org);
    }
    this.schedulePump();
  }

  private schedulePump() {
    if (this.pumpQueued || this.stopped) return;
    this.pumpQueued = true;
    queueMicrotask(() => this.pump());
  }

  private pump() {
    this.pumpQueued = false;
    if (this.stopped || this.store.failure !== null) return;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = this.pumpOnce().finally(() => {
      this.pumping = null;
      if (this.pumpAgain) {
        this.pumpAgain = false;
        this.pump();
      }
    });
  }

  private async pumpOnce() {
    try {
      const now = this.ctx.now().getTime();
      await this.claim(now);
      if (this.wantDue) await this.readDue(now);
      await Promise.all([...this.lanes.values()].filter((lane) => lane.read && !lane.gone && lane.held.length <= LANE_HELD / 2).map((lane) => this.readLane(lane)));
      this.startWork();
    } catch (error) {
      this.ctx.logger.log("error", "webhook dispatcher: cannot read the outbox", { error: String(error) });
      this.claimAll = true;
      this.wantDue = true;
      this.wakeUp.armAt(this.ctx.now().getTime() + ERROR_BACKOFF_MS);
    }
  }

  /** Claims free lanes with work due: every one (claimAll) or those announced. */
  private async claim(now: number) {
    const only = this.claimAll ? null : [...this.claimOrgs];
    this.claimAll = false;
    this.claimOrgs.clear();
    const room = Math.min(CLAIM_BATCH, LANES_MAX - this.lanes.size);
    if ((only !== null && only.length === 0) || room <= 0) return;
    const sentAt = performance.now();
    const claimed = await this.store.lanes.claim(this.me, this.leaseMs, now, only, room);
    for (const { organizationId, position } of claimed) {
      // Ours before, its lease passed unrenewed: what that lane held goes, the new one reads again.
      const before = this.lanes.get(organizationId);
      if (before) this.drop(before);
      this.lanes.set(organizationId, {
        organizationId,
        leaseEnd: sentAt + this.leaseMs,
        cursor: position,
        unrecorded: new Set(),
        read: true,
        held: [],
        sending: false,
        retries: [],
        retriesSending: 0,
        gone: false,
        recording: 0,
        active: sentAt,
      });
    }
    if (claimed.length > 0) this.wantDue = true;
    // A full batch: there may be more, claimed on the next round (announced ones too: a commit of
    // more organizations than a batch announces them all at once).
    if (claimed.length === room && this.lanes.size < LANES_MAX) {
      if (only === null) this.claimAll = true;
      else for (const org of only) if (!this.lanes.has(org)) this.claimOrgs.add(org);
    }
    if (this.claimAll || this.claimOrgs.size > 0) this.schedulePump();
  }

  /** Due deliveries of the lanes held other than first attempts after their cursor: retries, and
   * deliveries given again by `webhook retry` (a first attempt again, below the cursor). */
  private async readDue(now: number) {
    this.wantDue = false;
    const orgs = [...this.lanes.values()].filter((lane) => !lane.gone).map((lane) => lane.organizationId);
    const rows = await this.store.lanes.dueOf(orgs, now, DUE_BATCH);
    for (const row of rows) {
      const lane = this.lanes.get(row.organization_id);
      if (!lane || lane.gone || this.known.has(row.seq)) continue;
      if (row.attempts === 0 && row.seq > lane.cursor) {
        lane.read = true; // the lane's next read takes it, in event order
        continue;
      }
      if (lane.retries.length + lane.retriesSending >= RETRIES_HELD) continue; // read again once they drain
      this.known.add(row.seq);
      lane.retries.push(row);
    }
    if (rows.length === DUE_BATCH) this.wantDue = true;
    const next = await this.ctx.store.outboxReader.nextDueAfter(now);
    if (next !== null) this.wakeUp.armAt(next);
  }

  /** The lane's next first attempts after its cursor, in event order (not yet due ones too: the
   * lane waits for its head's time rather than pass it). */
  private async readLane(lane: Lane) {
    lane.read = false;
    const limit = LANE_HELD - lane.held.length;
    const rows = await this.ctx.store.outboxReader.organizationFirstAttempts(lane.organizationId, lane.cursor, Number.MAX_SAFE_INTEGER, limit);
    if (this.lanes.get(lane.organizationId) !== lane) return; // lost meanwhile
    for (const row of rows) {
      lane.cursor = Math.max(lane.cursor, row.seq);
      if (this.known.has(row.seq)) continue;
      this.known.add(row.seq);
      lane.unrecorded.add(row.seq);
      lane.held.push(row);
    }
    if (rows.length === limit) lane.read = true; // more after it: read as the lane drains
  }

  /** True while the lane's lease has more than a third of its length left. */
  private sure(lane: Lane): boolean {
    return this.lanes.get(lane.organizationId) === lane && performance.now() < lane.leaseEnd - this.leaseMs / 3;
  }

  private startWork() {
    if (this.stopped) return;
    const now = this.ctx.now().getTime();
    for (const lane of this.lanes.values()) {
      if (lane.gone || !this.sure(lane)) continue;
      // First attempts: one at a time per organization, in event order (C7).
      const head = lane.held[0];
      if (head && !lane.sending && this.firstSending < FIRST_SENDING_MAX) {
        if (head.next_attempt_at !== null && head.next_attempt_at > now) this.wakeUp.armAt(head.next_attempt_at);
        else {
          lane.held.shift();
          lane.sending = true;
          this.firstSending++;
          this.launch(lane, head, true);
        }
      }
      // Retries: their own budget, a few per organization.
      while (lane.retries.length > 0 && lane.retriesSending < RETRIES_SENDING && this.retrySending < RETRY_SENDING_MAX) {
        lane.retriesSending++;
        this.retrySending++;
        this.launch(lane, lane.retries.shift()!, false);
      }
    }
    if ([...this.lanes.values()].some((lane) => lane.read && !lane.gone && lane.held.length <= LANE_HELD / 2)) this.schedulePump();
  }

  private launch(lane: Lane, row: PendingRow, first: boolean) {
    let answered = false;
    lane.active = performance.now();
    const answer = () => {
      if (answered) return;
      answered = true;
      lane.active = performance.now();
      if (first) {
        lane.sending = false;
        this.firstSending--;
      } else {
        lane.retriesSending--;
        this.retrySending--;
        if (lane.retriesSending + lane.retries.length === RETRIES_HELD - 1) this.wantDue = true;
      }
      this.schedulePump();
    };
    const work = this.attempt(lane, row, answer)
      .catch((error) => this.ctx.logger.log("error", "webhook dispatcher: attempt failed", { event_id: row.id, error: String(error) }))
      .finally(() => {
        this.inFlight.delete(work);
        answer();
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

  /** One attempt: still this node's and still due as read? Sign, send, then record (batched). */
  private async attempt(lane: Lane, row: PendingRow, answer: () => void): Promise<void> {
    const { ctx } = this;
    try {
      const current = await ctx.store.outboxReader.check(row.seq);
      // Attempted or recorded since it was read (a read that crossed a record).
      if (!current || current.status !== "pending" || current.attempts !== row.attempts) {
        lane.unrecorded.delete(row.seq);
        return;
      }
      // No longer surely ours: left pending, for whoever holds the lane next.
      if (!this.sure(lane) || lane.gone || this.stopped) return;
      if (current.next_attempt_at !== null && current.next_attempt_at > ctx.now().getTime()) {
        this.wakeUp.armAt(current.next_attempt_at);
        return;
      }
      if (!current.url || !current.secret || current.disabled_at) {
        // No enabled endpoint any more (C7: not delivered later).
        await ctx.store.write(() => ctx.store.outbox.markSkipped(row.seq));
        lane.unrecorded.delete(row.seq);
        return;
      }
      const at = ctx.now();
      const secrets = signingSecrets({ ...current, secret: current.secret }, at).map((sealed) => this.unsealed(sealed));
      const result = await sendSigned(current.url, row, secrets, at, ctx.config.webhookTimeoutMs, ctx.now, ctx.config.webhookAllowPrivate);
      const endedAt = ctx.now().getTime();
      // A 410: nothing more of the organization starts until the disabling is recorded.
      const gone = result.statusCode === 410;
      if (gone) this.markGone(lane);
      lane.recording++;
      try {
        answer(); // the organization's next first attempt may go (C7 order, no head-of-line wait)
        if (await this.record({ row, at, endedAt, attemptsBefore: current.attempts, url: current.url, secret: current.secret, result })) {
          lane.unrecorded.delete(row.seq);
        }
      } finally {
        lane.recording--;
      }
      if (gone) this.clearGone(lane);
    } finally {
      // Recorded (or never attempted): a later read may take it again.
      this.known.delete(row.seq);
      lane.active = performance.now();
    }
  }

  private markGone(lane: Lane) {
    lane.gone = true;
    for (const row of [...lane.held, ...lane.retries]) this.known.delete(row.seq);
    lane.held = [];
    lane.retries = [];
  }

  /** The 410 is recorded (what was pending is skipped, unless the endpoint was set again
   * meanwhile): the lane reads again from its least first attempt not recorded. */
  private clearGone(lane: Lane) {
    lane.gone = false;
    lane.cursor = this.position(lane);
    lane.unrecorded.clear();
    lane.read = true;
    this.wantDue = true;
    this.schedulePump();
  }

  /** Queues a result for the next batch; resolves once it is committed (true) or its commit
   * failed (false). */
  private record(outcome: Outcome): Promise<boolean> {
    this.outcomes.push(outcome);
    const done = new Promise<boolean>((resolve) => this.flushWaiters.push(resolve));
    if (this.outcomes.length >= FLUSH_MAX || this.stopped) this.flushNow();
    else this.flushTimer ??= setTimeout(() => this.flushNow(), FLUSH_DELAY_MS);
    return done;
  }

  private flushNow() {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    const batch = this.outcomes.splice(0);
    const waiters = this.flushWaiters.splice(0);
    if (batch.length === 0) return;
    let committed = false;
    const done: Promise<void> = recordOutcomes(this.ctx, batch)
      .then(
        (nextTimes) => {
          committed = true;
          for (const next of nextTimes) this.wakeUp.armAt(next);
        },
        (error) => {
          // The deliveries stay pending with their due time: attempted again (at least once).
          this.ctx.logger.log("error", "webhook dispatcher: cannot record attempts", { error: String(error), count: batch.length });
          this.wantDue = true;
          this.wakeUp.armAt(this.ctx.now().getTime() + ERROR_BACKOFF_MS);
        },
      )
      .finally(() => {
        this.committing.delete(done);
        for (const resolve of waiters) resolve(committed);
      });
    this.committing.add(done);
  }

  /** Renews the leases held; drops the lanes lost, gives back those idle for a while. */
  private async renew() {
    if (this.stopped) return;
    const held = [...this.lanes.keys()];
    if (held.length === 0) return;
    const sentAt = performance.now();
    let kept: Set<string>;
    try {
      kept = new Set(await this.store.lanes.renew(this.me, this.leaseMs, this.positions(held)));
    } catch (error) {
      // Not renewed: the lanes stop starting attempts as their leases run short (sure()).
      this.ctx.logger.log("warn", "webhook dispatcher: cannot renew its lanes' leases", { error: String(error) });
      return;
    }
    const idle: string[] = [];
    for (const org of held) {
      const lane = this.lanes.get(org);
      if (!lane) continue;
      if (!kept.has(org)) {
        // Another node holds it now: what is held goes; what is in flight is recorded.
        this.ctx.logger.log("warn", "webhook dispatcher: a lane's lease passed and another node took it", { organization_id: org });
        this.drop(lane);
        continue;
      }
      lane.leaseEnd = sentAt + this.leaseMs;
      const busy = lane.sending || lane.read || lane.gone || lane.recording > 0 || lane.held.length > 0 || lane.retries.length > 0 || lane.retriesSending > 0;
      if (!busy && sentAt - lane.active >= (IDLE_RENEWALS * this.leaseMs) / 3) idle.push(org);
    }
    if (idle.length > 0 && !this.stopped) {
      const positions = this.positions(idle);
      for (const org of idle) this.drop(this.lanes.get(org)!);
      await this.store.lanes.release(this.me, positions).catch(() => {});
      // An event committed while the lane was being given back: claimed again (by whichever node).
      for (const org of idle) this.claimOrgs.add(org);
      this.schedulePump();
    }
  }

  /** Where a lane stands: below its least first attempt read and not recorded, else its cursor. */
  private position(lane: Lane): number {
    let least = lane.cursor;
    for (const seq of lane.unrecorded) least = Math.min(least, seq - 1);
    return least;
  }

  private positions(organizations: readonly string[]): LanePosition[] {
    return organizations.flatMap((organizationId) => {
      const lane = this.lanes.get(organizationId);
      return lane ? [{ organizationId, position: this.position(lane) }] : [];
    });
  }

  private drop(lane: Lane) {
    this.lanes.delete(lane.organizationId);
    for (const row of [...lane.held, ...lane.retries]) this.known.delete(row.seq);
    lane.held = [];
    lane.retries = [];
  }
}
