// C2: the settings `dossier` reads from the environment beside the store's (src/config.ts):
// DOSSIER_HOST and DOSSIER_PORT, where `serve` listens when --host and --port are not given, and
// DOSSIER_LOG_LEVEL=debug, which adds an unexpected failure's stack after its one line. On both
// engines (C19): SQLite in the data folder, PostgreSQL through DOSSIER_DATABASE_URL.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers";
import { postgresServer } from "../helpers/postgres";
import { startServerProcess } from "../helpers/process";
import { ENGINES, migratedDatabase } from "../helpers/stores";
import { dossierRun } from "./helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

describe.each(ENGINES)("C2: serve on %s listens on DOSSIER_HOST:DOSSIER_PORT unless --host and --port say otherwise", async (engine) => {
  const database: Record<string, string> = engine === "postgres" ? { DOSSIER_DATABASE_URL: await migratedDatabase() } : {};

  test("DOSSIER_PORT that is no port: exit 2, one line naming it, the data folder untouched", () => {
    const data = join(tempDir(), "new");
    for (const port of ["abc", "65536"]) {
      const result = dossierRun(["serve", "--no-bootstrap", "--data", data], { ...database, DOSSIER_PORT: port }, 20_000);
      expect([result.code, result.stdout, result.stderr]).toEqual([2, "", `dossier: --port must be an integer from 0 to 65535, not "${port}"\n`]);
    }
    expect(existsSync(data)).toBe(false);
  });

  test("DOSSIER_PORT is the port listened on: one in use is refused, naming it", () => {
    const taken = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("taken") });
    try {
      const result = dossierRun(["serve", "--no-bootstrap", "--data", tempDir()], { ...database, DOSSIER_PORT: String(taken.port) }, 20_000);
      expect(result.code).toBe(2);
      expect(result.stderr).toStartWith(`dossier: cannot listen on 127.0.0.1:${taken.port}: `);
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
    } finally {
      taken.stop(true);
    }
  });

  test("DOSSIER_HOST is the address listened on; --port wins over DOSSIER_PORT", async () => {
    const server = await startServerProcess(tempDir(), ["--no-bootstrap"], { ...database, DOSSIER_HOST: "127.0.0.2", DOSSIER_PORT: "abc" });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.2:\d+$/);
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      server.proc.kill("SIGTERM");
      expect(await server.exited).toBe(0);
    }
  });
});

describe.each(ENGINES)("C2: an unexpected failure on %s is one line; DOSSIER_LOG_LEVEL=debug adds its stack", async (engine) => {
  // The store cannot be opened: SQLite's file is no database; PostgreSQL's database does not exist.
  const data = tempDir();
  writeFileSync(join(data, "dossier.db"), "not a database, just text long enough to be read as a header".repeat(20));
  const server = engine === "postgres" ? await postgresServer() : undefined;
  const database: Record<string, string> = server ? { DOSSIER_DATABASE_URL: server.url("no_such_database") } : {};
  // The URL as printed: without its user (nor a password, had it one).
  const failure = server ? `dossier: cannot open the PostgreSQL database postgres://127.0.0.1:${server.port}/no_such_database: ` : `dossier: cannot open the data folder ${data}: `;

  test.each([
    ["DOSSIER_LOG_LEVEL=warn: one line", { DOSSIER_LOG_LEVEL: "warn" }, false],
    ["DOSSIER_LOG_LEVEL=info: one line", { DOSSIER_LOG_LEVEL: "info" }, false],
    ["DOSSIER_LOG_LEVEL=debug: the line, then the stack", { DOSSIER_LOG_LEVEL: "debug" }, true],
  ])("%s", (_name, env, stack) => {
    const result = dossierRun(["org", "list", "--json", "--data", data], { ...database, ...(env as Record<string, string>) });
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split("\n");
    expect(lines[0]).toStartWith(failure);
    expect(lines.length > 1).toBe(stack);
    expect(lines.slice(1).some((line) => /^\s+at /.test(line))).toBe(stack);
  });

  test("DOSSIER_LOG_LEVEL=debug: a bad argument is still one line, with no stack", () => {
    const result = dossierRun(["org", "list", "--verbose", "--data", data], { ...database, DOSSIER_LOG_LEVEL: "debug" });
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });
});
