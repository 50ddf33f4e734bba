// The caches' one eviction rule (src/db/bounded-map.ts): at most maxEntries, at most maxWeight in
// all, the oldest set (or touched) going first; a value heavier than the whole bound is not kept.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { BoundedMap } from "../../src/db/bounded-map";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const keys = (map: BoundedMap<string, number>, of: string[]) => of.filter((key) => map.get(key) !== undefined);

describe("BoundedMap", () => {
  test("past maxEntries, the oldest entry goes", () => {
    const map = new BoundedMap<string, number>({ maxEntries: 3, maxWeight: Infinity });
    for (const [i, key] of ["a", "b", "c", "d"].entries()) map.set(key, i);
    expect(keys(map, ["a", "b", "c", "d"])).toEqual(["b", "c", "d"]);
    expect(map.size).toBe(3);
  });

  test("past maxWeight, the oldest entries go until the new one fits, and the weight follows", () => {
    const map = new BoundedMap<string, number>({ maxEntries: 100, maxWeight: 10 });
    map.set("a", 1, 4);
    map.set("b", 2, 4);
    map.set("c", 3, 2);
    expect(map.weight).toBe(10);
    map.set("d", 4, 5);
    expect(keys(map, ["a", "b", "c", "d"])).toEqual(["c", "d"]);
    expect(map.weight).toBe(7);
    map.delete("c");
    expect(map.weight).toBe(5);
  });

  test("setting a key again replaces its weight and makes it the newest", () => {
    const map = new BoundedMap<string, number>({ maxEntries: 2, maxWeight: 10 });
    map.set("a", 1, 6);
    map.set("b", 2, 1);
    map.set("a", 3, 2);
    expect(map.weight).toBe(3);
    map.set("c", 4, 1);
    expect(keys(map, ["a", "b", "c"])).toEqual(["a", "c"]);
    expect(map.get("a")).toBe(3);
  });

  test("a touched entry is the newest: the oldest untouched one goes first", () => {
    const map = new BoundedMap<string, number>({ maxEntries: 2, maxWeight: Infinity });
    map.set("a", 1);
    map.set("b", 2);
    map.touch("a");
    map.touch("nothing here");
    map.set("c", 3);
    expect(keys(map, ["a", "b", "c"])).toEqual(["a", "c"]);
  });

  test("a value heavier than maxWeight is not kept, and nothing is dropped for it", () => {
    const map = new BoundedMap<string, number>({ maxEntries: 10, maxWeight: 10 });
    map.set("a", 1, 5);
    expect(map.set("b", 2, 11)).toBe(false);
    expect(keys(map, ["a", "b"])).toEqual(["a"]);
    expect(map.weight).toBe(5);
  });
});
