// C11 group commit, on a real SQLite file: the flush is given to the store as a function, and here
// it is a gate the test opens (a slow disk), so that what waits for it and what does not is seen
// without timing anything. The real flush (fdatasync of the WAL off the HTTP thread) is checked
// from outside the process by test/reliability/durability-strace.test.ts.
import { Database } from "bun:sqlite";
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { GroupCommit } from "../../src/db/group-commit";
import { openStore } from "../../src/db/client";
import { ApiError } from "../../src/errors";
import { tempDir, until } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

/** A flush that waits until the test opens it, counting the calls. */
function gatedFlush() {
  const gates: { open(): void; fail(error: Error): void }[] = [];
  return {
    calls: () => gates.length,
    flush: () =>
      new Promise<void>((resolve, reject) => {
        gates.push({ open: resolve, fail: reject });
      }),
    open: (i: number) => gates[i].open(),
    fail: (i: number, error: Error) => gates[i].fail(error),
  };
}

function database() {
  const sqlite = new Database(join(tempDir(), "g.db"), { create: true, strict: true });
  sqlite.run("PRAGMA journal_mode = WAL");
  sqlite.run("PRAGMA synchronous = NORMAL");
  sqlite.run("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT UNIQUE)");
  return sqlite;
}

const values = (sqlite: Database) => sqlite.query<{ v: string }, []>("SELECT v FROM t ORDER BY id").all().map((r) => r.v);
const insert = (sqlite: Database, v: string) => () => sqlite.query("INSERT INTO t (v) VALUES (?)").run(v).lastInsertRowid;
/** One turn of the event loop: a group started by a write runs before this resolves. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const settled = async (promise: Promise<unknown>) => {
  await Bun.sleep(0);
  return Bun.peek.status(promise);
};

describe("C11 group commit", () => {
  test("a lone write on an idle store commits on the next turn of the event loop (no timer); it is answered only after its flush", async () => {
    const sqlite = database();
    const disk = gatedFlush();
    const commits = new GroupCommit(sqlite, { flush: disk.flush });
    const written = commits.write(insert(sqlite, "a"));
    expect(values(sqlite)).toEqual([]); // not in the call: the writes of this turn may still join
    await nextTurn();
    // Committed, so a read sees it while its flush is in flight.
    expect(values(sqlite)).toEqual(["a"]);
    expect(disk.calls()).toBe(1);
    expect(commits.settling).toBe(true);
    expect(await settled(written)).toBe("pending");
    disk.open(0);
    expect(await written).toBe(1);
    expect(commits.settling).toBe(false);
  });

  test("writes made in the same turn commit together in one group, under one flush", async () => {
    const sqlite = database();
    const disk = gatedFlush();
    const commits = new GroupCommit(sqlite, { flush: disk.flush });
    const group = Array.from({ length: 16 }, (_, i) => commits.write(insert(sqlite, `s${i}`)));
    await nextTurn();
    expect(values(sqlite)).toHaveLength(16);
    expect(disk.calls()).toBe(1);
    disk.open(0);
    expect(await Promise.all(group)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    expect(disk.calls()).toBe(1);
  });

  test("a write nobody waits for (atOnce) commits in its call when the store is idle; when it is not, it joins the next group", async () => {
    const sqlite = database();
    const disk = gatedFlush();
    const commits = new GroupCommit(sqlite, { flush: disk.flush });
    const first = commits.write(insert(sqlite, "unawaited"), { atOnce: true });
    expect(values(sqlite)).toEqual(["unawaited"]); // in the call: the caller's next read sees it
    const queued = commits.write(insert(sqlite, "behind"), { atOnce: true });
    expect(values(sqlite)).toEqual(["unawaited"]); // a flush is in flight: it waits for the next group
    await until(() => disk.calls() === 1, 60_000, "the first flush");
    disk.open(0);
    await first;
    await until(() => disk.calls() === 2, 60_000, "the second flush");
    expect(values(sqlite)).toEqual(["unawaited", "behind"]);
    disk.open(1);
    expect(await queued).toBe(2);
  });

  test("writes that arrive during a flush commit together in the next group, under one flush", async () => {
    const sqlite = database();
    const disk = gatedFlush();
    const commits = new GroupCommit(sqlite, { flush: disk.flush });
    const first = commits.write(insert(sqlite, "first"));
    await nextTurn(); // the first group committed; its flush is in flight
    const group = Array.from({ length: 16 }, (_, i) => commits.write(insert(sqlite, `g${i}`)));
    // Waiting: not committed yet (the first group's flush is in flight).
    expect(values(sqlite)).toEqual(["first"]);
    disk.open(0);
    await first;
    await until(() => disk.calls() === 2, 60_000, "the second group's flush");
    expect(values(sqlite)).toHaveLength(17); // the 16 in one commit, flushed once
    for (const write of group) expect(await settled(write)).toBe("pending");
    disk.open(1);
    expect(await Promise.all(group)).toEqual(Array.from({ length: 16 }, (_, i) => i + 2));
    expect(disk.calls()).toBe(2);
  });

  test("a unit that fails rolls back alone and gets its own error; the rest of its group commits", async () => {
    const sqlite = database();
    const disk = gatedFlush();
    const commits = new GroupCommit(sqlite, { flush: disk.flush });
    const first = commits.write(insert(sqlite, "taken"));
    await nextTurn();
    const ok1 = commits.write(insert(sqlite, "one"));
    const clash = commits.write(() => {
      sqlite.query("INSERT INTO t (v) VALUES (?)").run("half of it");
      sqlite.query("INSERT INTO t (v) VALUES (?)").run("taken"); // UNIQUE: the unit fails after a first change
    });
    const notFound = commits.write(() => {
      throw new ApiError("not_found", "no such thing");
    });
    const ok2 = commits.write(insert(sqlite, "two"));
    disk.open(0);
    await first;
    await until(() => disk.calls() === 2, 60_000, "the second group's flush");
    disk.open(1);
    expect(await ok1).toBe(2);
    expect(await ok2).toBe(3);
    await expect(clash).rejects.toMatchObject({ code: "SQLITE_CONSTRAINT_UNIQUE" });
    await expect(notFound).rejects.toMatchObject({ code: "not_found" });
    expect(values(sqlite)).toEqual(["taken", "one", "two"]);
    expect(commits.failure).toBeNull();
  });

  test("commit listeners run after the flush, before the next group commits", async () => {
    const sqlite = database();
    const disk = gatedFlush();
    const commits = new GroupCommit(sqlite, { flush: disk.flush });
    const seen: string[][] = [];
    commits.onCommit(() => seen.push(values(sqlite)));
    const first = commits.write(insert(sqlite, "a"));
    await nextTurn();
    const second = commits.write(insert(sqlite, "b"));
    expect(seen).toEqual([]);
    disk.open(0);
    await first;
    expect(seen).toEqual([["a"]]); // told before "b" was committed
    await until(() => disk.calls() === 2, 60_000, "the second flush");
    disk.open(1);
    await second;
    expect(seen).toEqual([["a"], ["a", "b"]]);
  });

  test("a failed flush fails every write of its group with 503 storage_unavailable; later writes are refused", async () => {
    const sqlite = database();
    const disk = gatedFlush();
    const reasons: string[] = [];
    const commits = new GroupCommit(sqlite, { flush: disk.flush, onFailure: (reason) => reasons.push(reason) });
    const first = commits.write(insert(sqlite, "a"));
    await nextTurn();
    const group = [commits.write(insert(sqlite, "b")), commits.write(insert(sqlite, "c"))];
    disk.open(0);
    await first;
    await until(() => disk.calls() === 2, 60_000, "the second flush");
    disk.fail(1, Object.assign(new Error("EIO: i/o error, fdatasync"), { code: "EIO" }));
    for (const result of await Promise.allSettled(group)) {
      expect(result).toMatchObject({ status: "rejected", reason: { code: "storage_unavailable", status: 503 } });
    }
    expect(commits.failure).toContain("EIO");
    expect(reasons).toHaveLength(1);
    await expect(commits.write(insert(sqlite, "d"))).rejects.toMatchObject({ code: "storage_unavailable" });
    expect(disk.calls()).toBe(2); // nothing more was committed or flushed
  });

  test("a commit the disk refuses (SQLITE_FULL) fails its whole group with 503 and keeps nothing of it", async () => {
    const sqlite = database();
    const commits = new GroupCommit(sqlite, { flush: null });
    await commits.write(insert(sqlite, "a"));
    const pages = sqlite.query<{ page_count: number }, []>("PRAGMA page_count").get()!.page_count;
    sqlite.run(`PRAGMA max_page_count = ${pages}`);
    const big = commits.write(() => sqlite.query("INSERT INTO t (v) VALUES (?)").run("x".repeat(100_000)));
    await expect(big).rejects.toMatchObject({ code: "storage_unavailable" });
    await Promise.allSettled([big]);
    expect(commits.failure).toContain("SQLITE_FULL");
    expect(values(sqlite)).toEqual(["a"]);
  });

  test("a unit cannot write through the store again (it would wait for its own group)", async () => {
    const sqlite = database();
    const commits = new GroupCommit(sqlite, { flush: null });
    await expect(commits.write(() => commits.write(insert(sqlite, "inner")))).rejects.toThrow("inside a unit");
  });
});

describe("C11 a long group lets reads in", () => {
  test("after sliceMs of its units (by the clock given), the next unit waits for a turn of the event loop; the group still commits as one, under one flush", async () => {
    const sqlite = database();
    const disk = gatedFlush();
    let now = 0;
    const commits = new GroupCommit(sqlite, { flush: disk.flush, sliceMs: 5, clock: () => now });
    const ran: string[] = [];
    /** A unit that takes 3 ms of the test's clock. */
    const unit = (v: string) => () => {
      ran.push(v);
      now += 3;
      return insert(sqlite, v)();
    };
    const group = ["a", "b", "c", "d", "e"].map((v) => commits.write(unit(v)));
    const other = new Database(sqlite.filename, { readonly: true });
    const committed = () => other.query<{ n: number }, []>("SELECT count(*) AS n FROM t").get()!.n;
    await nextTurn(); // the group began: a and b (6 ms) ran, c waits for the next turn
    expect({ ran: [...ran], committed: committed() }).toEqual({ ran: ["a", "b"], committed: 0 });
    await nextTurn();
    expect({ ran: [...ran], committed: committed() }).toEqual({ ran: ["a", "b", "c", "d"], committed: 0 });
    await until(() => disk.calls() === 1, 60_000, "the group's flush");
    expect({ ran, committed: committed() }).toEqual({ ran: ["a", "b", "c", "d", "e"], committed: 5 });
    disk.open(0);
    expect(await Promise.all(group)).toEqual([1, 2, 3, 4, 5]);
    expect(disk.calls()).toBe(1);
    other.close();
  });

  test("without a slice (a command's store) the group runs in one go, however long its units", async () => {
    const sqlite = database();
    let now = 0;
    const commits = new GroupCommit(sqlite, { flush: null, clock: () => now });
    const group = Array.from({ length: 5 }, (_, i) => commits.write(() => ((now += 100), insert(sqlite, `s${i}`)())));
    await nextTurn();
    expect(values(sqlite)).toHaveLength(5);
    expect(await Promise.all(group)).toEqual([1, 2, 3, 4, 5]);
  });
});

