// The console's speed (C14, issue 23 point 6), run by hand: `bun bench/console.ts [--out FILE]`.
// Runs test/console/board-speed.browser.test.ts (a flow holding 2,000 dossiers, its board opened with
// an empty cache in headless Chromium, three times) in a temporary folder, and writes its figures
// into docs/performance.md's "Console" section, between the markers below (the prose around them
// stays), and to the output.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { BoardFigures } from "./console-figures";

const ROOT = resolve(import.meta.dir, "..");
const TEST = "test/console/board-speed.browser.test.ts";
const TARGET = { interactiveMs: 1000, transferredBytes: 250_000 };
const at = process.argv.indexOf("--out");
const outFile = resolve(ROOT, at > 0 ? process.argv[at + 1] : "docs/performance.md");

const folder = mkdtempSync(join(tmpdir(), "console-bench-"));
try {
  const run = Bun.spawnSync([process.execPath, "test", TEST], { cwd: ROOT, env: { ...process.env, TMPDIR: folder, DOSSIER_CONSOLE_FIGURES: join(folder, "console-board-speed.json") }, stdout: "inherit", stderr: "inherit" });
  if (run.exitCode !== 0) throw new Error(`${TEST} failed (exit ${run.exitCode})`);
  const figures = JSON.parse(readFileSync(join(folder, "console-board-speed.json"), "utf8")) as BoardFigures;
  const body = report(figures, Bun.spawnSync(["git", "rev-parse", "--short", "HEAD"], { cwd: ROOT }).stdout.toString().trim());
  writeReport(body);
  process.stdout.write(`\n${body}\n`);
} finally {
  rmSync(folder, { recursive: true, force: true });
}

function report(figures: BoardFigures, commit: string): string {
  const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
  const verdict = (met: boolean) => (met ? "met" : "**not met**");
  const rows = figures.loads.map(
    (load, i) =>
      `| ${i + 1} | ${load.interactive_ms} | ${load.last_answer_ms} | ${load.main_thread_ms.task} / ${load.main_thread_ms.script} | ${kb(load.transferred_bytes)} (${load.requests} responses) | ${kb(load.assets_bytes)} | ${kb(load.api_bytes)} (${load.api_requests}) |`,
  );
  return [
    `Run of ${figures.measured_at} at ${commit}: ${figures.dossiers.toLocaleString("en")} dossiers over ${figures.columns} columns; load average ${figures.load_average} on ${figures.cpus} CPUs before the loads.`,
    "",
    "| First load | Interactive (ms) | Last API answer (ms) | Main thread busy / in script (ms) | Transferred | Page and assets | API answers |",
    "|---|---|---|---|---|---|---|",
    ...rows,
    "",
    `- Interactive, median: **${figures.interactive_ms_median} ms** (target < ${TARGET.interactiveMs} ms: ${verdict(figures.interactive_ms_median < TARGET.interactiveMs)}).`,
    `- Transferred, median: **${kb(figures.transferred_bytes_median)}** (target < ${kb(TARGET.transferredBytes)}: ${verdict(figures.transferred_bytes_median < TARGET.transferredBytes)}).`,
  ].join("\n");
}

function writeReport(body: string) {
  const begin = "<!-- bench:console:begin -->";
  const end = "<!-- bench:console:end -->";
  let doc = existsSync(outFile) ? readFileSync(outFile, "utf8") : "# Performance\n";
  const block = `${begin}\n${body.trim()}\n${end}`;
  const i = doc.indexOf(begin);
  const j = doc.indexOf(end);
  doc = i >= 0 && j > i ? doc.slice(0, i) + block + doc.slice(j + end.length) : `${doc.trimEnd()}\n\n## Console\n\n${block}\n`;
  writeFileSync(outFile, doc);
}
