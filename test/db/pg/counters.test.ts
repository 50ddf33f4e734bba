// The counts every PostgreSQL node shares (src/db/pg/counters.ts, C8, C19): a subject's sliding
// 60 s window stays exact when counts commit in another order than their nodes read their clocks
// (a request waits for the counter's row lock after reading its time, so a later commit can carry
// an earlier time). Found by test/nodes/rate-limits.test.ts under load: 24 to 49 of 60 requests
// accepted against a limit of 20.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { openPgStore, type PgStore } from "../../../src/db/pg/client";
import { migratedDatabase } from "../../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts); PostgreSQL starts once

const opened: PgStore[] = [];
afterAll(async () => {
  for (const store of opened) await store.close();
});

async function counters() {
  const store = await openPgStore(await migratedDatabase());
  opened.push(store);
  return store.counters!;
}

describe("shared counters on PostgreSQL", () => {
  test("counts with times out of order: the window holds every count, so the limit holds", async () => {
    const shared = await counters();
    const T = 1_800_000_000_000;
    expect((await shared.hit("org", 2, T + 100)).allowed).toBe(true);
    // Counted after the first, with a time read before it.
    expect((await shared.hit("org", 2, T + 90)).allowed).toBe(true);
    const third = await shared.hit("org", 2, T + 110);
    expect(third).toMatchObject({ allowed: false, limit: 2, remaining: 0 });
    // Both leave the window 60 s after the later of their times, not before.
    expect((await shared.hit("org", 2, T + 60_099)).allowed).toBe(false);
    expect((await shared.hit("org", 2, T + 60_101)).allowed).toBe(true);
  });

  test("the window still slides: counts 60 s old leave it, one by one", async () => {
    const shared = await counters();
    const T = 1_800_000_000_000;
    expect((await shared.hit("token", 2, T)).allowed).toBe(true);
    expect((await shared.hit("token", 2, T + 10_000)).allowed).toBe(true);
    expect((await shared.hit("token", 2, T + 59_999)).allowed).toBe(false);
    expect(await shared.hit("token", 2, T + 60_001)).toMatchObject({ allowed: true, remaining: 0 });
    expect((await shared.hit("token", 2, T + 69_999)).allowed).toBe(false);
    expect((await shared.hit("token", 2, T + 70_001)).allowed).toBe(true);
  });
});
