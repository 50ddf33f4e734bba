// The counts every PostgreSQL node shares (src/db/pg/counters.ts, C8, C19): a subject's sliding
// 60 s window stays exact when counts commit in another order than their nodes read their clocks
// (a request waits for the counter's row lock after reading its time, so a later commit can carry
// an earlier time). Found by test/nodes/rate-limits.test.ts under load: 24 to 49 of 60 requests
// accepted against a limit of 20.
import { SQL } from "bun";
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

  test("the requests one check counts are one row of hits (drizzle-pg/0013); the window counts each, and they leave it together", async () => {
    const sql = new SQL(await migratedDatabase(), { max: 1 });
    try {
      const T = 1_800_000_000_000;
      const count = async (want: number, at: number) =>
        (await sql`SELECT cum::float8 AS cum, n::float8 AS n, edge::float8 AS edge FROM dossier_rate_count('batch', 10, true, ${want}::bigint, ${at}::bigint)`)[0];
      const rows = async () => [...(await sql`SELECT cum::float8 AS cum, n, at::float8 AS at FROM rate_hits WHERE subject = 'batch' ORDER BY cum`)];
      expect(await count(4, T)).toEqual({ cum: 4, n: 4, edge: 0 });
      expect(await rows()).toEqual([{ cum: 4, n: 4, at: T }]);
      // Eight more asked, six places left under the limit of 10.
      expect(await count(8, T + 1_000)).toEqual({ cum: 10, n: 6, edge: 0 });
      expect(await rows()).toEqual([{ cum: 4, n: 4, at: T }, { cum: 10, n: 6, at: T + 1_000 }]);
      expect(await count(1, T + 59_999)).toEqual({ cum: 10, n: 0, edge: 0 }); // full
      // The first four leave together at T + 60 s: four places, not one.
      expect(await count(5, T + 60_000)).toEqual({ cum: 14, n: 4, edge: 4 });
      expect(await count(9, T + 61_000)).toEqual({ cum: 20, n: 6, edge: 10 });
    } finally {
      await sql.close();
    }
  });

  test("places reserved for a node (drizzle-pg/0015): an eighth of the room at most, counted from the check's time to the end of their span", async () => {
    const sql = new SQL(await migratedDatabase(), { max: 1 });
    try {
      const T = 1_800_000_000_000;
      const reserve = async (want: number, extra: number, at: number, limit = 100) =>
        (await sql`SELECT cum::float8 AS cum, n::float8 AS n, edge::float8 AS edge, reserved::float8 AS reserved
          FROM dossier_rate_reserve('node', ${limit}::integer, true, ${want}::bigint, ${extra}::bigint, 500, ${at}::bigint)`)[0];
      const rows = async () => [...(await sql`SELECT cum::float8 AS cum, n, at::float8 AS at FROM rate_hits WHERE subject = 'node' ORDER BY cum`)];
      expect(await reserve(1, 0, T)).toEqual({ cum: 1, n: 1, edge: 0, reserved: 0 });
      // 99 places of room: 2 counted, then 12 of the 16 asked (an eighth of the 97 left), the hit
      // dated at the end of the span in which the node may give them.
      expect(await reserve(2, 16, T + 1_000)).toEqual({ cum: 15, n: 2, edge: 0, reserved: 12 });
      expect(await rows()).toEqual([{ cum: 1, n: 1, at: T }, { cum: 15, n: 14, at: T + 1_500 }]);
      // A check after it is dated no earlier (times never go back by place).
      expect(await reserve(1, 0, T + 1_200)).toEqual({ cum: 16, n: 1, edge: 0, reserved: 0 });
      expect((await rows()).at(-1)).toEqual({ cum: 16, n: 1, at: T + 1_500 });
      // The first hit leaves at T + 60 s; the reserved places stay to T + 61.5 s, with the check dated with them.
      expect(await reserve(1, 0, T + 60_000)).toEqual({ cum: 17, n: 1, edge: 1, reserved: 0 });
      expect(await reserve(1, 0, T + 61_499)).toEqual({ cum: 18, n: 1, edge: 1, reserved: 0 });
      expect(await reserve(1, 0, T + 61_500)).toEqual({ cum: 19, n: 1, edge: 16, reserved: 0 });
      // Less room, fewer places: 3 in the window, 80 of room under a limit of 83 (9 reserved: an
      // eighth of the 79 left after the request's own), then 71 under a limit of 84 (70 left: 8),
      // then 64 under a limit of 86 (63 left, under 64: none).
      expect(await reserve(1, 16, T + 61_600, 83)).toEqual({ cum: 29, n: 1, edge: 16, reserved: 9 });
      expect(await reserve(1, 16, T + 61_700, 84)).toEqual({ cum: 38, n: 1, edge: 16, reserved: 8 });
      expect(await reserve(1, 16, T + 61_800, 86)).toEqual({ cum: 39, n: 1, edge: 16, reserved: 0 });
      // A check that refuses some of its requests reserves nothing: 23 in the window, 2 of room.
      expect(await reserve(30, 16, T + 61_900, 25)).toEqual({ cum: 41, n: 2, edge: 16, reserved: 0 });
      // A plan that counts without refusing reserves nothing.
      const [free] = await sql`SELECT reserved::float8 AS reserved FROM dossier_rate_reserve('free', 100, false, 1, 16, 500, ${T}::bigint)`;
      expect(free.reserved).toBe(0);
    } finally {
      await sql.close();
    }
  });

  test("a check reads a few pages however many hits the window holds, with statistics taken when it held few (drizzle-pg/0014)", async () => {
    const sql = new SQL(await migratedDatabase(), { max: 1 });
    try {
      const T = 1_800_000_000_000;
      const pagesRead = async (subject: string, at: number) => {
        const [row] = await sql`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) SELECT * FROM dossier_rate_count(${subject}::text, 1000000, true, 1::bigint, ${at}::bigint)`;
        const plan = (row["QUERY PLAN"] as { Plan: Record<string, number> }[])[0].Plan;
        return plan["Shared Hit Blocks"] + plan["Shared Read Blocks"];
      };
      // The statistics of a table that grew since they were taken (autovacuum analyzes after 10 % of
      // growth; the window fills in seconds under load) say a subject has a hit or two: the window's
      // edge by (at, cum) then looked cheap to find by sorting every hit of the subject.
      await sql`INSERT INTO rate_hits (subject, cum, at, n) VALUES ('busy', 1, ${T}::bigint - 100000, 1), ('quiet', 1, ${T}::bigint - 100000, 1)`;
      await sql`ANALYZE rate_hits`;
      await sql`INSERT INTO rate_hits (subject, cum, at, n) SELECT 'busy', g, ${T}::bigint - 100000 + g * 5, 1 FROM generate_series(2, 20000) g`;
      await sql`INSERT INTO rate_hits (subject, cum, at, n) SELECT 'quiet', g, ${T}::bigint - 100000 + g * 5, 1 FROM generate_series(2, 3) g`;
      await sql`INSERT INTO rate_counters (subject, cum, n) VALUES ('busy', 20000, 1), ('quiet', 3, 1)`;
      const busy: number[] = [];
      const quiet: number[] = [];
      for (let i = 1; i <= 6; i++) {
        busy.push(await pagesRead("busy", T + i));
        quiet.push(await pagesRead("quiet", T + i));
      }
      // The first calls plan the function's statements (catalog pages); the later ones only run them,
      // each on the plan its backend keeps. The window holds 12,000 of the busy subject's hits: its
      // checks read no more pages than a few index levels more than the quiet one's (each call's own
      // writes included); before 0014, 241 against 18.
      const [busiest, quietest] = [Math.max(...busy.slice(3)), Math.max(...quiet.slice(3))];
      expect(busiest).toBeLessThan(quietest + 10);
      expect(busiest).toBeLessThan(50);
    } finally {
      await sql.close();
    }
  });
});
