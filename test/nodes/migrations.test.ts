// C19: three nodes started at the same moment on an empty database: one applies the migrations
// under the advisory lock, the others wait and find them done; all three serve, each migration is
// recorded once, and the first start (C2) makes one organization, whichever node gets there first.
// (A node older than the schema: test/cli/serve-postgres.test.ts.)
import { SQL } from "bun";
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { embeddedPgMigrations } from "../../src/db/pg/migrate";
import { tempDir } from "../helpers";
import { freshDatabase } from "../helpers/postgres";
import { startServerProcess } from "../helpers/process";

setDefaultTimeout(120_000);

describe("migrations across nodes", () => {
  test("three nodes start at once on an empty database: all serve, each migration applied once, one first organization", async () => {
    const url = await freshDatabase();
    const env = { DOSSIER_DATABASE_URL: url, DOSSIER_MASTER_KEY_FILE: join(tempDir("dossier-key-"), "master.key") };
    const nodes = await Promise.all([0, 1, 2].map(() => startServerProcess(tempDir("dossier-node-"), [], env)));
    try {
      for (const node of nodes) expect((await fetch(`${node.url}/healthz`)).status).toBe(200);
      const keys = nodes.map((node) => /API key \(shown once, store it now\): (\S+)/.exec(node.stderr())?.[1]).filter((key) => key !== undefined);
      expect(keys).toHaveLength(1);
      for (const node of nodes) {
        const flows = await fetch(`${node.url}/api/v1/flows`, { headers: { authorization: `Bearer ${keys[0]}` } });
        expect(((await flows.json()) as { meta: { total: number } }).meta.total).toBe(2);
        expect(node.stderr()).not.toContain('"level":"error"');
      }
      const sql = new SQL(url, { max: 1 });
      try {
        const recorded = await sql`SELECT hash, created_at::float8 AS created_at FROM drizzle.__drizzle_migrations ORDER BY id`;
        expect(recorded.map((row: { created_at: number }) => row.created_at)).toEqual(embeddedPgMigrations.map((m) => m.when));
        expect(new Set(recorded.map((row: { hash: string }) => row.hash)).size).toBe(embeddedPgMigrations.length);
        const [orgs] = await sql`SELECT count(*)::int AS n FROM organizations`;
        expect(orgs.n).toBe(1);
      } finally {
        await sql.close();
      }
    } finally {
      for (const node of nodes) node.proc.kill("SIGTERM");
      for (const node of nodes) expect(await node.exited).toBe(0);
    }
  });
});
