// Issue 35's "the kill -9 test has run 20 times in a row without a loss": runs
// test/nodes/webhooks-kill.test.ts (three nodes on one PostgreSQL, kill -9 of one under 4 writers)
// RUNS times in a row, each in a process of its own, and stops at the first failure.
//   bun bench/kill-nodes.ts [RUNS]     (default 20; waits while /work/QUIET exists, as the tests do)
import { existsSync } from "node:fs";
import { join } from "node:path";

const runs = Number(process.argv[2] ?? 20);
const root = join(import.meta.dir, "..");
let passed = 0;
for (let run = 1; run <= runs; run++) {
  for (let wait = 0; existsSync("/work/QUIET") && wait < 240; wait++) await Bun.sleep(15_000);
  const started = performance.now();
  const proc = Bun.spawn([process.execPath, "test", "test/nodes/webhooks-kill.test.ts"], { cwd: root, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  const summary = /kill -9: .*/.exec(out + err)?.[0] ?? "";
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (code !== 0) {
    console.log(`run ${run}/${runs}: FAILED (${seconds} s)\n${out}\n${err}`);
    process.exit(1);
  }
  passed++;
  console.log(`run ${run}/${runs}: passed (${seconds} s) ${summary}`);
}
console.log(`${passed} runs in a row without a loss`);
