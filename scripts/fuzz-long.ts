#!/usr/bin/env bun
// The long run of issue 7's fuzzing: `bun scripts/fuzz-long.ts [RUNS] [SEED] [WIRE_RUNS]` runs
// test/reliability/fuzz.test.ts with RUNS runs per in-process property (default 20000) and
// WIRE_RUNS runs of the wire property (raw sockets to a real server; default 2 × RUNS, the ratio of
// the defaults in `bun test`), and prints the answers seen (by method and status; on the wire, by
// kind: ours, Bun's own refusal, or none) and the hits per route. A failure prints fast-check's
// seed and path: pass the seed back to replay (it applies to every property of the file).
import { join } from "node:path";

const count = (text: string | undefined, fallback: number) => (text === undefined || text === "" ? fallback : Number(text));
const runs = count(process.argv[2], 20_000);
const seed = process.argv[3];
const wireRuns = count(process.argv[4], runs * 2);
const valid = (n: number) => Number.isInteger(n) && n >= 1 && n <= 10_000_000;
if (!valid(runs) || !valid(wireRuns) || (seed !== undefined && seed !== "" && !Number.isInteger(Number(seed)))) {
  console.error("usage: bun scripts/fuzz-long.ts [RUNS] [SEED] [WIRE_RUNS]   (SEED may be \"\" to keep it random)");
  process.exit(2);
}
const root = join(import.meta.dir, "..");
const started = performance.now();
const proc = Bun.spawn([process.execPath, "test", "test/reliability/fuzz.test.ts"], {
  cwd: root,
  env: {
    ...process.env,
    DOSSIER_FUZZ_RUNS: String(runs),
    DOSSIER_FUZZ_WIRE_RUNS: String(wireRuns),
    DOSSIER_FUZZ_STATS: "1",
    ...(seed ? { DOSSIER_FUZZ_SEED: seed } : {}),
  },
  stdout: "inherit",
  stderr: "inherit",
});
const code = await proc.exited;
console.error(`fuzz-long: ${runs} runs per in-process property, ${wireRuns} on the wire, exit ${code}, ${Math.round((performance.now() - started) / 1000)} s`);
process.exit(code);
