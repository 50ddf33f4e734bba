import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers";

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
