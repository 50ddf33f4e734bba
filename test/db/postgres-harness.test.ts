// C19's test PostgreSQL (test/helpers/postgres.ts): started from npm's binaries, as nobody when the
// tests run as root, a database per test copied from a template, and nothing left behind.
import { SQL } from "bun";
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { freshDatabase, postgresServer, stopPostgres, templateDatabase } from "../helpers/postgres";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
};

/** The postmaster's children, from /proc (Linux). */
const childrenOf = (pid: number): number[] =>
  Array.from(new Bun.Glob("[0-9]*").scanSync({ cwd: "/proc", onlyFiles: false }))
    .filter((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);

describe("test PostgreSQL", () => {
  test("two fresh databases, queried through Bun's SQL; pg_trgm available; stopping leaves no process and no folder", async () => {
    const server = await postgresServer();
    expect(server.dir).toStartWith(join(require("node:os").tmpdir(), "dossier"));
    expect(server.url("x")).toStartWith("postgres://postgres@127.0.0.1:");
    if (process.getuid?.() === 0) expect(statSync(join(server.dir, "data")).uid).not.toBe(0);

    const a = new SQL(await freshDatabase());
    const b = new SQL(await freshDatabase("harness_b"));
    try {
      const [first] = await a`SELECT current_database() AS name, current_setting('server_version_num')::int AS version, (SELECT datcollate FROM pg_database WHERE datname = current_database()) AS collate, current_setting('server_encoding') AS encoding`;
      expect(first.version).toBeGreaterThanOrEqual(150000); // C19: PostgreSQL 15 or later
      expect(first.collate).toBe("C"); // text sorts by bytes, as SQLite's does
      expect(first.encoding).toBe("UTF8");
      const [second] = await b`SELECT current_database() AS name`;
      expect(second.name).toBe("harness_b");
      expect(first.name).not.toBe(second.name);

      // Each database is its own: a table made in one is not in the other.
      await a`CREATE TABLE t (id int PRIMARY KEY, name text NOT NULL)`;
      await a`INSERT INTO t ${a([{ id: 1, name: "Ada" }, { id: 2, name: "Grace" }])}`;
      expect(await a`SELECT count(*)::int AS n FROM t`).toEqual([{ n: 2 }] as never);
      expect(await b`SELECT to_regclass('public.t') AS t`).toEqual([{ t: null }] as never);

      // A bare count(*) is a bigint, which Bun's SQL returns as a string.
      const [raw] = await a`SELECT count(*) AS n FROM t`;
      expect(raw.n).toBe("2");

      await b.unsafe("CREATE EXTENSION pg_trgm");
      const [trgm] = await b`SELECT similarity('dossier', 'dosier') > 0.5 AS close, 'Ada Lovelace' ILIKE '%lovel%' AS found`;
      expect(trgm).toEqual({ close: true, found: true });
      await b.unsafe("CREATE TABLE s (org text NOT NULL, search_text text NOT NULL)");
      await b.unsafe("CREATE INDEX s_trgm ON s USING gin (search_text gin_trgm_ops)");
    } finally {
      await a.close();
      await b.close();
    }

    // A template made once and copied: the copy has what the template was given.
    const template = await templateDatabase("harness_template", async (url) => {
      const t = new SQL(url);
      await t`CREATE TABLE kept (x int)`;
      await t.close();
    });
    const c = new SQL(await freshDatabase(undefined, { template }));
    expect(await c`SELECT to_regclass('public.kept')::text AS t`).toEqual([{ t: "kept" }] as never);
    await c.close();

    const children = childrenOf(server.pid);
    expect(children.length).toBeGreaterThan(0);
    await stopPostgres();
    expect(alive(server.pid)).toBe(false);
    expect(children.filter(alive)).toEqual([]);
    expect(existsSync(server.dir)).toBe(false);
  });

  test("a second start after a stop is a new server, stopped by the cleanup after this file", async () => {
    const server = await postgresServer();
    const sql = new SQL(await freshDatabase());
    expect(await sql`SELECT 1 AS one`).toEqual([{ one: 1 }] as never);
    await sql.close();
    expect(existsSync(server.dir)).toBe(true);
  });
});
