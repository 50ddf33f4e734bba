// The dispatcher's fair queue on its own (C7 "first attempts go out in event order"; "a delivery
// that waits for its retry does not hold back later events"; "a slow or failing endpoint does not
// hold back other organizations' deliveries"), plus its memory bounds. Pure: no timers, no I/O;
// the "database" a refill reads is an array.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { PendingRow } from "../../src/db/outbox";
import { DEFAULT_LIMITS, FairQueue, type FairQueueLimits, type Start } from "../../src/webhooks/fair-queue";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

let nextSeq = 1;
function event(org: string, attempts = 0): PendingRow {
  const seq = nextSeq++;
  return { seq, id: `evt_${seq}`, organization_id: org, type: "dossier.created", body: "{}", attempts, next_attempt_at: 0 };
}

/** What a refill reads from `rows` (the database's pending deliveries): first attempts after a
 * seq, or retries from a seq on, of one organization, in seq order. */
function reader(rows: PendingRow[], retries: boolean) {
  return (org: string, seq: number, limit: number) =>
    rows
      .filter((row) => row.organization_id === org && (retries ? row.attempts > 0 && row.seq >= seq : row.attempts === 0 && row.seq > seq))
      .sort((a, b) => a.seq - b.seq)
      .slice(0, limit);
}

function queueWith(limits: Partial<FairQueueLimits> = {}) {
  return new FairQueue({ ...DEFAULT_LIMITS, ...limits });
}

const seqs = (starts: Start[]) => starts.map((start) => start.row.seq);
const orgs = (starts: Start[]) => starts.map((start) => start.row.organization_id);

