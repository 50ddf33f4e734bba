// A sliding 60 s window per organization (C8): the exact log of counted request times, in the
// process (SQLite's one server). On PostgreSQL the nodes count together in the database instead
// (src/db/pg/counters.ts), with the same decisions.
import type { RateDecision } from "../db/store";

export type { RateDecision };

export const WINDOW_MS = 60_000;

// C10: a rate limit is at most 1,000,000. What a request sees depends only on how many requests
// the window holds up to the limit and on the limit-th newest of them, so the log never needs to
// count more than that: requests counted past the limit (402s, C10) drop the oldest.
const MAX_COUNTED = 1_000_000;

/** Runs a log starts with, and keeps once it is empty again. */
const FIRST_RUNS = 16;

/**
 * The counted times of one subject as runs: the requests counted in one millisecond are one run,
 * its time and the count of every request up to its last (`cums`), oldest first. A window holds at
 * most one run per millisecond, so the log's size follows the window's length, not the request
 * rate: a log of every time held up to 1,000,000 numbers at 30,000 requests a second (8 MB, copied
 * as it grew), which the engine's collections then sized the heap by (issue 33's RSS).
 */
export class TimeLog {
  private times = new Float64Array(FIRST_RUNS);
  private cums = new Float64Array(FIRST_RUNS);
  /** The oldest run, and one past the newest. */
  private first = 0;
  private end = 0;
  /** The count of requests before the oldest counted one (those gone from the window, or past MAX_COUNTED). */
  private gone = 0;

  prune(now: number) {
    while (this.first < this.end && this.times[this.first] <= now - WINDOW_MS) this.gone = Math.max(this.gone, this.cums[this.first++]);
    if (this.first === this.end && this.times.length > FIRST_RUNS) {
      this.times = new Float64Array(FIRST_RUNS);
      this.cums = new Float64Array(FIRST_RUNS);
      this.first = this.end = 0;
    }
  }
  get size() {
    return this.first === this.end ? 0 : this.cums[this.end - 1] - this.gone;
  }
  /** Runs held (at most one per millisecond of the window). */
  get runs() {
    return this.end - this.first;
  }
  /** The `index`-th oldest counted time (0 is the oldest): the time of the run that holds it. */
  at(index: number): number | undefined {
    if (index < 0 || index >= this.size) return undefined;
    const place = this.gone + index + 1;
    let low = this.first;
    let high = this.end - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.cums[middle] >= place) high = middle;
      else low = middle + 1;
    }
    return this.times[low];
  }
  push(now: number) {
    const newest = this.end - 1;
    if (this.first <= newest && this.times[newest] === now) this.cums[newest]++;
    else {
      const cum = (this.first <= newest ? this.cums[newest] : this.gone) + 1;
      this.makeRoom();
      this.times[this.end] = now;
      this.cums[this.end++] = cum;
    }
    if (this.size > MAX_COUNTED && this.cums[this.first] <= ++this.gone) this.first++;
  }
  /** Room for one run at the end: the runs moved to the front, into arrays twice as large when
   * they fill more than half of them. */
  private makeRoom() {
    if (this.end < this.times.length) return;
    const runs = this.end - this.first;
    const length = runs * 2 > this.times.length ? this.times.length * 2 : this.times.length;
    const times = length === this.times.length ? this.times : new Float64Array(length);
    const cums = length === this.cums.length ? this.cums : new Float64Array(length);
    times.set(this.times.subarray(this.first, this.end));
    cums.set(this.cums.subarray(this.first, this.end));
    this.times = times;
    this.cums = cums;
    this.first = 0;
    this.end = runs;
  }
}

export class RateLimiter {
  private logs = new Map<string, TimeLog>();

  /**
   * Counts the request, except when `refusable` and the window is full: that request is answered
   * 429, which counts nowhere (C8). A request that is not `refusable` (it gets a 402, which C3
   * puts before 429) counts whatever the window holds (C10).
   */
  hit(organizationId: string, limit: number, now: number, refusable = true): RateDecision {
    let log = this.logs.get(organizationId);
    if (!log) this.logs.set(organizationId, (log = new TimeLog()));
    log.prune(now);
    const allowed = log.size < limit;
    if (allowed || !refusable) log.push(now);
    return { allowed, limit, remaining: Math.max(0, limit - log.size), reset: resetSeconds(log, limit, now) };
  }
}

/** A request is free again once the window holds limit - 1: when the (size - limit + 1)-th oldest
 * counted request has left it. Below the limit, C10 names the oldest one. */
function resetSeconds(log: TimeLog, limit: number, now: number): number {
  const leaving = log.at(Math.max(0, log.size - limit));
  return leaving === undefined ? 0 : Math.max(1, Math.ceil((leaving + WINDOW_MS - now) / 1000));
}