describe("C11 a write lock another connection holds", () => {
  /** The test's database, its write lock taken by a second connection with a row not yet committed. */
  function held() {
    const sqlite = database();
    sqlite.run("PRAGMA busy_timeout = 10000");
    const holder = new Database(sqlite.filename, { strict: true });
    holder.run("BEGIN IMMEDIATE");
    holder.run("INSERT INTO t (v) VALUES ('held')");
    return { sqlite, holder };
  }

  test("the group waits for it in turns of the event loop, not in the thread: timers and reads go on, and it commits once the lock is released", async () => {
    const { sqlite, holder } = held();
    const commits = new GroupCommit(sqlite, { flush: null, busyTimeoutMs: 10_000 });
    const written = commits.write(insert(sqlite, "a"));
    // The holder is on this thread (as another store of this process): a wait inside SQLite's busy
    // handler would hold the thread for the whole busy timeout and then fail.
    let ticks = 0;
    for (let i = 0; i < 5; i++) await Bun.sleep(1).then(() => ticks++);
    expect({ ticks, written: Bun.peek.status(written), read: values(sqlite) }).toEqual({ ticks: 5, written: "pending", read: [] });
    holder.run("COMMIT");
    expect(await written).toBe(2);
    expect(values(sqlite)).toEqual(["held", "a"]);
    holder.close();
  });

  test("past the busy timeout (by the clock given) its writes fail with SQLITE_BUSY and nothing of them is kept; the store still takes writes", async () => {
    const { sqlite, holder } = held();
    let now = 0;
    const commits = new GroupCommit(sqlite, { flush: null, busyTimeoutMs: 50, clock: () => now });
    const written = commits.write(insert(sqlite, "a"));
    await Bun.sleep(2);
    expect(await settled(written)).toBe("pending");
    now = 50;
    await expect(written).rejects.toMatchObject({ code: "SQLITE_BUSY" });
    holder.run("ROLLBACK");
    expect(commits.failure).toBeNull();
    expect(await commits.write(insert(sqlite, "b"))).toBe(1);
    expect(values(sqlite)).toEqual(["b"]);
    holder.close();
  });
});

