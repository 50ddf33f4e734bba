// Issue 8: `npm run bench` and `bun bench/seed.ts` show the seed's progress on a terminal (a line
// redrawn in place on stderr), and never in a pipe or with --json. The terminal is a real
// pseudo-terminal from util-linux `script`; the seed calls a real `dossier` (src/main.ts).
import { expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers";
import { sourceExecutable } from "./helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const ROOT = join(import.meta.dir, "../..");
const SEED = join(ROOT, "bench/seed.ts");
const REDRAW = "\r\x1b[2Kseed: ";
const script = Bun.which("script");

const quote = (arg: string) => `'${arg.replaceAll("'", "'\\''")}'`;

function seedArgs(json: boolean): string[] {
  return [process.execPath, SEED, "--n", "200", "--data", join(tempDir(), "bench"), "--exe", sourceExecutable(), ...(json ? ["--json"] : [])];
}

/** Runs the seeder under a pseudo-terminal: stdout and stderr both arrive through it. */
function onTerminal(json: boolean): string {
  const run = Bun.spawnSync([script!, "-qec", seedArgs(json).map(quote).join(" "), "/dev/null"], { stdin: "ignore", stdout: "pipe", stderr: "pipe", timeout: 60_000 });
  const out = run.stdout.toString();
  if (run.exitCode !== 0) throw new Error(`seed under script failed (${run.exitCode}):\n${out}\n${run.stderr}`);
  expect(out).toContain('"dossiers": 200');
  return out;
}

test.skipIf(!script)("bench/seed.ts shows its progress on a terminal", () => {
  const out = onTerminal(false);
  expect(out).toContain(`${REDRAW}organization and key (CLI)`);
  expect(out).toMatch(/seed: dossiers, contacts, primary links \d/);
});

test.skipIf(!script)("bench/seed.ts --json shows no progress, even on a terminal", () => {
  const out = onTerminal(true);
  expect(out).not.toContain("\x1b[2K");
  expect(out).toContain("seed: N=200"); // the plain log lines stay
});

test("bench/seed.ts in a pipe writes plain lines only", () => {
  const run = Bun.spawnSync(seedArgs(false), { stdout: "pipe", stderr: "pipe", timeout: 60_000 });
  const stderr = run.stderr.toString();
  expect(run.exitCode).toBe(0);
  expect(JSON.parse(run.stdout.toString()).counts.dossiers).toBe(200);
  expect(stderr).not.toContain("\x1b[2K");
  expect(stderr).not.toContain("\r");
  expect(stderr).toContain("seed: N=200");
});

test("npm run bench passes the seed its progress, on a terminal only (bench/run.ts)", () => {
  // bench/run.ts runs the whole benchmark when imported: its call to seed() is read, not run.
  const source = readFileSync(join(ROOT, "bench/run.ts"), "utf8");
  const call = /await seed\(\{([^}]*)\}\)/.exec(source)?.[1] ?? "";
  expect(call).toMatch(/\bprogress: process\.stderr\.isTTY === true\b/);
});
