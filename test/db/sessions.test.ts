// Sessions' query module (src/db/sessions.ts, src/db/pg/sessions.ts) on the store under test: the
// same answers on both engines, one organization's rows never another's.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { SessionRow } from "../../src/db/schema";
import { ENGINES, memberRow, twoOrgs, type Engine, type EngineStore } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts); PostgreSQL starts once

const T0 = "2026-01-01T00:00:00.000Z";
const T1 = "2026-01-02T00:00:00.000Z";
const T2 = "2026-01-03T00:00:00.000Z";

const session = (id: string, organizationId: string, memberId: string, changes: Partial<SessionRow> = {}): SessionRow => ({
  id,
  organizationId,
  memberId,
  tokenHash: `hash-${id}`,
  csrfToken: `csrf-${id}`,
  createdAt: T0,
  lastUsedAt: T0,
  ...changes,
});

/** Two organizations, a member in each (m1 an admin of o1, disabled; m2 a member of o2), and m3 in o1. */
async function withMembers(engine: Engine): Promise<EngineStore> {
  const s = await twoOrgs(engine);
  await s.write(async () => {
    await s.members.insert(memberRow("m1", "o1", { role: "admin", disabledAt: T1 }));
    await s.members.insert(memberRow("m2", "o2"));
    await s.members.insert(memberRow("m3", "o1"));
  });
  return s;
}

describe.each(ENGINES)("sessions on %s", (engine) => {
  test("a session is found by its token's hash with its member's role and disabled time and its organization's plan and rate limit", async () => {
    const s = await withMembers(engine);
    await s.write(async () => {
      await s.sessions.insert(session("s1", "o1", "m1", { lastUsedAt: T1 }));
      await s.sessions.insert(session("s2", "o2", "m2"));
    });
    expect(await s.read(() => s.sessions.byTokenHash("hash-s1"))).toEqual({
      id: "s1",
      organizationId: "o1",
      memberId: "m1",
      csrfToken: "csrf-s1",
      createdAt: T0,
      lastUsedAt: T1,
      role: "admin",
      disabledAt: T1,
      plan: "growth",
      rateLimit: 120,
    });
    expect(await s.sessions.byTokenHash("hash-s2")).toEqual({
      id: "s2",
      organizationId: "o2",
      memberId: "m2",
      csrfToken: "csrf-s2",
      createdAt: T0,
      lastUsedAt: T0,
      role: "member",
      disabledAt: null,
      plan: "free",
      rateLimit: 60,
    });
    expect(await s.sessions.byTokenHash("hash-none")).toBeNull();
  });

  test("touch moves last_used_at of the session in its organization only", async () => {
    const s = await withMembers(engine);
    await s.write(() => s.sessions.insert(session("s1", "o1", "m1")));
    await s.write(() => s.sessions.touch("o2", "s1", T2));
    expect((await s.sessions.byTokenHash("hash-s1"))?.lastUsedAt).toBe(T0);
    await s.write(() => s.sessions.touch("o1", "s1", T2));
    expect((await s.sessions.byTokenHash("hash-s1"))?.lastUsedAt).toBe(T2);
  });

  test("deleteByTokenHash says whether there was a session; deleteOfMember removes the member's in that organization only", async () => {
    const s = await withMembers(engine);
    await s.write(async () => {
      await s.sessions.insert(session("s1", "o1", "m1"));
      await s.sessions.insert(session("s2", "o1", "m1"));
      await s.sessions.insert(session("s3", "o1", "m3"));
      await s.sessions.insert(session("s4", "o2", "m2"));
    });
    expect(await s.write(() => s.sessions.deleteByTokenHash("hash-s1"))).toBe(true);
    expect(await s.write(() => s.sessions.deleteByTokenHash("hash-s1"))).toBe(false);
    expect(await s.sessions.byTokenHash("hash-s1")).toBeNull();
    await s.write(() => s.sessions.deleteOfMember("o2", "m1"));
    expect(await s.sessions.byTokenHash("hash-s2")).not.toBeNull();
    await s.write(() => s.sessions.deleteOfMember("o1", "m1"));
    expect(await s.sessions.byTokenHash("hash-s2")).toBeNull();
    expect(await s.sessions.byTokenHash("hash-s3")).not.toBeNull();
    expect(await s.sessions.byTokenHash("hash-s4")).not.toBeNull();
  });

  test("deleteEnded removes the member's sessions idle since or made since the times given (bounds included), of that organization only", async () => {
    const s = await withMembers(engine);
    await s.write(async () => {
      await s.sessions.insert(session("idle", "o1", "m1", { createdAt: T1, lastUsedAt: T0 }));
      await s.sessions.insert(session("old", "o1", "m1", { createdAt: T0, lastUsedAt: T2 }));
      await s.sessions.insert(session("live", "o1", "m1", { createdAt: T1, lastUsedAt: T2 }));
      await s.sessions.insert(session("other", "o1", "m3", { createdAt: T0, lastUsedAt: T0 }));
      await s.sessions.insert(session("elsewhere", "o2", "m2", { createdAt: T0, lastUsedAt: T0 }));
    });
    await s.write(() => s.sessions.deleteEnded("o2", "m1", T2, T2));
    expect(await s.sessions.byTokenHash("hash-idle")).not.toBeNull();
    await s.write(() => s.sessions.deleteEnded("o1", "m1", T0, T0));
    const left = [];
    for (const id of ["idle", "old", "live", "other", "elsewhere"]) if (await s.sessions.byTokenHash(`hash-${id}`)) left.push(id);
    expect(left).toEqual(["live", "other", "elsewhere"]);
  });
});
