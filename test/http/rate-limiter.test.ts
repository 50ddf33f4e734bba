// The sliding window of one process (C8, C10; src/http/rate-limiter.ts) keeps runs of requests
// counted in the same millisecond, so that its memory follows the window's length rather than the
// request rate (issue 33's RSS). Its decisions are those of the plain log of every counted time,
// the reference below, on sequences of hits drawn at random, at low limits and at the highest.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { RateLimiter, TimeLog, WINDOW_MS } from "../../src/http/rate-limiter";
import { seededRandom } from "../../src/random";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const MAX_COUNTED = 1_000_000;

/** The rule as C8 and C10 state it: every counted time kept in order, the oldest gone after 60 s
 * (or past 1,000,000), each by moving the window's start. */
class ReferenceLimiter {
  private logs = new Map<string, { times: number[]; head: number }>();

  hit(subject: string, limit: number, now: number, refusable = true) {
    let log = this.logs.get(subject);
    if (!log) this.logs.set(subject, (log = { times: [], head: 0 }));
    while (log.head < log.times.length && log.times[log.head] <= now - WINDOW_MS) log.head++;
    const allowed = log.times.length - log.head < limit;
    if (allowed || !refusable) log.times.push(now);
    if (log.times.length - log.head > MAX_COUNTED) log.head++;
    const size = log.times.length - log.head;
    const leaving = log.times[log.head + Math.max(0, size - limit)];
    return { allowed, limit, remaining: Math.max(0, limit - size), reset: leaving === undefined ? 0 : Math.max(1, Math.ceil((leaving + WINDOW_MS - now) / 1000)) };
  }
}

describe("the rate limiter's window in runs", () => {
  test.each([1, 2, 3])("random hits of three subjects at limits 1 to 12, steps of 0 to 4 s, 402s among them (seed %i): the reference's decisions", (seed) => {
    const random = seededRandom(seed);
    const limiter = new RateLimiter();
    const reference = new ReferenceLimiter();
    let now = 1_700_000_000_000;
    for (let i = 0; i < 3000; i++) {
      now += random() < 0.5 ? 0 : Math.floor(random() * 4000);
      const subject = `org-${Math.floor(random() * 3)}`;
      const limit = 1 + Math.floor(random() * 12);
      const refusable = random() < 0.9;
      expect(limiter.hit(subject, limit, now, refusable)).toEqual(reference.hit(subject, limit, now, refusable));
    }
  });

  test("30 requests a millisecond for 90 s: the reference's decisions (a limit of 2,000, 429s most of the time), one run a millisecond in the log", () => {
    const limiter = new RateLimiter();
    const reference = new ReferenceLimiter();
    const log = new TimeLog();
    const start = 1_700_000_000_000;
    let mostRuns = 0;
    for (let ms = 0; ms < 90_000; ms += 3) {
      for (let n = 0; n < 30; n++) {
        const now = start + ms;
        expect(limiter.hit("busy", 2000, now)).toEqual(reference.hit("busy", 2000, now));
        log.prune(now);
        log.push(now);
        mostRuns = Math.max(mostRuns, log.runs);
      }
    }
    expect(log.size).toBe(20_000 * 30);
    expect(mostRuns).toBeLessThanOrEqual(WINDOW_MS / 3 + 1);
  });

  test("past 1,000,000 counted (402s count past the limit), the oldest go one by one, as in the reference", () => {
    const log = new TimeLog();
    const times: number[] = [];
    const start = 1_700_000_000_000;
    for (let i = 0; i < MAX_COUNTED + 5000; i++) {
      const now = start + Math.floor(i / 1000);
      log.prune(now);
      log.push(now);
      times.push(now);
    }
    const kept = times.slice(-MAX_COUNTED);
    expect(log.size).toBe(MAX_COUNTED);
    for (const index of [0, 1, 999, 1000, 1001, 500_000, MAX_COUNTED - 1]) expect(log.at(index)).toBe(kept[index]);
    expect(log.at(MAX_COUNTED)).toBeUndefined();
    expect(log.runs).toBe(1000);
  });

  test("a window that empties gives its room back, and counts on from where it was", () => {
    const log = new TimeLog();
    for (let ms = 0; ms < 5000; ms++) log.push(ms);
    expect(log.runs).toBe(5000);
    log.prune(5000 + WINDOW_MS);
    expect([log.size, log.runs]).toEqual([0, 0]);
    log.push(5000 + WINDOW_MS);
    log.push(5000 + WINDOW_MS);
    expect([log.size, log.runs, log.at(1)]).toEqual([2, 1, 5000 + WINDOW_MS]);
  });
});
