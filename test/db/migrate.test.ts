// C1: drizzle-kit migrations, embedded, applied at start to an empty file or an older one.
import { Database } from "bun:sqlite";
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { embeddedMigrations, migrate } from "../../src/db/migrate";
import { openStore } from "../../src/db/client";
import { tempDir } from "../helpers";
import { MAIN } from "../cli/helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const root = join(import.meta.dir, "../..");
const tablesOf = (db: Database) =>
  db.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all().map((r) => r.name);

describe("embedded migrations", () => {
  test("every migration of drizzle/ is embedded, in the journal's order", () => {
    const journal = JSON.parse(readFileSync(join(root, "drizzle/meta/_journal.json"), "utf8"));
    const files = readdirSync(join(root, "drizzle")).filter((f) => f.endsWith(".sql")).sort();
    expect(embeddedMigrations.map((m) => m.tag)).toEqual(journal.entries.map((e: { tag: string }) => e.tag));
    expect(files).toEqual(embeddedMigrations.map((m) => `${m.tag}.sql`));
    for (const m of embeddedMigrations) expect(m.sql).toBe(readFileSync(join(root, "drizzle", `${m.tag}.sql`), "utf8"));
  });

  test("an empty file gets every table; running again applies nothing", async () => {
    const path = join(tempDir(), "empty.db");
    const store = openStore(path);
    expect(tablesOf(store.sqlite)).toEqual(expect.arrayContaining(["organizations", "api_keys", "flows", "stages", "dossiers", "contacts", "dossier_contacts", "notes", "events", "delivery_attempts", "webhook_endpoints"]));
    expect(migrate(store.sqlite)).toBe(0);
    expect(store.sqlite.query<{ n: number }, []>(`SELECT count(*) AS n FROM "__drizzle_migrations"`).get()!.n).toBe(embeddedMigrations.length);
    await store.close();
  });

  test.each(embeddedMigrations.map((_, k) => [k]))("a file made by the first %d migration(s) is brought up to date with its rows kept", async (k) => {
    const path = join(tempDir(), "older.db");
    const older = new Database(path);
    migrate(older, embeddedMigrations.slice(0, k));
    if (k > 0) {
      older.run("INSERT INTO organizations (id, name, plan, rate_limit, created_at) VALUES ('o1', 'Kept', 'growth', 600, '2026-01-01T00:00:00.000Z')");
      older.run("INSERT INTO organizations (id, name, plan, rate_limit, created_at) VALUES ('o2', 'Other', 'free', 60, '2026-01-01T00:00:00.000Z')");
      // Contacts written before migration 0004: its backfill must count them and date their search rows.
      const add = older.prepare(
        `INSERT INTO contacts (id, organization_id, full_name, email, email_folded, kind, kind_mask, created_at, updated_at)
         VALUES (?, ?, ?, NULL, NULL, '[]', ?, ?, ?)`,
      );
      for (let i = 0; i < 12; i++) {
        const at = `2026-01-01T00:00:${String(i).padStart(2, "0")}.000Z`;
        add.run(`c${i}`, i % 3 === 0 ? "o2" : "o1", `Person ${i}`, [1, 2, 5, 9][i % 4], at, at);
      }
    }
    older.close();
    const store = openStore(path);
    expect(store.sqlite.query<{ n: number }, []>(`SELECT count(*) AS n FROM "__drizzle_migrations"`).get()!.n).toBe(embeddedMigrations.length);
    if (k > 0) expect(store.sqlite.query<{ name: string }, []>("SELECT name FROM organizations").get()!.name).toBe("Kept");
    const counted = store.sqlite
      .query<{ k: string }, []>("SELECT organization_id || ':' || kind_mask || ':' || count(*) AS k FROM contacts GROUP BY organization_id, kind_mask ORDER BY 1")
      .all();
    const kept = store.sqlite
      .query<{ k: string }, []>("SELECT organization_id || ':' || kind_mask || ':' || n AS k FROM contact_kind_counts WHERE n <> 0 ORDER BY 1")
      .all();
    expect(kept).toEqual(counted);
    if (k > 0) expect(counted.length).toBe(8);
    const undated = store.sqlite
      .query<{ n: number }, []>("SELECT count(*) AS n FROM contact_search s JOIN contacts c ON c.id = s.contact_id WHERE s.created_at IS NOT c.created_at")
      .get()!.n;
    expect(undated).toBe(0);
    expect(store.sqlite.query<{ integrity_check: string }, []>("PRAGMA integrity_check").get()!.integrity_check).toBe("ok");
    await store.close();
  });

  test("C1 pragmas: WAL, synchronous FULL by default and NORMAL on request, foreign keys on", async () => {
    const full = openStore(join(tempDir(), "full.db"));
    expect(full.sqlite.query<{ journal_mode: string }, []>("PRAGMA journal_mode").get()!.journal_mode).toBe("wal");
    expect(full.sqlite.query<{ synchronous: number }, []>("PRAGMA synchronous").get()!.synchronous).toBe(2);
    expect(full.sqlite.query<{ foreign_keys: number }, []>("PRAGMA foreign_keys").get()!.foreign_keys).toBe(1);
    expect(full.sqlite.query<{ timeout: number }, []>("PRAGMA busy_timeout").get()!.timeout).toBeGreaterThan(0);
    await full.close();
    const normal = openStore(join(tempDir(), "normal.db"), { sync: "normal" });
    expect(normal.sqlite.query<{ synchronous: number }, []>("PRAGMA synchronous").get()!.synchronous).toBe(1);
    await normal.close();
  });
});