describe("C11 the server's store: WAL flushed and checkpointed off the HTTP thread", () => {
  test("SQLite's own checkpoint is off; the WAL stays bounded under many writes, and everything is there", async () => {
    const dir = tempDir();
    const path = join(dir, "s.db");
    const store = openStore(path, { flushOffThread: true });
    try {
      expect(store.sqlite.query<{ wal_autocheckpoint: number }, []>("PRAGMA wal_autocheckpoint").get()!.wal_autocheckpoint).toBe(0);
      expect(store.sqlite.query<{ synchronous: number }, []>("PRAGMA synchronous").get()!.synchronous).toBe(1);
      store.sqlite.run("CREATE TABLE blobs (id INTEGER PRIMARY KEY, b BLOB)");
      const chunk = new Uint8Array(64 * 1024).fill(7);
      let largest = 0;
      // 40 MB in all, 16 writes at a time: without checkpoints the WAL would hold all of it.
      for (let round = 0; round < 40; round++) {
        await Promise.all(Array.from({ length: 16 }, () => store.write(() => store.sqlite.query("INSERT INTO blobs (b) VALUES (?)").run(chunk))));
        largest = Math.max(largest, statSync(`${path}-wal`).size);
      }
      expect(largest).toBeLessThan(12 * 1024 * 1024); // the 4 MB threshold and a group or two
      expect(store.sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM blobs").get()!.n).toBe(40 * 16);
    } finally {
      await store.close();
    }
    // Every connection is closed, the checkpoint thread's too: the WAL is folded back in and gone.
    expect(existsSync(`${path}-wal`)).toBe(false);
    const reopened = new Database(path);
    expect(reopened.query<{ n: number }, []>("SELECT count(*) AS n FROM blobs").get()!.n).toBe(40 * 16);
    reopened.close();
  });
});
