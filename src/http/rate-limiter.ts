// A sliding 60 s window per organization (C8): the exact log of counted request times.
export const WINDOW_MS = 60_000;

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the oldest counted request leaves the window (0 when none is counted). */
  reset: number;
}

class TimeLog {
  private times: number[] = [];
  private head = 0;

  prune(now: number) {
    while (this.head < this.times.length && this.times[this.head] <= now - WINDOW_MS) this.head++;
    // Compact once the dead prefix dominates, so memory follows the live window.
    if (this.head > 1024 && this.head * 2 > this.times.length) {
      this.times = this.times.slice(this.head);
      this.head = 0;
    }
  }
  get size() {
    return this.times.length - this.head;
  }
  get oldest(): number | undefined {
    return this.times[this.head];
  }
  push(now: number) {
    this.times.push(now);
  }
}

export class RateLimiter {
  private logs = new Map<string, TimeLog>();

  /** Counts the request when it is within the limit; a refused request is not counted. */
  hit(organizationId: string, limit: number, now: number): RateDecision {
    let log = this.logs.get(organizationId);
    if (!log) this.logs.set(organizationId, (log = new TimeLog()));
    log.prune(now);
    const allowed = log.size < limit;
    if (allowed) log.push(now);
    const oldest = log.oldest;
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - log.size),
      reset: oldest === undefined ? 0 : Math.max(1, Math.ceil((oldest + WINDOW_MS - now) / 1000)),
    };
  }
}