describe("C7 order and fairness", () => {
  test("an organization's first attempts go out one at a time, in event order, whatever order they were taken in", () => {
    const queue = queueWith();
    const [a, b, c] = [event("A"), event("A"), event("A")];
    for (const row of [c, a, b]) expect(queue.take(row)).toBe("taken");
    const sent: number[] = [];
    for (let round = 0; round < 5; round++) {
      const starts = queue.startable();
      expect(starts.length).toBeLessThanOrEqual(1); // one first attempt in flight per organization
      if (starts.length === 0) break;
      expect(queue.startable()).toEqual([]); // nothing more until it is answered
      sent.push(...seqs(starts));
      queue.answered(starts[0]);
    }
    expect(sent).toEqual([a.seq, b.seq, c.seq]);
  });

  test("the lane moves on when an answer is in, before the result is recorded (a delivery waiting for its retry holds back nothing)", () => {
    const queue = queueWith();
    const [a, b] = [event("A"), event("A")];
    queue.take(a);
    queue.take(b);
    const [first] = queue.startable();
    queue.answered(first); // say it failed: its retry comes later, as a new row with attempts > 0
    expect(seqs(queue.startable())).toEqual([b.seq]);
    queue.finished(first.row.seq);
    expect(queue.take({ ...a, attempts: 1 })).toBe("taken");
    expect(queue.startable().map((start) => [start.row.seq, start.first])).toEqual([[a.seq, false]]);
  });

  test("a slow organization holds back no one: with its first attempt unanswered, every other organization's starts", () => {
    const queue = queueWith();
    const slow = [event("slow"), event("slow"), event("slow")];
    for (const row of slow) queue.take(row);
    expect(seqs(queue.startable())).toEqual([slow[0].seq]); // never answered in this test
    const others = ["B", "C", "D"].map((org) => event(org));
    for (const row of others) queue.take(row);
    expect(orgs(queue.startable())).toEqual(["B", "C", "D"]);
    const more = event("B");
    queue.take(more);
    expect(queue.startable()).toEqual([]); // B's first is still in flight
    queue.answered({ row: others[0], first: true });
    expect(seqs(queue.startable())).toEqual([more.seq]);
  });

  test("when the first-attempt budget is spent, the organizations waiting start in turn as slots free", () => {
    const queue = queueWith({ laneSendingMax: 2 });
    const rows = ["A", "B", "C", "D"].map((org) => event(org));
    for (const row of rows) queue.take(row);
    const started = queue.startable();
    expect(orgs(started)).toEqual(["A", "B"]);
    queue.answered(started[0]);
    expect(orgs(queue.startable())).toEqual(["C"]);
    queue.answered(started[1]);
    expect(orgs(queue.startable())).toEqual(["D"]);
  });

  test("retries never take a first attempt's place: with the retry budget spent, first attempts still start, and retries use no first-attempt slot", () => {
    const queue = queueWith({ laneSendingMax: 1, retrySendingMax: 2, retriesPerOrg: 4 });
    const retries = [event("A", 1), event("A", 2), event("B", 1), event("B", 1)];
    for (const row of retries) queue.take(row);
    const fresh = event("C");
    queue.take(fresh);
    const started = queue.startable();
    expect(started.filter((start) => start.first).map((start) => start.row.seq)).toEqual([fresh.seq]);
    expect(started.filter((start) => !start.first)).toHaveLength(2);
    expect(queue.sending).toEqual({ firstAttempts: 1, retries: 2 });
    // The first-attempt slot is busy, the retry budget spent: a new organization's first attempt
    // waits for the first-attempt slot only, never for the retries.
    const next = event("D");
    queue.take(next);
    expect(queue.startable()).toEqual([]);
    queue.answered(started[0]);
    expect(seqs(queue.startable())).toEqual([next.seq]);
  });

  test("an organization's retries in flight are bounded (retriesPerOrg), so one organization cannot take the whole retry budget", () => {
    const queue = queueWith({ retrySendingMax: 10, retriesPerOrg: 2 });
    for (let i = 0; i < 5; i++) queue.take(event("A", 1));
    const other = event("B", 1);
    queue.take(other);
    const started = queue.startable();
    expect(orgs(started).filter((org) => org === "A")).toHaveLength(2);
    expect(seqs(started)).toContain(other.seq);
    queue.answered(started[0]);
    expect(orgs(queue.startable())).toEqual(["A"]);
  });

  test("a delivery already held or in flight is not taken twice", () => {
    const queue = queueWith();
    const row = event("A");
    expect(queue.take(row)).toBe("taken");
    expect(queue.take(row)).toBe("skipped");
    const [start] = queue.startable();
    expect(queue.take(row)).toBe("skipped");
    queue.answered(start);
    queue.finished(row.seq);
    expect(queue.take(row)).toBe("taken"); // e.g. its result could not be recorded: read again later
  });

  test("a 410 drops what is held for that organization and takes nothing of it until cleared; others go on", () => {
    const queue = queueWith();
    const [a1, a2, retry] = [event("A"), event("A"), event("A", 1)];
    for (const row of [a1, a2, retry]) queue.take(row);
    const started = queue.startable();
    queue.markGone("A");
    expect(queue.held).toEqual({ firstAttempts: 0, retries: 0 });
    expect(queue.goneOrganizations()).toEqual(["A"]);
    for (const start of started) queue.answered(start);
    expect(queue.take(event("A"))).toBe("skipped");
    const b = event("B");
    expect(queue.take(b)).toBe("taken");
    expect(seqs(queue.startable())).toEqual([b.seq]);
    queue.clearGone("A");
    expect(queue.take(a2)).toBe("taken");
  });
});

