// Issue 6: the bench's seed leaves the contact search index (FTS5, migration 0001) as a file the
// app grew would hold it: one segment, on level floor(log4 N) or above, with FTS5's own settings
// back and every row findable (docs/performance.md, point 5). A real `bun bench/seed.ts` of N rows
// through a real `dossier` (src/main.ts) into a temp folder, then the file read with bun:sqlite.
import { Database } from "bun:sqlite";
import { expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { readdirSync, readlinkSync } from "node:fs";
import { ftsLevels, seed } from "../../bench/seed";
import { sourceExecutable } from "../cli/helpers";
import { tempDir } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const N = 1000;

test("the seeded search index is one segment on level floor(log4 N), and finds what LIKE finds", () => {
  const exe = sourceExecutable();
  const dataDir = join(tempDir(), "bench");
  const run = Bun.spawnSync([process.execPath, join(import.meta.dir, "../../bench/seed.ts"), "--n", String(N), "--data", dataDir, "--exe", exe, "--json"], {
    stdout: "pipe",
    stderr: "pipe",
    timeout: 90_000,
  });
  if (run.exitCode !== 0) throw new Error(`seed failed (${run.exitCode}): ${run.stderr}`);
  const result: { searchTerms: { term: string }[] } = JSON.parse(run.stdout.toString());

  const db = new Database(join(dataDir, "dossier.db"));
  try {
    const levels = ftsLevels(db);
    expect(levels).toHaveLength(1);
    expect(levels[0]).toBeGreaterThanOrEqual(Math.floor(Math.log(N) / Math.log(4)));

    const config = Object.fromEntries(db.query<{ k: string; v: number }, []>("SELECT k, v FROM contacts_fts_config").all().map((r) => [r.k, r.v]));
    expect(config.automerge ?? 4).toBe(4);
    expect(config.hashsize ?? 1048576).toBe(1048576);

    db.run("INSERT INTO contacts_fts (contacts_fts) VALUES ('integrity-check')");
    expect(db.query<{ c: number }, []>("SELECT count(*) AS c FROM contacts_fts").get()!.c).toBe(N);
    const terms = [...result.searchTerms.map((t) => t.term), "exa"];
    for (const term of terms) {
      const fts = db.query<{ c: number }, [string]>("SELECT count(*) AS c FROM contacts_fts WHERE contacts_fts MATCH ?").get(`"${term}"`)!.c;
      const like = `%${term}%`;
      const scan = db
        .query<{ c: number }, string[]>("SELECT count(*) AS c FROM contact_search WHERE full_name LIKE ? OR email LIKE ? OR company LIKE ? OR role LIKE ?")
        .get(like, like, like, like)!.c;
      expect({ term, fts }).toEqual({ term, fts: scan });
    }
  } finally {
    db.close();
  }
});

// `npm run bench` seeds in its own process and then runs servers that write the file: a seed
// connection left to the garbage collector (close() with a statement unfinalized) kept the file,
// its -wal and -shm open in that process, and the file was found corrupted after such runs.
test("the seed, run in this process, leaves no descriptor of the database open", async () => {
  const dataDir = join(tempDir(), "bench");
  await seed({ exe: sourceExecutable(), dataDir, n: 200, log: () => {}, progress: false });
  const open = readdirSync("/proc/self/fd")
    .map((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return ""; // closed meanwhile (the listing's own descriptor)
      }
    })
    .filter((target) => target.startsWith(join(dataDir, "dossier.db")));
  expect(open).toEqual([]);
});
