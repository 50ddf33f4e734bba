import { SQL } from "bun";
import { Database } from "bun:sqlite";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { onCleanup, tempDir } from "../helpers";
import { migratedDatabase, type Engine } from "../helpers/stores";

export const MAIN = join(import.meta.dir, "../../src/main.ts");

/** A `dossier` executable for programs that spawn one (the bench's seeder): this Bun running
 * src/main.ts, in a fresh temp folder. */
export function sourceExecutable(): string {
  const path = join(tempDir("dossier-exe-"), "dossier");
  writeFileSync(path, `#!/bin/sh\nexec "${process.execPath}" "${MAIN}" "$@"\n`);
  chmodSync(path, 0o755);
  return path;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  json: any;
}

/** Runs `dossier ...args` from source, as a real process, on the given data folder. */
export function dossier(data: string, ...args: string[]): CliResult {
  return dossierRun([...args, "--data", data]);
}

/** Runs `dossier ...args` exactly as given (no --data added), with extra environment. A process
 * that outlives `timeoutMs` (a server that should have refused to start) is killed: code -1. */
export function dossierRun(args: string[], env: Record<string, string> = {}, timeoutMs = 60_000): CliResult {
  const result = Bun.spawnSync([process.execPath, MAIN, ...args], {
    env: { ...process.env, DOSSIER_LOG: "off", ...env },
    stdout: "pipe",
    stderr: "pipe",
    timeout: timeoutMs,
  });
  const stdout = result.stdout.toString();
  let json: any;
  try {
    json = JSON.parse(stdout);
  } catch {
    json = undefined;
  }
  return { code: result.exitCode ?? -1, stdout, stderr: result.stderr.toString(), json };
}

/** A data folder for the CLI on `engine` (C19): SQLite in the folder, or a fresh migrated database of
 * the tests' PostgreSQL (the folder then holds the master key and CV files). `run(...args)` runs
 * `dossier ...args --data <folder>` on it, `runWith` with more environment; `env` is the database's
 * setting, for a process the test starts itself; `rows(text, ...values)` reads the database beneath
 * (`?` placeholders, SQL both engines read alike, written by the test: never input). */
export async function cliOn(engine: Engine, data = tempDir()) {
  const env: Record<string, string> = engine === "postgres" ? { DOSSIER_DATABASE_URL: await migratedDatabase() } : {};
  const runWith = (more: Record<string, string>, ...args: string[]) => dossierRun([...args, "--data", data], { ...env, ...more });
  let pg: SQL | undefined;
  async function rows<T = Record<string, unknown>>(text: string, ...values: unknown[]): Promise<T[]> {
    if (engine === "sqlite") {
      const db = new Database(join(data, "dossier.db"), { readonly: true });
      try {
        return db.query<T, any[]>(text).all(...(values as any[]));
      } finally {
        db.close();
      }
    }
    if (!pg) {
      const opened = (pg = new SQL(env.DOSSIER_DATABASE_URL, { max: 1 }));
      onCleanup(() => opened.close());
    }
    let n = 0;
    return (await pg.unsafe(text.replace(/\?/g, () => `$${++n}`), values)) as T[];
  }
  return { engine, data, env, run: (...args: string[]) => runWith({}, ...args), runWith, rows };
}

export type Cli = Awaited<ReturnType<typeof cliOn>>;
