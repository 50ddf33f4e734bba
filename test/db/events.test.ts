// The events' query module (src/db/events.ts, src/db/pg/events.ts) on the store under test: the same
// answers on both engines, one organization's events never another's, and event numbers taken in
// commit order on PostgreSQL too (C17, C20).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { FeedFilter, NewEvent } from "../../src/db/events";
import { eventIdOf } from "../../src/services/outbox";
import { ENGINES, insertRows, twoOrgs, type EngineStore } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts); PostgreSQL starts once

const T0 = "2026-01-01T00:00:00.000Z";
const T1 = "2026-01-02T00:00:00.000Z";
const T2 = "2026-01-03T00:00:00.000Z";
const DUE = 1_767_225_600_123; // epoch ms, beyond 2^31

/** Records an event as recordEvent does: its number taken in the same unit. */
async function record(s: EngineStore, organizationId: string, type: string, data: Record<string, unknown>, createdAt = T1, pending = false) {
  return await s.write(async () => {
    const seq = await s.events.nextSeq(organizationId);
    const id = eventIdOf(seq);
    const event: NewEvent = {
      seq,
      id,
      organizationId,
      type,
      createdAt,
      body: JSON.stringify({ id, type, created_at: createdAt, organization_id: organizationId, data }),
      status: pending ? "pending" : "skipped",
      nextAttemptAt: pending ? DUE : null,
    };
    await s.events.insert(event);
    return event;
  });
}

const feedOf = (s: EngineStore, organizationId: string, filter: Partial<FeedFilter>) =>
  s.events.feed(organizationId, { afterSeq: 0, since: T0, types: null, dossierId: null, limit: 50, ...filter });

