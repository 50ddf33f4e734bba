// The outbox's query module (src/db/outbox.ts, src/db/pg/outbox.ts) on the store under test: the
// same answers on both engines (numbers as numbers, nulls as null), an organization's reads and
// writes never another's. Events and endpoints go in as rows (insertRows).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { PendingRow } from "../../src/db/outbox";
import { ENGINES, insertRows, twoOrgs, type Engine, type EngineStore } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts); PostgreSQL starts once

const T0 = "2026-01-01T00:00:00.000Z";
const NOW = 1_767_225_600_000; // epoch ms, beyond 2^31

const pending = (seq: number, organizationId: string, attempts: number, nextAttemptAt: number | null): PendingRow => ({
  seq,
  id: `e${seq}`,
  organization_id: organizationId,
  type: "dossier.created",
  body: `{"id":"e${seq}"}`,
  attempts,
  next_attempt_at: nextAttemptAt,
});

/** o1: e1 first attempt due, e2 retry due, e3 first attempt later, e5 succeeded, e6 retry due at NOW;
 * o2: e4 first attempt due. */
const ROWS = [
  pending(1, "o1", 0, NOW - 10),
  pending(2, "o1", 2, NOW - 20),
  pending(3, "o1", 0, NOW + 1_000),
  pending(4, "o2", 0, NOW - 5),
  pending(6, "o1", 1, NOW),
];

async function withOutbox(engine: Engine): Promise<EngineStore> {
  const s = await twoOrgs(engine);
  await insertRows(s, "webhook_endpoints", [
    { organization_id: "o1", url: "https://a.example/h", secret: "s1", previous_secret: "s0", previous_secret_expires_at: T0, created_at: T0, updated_at: T0 },
  ]);
  await insertRows(s, "events", [
    ...ROWS.map((r) => ({ ...r, created_at: T0, status: "pending" })),
    { seq: 5, id: "e5", organization_id: "o1", type: "note.created", body: "{}", attempts: 1, next_attempt_at: null, created_at: T0, status: "succeeded", last_status_code: 200 },
  ]);
  return s;
}

const seqs = (rows: PendingRow[]) => rows.map((r) => r.seq);

