// The delivery log's query module (src/db/deliveries.ts, src/db/pg/deliveries.ts) on the store under
// test: the same answers on both engines, one organization's events never another's. Events and
// their attempts have no query module on PostgreSQL yet: the tests insert them as rows (insertRows).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { DeliveryRow } from "../../src/db/deliveries";
import { ENGINES, insertRows, twoOrgs, type Engine, type EngineStore } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts); PostgreSQL starts once

const T0 = "2026-01-01T00:00:00.000Z";
const DUE = 1_767_225_600_123; // epoch ms, beyond 2^31

const event = (seq: number, organizationId: string, changes: Partial<DeliveryRow> = {}): DeliveryRow => ({
  seq,
  id: `e${seq}`,
  organization_id: organizationId,
  type: "dossier.created",
  status: "succeeded",
  attempts: 1,
  next_attempt_at: null,
  last_status_code: 200,
  last_error: null,
  ...changes,
});

async function withEvents(engine: Engine, events: DeliveryRow[]): Promise<EngineStore> {
  const s = await twoOrgs(engine);
  await insertRows(
    s,
    "events",
    events.map((e) => ({ ...e, created_at: T0, body: JSON.stringify({ id: e.id, type: e.type, data: { id: "d1" } }) })),
  );
  return s;
}

/** o1: e1 succeeded, e2 failed, e3 pending (a note), e5 skipped, e6 pending; o2: e4 pending. */
const LOG = [
  event(1, "o1"),
  event(2, "o1", { status: "failed", attempts: 8, last_status_code: 500, last_error: "HTTP 500" }),
  event(3, "o1", { type: "note.created", status: "pending", attempts: 2, next_attempt_at: DUE, last_status_code: null, last_error: "timeout" }),
  event(4, "o2", { status: "pending", attempts: 0, next_attempt_at: DUE, last_status_code: null }),
  event(5, "o1", { status: "skipped", attempts: 0, last_status_code: null }),
  event(6, "o1", { status: "pending", attempts: 0, next_attempt_at: DUE + 1, last_status_code: null }),
];
const seqs = (rows: DeliveryRow[]) => rows.map((r) => r.seq);

describe.each(ENGINES)("the delivery log on %s", (engine) => {
  test("an event is found by id in its organization (numbers as numbers, nulls as null), and by id alone for the operator", async () => {
    const s = await withEvents(engine, LOG);
    expect(await s.read(() => s.deliveries.byEventId("o1", "e3"))).toEqual(LOG[2]);
    expect(await s.deliveries.byEventId("o1", "e2")).toEqual(LOG[1]);
    expect(await s.deliveries.byEventId("o1", "e4")).toBeNull();
    expect(await s.deliveries.byEventId("o1", "nope")).toBeNull();
    expect(await s.deliveries.byEventIdInAnyOrganization("e4")).toEqual(LOG[3]);
    expect(await s.deliveries.byEventIdInAnyOrganization("nope")).toBeNull();
  });

  test("an event's attempts, oldest first, its own only", async () => {
    const s = await withEvents(engine, LOG);
    await insertRows(s, "delivery_attempts", [
      { id: 1, event_seq: 3, at: "2026-01-01T00:00:01.000Z", status_code: null, error: "timeout", duration_ms: 10_000, response_snippet: null },
      { id: 2, event_seq: 2, at: "2026-01-01T00:00:02.000Z", status_code: 500, error: "HTTP 500", duration_ms: 12, response_snippet: "oops" },
      { id: 3, event_seq: 3, at: "2026-01-01T00:00:00.500Z", status_code: 503, error: null, duration_ms: 7, response_snippet: "busy" },
    ]);
    expect(await s.read(() => s.deliveries.attempts(3))).toEqual([
      { at: "2026-01-01T00:00:01.000Z", status_code: null, error: "timeout", duration_ms: 10_000, response_snippet: null },
      { at: "2026-01-01T00:00:00.500Z", status_code: 503, error: null, duration_ms: 7, response_snippet: "busy" },
    ]);
    expect(await s.deliveries.attempts(1)).toEqual([]);
  });

  test("newest: the organization's events newest first, of one status or all, at most `limit` or all", async () => {
    const s = await withEvents(engine, LOG);
    expect(await s.read(() => s.deliveries.newest("o1", undefined, null))).toEqual([LOG[5], LOG[4], LOG[2], LOG[1], LOG[0]]);
    expect(seqs(await s.deliveries.newest("o1", undefined, 2))).toEqual([6, 5]);
    expect(seqs(await s.deliveries.newest("o1", "pending", null))).toEqual([6, 3]);
    expect(seqs(await s.deliveries.newest("o1", "pending", 1))).toEqual([6]);
    expect(seqs(await s.deliveries.newest("o2", undefined, null))).toEqual([4]);
    expect(await s.deliveries.newest("o2", "failed", null)).toEqual([]);
  });

  test("page and count: filtered by status and type or not, newest first, limit and offset", async () => {
    const s = await withEvents(engine, LOG);
    expect(await s.read(() => s.deliveries.page("o1", {}, 10, 0))).toEqual([LOG[5], LOG[4], LOG[2], LOG[1], LOG[0]]);
    expect(seqs(await s.deliveries.page("o1", {}, 2, 1))).toEqual([5, 3]);
    expect(seqs(await s.deliveries.page("o1", {}, 2, 10))).toEqual([]);
    expect(seqs(await s.deliveries.page("o1", { status: "pending" }, 10, 0))).toEqual([6, 3]);
    expect(seqs(await s.deliveries.page("o1", { type: "note.created" }, 10, 0))).toEqual([3]);
    expect(seqs(await s.deliveries.page("o1", { status: "pending", type: "dossier.created" }, 10, 0))).toEqual([6]);
    expect(seqs(await s.deliveries.page("o2", {}, 10, 0))).toEqual([4]);
    expect(await s.read(() => s.deliveries.count("o1", {}))).toBe(5);
    expect(await s.deliveries.count("o1", { status: "pending" })).toBe(2);
    expect(await s.deliveries.count("o1", { type: "note.created" })).toBe(1);
    expect(await s.deliveries.count("o1", { status: "failed", type: "note.created" })).toBe(0);
    expect(await s.deliveries.count("o2", {})).toBe(1);
    expect(await s.deliveries.count("o3", {})).toBe(0);
  });

  test("requeue makes the event pending again, due at the time given, its attempts from zero", async () => {
    const s = await withEvents(engine, LOG);
    await s.write(() => s.deliveries.requeue(2, DUE + 5));
    expect(await s.deliveries.byEventId("o1", "e2")).toEqual({ ...LOG[1], status: "pending", attempts: 0, next_attempt_at: DUE + 5 });
    expect(await s.deliveries.byEventId("o1", "e1")).toEqual(LOG[0]);
  });
});
