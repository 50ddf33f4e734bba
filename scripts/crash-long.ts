#!/usr/bin/env bun
// The long run of issue 7's crash-safety test: `bun scripts/crash-long.ts [ROUNDS]` (default 50)
// runs test/reliability/crash.test.ts with that many kill -9 rounds on one data folder and prints
// its summary (rounds, acknowledged writes, unanswered requests, files swept at restarts).
import { join } from "node:path";

const rounds = Number(process.argv[2] ?? 50);
if (!Number.isInteger(rounds) || rounds < 1 || rounds > 10_000) {
  console.error("usage: bun scripts/crash-long.ts [ROUNDS 1..10000]");
  process.exit(2);
}
const root = join(import.meta.dir, "..");
const started = performance.now();
const proc = Bun.spawn([process.execPath, "test", "test/reliability/crash.test.ts"], {
  cwd: root,
  env: { ...process.env, DOSSIER_CRASH_ROUNDS: String(rounds), DOSSIER_CRASH_VERBOSE: "1" },
  stdout: "inherit",
  stderr: "inherit",
});
const code = await proc.exited;
console.error(`crash-long: ${rounds} rounds, exit ${code}, ${Math.round((performance.now() - started) / 1000)} s`);
process.exit(code);
