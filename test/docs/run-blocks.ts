// Runs a document's ```sh blocks under "## Walk-through" as written, with `dossier` on PATH
// (a shim that runs src/main.ts), in an empty folder.
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers";

const ROOT = join(import.meta.dir, "../..");

export function walkThroughBlocks(doc: string): string[] {
  const text = readFileSync(join(ROOT, doc), "utf8");
  const section = text.split(/^## Walk-through$/m)[1] ?? "";
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
}

export function runBlock(block: string, env: Record<string, string> = {}) {
  const bin = tempDir("dossier-bin-");
  const shim = join(bin, "dossier");
  writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, "src/main.ts")}" "$@"\n`);
  chmodSync(shim, 0o755);
  const cwd = tempDir("dossier-walk-");
  return Bun.spawnSync(["bash", "-euo", "pipefail", "-c", block], {
    cwd,
    env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, DOSSIER_DATA: join(cwd, "data"), DOSSIER_LOG: "off", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
}