describe.each(ENGINES)("the outbox on %s", (engine) => {
  test("lastSeq, newEvents and nextDueAfter", async () => {
    const s = await withOutbox(engine);
    expect(await s.read(() => s.outbox.lastSeq())).toBe(6);
    const fresh = await s.read(() => s.outbox.newEvents(0, 10));
    expect(fresh).toEqual(ROWS);
    expect(Object.keys(fresh[0])).toEqual(["seq", "id", "organization_id", "type", "body", "attempts", "next_attempt_at"]);
    expect(seqs(await s.outbox.newEvents(2, 2))).toEqual([3, 4]);
    expect(seqs(await s.outbox.newEvents(6, 10))).toEqual([]);
    expect(await s.outbox.nextDueAfter(NOW)).toBe(NOW + 1_000);
    expect(await s.outbox.nextDueAfter(NOW + 1_000)).toBeNull();
  });

  test("dueEvents: due at now, in (next_attempt_at, seq) order after the cursor", async () => {
    const s = await withOutbox(engine);
    expect(seqs(await s.read(() => s.outbox.dueEvents(NOW, [0, 0], 10)))).toEqual([2, 1, 4, 6]);
    expect(seqs(await s.outbox.dueEvents(NOW, [NOW - 10, 1], 10))).toEqual([4, 6]);
    expect(seqs(await s.outbox.dueEvents(NOW, [NOW - 20, 2], 2))).toEqual([1, 4]);
    expect(seqs(await s.outbox.dueEvents(NOW - 11, [0, 0], 10))).toEqual([2]);
  });

  test("an organization's first attempts and retries, due, in order", async () => {
    const s = await withOutbox(engine);
    expect(seqs(await s.read(() => s.outbox.organizationFirstAttempts("o1", 0, NOW, 10)))).toEqual([1]);
    expect(seqs(await s.outbox.organizationFirstAttempts("o1", 0, NOW + 1_000, 10))).toEqual([1, 3]);
    expect(seqs(await s.outbox.organizationFirstAttempts("o1", 1, NOW + 1_000, 10))).toEqual([3]);
    expect(seqs(await s.outbox.organizationFirstAttempts("o2", 0, NOW, 10))).toEqual([4]);
    expect(seqs(await s.outbox.organizationRetries("o1", 0, NOW, 10))).toEqual([2, 6]);
    expect(seqs(await s.outbox.organizationRetries("o1", 6, NOW, 10))).toEqual([6]);
    expect(seqs(await s.outbox.organizationRetries("o1", 0, NOW, 1))).toEqual([2]);
    expect(seqs(await s.outbox.organizationRetries("o2", 0, NOW, 10))).toEqual([]);
  });

  test("check: the delivery's state with its organization's endpoint, nulls without one", async () => {
    const s = await withOutbox(engine);
    expect(await s.read(() => s.outbox.check(2))).toEqual({
      status: "pending", attempts: 2, next_attempt_at: NOW - 20, url: "https://a.example/h", secret: "s1",
      previous_secret: "s0", previous_secret_expires_at: T0, disabled_at: null,
    });
    expect(await s.outbox.check(4)).toEqual({
      status: "pending", attempts: 0, next_attempt_at: NOW - 5, url: null, secret: null, previous_secret: null, previous_secret_expires_at: null, disabled_at: null,
    });
    expect(await s.outbox.check(99)).toBeNull();
  });

  test("results: an attempt recorded; succeeded, failed, retried, skipped as C7 and C10 say", async () => {
    const s = await withOutbox(engine);
    await s.write(async () => {
      await s.outbox.recordAttempt(1, { at: T0, statusCode: 200, error: null, durationMs: 12, responseSnippet: "ok" });
      await s.outbox.markSucceeded(1, 200);
      await s.outbox.recordAttempt(2, { at: T0, statusCode: null, error: "timeout", durationMs: 10_000, responseSnippet: null });
      await s.outbox.markRetry(2, NOW + 60_000, null, "timeout");
      await s.outbox.markFailed(3, 500, "HTTP 500");
      await s.outbox.markSkipped(6);
    });
    const state = async (organizationId: string, id: string) => {
      const d = (await s.deliveries.byEventId(organizationId, id))!;
      return [d.status, d.attempts, d.next_attempt_at, d.last_status_code, d.last_error];
    };
    expect(await state("o1", "e1")).toEqual(["succeeded", 1, null, 200, null]);
    expect(await state("o1", "e2")).toEqual(["pending", 3, NOW + 60_000, null, "timeout"]);
    expect(await state("o1", "e3")).toEqual(["failed", 1, null, 500, "HTTP 500"]);
    expect(await state("o1", "e6")).toEqual(["skipped", 1, null, null, null]);
    expect(await s.deliveries.attempts(1)).toEqual([{ at: T0, status_code: 200, error: null, duration_ms: 12, response_snippet: "ok" }]);
    expect(await s.deliveries.attempts(2)).toEqual([{ at: T0, status_code: null, error: "timeout", duration_ms: 10_000, response_snippet: null }]);
    // A skip is never revived by a failure or a retry; a success in flight still counts.
    await s.write(async () => {
      await s.outbox.markRetry(6, NOW, 503, "busy");
      await s.outbox.markFailed(6, 500, "HTTP 500");
    });
    expect(await state("o1", "e6")).toEqual(["skipped", 3, null, 500, "HTTP 500"]);
    await s.write(() => s.outbox.markSucceeded(6, 204));
    expect(await state("o1", "e6")).toEqual(["succeeded", 4, null, 204, null]);
    // A failed delivery stays failed when it succeeds late (only pending and skipped move).
    await s.write(() => s.outbox.markSucceeded(3, 200));
    expect((await state("o1", "e3"))[0]).toBe("failed");
  });

  test("disableEndpoint only when url and secret are still the organization's; skipPending the organization's only", async () => {
    const s = await withOutbox(engine);
    expect(await s.write(() => s.outbox.disableEndpoint("o1", "https://a.example/h", "s0", T0))).toBe(false);
    expect(await s.write(() => s.outbox.disableEndpoint("o1", "https://b.example/h", "s1", T0))).toBe(false);
    expect(await s.write(() => s.outbox.disableEndpoint("o2", "https://a.example/h", "s1", T0))).toBe(false);
    expect(await s.write(() => s.outbox.disableEndpoint("o1", "https://a.example/h", "s1", "2026-01-05T00:00:00.000Z"))).toBe(true);
    expect(await s.write(() => s.outbox.disableEndpoint("o1", "https://a.example/h", "s1", T0))).toBe(false);
    expect((await s.outbox.check(1))?.disabled_at).toBe("2026-01-05T00:00:00.000Z");
    await s.write(() => s.outbox.skipPending("o1"));
    expect(seqs(await s.outbox.newEvents(0, 10))).toEqual([4]);
    expect((await s.deliveries.byEventId("o1", "e5"))?.status).toBe("succeeded");
  });
});
