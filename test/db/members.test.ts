// Members' and setup links' query module (src/db/members.ts, src/db/pg/members.ts) on the store
// under test: the same answers on both engines, one organization's rows never another's.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { SetupLinkRow } from "../../src/db/schema";
import { ENGINES, memberRow, twoOrgs } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts); PostgreSQL starts once

const T0 = "2026-01-01T00:00:00.000Z";
const T1 = "2026-01-02T00:00:00.000Z";

const link = (id: string, organizationId: string, changes: Partial<SetupLinkRow> = {}): Omit<SetupLinkRow, "usedAt"> => ({
  id,
  organizationId,
  memberId: null,
  role: null,
  tokenHash: `hash-${id}`,
  createdAt: T0,
  expiresAt: "2026-01-08T00:00:00.000Z",
  ...changes,
});

describe.each(ENGINES)("members on %s", (engine) => {
  test("members are found by id in their organization only, by folded email anywhere, listed oldest first then by id", async () => {
    const s = await twoOrgs(engine);
    await s.write(async () => {
      await s.members.insert(memberRow("m2", "o1", { createdAt: T1, role: "owner", passwordHash: "ph", lastSignInAt: T1, disabledAt: T1 }));
      await s.members.insert(memberRow("m3", "o1"));
      await s.members.insert(memberRow("m1", "o1"));
      await s.members.insert(memberRow("m9", "o2"));
    });
    expect(await s.read(() => s.members.byId("o1", "m2"))).toEqual(
      memberRow("m2", "o1", { createdAt: T1, role: "owner", passwordHash: "ph", lastSignInAt: T1, disabledAt: T1 }),
    );
    expect(await s.members.byId("o1", "m1")).toEqual(memberRow("m1", "o1"));
    expect(await s.members.byId("o2", "m1")).toBeNull();
    expect(await s.members.byId("o1", "nope")).toBeNull();
    expect(await s.members.byFoldedEmail("m9@example.com")).toEqual(memberRow("m9", "o2"));
    expect(await s.members.byFoldedEmail("m9@Example.com")).toBeNull();
    expect((await s.read(() => s.members.list("o1"))).map((m) => m.id)).toEqual(["m1", "m3", "m2"]);
    expect(await s.members.list("o2")).toEqual([memberRow("m9", "o2")]);
    expect(await s.members.list("o3")).toEqual([]);
  });

  test("C22: settings and the calendar token's hash are set in the member's organization only; found by the hash and by id anywhere", async () => {
    const s = await twoOrgs(engine);
    await s.write(async () => {
      await s.members.insert(memberRow("m1", "o1"));
      await s.members.insert(memberRow("m9", "o2"));
    });
    await s.write(async () => {
      await s.members.setSettings("o1", "m1", "Europe/Paris", false);
      await s.members.setSettings("o2", "m1", "Asia/Tokyo", true); // another organization's id: nothing
      await s.members.setCalendarTokenHash("o1", "m1", "cal-1");
      await s.members.setCalendarTokenHash("o1", "m9", "cal-9"); // not o1's member: nothing
    });
    const changed = memberRow("m1", "o1", { timeZone: "Europe/Paris", digest: 0 as unknown as boolean, calendarTokenHash: "cal-1" });
    expect(await s.members.byId("o1", "m1")).toEqual(changed);
    expect(await s.members.byCalendarTokenHash("cal-1")).toEqual(changed);
    expect(await s.members.byCalendarTokenHash("cal-9")).toBeNull();
    expect(await s.members.byIdInAnyOrganization("m9")).toEqual(memberRow("m9", "o2"));
    expect(await s.members.byIdInAnyOrganization("nope")).toBeNull();
  });

  test("update, setPassword and recordSignIn change the member of that organization only", async () => {
    const s = await twoOrgs(engine);
    await s.write(async () => {
      await s.members.insert(memberRow("m1", "o1"));
      await s.members.insert(memberRow("m2", "o2"));
    });
    await s.write(async () => {
      await s.members.update("o1", "m1", "Renamed", "admin");
      await s.members.setPassword("o1", "m1", "hash1");
      await s.members.recordSignIn("o1", "m1", T1);
      // Named in the wrong organization: nothing changes.
      await s.members.update("o1", "m2", "Nobody", "owner");
      await s.members.setPassword("o1", "m2", "x");
      await s.members.recordSignIn("o1", "m2", T1);
    });
    expect(await s.members.byId("o1", "m1")).toEqual(memberRow("m1", "o1", { name: "Renamed", role: "admin", passwordHash: "hash1", lastSignInAt: T1 }));
    expect(await s.members.byId("o2", "m2")).toEqual(memberRow("m2", "o2"));
  });

  test("disable keeps the first time and says whether it did; active owners leave out the disabled and other roles and organizations", async () => {
    const s = await twoOrgs(engine);
    await s.write(async () => {
      await s.members.insert(memberRow("a", "o1", { role: "owner" }));
      await s.members.insert(memberRow("b", "o1", { role: "owner" }));
      await s.members.insert(memberRow("c", "o1", { role: "admin" }));
      await s.members.insert(memberRow("d", "o2", { role: "owner" }));
    });
    expect(await s.members.activeOwners("o1")).toBe(2);
    expect(await s.write(() => s.members.disable("o1", "b", T0))).toBe(true);
    expect(await s.write(() => s.members.disable("o1", "b", T1))).toBe(false);
    expect(await s.write(() => s.members.disable("o1", "d", T1))).toBe(false);
    expect((await s.members.byId("o1", "b"))?.disabledAt).toBe(T0);
    expect((await s.members.byId("o2", "d"))?.disabledAt).toBeNull();
    expect(await s.read(() => s.members.activeOwners("o1"))).toBe(1);
    expect(await s.members.activeOwners("o2")).toBe(1);
    expect(await s.members.activeOwners("o3")).toBe(0);
  });

  test("setup links: found by hash, used once in their organization, the member's unused ones voided", async () => {
    const s = await twoOrgs(engine);
    await s.write(async () => {
      await s.members.insert(memberRow("m1", "o1"));
      await s.members.insert(memberRow("m2", "o2"));
      await s.members.insertSetupLink(link("l1", "o1", { memberId: "m1" }));
      await s.members.insertSetupLink(link("l2", "o1", { memberId: "m1" }));
      await s.members.insertSetupLink(link("l3", "o1", { role: "admin" }));
      await s.members.insertSetupLink(link("l4", "o2", { memberId: "m2" }));
    });
    expect(await s.read(() => s.members.setupLinkByHash("hash-l3"))).toEqual({ ...link("l3", "o1", { role: "admin" }), usedAt: null });
    expect(await s.members.setupLinkByHash("hash-l1")).toEqual({ ...link("l1", "o1", { memberId: "m1" }), usedAt: null });
    expect(await s.members.setupLinkByHash("hash-none")).toBeNull();
    expect(await s.write(() => s.members.useSetupLink("o2", "l1", T1))).toBe(false);
    expect(await s.write(() => s.members.useSetupLink("o1", "l1", T1))).toBe(true);
    expect(await s.write(() => s.members.useSetupLink("o1", "l1", "2026-01-03T00:00:00.000Z"))).toBe(false);
    expect((await s.members.setupLinkByHash("hash-l1"))?.usedAt).toBe(T1);
    await s.write(async () => {
      await s.members.voidSetupLinks("o2", "m1"); // another organization's: nothing
      expect(await s.members.setupLinkByHash("hash-l2")).not.toBeNull();
      await s.members.voidSetupLinks("o1", "m1");
    });
    expect(await s.members.setupLinkByHash("hash-l1")).not.toBeNull(); // used: kept
    expect(await s.members.setupLinkByHash("hash-l2")).toBeNull();
    expect(await s.members.setupLinkByHash("hash-l3")).not.toBeNull();
    expect(await s.members.setupLinkByHash("hash-l4")).not.toBeNull();
  });
});
