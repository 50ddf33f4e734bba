import { join } from "node:path";

export const MAIN = join(import.meta.dir, "../../src/main.ts");

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  json: any;
}

/** Runs `dossier ...args` from source, as a real process, on the given data folder. */
export function dossier(data: string, ...args: string[]): CliResult {
  const result = Bun.spawnSync([process.execPath, MAIN, ...args, "--data", data], {
    env: { ...process.env, DOSSIER_LOG: "off" },
    stdout: "pipe",
    stderr: "pipe",
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