/** `dossier <command> --json --data DIR` (default `org list`), `count` real processes at once; each
 * one's exit and stdout. */
async function listAtOnce(data: string, count: number, command = ["org", "list"]) {
  const runs = Array.from({ length: count }, async () => {
    const proc = Bun.spawn([process.execPath, MAIN, ...command, "--json", "--data", data], {
      env: { ...process.env, DOSSIER_LOG: "off" },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    return { code, stdout, stderr };
  });
  return Promise.all(runs);
}

describe("C1, C2: processes opening one data folder at once (commands work beside each other)", () => {
  const expectAllListed = (results: { code: number; stdout: string; stderr: string }[], shape: unknown = { data: expect.any(Array) }) => {
    for (const result of results) {
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
      expect(JSON.parse(result.stdout)).toEqual(shape);
    }
  };

  // Only a command that creates may start a data folder (org list exits 1 on a new one, C2).
  test("a new folder: every concurrent `org create --json` exits 0 with one JSON object, round after round", async () => {
    for (let round = 0; round < 4; round++) {
      const data = tempDir();
      const results = await listAtOnce(data, 6, ["org", "create", "--name", "Concurrent"]);
      expectAllListed(results, expect.objectContaining({ id: expect.any(String), name: "Concurrent" }));
      expect(JSON.parse((await listAtOnce(data, 1))[0]!.stdout).data).toHaveLength(6);
      const db = new Database(join(data, "dossier.db"), { readonly: true });
      expect(db.query<{ n: number }, []>(`SELECT count(*) AS n FROM "__drizzle_migrations"`).get()!.n).toBe(embeddedMigrations.length);
      db.close();
    }
  });

  // SQLite refuses the switch to WAL at once (busy timeout or not) to a connection whose read of a
  // new file's header meets another's write of it; that other here is a process that holds the
  // write lock on the new file a moment, then lets go.
  test("a new file another process is writing: opening it waits for the write instead of failing", async () => {
    const path = join(tempDir(), "dossier.db");
    const holder = Bun.spawn(
      [process.execPath, "-e", `const { Database } = require("bun:sqlite"); const db = new Database(${JSON.stringify(path)}, { create: true });
        db.run("BEGIN IMMEDIATE"); console.log("held"); setTimeout(() => { db.run("COMMIT"); db.close(); }, 300);`],
      { stdout: "pipe", stderr: "inherit" },
    );
    const reader = holder.stdout.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("held\n");
    const store = openStore(path);
    expect(store.sqlite.query<{ journal_mode: string }, []>("PRAGMA journal_mode").get()!.journal_mode).toBe("wal");
    expect(migrate(store.sqlite)).toBe(0);
    await store.close();
    reader.releaseLock();
    expect(await holder.exited).toBe(0);
  });

  test("an un-upgraded folder (first migration only): concurrent opens upgrade it once", async () => {
    for (let round = 0; round < 3; round++) {
      const data = tempDir();
      const older = new Database(join(data, "dossier.db"));
      migrate(older, embeddedMigrations.slice(0, 1));
      older.close();
      expectAllListed(await listAtOnce(data, 6));
      const db = new Database(join(data, "dossier.db"), { readonly: true });
      expect(db.query<{ n: number }, []>(`SELECT count(*) AS n FROM "__drizzle_migrations"`).get()!.n).toBe(embeddedMigrations.length);
      db.close();
    }
  });
});
