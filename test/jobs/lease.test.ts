// Work one node at a time does (C19): DOSSIER_LEASE's bounds, and src/jobs/lease.ts on both
// engines: on SQLite the work runs at once (one process); on PostgreSQL a second holder finds the
// lease taken until the first gives it back, a lease that has passed goes to whoever asks, and its
// old holder's renewal then finds it lost.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { loadConfig } from "../../src/config";
import { pgStoreOf } from "../../src/db/pg/store-of";
import { underLease } from "../../src/jobs/lease";
import { appOn } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

describe("DOSSIER_LEASE", () => {
  test("55 s unless set (taken over within 60 s with the others' 5 s scan); from 1 s to 60 s, never longer", () => {
    expect(loadConfig({}).leaseMs).toBe(55_000);
    expect(loadConfig({ DOSSIER_LEASE: "5s" }).leaseMs).toBe(5_000);
    expect(loadConfig({ DOSSIER_LEASE: "1m" }).leaseMs).toBe(60_000);
    for (const bad of ["61s", "2m", "500ms", "5", "soon"]) expect(() => loadConfig({ DOSSIER_LEASE: bad })).toThrow("DOSSIER_LEASE");
  });
});

describe("underLease", () => {
  test("SQLite: the work runs at once, always held", async () => {
    const app = await appOn("sqlite");
    const ran = await underLease(app.dossier, "a", "job:x", async (held) => held());
    expect(ran).toEqual({ value: true });
  });

  test("PostgreSQL: one holder at a time; given back, taken by the next", async () => {
    const app = await appOn("postgres");
    let inside: ((value: unknown) => void) | null = null;
    const first = underLease(app.dossier, "a", "job:x", (held) => {
      expect(held()).toBe(true);
      return new Promise((resolve) => (inside = resolve));
    });
    // While "a" runs, "b" does not.
    for (let i = 0; i < 1000 && inside === null; i++) await Bun.sleep(5);
    expect(await underLease(app.dossier, "b", "job:x", async () => "ran")).toBeNull();
    inside!("done");
    expect(await first).toEqual({ value: "done" });
    expect(await underLease(app.dossier, "b", "job:x", async () => "ran")).toEqual({ value: "ran" });
  });

  test("PostgreSQL: a lease that has passed goes to the next holder; the old holder's renewal finds it lost", async () => {
    const app = await appOn("postgres");
    const leases = pgStoreOf(app.dossier.store)!.leases;
    expect(await leases.take("job:y", "a", 1)).toBe(true); // 1 ms: passed at once
    for (let i = 0; i < 100 && !(await leases.take("job:y", "b", 60_000)); i++) await Bun.sleep(5);
    expect(await leases.renew(["job:y"], "a", 60_000)).toEqual([]);
    expect(await leases.renew(["job:y"], "b", 60_000)).toEqual(["job:y"]);
    expect(await leases.take("job:y", "a", 60_000)).toBe(false);
    await leases.release(["job:y"], "b");
    expect(await leases.take("job:y", "a", 60_000)).toBe(true);
  });
});
