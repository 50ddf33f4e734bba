// Runs a document's shell blocks as written, with `dossier` on PATH (a shim that runs src/main.ts
// with this Bun), in an empty folder, under `bash -euo pipefail`: a failing command fails the block.
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers";

const ROOT = join(import.meta.dir, "../..");

export interface DocBlock {
  /** The `## ` section the block is in ("" before the first). */
  section: string;
  /** The fence's language: sh, ini, json, ts, or "" for none. */
  lang: string;
  code: string;
}

/** Every fenced block of a document, with its section. */
export function docBlocks(doc: string): DocBlock[] {
  const text = readFileSync(join(ROOT, doc), "utf8");
  const blocks: DocBlock[] = [];
  let section = "";
  let open: { lang: string; lines: string[] } | null = null;
  for (const line of text.split("\n")) {
    if (open) {
      if (line.startsWith("```")) {
        blocks.push({ section, lang: open.lang, code: open.lines.join("\n") + "\n" });
        open = null;
      } else open.lines.push(line);
    } else if (line.startsWith("```")) open = { lang: line.slice(3).trim(), lines: [] };
    else if (line.startsWith("## ")) section = line.slice(3).trim();
  }
  return blocks;
}

export function walkThroughBlocks(doc: string): string[] {
  return docBlocks(doc).filter((b) => b.section === "Walk-through" && b.lang === "sh").map((b) => b.code);
}

export interface RunOptions {
  /** Extra commands on PATH: name → sh script body. */
  shims?: Record<string, string>;
  /** The folder to run in (default: a new empty one). */
  cwd?: string;
}

export function runBlock(block: string, env: Record<string, string> = {}, options: RunOptions = {}) {
  const bin = tempDir("dossier-bin-");
  const shims = { dossier: `exec "${process.execPath}" "${join(ROOT, "src/main.ts")}" "$@"`, ...options.shims };
  for (const [name, body] of Object.entries(shims)) {
    writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  }
  const cwd = options.cwd ?? tempDir("dossier-walk-");
  return Bun.spawnSync(["bash", "-euo", "pipefail", "-c", block], {
    cwd,
    env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, DOSSIER_DATA: join(cwd, "data"), DOSSIER_LOG: "off", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
}