describe("C7 memory bounds: an organization's backlog waits in the database", () => {
  test("a lane holds at most laneMax; the rest is read back by organization, in event order, as the lane drains", () => {
    const queue = queueWith({ laneMax: 4 });
    const database = Array.from({ length: 10 }, () => event("A"));
    const inOrder = database.map((row) => row.seq);
    const taken = database.map((row) => queue.take(row));
    expect(taken.filter((t) => t === "taken")).toHaveLength(4);
    expect(queue.held.firstAttempts).toBe(4);
    // A healthy organization's new event is taken at once, whatever A's backlog.
    const b = event("B");
    expect(queue.take(b)).toBe("taken");
    const sent: number[] = [];
    const noRetries = reader([], true);
    for (let round = 0; round < 50 && sent.length < 11; round++) {
      queue.refill(reader(database, false), noRetries);
      const starts = queue.startable();
      expect(queue.held.firstAttempts).toBeLessThanOrEqual(4 + 1);
      for (const start of starts) {
        sent.push(start.row.seq);
        queue.answered(start);
        queue.finished(start.row.seq);
        const at = database.indexOf(start.row);
        if (at >= 0) database.splice(at, 1); // recorded: no longer pending
      }
    }
    expect(sent.filter((seq) => seq !== b.seq)).toEqual(inOrder);
    expect(sent).toContain(b.seq);
  });

  test("events read by the commit listener after an overflow are left to the organization's refill (no gap, no reorder)", () => {
    const queue = queueWith({ laneMax: 2 });
    const database = Array.from({ length: 3 }, () => event("A"));
    for (const row of database) queue.take(row);
    const later = event("A");
    database.push(later);
    expect(queue.take(later)).toBe("skipped"); // behind the overflow: the refill reads it in order
    const sent: number[] = [];
    for (let round = 0; round < 20 && sent.length < 4; round++) {
      queue.refill(reader(database, false), reader([], true));
      for (const start of queue.startable()) {
        sent.push(start.row.seq);
        queue.answered(start);
        queue.finished(start.row.seq);
        database.splice(database.indexOf(start.row), 1);
      }
    }
    expect(sent).toEqual([...sent].sort((x, y) => x - y));
    expect(sent).toHaveLength(4);
  });

  test("first attempts held never exceed laneHard, and lanes shrink to laneTight once memory is tight", () => {
    const limits = { laneMax: 8, laneTightAbove: 20, laneTight: 1, laneHard: 30, laneSendingMax: 0 };
    const queue = queueWith(limits);
    for (let org = 0; org < 40; org++) for (let i = 0; i < 8; i++) queue.take(event(`org${org}`));
    // Lanes fill to laneMax until 20 are held (8 + 8 + 4), then each further organization's lane
    // holds laneTight (1) until laneHard: 10 more organizations, the last 27 none.
    expect(queue.held.firstAttempts).toBe(30);
  });

  test("retries held never exceed retryHeldMax (a due read is told 'full'), nor retryHeldPerOrg per organization; the rest is refilled by organization", () => {
    const queue = queueWith({ retryHeldMax: 6, retryHeldPerOrg: 3, retrySendingMax: 0 });
    const database = Array.from({ length: 5 }, () => event("A", 1));
    const results = database.map((row) => queue.take(row));
    expect(results).toEqual(["taken", "taken", "taken", "skipped", "skipped"]);
    for (let i = 0; i < 3; i++) expect(queue.take(event(`B${i}`, 1))).toBe("taken");
    expect(queue.take(event("C", 1))).toBe("full");
    expect(queue.held.retries).toBe(6);

    // Once A's queue drains below half, its remaining due retries are read back by organization.
    const drain = queueWith({ retryHeldMax: 6, retryHeldPerOrg: 2, retrySendingMax: 10, retriesPerOrg: 10 });
    const rows = Array.from({ length: 5 }, () => event("A", 1));
    for (const row of rows) drain.take(row);
    const sent: number[] = [];
    for (let round = 0; round < 20 && sent.length < 5; round++) {
      drain.refill(reader([], false), reader(rows, true));
      for (const start of drain.startable()) {
        sent.push(start.row.seq);
        drain.answered(start);
        drain.finished(start.row.seq);
        rows.splice(rows.indexOf(start.row), 1);
      }
      expect(drain.held.retries).toBeLessThanOrEqual(2);
    }
    expect(sent).toHaveLength(5);
    expect(drain.wantsRefill).toBe(false);
  });
});