describe.each(ENGINES)("events on %s", (engine) => {
  test("numbers grow from 1, an event is found by id in its organization (body, time, cursor), lastSeq is the newest of any", async () => {
    const s = await twoOrgs(engine);
    expect(await s.events.lastSeq()).toBe(0);
    const e1 = await record(s, "o1", "dossier.created", { id: "d1" });
    const e2 = await record(s, "o2", "dossier.created", { id: "d9" }, T2);
    expect([e1.seq, e2.seq]).toEqual([1, 2]);
    expect(await s.read(() => s.events.lastSeq())).toBe(2);
    expect(await s.read(() => s.events.byId("o1", e1.id))).toEqual({ body: e1.body, created_at: T1 });
    expect(await s.events.byId("o2", e1.id)).toBeNull();
    expect(await s.events.cursor("o2", e2.id)).toEqual({ seq: 2, created_at: T2 });
    expect(await s.events.cursor("o1", e2.id)).toBeNull();
    expect(await s.events.cursor("o1", "evt_nope")).toBeNull();
  });

  test("a number is not given again once its event is swept", async () => {
    const s = await twoOrgs(engine);
    await record(s, "o1", "dossier.created", { id: "d1" }, T0);
    await record(s, "o1", "dossier.created", { id: "d2" }, T0);
    expect(await s.write(() => s.events.sweep(T1, 10))).toBe(2);
    expect(await s.events.lastSeq()).toBe(0);
    expect((await record(s, "o1", "dossier.created", { id: "d3" })).seq).toBe(3);
  });

  test("hasEnabledEndpoint: the organization's endpoint, not disabled", async () => {
    const s = await twoOrgs(engine);
    await insertRows(s, "webhook_endpoints", [
      { organization_id: "o1", url: "https://a.example/h", secret: "s", created_at: T0, updated_at: T0 },
      { organization_id: "o2", url: "https://b.example/h", secret: "s", disabled_at: T1, created_at: T0, updated_at: T0 },
    ]);
    expect(await s.read(() => s.events.hasEnabledEndpoint("o1"))).toBe(true);
    expect(await s.events.hasEnabledEndpoint("o2")).toBe(false);
    expect(await s.events.hasEnabledEndpoint("o3")).toBe(false);
  });

  test("feed: the organization's events after the cursor, since the retention's edge, of some types, of one dossier, at most `limit`, in order", async () => {
    const s = await twoOrgs(engine);
    const e1 = await record(s, "o1", "dossier.created", { id: "d1" }, T0);
    const e2 = await record(s, "o1", "note.created", { id: "n1", dossier_id: "d1" });
    const e3 = await record(s, "o2", "dossier.created", { id: "d1" });
    const e4 = await record(s, "o1", "dossier.updated", { id: "d2" });
    const e5 = await record(s, "o1", "dossier.stage_changed", { id: "d1" }, T2);
    const row = (e: NewEvent) => ({ seq: e.seq, id: e.id, body: e.body });
    const all = await s.read(() => feedOf(s, "o1", {}));
    expect(all).toEqual([row(e1), row(e2), row(e4), row(e5)]);
    expect(Object.keys(all[0])).toEqual(["seq", "id", "body"]);
    expect(await feedOf(s, "o1", { afterSeq: e2.seq })).toEqual([row(e4), row(e5)]);
    expect(await feedOf(s, "o1", { since: T1 })).toEqual([row(e2), row(e4), row(e5)]);
    expect(await feedOf(s, "o1", { limit: 2 })).toEqual([row(e1), row(e2)]);
    expect(await feedOf(s, "o1", { types: ["note.created", "dossier.updated"] })).toEqual([row(e2), row(e4)]);
    expect(await feedOf(s, "o1", { types: [] })).toEqual([]);
    expect(await feedOf(s, "o1", { dossierId: "d1" })).toEqual([row(e1), row(e2), row(e5)]);
    expect(await feedOf(s, "o1", { dossierId: "d1", types: ["dossier.created", "dossier.stage_changed"], afterSeq: e1.seq })).toEqual([row(e5)]);
    expect(await feedOf(s, "o1", { dossierId: "n1" })).toEqual([]);
    expect(await feedOf(s, "o2", { dossierId: "d1" })).toEqual([row(e3)]);
    expect(await feedOf(s, "o3", {})).toEqual([]);
  });

  test("skipPendingAfter skips the organization's pending events after the number given, nothing else", async () => {
    const s = await twoOrgs(engine);
    const e1 = await record(s, "o1", "dossier.created", { id: "d1" }, T1, true);
    const e2 = await record(s, "o1", "dossier.updated", { id: "d1" }, T1, true);
    const e3 = await record(s, "o2", "dossier.created", { id: "d9" }, T1, true);
    await s.write(() => s.events.skipPendingAfter("o1", e1.seq));
    const state = async (organizationId: string, id: string) => {
      const d = await s.deliveries.byEventId(organizationId, id);
      return [d?.status, d?.next_attempt_at];
    };
    expect(await state("o1", e1.id)).toEqual(["pending", DUE]);
    expect(await state("o1", e2.id)).toEqual(["skipped", null]);
    expect(await state("o2", e3.id)).toEqual(["pending", DUE]);
  });

  test("sweep: events recorded before the time given whose delivery is over, oldest first, at most `limit`, with their attempts", async () => {
    const s = await twoOrgs(engine);
    const e1 = await record(s, "o1", "dossier.created", { id: "d1" }, T0);
    const e2 = await record(s, "o2", "dossier.created", { id: "d9" }, T0);
    const e3 = await record(s, "o1", "dossier.updated", { id: "d1" }, T0, true); // pending: kept
    const e4 = await record(s, "o1", "dossier.updated", { id: "d1" }, T0);
    const e5 = await record(s, "o1", "dossier.updated", { id: "d1" }, T1); // not old enough
    await insertRows(s, "delivery_attempts", [
      { event_seq: e1.seq, at: T0, status_code: 500, error: "HTTP 500", duration_ms: 3, response_snippet: null },
      { event_seq: e3.seq, at: T0, status_code: null, error: "timeout", duration_ms: 10_000, response_snippet: null },
    ]);
    expect(await s.write(() => s.events.sweep(T1, 2))).toBe(2);
    expect(await s.events.byId("o1", e1.id)).toBeNull();
    expect(await s.events.byId("o2", e2.id)).toBeNull();
    expect(await s.deliveries.attempts(e1.seq)).toEqual([]);
    expect(await s.write(() => s.events.sweep(T1, 10))).toBe(1);
    expect(await s.events.byId("o1", e4.id)).toBeNull();
    expect(await s.events.byId("o1", e3.id)).not.toBeNull();
    expect(await s.deliveries.attempts(e3.seq)).toHaveLength(1);
    expect(await s.events.byId("o1", e5.id)).not.toBeNull();
    expect(await s.write(() => s.events.sweep(T1, 10))).toBe(0);
  });

  if (engine === "postgres") {
    test("an organization's numbers are taken in its commit order: its next unit waits for the one that took the number before to commit; another organization's does not", async () => {
      const s = await twoOrgs(engine);
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let taken!: () => void;
      const aTook = new Promise<void>((resolve) => (taken = resolve));
      const order: string[] = [];
      const a = s.write(async () => {
        const seq = await s.events.nextSeq("o1");
        taken();
        await held; // A holds its number, uncommitted
        order.push(`A takes ${seq}`);
        return seq;
      });
      await aTook;
      const b = s.write(async () => {
        const seq = await s.events.nextSeq("o1");
        order.push(`B takes ${seq}`);
        return seq;
      });
      const other = await s.write(() => s.events.nextSeq("o2")); // not held up by A
      await Bun.sleep(200);
      expect(order).toEqual([]); // B waits for A's lock
      release();
      expect(await a).toBe(1);
      expect(await b).toBe(3);
      expect(other).toBe(2);
      expect(order).toEqual(["A takes 1", "B takes 3"]);
    });

    test("a unit that rolls back leaves its number unused (a gap, where SQLite gives it again); the next unit's number is higher", async () => {
      const s = await twoOrgs(engine);
      await expect(
        s.write(async () => {
          await s.events.nextSeq("o1");
          throw new Error("rolled back");
        }),
      ).rejects.toThrow("rolled back");
      expect((await record(s, "o1", "dossier.created", { id: "d1" })).seq).toBe(2);
    });
  }
});
