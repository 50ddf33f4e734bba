// The caches' one invalidation rule (src/db/generations.ts, migration 0005), on a real file: a
// generation per (organization, table) moved by triggers inside the writing transaction.
import { Database } from "bun:sqlite";
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { Generations } from "../../src/db/generations";
import { currentScope } from "../../src/db/scope";
import { openStore, type SqliteStore as Store } from "../../src/db/client";
import { onCleanup, tempDir } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

function store(): { store: Store; path: string } {
  const path = join(tempDir(), "dossier.db");
  const store = openStore(path, { flushOffThread: true });
  onCleanup(() => store.close());
  return { store, path };
}

const at = "2026-11-27T10:00:00.000Z";
const addOrg = (s: Store, id: string) =>
  s.write(() => s.sqlite.query("INSERT INTO organizations (id, name, plan, rate_limit, created_at) VALUES (?, ?, 'growth', 100, ?)").run(id, id, at));
const addFlow = (s: Store, org: string, id: string) =>
  s.write(() =>
    s.sqlite.query("INSERT INTO flows (id, organization_id, name, type, is_default, created_at) VALUES (?, ?, ?, 'candidate', 0, ?)").run(id, org, id, at),
  );
const flowNames = (s: Store, org: string) =>
  s.sqlite.query<{ name: string }, [string]>("SELECT name FROM flows WHERE organization_id = ? ORDER BY name").all(org).map((r) => r.name);

describe("generations: one per organization and table, moved by the commit that changes it", () => {
  test("insert, update and delete each move only their own organization's generation of that table", async () => {
    const { store: s } = store();
    await addOrg(s, "a");
    await addOrg(s, "b");
    const g = () => [s.generations.of("a", ["flows"]), s.generations.of("b", ["flows"]), s.generations.of("a", ["dossiers"])];
    const start = g();
    await addFlow(s, "a", "f1");
    const afterInsert = g();
    expect(afterInsert[0]).not.toBe(start[0]);
    expect(afterInsert.slice(1)).toEqual(start.slice(1));
    await s.write(() => s.sqlite.query("UPDATE flows SET name = 'renamed' WHERE id = 'f1'").run());
    const afterUpdate = g();
    expect(afterUpdate[0]).not.toBe(afterInsert[0]);
    await s.write(() => s.sqlite.query("DELETE FROM flows WHERE id = 'f1'").run());
    expect(g()[0]).not.toBe(afterUpdate[0]);
    expect(g().slice(1)).toEqual(start.slice(1));
  });

  test("a key's last_used_at (bookkeeping no answer shows) keeps the api_keys generation; a revocation moves it", async () => {
    const { store: s } = store();
    await addOrg(s, "a");
    await s.write(() =>
      s.sqlite
        .query("INSERT INTO api_keys (id, organization_id, prefix, key_hash, scopes, created_at) VALUES ('k', 'a', 'p', 'h', 'dossiers:read', ?)")
        .run(at),
    );
    const before = s.generations.of("a", ["api_keys"]);
    await s.write(() => s.sqlite.query("UPDATE api_keys SET last_used_at = ? WHERE id = 'k'").run(at));
    expect(s.generations.of("a", ["api_keys"])).toBe(before);
    await s.write(() => s.sqlite.query("UPDATE api_keys SET revoked_at = ? WHERE id = 'k'").run(at));
    expect(s.generations.of("a", ["api_keys"])).not.toBe(before);
  });
});

describe("GenerationCache", () => {
  // On the writer's connection, where these tests read and write (the store's own caches live on
  // its read connections, src/db/scope.ts): a value read in a unit is never remembered.
  const cached = (s: Store) => {
    const cache = new Generations(s.sqlite, () => currentScope()?.writes === true).cache<string[]>(["flows"], { maxEntries: 10 });
    let loads = 0;
    const get = (org: string) =>
      cache.get(org, () => {
        loads++;
        return { organizationId: org, value: flowNames(s, org) };
      });
    return { get, loads: () => loads, cache };
  };

  test("a hit while unchanged; a write in the organization is seen at once; another organization's write is not a miss", async () => {
    const { store: s } = store();
    await addOrg(s, "a");
    await addOrg(s, "b");
    await addFlow(s, "a", "f1");
    const c = cached(s);
    expect(c.get("a")).toEqual(["f1"]);
    expect(c.get("a")).toEqual(["f1"]);
    expect(c.loads()).toBe(1);
    await addFlow(s, "b", "g1");
    expect(c.get("a")).toEqual(["f1"]);
    expect(c.loads()).toBe(1);
    await addFlow(s, "a", "f2");
    expect(c.get("a")).toEqual(["f1", "f2"]);
    expect(c.loads()).toBe(2);
  });

  test("a write by another connection (the CLI, another process) is seen on the next read", async () => {
    const { store: s, path } = store();
    await addOrg(s, "a");
    const c = cached(s);
    expect(c.get("a")).toEqual([]);
    const other = new Database(path, { strict: true });
    other.run("PRAGMA busy_timeout = 5000");
    other.query("INSERT INTO flows (id, organization_id, name, type, is_default, created_at) VALUES ('x', 'a', 'x', 'sales', 0, ?)").run(at);
    other.close();
    expect(c.get("a")).toEqual(["x"]);
  });

  test("a value read inside a write unit is returned but not remembered, so a rolled-back unit leaves nothing stale", async () => {
    const { store: s } = store();
    await addOrg(s, "a");
    const c = cached(s);
    const failing = s.write(() => {
      s.sqlite.query("INSERT INTO flows (id, organization_id, name, type, is_default, created_at) VALUES ('u', 'a', 'uncommitted', 'sales', 0, ?)").run(at);
      expect(c.get("a")).toEqual(["uncommitted"]);
      throw new Error("rolled back");
    });
    await expect(failing).rejects.toThrow("rolled back");
    expect(c.cache.size).toBe(0);
    expect(c.get("a")).toEqual([]);
    // The rolled-back unit's generation is reused by the next commit: the entry must not survive it.
    await addFlow(s, "a", "committed");
    expect(c.get("a")).toEqual(["committed"]);
  });

  test("a change of the schema (a migration by another process, an operator's ALTER) is a change of every table", async () => {
    const { store: s } = store();
    await addOrg(s, "a");
    const c = cached(s);
    c.get("a");
    s.sqlite.run("CREATE TABLE operator_notes (x)");
    c.get("a");
    expect(c.loads()).toBe(2);
  });

  test("entries beyond maxEntries push out the oldest", async () => {
    const { store: s } = store();
    const cache = s.generations.cache<number>(["flows"], { maxEntries: 2 });
    for (const org of ["a", "b", "c"]) cache.get(org, () => ({ organizationId: org, value: 1 }));
    expect(cache.size).toBe(2);
  });
});
