// The commit stamp (src/db/commit-stamp.ts): a number that moves with every commit by any
// connection of any process, read from the wal-index header without a statement, and the caches'
// use of it (src/db/generations.ts): a hit costs no SQL while nothing was committed, and an entry
// filled inside a snapshot older than a commit is checked again after that commit.
import { Database } from "bun:sqlite";
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { openStore, type SqliteStore as Store } from "../../src/db/client";
import { CommitStamp } from "../../src/db/commit-stamp";
import { Generations } from "../../src/db/generations";
import { currentScope } from "../../src/db/scope";
import { readSnapshot } from "../../src/db/snapshot";
import { onCleanup, tempDir } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

function store(): { store: Store; path: string; stamp: CommitStamp } {
  const path = join(tempDir(), "dossier.db");
  // Closed after the store (cleanups run newest first): closing a descriptor of the -shm file
  // drops the process's locks on it.
  const stamp = new CommitStamp(path);
  onCleanup(() => stamp.close());
  const store = openStore(path, { flushOffThread: true });
  onCleanup(() => store.close());
  return { store, path, stamp };
}

const at = "2026-11-29T10:00:00.000Z";
const addOrg = (s: Store, id: string) =>
  s.write(() => s.sqlite.query("INSERT INTO organizations (id, name, plan, rate_limit, created_at) VALUES (?, ?, 'growth', 100, ?)").run(id, id, at));
const insertFlow = (db: Database, org: string, id: string) =>
  db.query("INSERT INTO flows (id, organization_id, name, type, is_default, created_at) VALUES (?, ?, ?, 'sales', 0, ?)").run(id, org, id, at);
const flowNames = (s: Store, org: string) =>
  s.sqlite.query<{ name: string }, [string]>("SELECT name FROM flows WHERE organization_id = ? ORDER BY name").all(org).map((r) => r.name);

/** Another process writes a flow into the file, through its own connection. */
async function flowFromAnotherProcess(path: string, org: string, id: string) {
  const script = `import { Database } from "bun:sqlite";
const db = new Database(${JSON.stringify(path)}); db.run("PRAGMA busy_timeout = 5000");
db.query("INSERT INTO flows (id, organization_id, name, type, is_default, created_at) VALUES (?, ?, ?, 'sales', 0, ?)").run(${JSON.stringify(id)}, ${JSON.stringify(org)}, ${JSON.stringify(id)}, ${JSON.stringify(at)});
db.close();`;
  const child = Bun.spawn([process.execPath, "-e", script], { stdout: "ignore", stderr: "pipe" });
  expect(await child.exited).toBe(0);
}

describe("CommitStamp", () => {
  test("stays while nothing is committed; moves with this connection's commits and another process's; not with a rolled-back transaction", async () => {
    const { store: s, path, stamp } = store();
    await addOrg(s, "a");
    const first = stamp.now();
    expect(first).toBeGreaterThanOrEqual(0);
    flowNames(s, "a");
    expect(stamp.now()).toBe(first);
    await s.write(() => insertFlow(s.sqlite, "a", "own"));
    const afterOwn = stamp.now();
    expect(afterOwn).not.toBe(first);
    const other = new Database(path, { strict: true });
    other.run("BEGIN IMMEDIATE");
    insertFlow(other, "a", "undone");
    other.run("ROLLBACK");
    other.close();
    expect(stamp.now()).toBe(afterOwn);
    await flowFromAnotherProcess(path, "a", "theirs");
    expect(stamp.now()).not.toBe(afterOwn);
  });

  test("a database without a -shm file (in memory) has no stamp", () => {
    expect(new CommitStamp(null).now()).toBe(-1);
  });
});

describe("GenerationCache with the commit stamp", () => {
  // On the writer's connection, where these tests read and write (the store's own caches live on
  // its read connections, src/db/scope.ts): a value read in a unit is never remembered.
  const cached = (s: Store) => {
    const generations = new Generations(s.sqlite, () => currentScope()?.writes === true);
    const cache = generations.cache<string[]>(["flows"], { maxEntries: 10 });
    let loads = 0;
    const get = (org: string) =>
      cache.get(org, () => {
        loads++;
        return { organizationId: org, value: flowNames(s, org) };
      });
    return { get, loads: () => loads, reads: () => generations.reads };
  };

  test("a hit reads no generation while nothing was committed; after any commit it reads one, then none again", async () => {
    const { store: s } = store();
    await addOrg(s, "a");
    await addOrg(s, "b");
    const c = cached(s);
    c.get("a");
    c.get("a"); // the first hit checks its generation once more, under the stamp it then keeps
    const reads = c.reads();
    expect(c.get("a")).toEqual([]);
    expect(readSnapshot(s.sqlite, () => c.get("a"))).toEqual([]);
    expect(c.reads()).toBe(reads);
    await s.write(() => insertFlow(s.sqlite, "b", "elsewhere")); // another organization: still a hit, after one check
    expect(c.get("a")).toEqual([]);
    expect(c.reads()).toBe(reads + 1);
    expect(c.get("a")).toEqual([]);
    expect(c.reads()).toBe(reads + 1);
    expect(c.loads()).toBe(1);
  });

  test("an entry filled in a snapshot that began before another connection's commit is read again after it", async () => {
    const { store: s, path } = store();
    await addOrg(s, "a");
    const c = cached(s);
    const other = new Database(path, { strict: true });
    const during = readSnapshot(s.sqlite, () => {
      flowNames(s, "a"); // the snapshot begins here, before the other connection commits
      insertFlow(other, "a", "theirs");
      return c.get("a");
    });
    other.close();
    expect(during).toEqual([]);
    expect(c.get("a")).toEqual(["theirs"]);
  });

  test("inside a write unit the stamp is not used: the unit's own uncommitted change is seen", async () => {
    const { store: s } = store();
    await addOrg(s, "a");
    const c = cached(s);
    c.get("a");
    c.get("a");
    const seen = await s.write(() => {
      insertFlow(s.sqlite, "a", "mine");
      return c.get("a");
    });
    expect(seen).toEqual(["mine"]);
    expect(c.get("a")).toEqual(["mine"]);
  });
});
