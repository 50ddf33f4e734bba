// The dispatcher's decisions (C7), as a pure data structure: no timers, no I/O, no store. The
// dispatcher hands it due deliveries (take), asks what to send next (startable), and tells it when
// an answer is in (answered) and when the result is recorded (finished). It never touches the
// store: its refill calls the reader it is given, and the dispatcher calls refill only when a read
// may run (after a durable commit, never while `store.settling`), so it holds durable rows only.
//
// Order and fairness (C7: "first attempts go out in event order"; "a slow or failing endpoint does
// not hold back other organizations' deliveries"):
//  - first attempts of an organization go out one at a time, in event order (its "lane"); the lane
//    moves on as soon as an answer (or a failure) is in, so a delivery waiting for its retry never
//    holds back later events;
//  - budgets: first attempts and retries have separate ones, so retries never take a first
//    attempt's place. First attempts: one in flight per organization, laneSendingMax in all (an
//    organization whose lane is idle starts at once unless that many OTHER organizations each have
//    a request in flight). Retries: retriesPerOrganization per organization and retrySendingMax in all;
//  - an organization's backlog waits in the database, not in memory: once its lane holds laneMax
//    events (or memory is tight), its later events are left there ("overflow") and read by
//    organization, in event order, as its lane drains (refill); taking new events never stops for
//    a busy organization, so a healthy organization's new event is taken and sent at once.
// Memory bound, whatever the backlog in the database:
//  - first attempts held: at most laneHard (laneMax per organization while fewer than laneTightAbove
//    are held, laneTight per organization beyond);
//  - retries held: at most retryHeldMax (retryHeldPerOrg per organization; an organization's further
//    due retries stay in the database and are read by organization as its queue drains);
//  - per organization with a backlog in the database: a map entry or two (its id and a seq).
import type { PendingRow } from "../db/outbox";

export interface FairQueueLimits {
  /** First attempts in flight, all organizations together (one per organization). */
  laneSendingMax: number;
  /** Retries in flight, all organizations together. */
  retrySendingMax: number;
  /** Retries in flight per organization. */
  retriesPerOrg: number;
  /** First attempts held in memory per organization (the rest wait in the database). */
  laneMax: number;
  /** Beyond this many first attempts held, each lane holds at most laneTight. */
  laneTightAbove: number;
  laneTight: number;
  /** Never more first attempts held than this. */
  laneHard: number;
  /** Due retries held in memory, waiting for a slot. */
  retryHeldMax: number;
  /** Due retries held per organization (the rest wait in the database). */
  retryHeldPerOrg: number;
}

export const DEFAULT_LIMITS: FairQueueLimits = {
  laneSendingMax: 4096,
  retrySendingMax: 512,
  retriesPerOrg: 4,
  laneMax: 32,
  laneTightAbove: 5000,
  laneTight: 1,
  laneHard: 10_000,
  retryHeldMax: 5000,
  retryHeldPerOrg: 32,
};

/** What take() did with a row. */
export type Take = "taken" | "skipped" | "full";
// taken: held in memory. skipped: it stays in the database and is read again later (by its
// organization's refill, or at its due time). full: the retries held are at their bound (a due
// read stops there and goes on once they drain).

/** Reads an organization's next due deliveries from the store (first attempts after a seq, or
 * retries from a seq on), at most `limit`, in seq order. */
export type RefillRead = (organizationId: string, seq: number, limit: number) => PendingRow[];

/** One organization's read of a refill: first attempts after `seq`, or retries from `seq` on. */
export interface RefillAsk {
  organizationId: string;
  retries: boolean;
  seq: number;
  limit: number;
}

/** A delivery to send now; `first`: a first attempt (its lane's), else a retry. */
export interface Start {
  row: PendingRow;
  first: boolean;
}

