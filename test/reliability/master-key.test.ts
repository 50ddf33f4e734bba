// C20 "`master.key` missing while the database holds sealed secrets": every command that needs
// the key exits 1 naming the file (and how to put it back); a new key is made only for a database
// with no sealed secret. The fault it closes: a restore without FILE.key made `serve` create a new
// key, after which no webhook secret could be unsealed and deliveries stayed pending for ever.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { copyFileSync, cpSync, existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { openApp } from "../../src/app";
import { MasterKeyMissingError } from "../../src/secrets";
import { dossierRun } from "../cli/helpers";
import { tempDir } from "../helpers";
import { startServerProcess, type ServerProcess } from "../helpers/process";
import { ENGINES, migratedDatabase, type Engine } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const running: ServerProcess[] = [];
afterAll(() => {
  for (const server of running) if (server.proc.exitCode === null) server.proc.kill(9);
});

/** A data folder with an organization whose webhook endpoint has a sealed secret (rotated, so
 * there are two), then the same database under a data folder WITHOUT its key: on SQLite a backup
 * restored without FILE.key; on PostgreSQL a new data folder on the same database (a node set up
 * without the key). `savedKey` is where the key is kept (FILE.key, or the first folder's). */
async function restoredWithoutKey(engine: Engine) {
  const data = tempDir();
  const database: Record<string, string> = engine === "postgres" ? { DOSSIER_DATABASE_URL: await migratedDatabase() } : {};
  const dossier = (folder: string, ...args: string[]) => dossierRun([...args, "--data", folder], database);
  const org = dossier(data, "org", "create", "--name", "Hooks", "--json").json;
  expect(dossier(data, "webhook", "set", "--org", org.id, "--url", "http://127.0.0.1:9/hook").code).toBe(0);
  expect(dossier(data, "webhook", "rotate-secret", "--org", org.id).code).toBe(0);
  const restored = tempDir();
  let savedKey = join(data, "master.key");
  if (engine === "sqlite") {
    const file = join(tempDir(), "backup.db");
    expect(dossier(data, "backup", file).code).toBe(0);
    copyFileSync(file, join(restored, "dossier.db"));
    cpSync(`${file}.files`, join(restored, "files"), { recursive: true });
    savedKey = `${file}.key`;
  }
  return { org, savedKey, restored, database, keyPath: join(restored, "master.key"), dossier: (...args: string[]) => dossier(restored, ...args) };
}

const expectMissingKey = (result: { code: number; stdout: string; stderr: string }, keyPath: string) => {
  expect(result.code).toBe(1);
  expect(result.stdout).toBe("");
  expect(result.stderr.trim().split("\n")).toHaveLength(1);
  expect(result.stderr).toContain(`${keyPath} is missing`);
  expect(result.stderr).toContain("restore it from the backup (FILE.key");
};

describe.each(ENGINES)("C20 on %s: master.key missing while the database holds sealed webhook secrets", (engine) => {
  test("serve exits 1 naming the file, makes no new key, and starts with the restored one", async () => {
    const { savedKey, restored, database, keyPath } = await restoredWithoutKey(engine);
    const refused = dossierRun(["serve", "--port", "0", "--no-bootstrap", "--data", restored], database, 20_000);
    expectMissingKey(refused, keyPath);
    expect(existsSync(keyPath)).toBe(false);
    expect(readdirSync(restored).filter((name) => name.startsWith("master.key"))).toEqual([]);

    copyFileSync(savedKey, keyPath);
    const server = await startServerProcess(restored, ["--no-bootstrap"], database);
    running.push(server);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    server.proc.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    expect(readFileSync(keyPath, "utf8")).toBe(readFileSync(savedKey, "utf8"));
  }, 60_000);

  test("the commands that need the key exit 1 the same way; the others still run", async () => {
    const { org, keyPath, dossier } = await restoredWithoutKey(engine);
    expectMissingKey(dossier("webhook", "set", "--org", org.id, "--url", "http://127.0.0.1:9/other", "--json"), keyPath);
    expectMissingKey(dossier("webhook", "rotate-secret", "--org", org.id, "--json"), keyPath);
    if (engine === "sqlite") {
      // A backup carries the key (FILE.key): none without it. (PostgreSQL's backup is pg_dump's.)
      const copy = join(tempDir(), "copy.db");
      expectMissingKey(dossier("backup", copy, "--json"), keyPath);
      expect(readdirSync(join(copy, "..")).filter((name) => name.startsWith("copy.db"))).toEqual([]);
    }
    expect(existsSync(keyPath)).toBe(false);
    // Reading and managing what needs no key works: the operator can look around.
    expect(dossier("org", "list", "--json").json.data).toMatchObject([{ name: "Hooks" }]);
    expect(dossier("webhook", "deliveries", "--org", org.id, "--json").code).toBe(0);
    expect(existsSync(keyPath)).toBe(false);
  }, 60_000);

  test("in-process: an app with its webhook dispatcher refuses to start", async () => {
    const { restored, database, keyPath } = await restoredWithoutKey(engine);
    await expect(openApp({ dataDir: restored, env: database, config: { log: "off" } })).rejects.toThrow(new MasterKeyMissingError(keyPath));
    expect(existsSync(keyPath)).toBe(false);
  }, 30_000);

  test("a key lost for good: once no endpoint is left, a new key is made", async () => {
    const { org, restored, database, keyPath, dossier } = await restoredWithoutKey(engine);
    expect(dossier("webhook", "unset", "--org", org.id).code).toBe(0);
    const server = await startServerProcess(restored, ["--no-bootstrap"], database);
    running.push(server);
    expect(statSync(keyPath).mode & 0o777).toBe(0o600);
    const set = dossier("webhook", "set", "--org", org.id, "--url", "http://127.0.0.1:9/hook", "--json");
    expect(set.code, set.stderr).toBe(0);
    server.proc.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  }, 60_000);
});

test.each(ENGINES)("C20 on %s: a database with no sealed secret gets a new key when one is needed", async (engine) => {
  const data = tempDir();
  const database: Record<string, string> = engine === "postgres" ? { DOSSIER_DATABASE_URL: await migratedDatabase() } : {};
  const dossier = (folder: string, ...args: string[]) => dossierRun([...args, "--data", folder], database);
  if (engine === "sqlite") expect(dossier(data, "org", "list", "--json").code).not.toBe(0); // no data folder yet: nothing made
  const org = dossier(data, "org", "create", "--name", "Fresh", "--json").json;
  // Its default flows' intake addresses (C15) are sealed with the key: made now, private.
  expect(statSync(join(data, "master.key")).mode & 0o777).toBe(0o600);
  const set = dossier(data, "webhook", "set", "--org", org.id, "--url", "http://127.0.0.1:9/hook", "--json");
  expect(set.code, set.stderr).toBe(0);
});
