// Organizations' query module (src/db/orgs.ts, src/db/pg/orgs.ts) on the store under test: the
// same answers on SQLite and PostgreSQL.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { ENGINES, storeUnderTest } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts); PostgreSQL starts once

const org = (id: string, createdAt: string) => ({ id, name: `Org ${id}`, plan: "growth" as const, rate_limit: 100, created_at: createdAt });

describe.each(ENGINES)("organizations on %s", (engine) => {
  test("an inserted organization is found by id, listed oldest first (then by id) and counted; an unknown id is null", async () => {
    const s = await storeUnderTest(engine);
    await s.write(async () => {
      await s.orgs.insert(org("b", "2026-01-02T00:00:00.000Z"));
      await s.orgs.insert(org("c", "2026-01-01T00:00:00.000Z"));
      await s.orgs.insert(org("a", "2026-01-02T00:00:00.000Z"));
    });
    expect(await s.read(() => s.orgs.byId("a"))).toEqual({ id: "a", name: "Org a", plan: "growth", rate_limit: 100 });
    expect(await s.orgs.byId("unknown")).toBeNull();
    expect((await s.read(() => s.orgs.all())).map((o) => o.id)).toEqual(["c", "a", "b"]);
    expect(await s.orgs.count()).toBe(3);
  });

  test("update sets the columns given and keeps the others", async () => {
    const s = await storeUnderTest(engine);
    await s.write(() => s.orgs.insert(org("a", "2026-01-01T00:00:00.000Z")));
    await s.write(() => s.orgs.update("a", { plan: "pro" }));
    expect(await s.orgs.byId("a")).toEqual({ id: "a", name: "Org a", plan: "pro", rate_limit: 100 });
    await s.write(() => s.orgs.update("a", { name: "Renamed", rate_limit: 7 }));
    expect(await s.orgs.byId("a")).toEqual({ id: "a", name: "Renamed", plan: "pro", rate_limit: 7 });
  });

  test("a unit that throws leaves nothing of itself, and its error reaches the caller", async () => {
    const s = await storeUnderTest(engine);
    const failing = s.write(async () => {
      await s.orgs.insert(org("gone", "2026-01-01T00:00:00.000Z"));
      throw new Error("rolled back");
    });
    await expect(failing).rejects.toThrow("rolled back");
    expect(await s.orgs.count()).toBe(0);
  });

  test("a unit sees its own rows before they commit; a read beside it does not", async () => {
    const s = await storeUnderTest(engine);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let reached!: () => void;
    const inside = new Promise<void>((resolve) => (reached = resolve));
    const unit = s.write(async () => {
      await s.orgs.insert(org("new", "2026-01-01T00:00:00.000Z"));
      const own = await s.orgs.count();
      reached();
      await held;
      return own;
    });
    await inside;
    expect(await s.read(() => s.orgs.count())).toBe(0);
    release();
    expect(await unit).toBe(1);
    expect(await s.read(() => s.orgs.count())).toBe(1);
  });

  test("a write asked for inside a unit is refused (it would not be part of it)", async () => {
    const s = await storeUnderTest(engine);
    const nested = s.write(async () => {
      await s.write(() => s.orgs.insert(org("x", "2026-01-01T00:00:00.000Z")));
    });
    await expect(nested).rejects.toThrow("store.write called inside a unit of work");
    expect(await s.orgs.count()).toBe(0);
  });
});