export class FairQueue {
  /** Deliveries held (in a lane or a retry queue) or in flight until finished(). */
  private readonly known = new Set<number>();
  /** First attempts held per organization, in event order (the one in flight is not among them). */
  private readonly lanes = new Map<string, PendingRow[]>();
  private laneQueued = 0;
  /** Organizations with their first attempt in flight (one each). */
  private readonly laneSending = new Set<string>();
  /** Organizations whose lane holds an event and has none in flight: they start next, in turn. */
  private readonly ready = new Set<string>();
  private readonly retryQueues = new Map<string, PendingRow[]>();
  private retryQueued = 0;
  private readonly retrySending = new Map<string, number>();
  private retriesSending = 0;
  /** Organizations with retries held and fewer than retriesPerOrg in flight, in turn. */
  private readonly retryReady = new Set<string>();
  /** Organizations whose next first attempts wait in the database. The value: every such event
   * has a larger seq (events at or below it are held, in flight or done). */
  private readonly overflow = new Map<string, number>();
  /** Overflowing organizations whose lane has room: their next events are read on the next refill. */
  private readonly refillWanted = new Set<string>();
  /** Organizations with due retries left in the database. The value: every such retry has a seq
   * at least it. */
  private readonly retryOverflow = new Map<string, number>();
  private readonly retryRefillWanted = new Set<string>();
  /** Organizations whose endpoint answered 410: nothing more is taken until that is recorded. */
  private readonly gone = new Set<string>();

  constructor(private readonly limits: FairQueueLimits = DEFAULT_LIMITS) {}

  /** First attempts and retries held in memory (not those in flight). */
  get held(): { firstAttempts: number; retries: number } {
    return { firstAttempts: this.laneQueued, retries: this.retryQueued };
  }

  /** Requests in flight. */
  get sending(): { firstAttempts: number; retries: number } {
    return { firstAttempts: this.laneSending.size, retries: this.retriesSending };
  }

