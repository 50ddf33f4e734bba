#!/usr/bin/env bun
// The long run of issue 7's fuzzing: `bun scripts/fuzz-long.ts [RUNS] [SEED]` (default 20000 runs
// per property) runs test/reliability/fuzz.test.ts with that many runs and prints the answers seen
// by method and status. A failure prints fast-check's seed and path: pass the seed back to replay.
import { join } from "node:path";

const runs = Number(process.argv[2] ?? 20_000);
if (!Number.isInteger(runs) || runs < 1 || runs > 10_000_000) {
  console.error("usage: bun scripts/fuzz-long.ts [RUNS] [SEED]");
  process.exit(2);
}
const seed = process.argv[3];
const root = join(import.meta.dir, "..");
const started = performance.now();
const proc = Bun.spawn([process.execPath, "test", "test/reliability/fuzz.test.ts"], {
  cwd: root,
  env: { ...process.env, DOSSIER_FUZZ_RUNS: String(runs), DOSSIER_FUZZ_STATS: "1", ...(seed ? { DOSSIER_FUZZ_SEED: seed } : {}) },
  stdout: "inherit",
  stderr: "inherit",
});
const code = await proc.exited;
console.error(`fuzz-long: ${runs} runs per property, exit ${code}, ${Math.round((performance.now() - started) / 1000)} s`);
process.exit(code);
