// C22: time enters through a clock the tests move. src/mail and src/calendar take every instant as an
// argument: none of their files reads the clock (or the dice) itself.
import { expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const SRC = join(import.meta.dir, "../../src");
const CLOCK_READS = [/\bDate\.now\s*\(/, /\bnew\s+Date\s*\(\s*\)/, /\bperformance\.now\s*\(/, /\bMath\.random\s*\(/, /\bprocess\.hrtime\b/, /\bBun\.nanoseconds\s*\(/];

/** `file:line: text` of each line that reads the clock. */
function clockReads(file: string, text: string): string[] {
  return text.split("\n").flatMap((line, i) => (CLOCK_READS.some((re) => re.test(line)) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
}

test("no file of src/mail or src/calendar reads the clock", () => {
  const files = ["mail", "calendar"].flatMap((dir) => [...new Bun.Glob("**/*.ts").scanSync(join(SRC, dir))].map((f) => join(dir, f)));
  expect(files.length).toBeGreaterThanOrEqual(8);
  expect(files.flatMap((file) => clockReads(file, readFileSync(join(SRC, file), "utf8")))).toEqual([]);
});

test("the check sees each form", () => {
  for (const line of ["const t = Date.now();", "const d = new Date();", "const d = new Date( );", "performance.now()", "Math.random()", "process.hrtime.bigint()", "Bun.nanoseconds()"]) {
    expect(clockReads("x.ts", line)).toEqual([`x.ts:1: ${line}`]);
  }
  expect(clockReads("x.ts", "new Date(iso); new Date(ms)")).toEqual([]);
});