  /** Takes a due delivery into memory, or leaves it in the database for later (see Take).
   * `refill`: read by its organization's refill (its lane's room was already counted). */
  take(row: PendingRow, refill = false): Take {
    if (this.known.has(row.seq) || this.gone.has(row.organization_id)) return "skipped";
    const org = row.organization_id;
    const { limits } = this;
    if (row.attempts > 0) {
      if (this.retryQueued >= limits.retryHeldMax) return "full";
      const queue = this.retryQueues.get(org);
      if (queue && queue.length >= limits.retryHeldPerOrg) {
        // Its further due retries wait in the database, read by organization as its queue drains:
        // one organization's backlog does not fill the memory others need.
        this.retryOverflow.set(org, Math.min(this.retryOverflow.get(org) ?? Infinity, row.seq));
        return "skipped";
      }
      this.known.add(row.seq);
      this.retryQueued++;
      if (queue) queue.push(row);
      else this.retryQueues.set(org, [row]);
      if ((this.retrySending.get(org) ?? 0) < limits.retriesPerOrg) this.retryReady.add(org);
      return "taken";
    }
    const lane = this.lanes.get(org);
    if (!refill) {
      const last = this.overflow.get(org);
      if (last !== undefined && row.seq > last) return "skipped"; // its organization's refill reads it
      if ((lane?.length ?? 0) >= this.laneLimit() || this.laneQueued >= limits.laneHard) {
        // The organization's backlog waits in the database; it is read by organization, in event
        // order, as its lane drains (or, when memory was full, as soon as there is room).
        this.overflow.set(org, Math.min(last ?? Infinity, row.seq - 1));
        if (!lane && !this.laneSending.has(org)) this.refillWanted.add(org); // nothing else would ask
        return "skipped";
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
    return "taken";
  }

  /** True when an organization's lane or retry queue has room for deliveries left in the database. */
  get wantsRefill(): boolean {
    return (
      (this.refillWanted.size > 0 && this.laneQueued < this.limits.laneHard) ||
      (this.retryRefillWanted.size > 0 && this.retryQueued < this.limits.retryHeldMax)
    );
  }

  /** Reads the next deliveries of organizations whose lane (or retry queue) has room and was
   * waiting for it: `firstAttempts` reads first attempts after a seq, `retries` from a seq on. */
  refill(firstAttempts: RefillRead, retries: RefillRead) {
    for (const ask of this.refillAsks()) this.refilled(ask, (ask.retries ? retries : firstAttempts)(ask.organizationId, ask.seq, ask.limit));
  }

  /** The reads a refill needs now (see refill), each organization's room counted against the
   * bounds: a reader that answers later (PostgreSQL) reads them all, then gives each its rows
   * (refilled). The organizations asked are no longer waiting; those left for want of room are. */
  refillAsks(): RefillAsk[] {
    const { limits } = this;
    const asks: RefillAsk[] = [];
    let retryRoom = limits.retryHeldMax - this.retryQueued;
    for (const organizationId of this.retryRefillWanted) {
      if (retryRoom <= 0) break; // the rest wait for room
      this.retryRefillWanted.delete(organizationId);
      const seq = this.retryOverflow.get(organizationId);
      if (seq === undefined || this.gone.has(organizationId)) continue;
      const limit = Math.min(limits.retryHeldPerOrg - (this.retryQueues.get(organizationId)?.length ?? 0), retryRoom);
      if (limit <= 0) continue; // asked again as its queue drains
      retryRoom -= limit;
      asks.push({ organizationId, retries: true, seq, limit });
    }
    let laneRoom = limits.laneHard - this.laneQueued;
    for (const organizationId of this.refillWanted) {
      if (laneRoom <= 0) break; // the rest wait for room
      this.refillWanted.delete(organizationId);
      const seq = this.overflow.get(organizationId);
      if (seq === undefined || this.gone.has(organizationId)) continue;
      const limit = Math.min(this.laneLimit() - (this.lanes.get(organizationId)?.length ?? 0), laneRoom);
      if (limit <= 0) continue; // asked again as its lane drains
      laneRoom -= limit;
      asks.push({ organizationId, retries: false, seq, limit });
    }
    return asks;
  }

  /** Takes what an ask's read found (nothing for an organization marked gone meanwhile). */
  refilled({ organizationId: org, retries, limit }: RefillAsk, rows: PendingRow[]) {
    if (this.gone.has(org)) return;
    if (retries) {
      for (const row of rows) this.take(row);
      if (rows.length < limit) this.retryOverflow.delete(org); // caught up (later ones come with their due time)
      else this.retryOverflow.set(org, rows[rows.length - 1].seq + 1);
      return;
    }
    for (const row of rows) this.take(row, true);
    if (rows.length < limit) this.overflow.delete(org); // caught up: its new events flow again
    else this.overflow.set(org, rows[rows.length - 1].seq);
  }

  /** The deliveries to send now, each counted as in flight until answered(). */
  startable(): Start[] {
    const { limits } = this;
    const starts: Start[] = [];
    // First attempts: one in flight per organization; the organizations take turns.
    for (const org of this.ready) {
      if (this.laneSending.size >= limits.laneSendingMax) break;
      this.ready.delete(org);
      const lane = this.lanes.get(org);
      if (!lane || this.laneSending.has(org)) continue;
      const row = lane.shift()!;
      if (lane.length === 0) this.lanes.delete(org);
      this.laneQueued--;
      this.askRefill(org);
      this.laneSending.add(org);
      starts.push({ row, first: true });
    }
    // Retries: their own budget, a few per organization, the organizations taking turns.
    for (const org of this.retryReady) {
      if (this.retriesSending >= limits.retrySendingMax) break;
      this.retryReady.delete(org);
      const queue = this.retryQueues.get(org);
      const running = this.retrySending.get(org) ?? 0;
      if (!queue || running >= limits.retriesPerOrg) continue;
      const row = queue.shift()!;
      if (queue.length === 0) this.retryQueues.delete(org);
      else if (running + 1 < limits.retriesPerOrg) this.retryReady.add(org); // its next turn
      this.retryQueued--;
      if (this.retryOverflow.has(org) && queue.length < limits.retryHeldPerOrg / 2) this.retryRefillWanted.add(org);
      this.retriesSending++;
      this.retrySending.set(org, running + 1);
      starts.push({ row, first: false });
    }
    return starts;
  }

  /** The answer to a started delivery is in (or it failed): its slot is free. Call it once per start. */
  answered({ row, first }: Start) {
    const org = row.organization_id;
    if (first) {
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
  }

  /** A started delivery's result is recorded (or given up): a later read may take it again. */
  finished(seq: number) {
    this.known.delete(seq);
  }

  isGone(org: string): boolean {
    return this.gone.has(org);
  }

  /** A 410: drops what is held for the organization and takes nothing more of it until cleared. */
  markGone(org: string) {
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

  /** Organizations marked gone so far (their disabling is being recorded). */
  goneOrganizations(): string[] {
    return [...this.gone];
  }

  /** The 410 is recorded: the organization's deliveries (if any are left) are taken again. */
  clearGone(org: string) {
    this.gone.delete(org);
  }

  /** How many first attempts a lane may hold: fewer once memory is tight. */
  private laneLimit(): number {
    return this.laneQueued < this.limits.laneTightAbove ? this.limits.laneMax : this.limits.laneTight;
  }

  /** An overflowing organization's lane is refilled once it is down to half (one read per
   * laneMax / 2 deliveries, not one per delivery). */
  private askRefill(org: string) {
    if (this.overflow.has(org) && (this.lanes.get(org)?.length ?? 0) <= this.laneLimit() / 2) this.refillWanted.add(org);
  }
}
