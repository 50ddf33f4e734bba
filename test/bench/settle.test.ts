// Issue 33: the bench measures a folder whose start-up work is done (bench/load.ts, settle): a
// real `bun bench/seed.ts` of N rows through a real `dossier` (src/main.ts) into a temp folder,
// whose seeded stages were entered long ago, then settle: every active dossier overdue in a stage
// with a deadline has its task (C22), so no overdue scan writes beside the measures.
import { Database } from "bun:sqlite";
import { expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { settle } from "../../bench/load";
import { seed } from "../../bench/seed";
import { sourceExecutable } from "../cli/helpers";
import { tempDir } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const N = 300;
const OVERDUE_TODO = `SELECT count(*) AS c FROM dossiers WHERE status = 'active' AND stage_due_at IS NOT NULL AND overdue_task_visit_id IS NULL AND stage_due_at <= ?`;

test("settle leaves no overdue dossier without its task, then stops", async () => {
  const exe = sourceExecutable();
  const dataDir = join(tempDir(), "bench");
  await seed({ exe, dataDir, n: N, log: () => {}, progress: false });
  const count = (sql: string, ...args: string[]) => {
    const db = new Database(join(dataDir, "dossier.db"), { readonly: true });
    try {
      return db.query<{ c: number }, string[]>(sql).get(...args)!.c;
    } finally {
      db.close();
    }
  };
  const now = new Date().toISOString();
  const overdue = count(OVERDUE_TODO, now);
  expect(overdue).toBeGreaterThan(0); // the seed's stages were entered months ago
  expect(count("SELECT count(*) AS c FROM tasks")).toBe(0);

  await settle(exe, dataDir, 60);
  expect(count(OVERDUE_TODO, now)).toBe(0);
  expect(count("SELECT count(*) AS c FROM tasks")).toBe(overdue);
});
