// C19: `dossier serve` and the CLI on PostgreSQL (DOSSIER_DATABASE_URL), as real processes on a
// real PostgreSQL started by the tests: the store it prints, the first start, the CLI beside it,
// backup's refusal, the synchronous_commit warning, and a schema newer than the program.
import { SQL } from "bun";
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { tempDir } from "../helpers";
import { postgresServer } from "../helpers/postgres";
import { bootstrapKey, startServerProcess } from "../helpers/process";
import { migratedDatabase } from "../helpers/stores";
import { dossierRun } from "./helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

/** A fresh migrated database, with a password in its URL that must never be printed. */
async function database(): Promise<{ url: string; name: string }> {
  const url = new URL(await migratedDatabase());
  url.password = "hunter2-never-printed";
  return { url: url.toString(), name: url.pathname.slice(1) };
}

/** Runs one statement as the test server's superuser (on another database than `name`'s). */
async function admin(statement: string): Promise<void> {
  const sql = new SQL((await postgresServer()).url("postgres"), { max: 1 });
  try {
    await sql.unsafe(statement);
  } finally {
    await sql.close();
  }
}

describe("dossier serve on PostgreSQL", () => {
  test("prints its store, makes the first organization once, serves the API; the CLI works beside it", async () => {
    const db = await database();
    const data = tempDir();
    const env = { DOSSIER_DATABASE_URL: db.url };
    const first = await startServerProcess(data, [], env);
    const key = bootstrapKey(first);
    const listening = JSON.parse(first.stderr().split("\n").find((line) => line.includes('"msg":"listening"'))!);
    expect(listening.store).toMatch(new RegExp(`^postgres postgres://127\\.0\\.0\\.1:\\d+/${db.name}$`));
    expect(first.stderr()).not.toContain("hunter2");

    const auth = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    const made = await fetch(`${first.url}/api/v1/dossiers`, { method: "POST", headers: auth, body: JSON.stringify({ name: "Ada", type: "candidate" }) });
    expect(made.status).toBe(201);
    const { data: dossier } = (await made.json()) as { data: { id: string; organization_id: string } };
    const read = await fetch(`${first.url}/api/v1/dossiers/${dossier.id}`, { headers: auth });
    expect(((await read.json()) as { data: unknown }).data).toEqual(dossier);
    expect((await fetch(`${first.url}/healthz`)).status).toBe(200);

    // The CLI reads the same database while the server runs.
    const orgs = dossierRun(["org", "list", "--json", "--data", data], env);
    expect(orgs.code).toBe(0);
    expect(orgs.json.data).toEqual([{ id: dossier.organization_id, name: "Default", plan: "growth", rate_limit: 600 }]);

    first.proc.kill("SIGTERM");
    expect(await first.exited).toBe(0);
    const second = await startServerProcess(tempDir(), [], env);
    expect(second.stderr()).not.toContain("API key (shown once");
    second.proc.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  });

  test("backup says to use pg_dump and exits 1, writing nothing", async () => {
    const db = await database();
    const out = `${tempDir()}/backup.db`;
    const result = dossierRun(["backup", out, "--data", tempDir()], { DOSSIER_DATABASE_URL: db.url });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("pg_dump");
    expect(result.stderr).not.toContain("hunter2");
    expect(await Bun.file(out).exists()).toBe(false);
  });

  test("warns at start when synchronous_commit is off", async () => {
    const db = await database();
    await admin(`ALTER DATABASE "${db.name}" SET synchronous_commit = off`);
    const server = await startServerProcess(tempDir(), ["--no-bootstrap"], { DOSSIER_DATABASE_URL: db.url });
    const warning = server.stderr().split("\n").find((line) => line.includes("synchronous_commit"));
    expect(JSON.parse(warning!)).toMatchObject({ level: "warn", synchronous_commit: "off" });
    server.proc.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  });

  test("refuses to start on a database migrated by newer code, naming both versions (exit 1)", async () => {
    const db = await database();
    const later = Date.UTC(2099, 0, 1);
    const sql = new SQL(db.url, { max: 1 });
    await sql`INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES ('from-the-future', ${later})`;
    await sql.close();
    const result = dossierRun(["serve", "--port", "0", "--data", tempDir()], { DOSSIER_DATABASE_URL: db.url }, 30_000);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("newer than this program's");
    expect(result.stderr).toContain("2099-01-01T00:00:00.000Z");
  });

  test("a DOSSIER_DATABASE_URL that is no postgres:// URL is a bad argument (exit 2)", () => {
    const result = dossierRun(["org", "list", "--data", tempDir()], { DOSSIER_DATABASE_URL: "mysql://localhost/db" });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("DOSSIER_DATABASE_URL");
  });
});
