// A sliding 60 s window per organization (C8): the exact log of counted request times, in the
// process (SQLite's one server). On PostgreSQL the nodes count together in the database instead
// (src/db/pg/counters.ts), with the same decisions.
import type { RateDecision } from "../db/store";

export type { RateDecision };

export const WINDOW_MS = 60_000;

// C10: a rate limit is at most 1,000,000. What a request sees depends only on how many requests
// the window holds up to the limit and on the limit-th newest of them, so the log never needs
// more entries than that: requests counted past the limit (402s, C10) cannot grow it further.
const MAX_COUNTED = 1_000_000;

class TimeLog {
  private times: number[] = [];
  private head = 0;

  prune(now: number) {
    while (this.head < this.times.length && this.times[this.head] <= now - WINDOW_MS) this.head++;
    this.compact();
  }
  get size() {
    return this.times.length - this.head;
  }
  /** The `index`-th oldest counted time (0 is the oldest). */
  at(index: number): number | undefined {
    return this.times[this.head + index];
  }
  push(now: number) {
    this.times.push(now);
    if (this.size > MAX_COUNTED) this.head++;
    this.compact();
  }
  // Compact once the dead prefix dominates, so memory follows the live window.
  private compact() {
    if (this.head > 1024 && this.head * 2 > this.times.length) {
      this.times = this.times.slice(this.head);
      this.head = 0;
    }
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
