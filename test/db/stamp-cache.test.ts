// The caches of records as a GET shows them (src/db/stamp-cache.ts): a value holds while nothing
// is committed, and the entries together stay within their count and their weight in characters.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { openStore, type SqliteStore as Store } from "../../src/db/client";
import { StampCache, type StampLimits } from "../../src/db/stamp-cache";
import { onCleanup, tempDir } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

function store(): Store {
  const store = openStore(join(tempDir(), "dossier.db"), { flushOffThread: true });
  onCleanup(() => store.close());
  return store;
}

/** A cache of records `{ text }` whose loads are counted per key. */
function counted(s: Store, limits: StampLimits) {
  const cache = new StampCache<{ text: string }>(s.sqlite, limits);
  const loads = new Map<string, number>();
  const get = (key: string, length: number) =>
    cache.get(key, () => {
      loads.set(key, (loads.get(key) ?? 0) + 1);
      return { text: "x".repeat(length) };
    });
  return { get, loads: (key: string) => loads.get(key) ?? 0 };
}

const touch = (s: Store) => s.write(() => s.sqlite.run("INSERT INTO organizations (id, name, plan, rate_limit, created_at) VALUES (lower(hex(randomblob(8))), 'o', 'growth', 100, '2026-11-29T10:00:00.000Z')"));

describe("StampCache", () => {
  test("a value is read once while nothing is committed, frozen, and read again after a commit", async () => {
    const s = store();
    const c = counted(s, { maxEntries: 10, maxWeight: 1000 });
    const first = c.get("a", 10)!;
    expect(c.get("a", 10)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(c.loads("a")).toBe(1);
    await touch(s);
    expect(c.get("a", 10)).not.toBe(first);
    expect(c.loads("a")).toBe(2);
  });

  test("entries past the weight go, oldest first, and a value heavier than the whole weight is never kept", () => {
    const s = store();
    const c = counted(s, { maxEntries: 10, maxWeight: 1000 });
    c.get("old", 600);
    c.get("new", 300);
    c.get("old", 600);
    c.get("new", 300);
    expect([c.loads("old"), c.loads("new")]).toEqual([1, 1]); // 900 characters and a little: both kept
    c.get("third", 300); // 1,200: the oldest goes
    c.get("new", 300);
    c.get("third", 300);
    c.get("old", 600);
    expect([c.loads("old"), c.loads("new"), c.loads("third")]).toEqual([2, 1, 1]);
    c.get("huge", 1001);
    c.get("huge", 1001);
    expect(c.loads("huge")).toBe(2);
  });

  test("entries past the count go, oldest first", () => {
    const s = store();
    const c = counted(s, { maxEntries: 2, maxWeight: 1000 });
    for (const key of ["a", "b", "c", "b", "c", "a"]) c.get(key, 1);
    expect([c.loads("a"), c.loads("b"), c.loads("c")]).toEqual([2, 1, 1]);
  });
});
