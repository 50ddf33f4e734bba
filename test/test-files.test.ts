// Plain `bun test` (without --parallel) must pass like `npm test` (issue 32 point 10). Bun keeps the
// default per-test timeout per test file and resets it for the next one, so a timeout set in the
// preload reached only the first file of a plain run (the others got 5 s, and 58 tests failed).
// Every test file therefore sets its own timeout, first thing after its imports: checked here, with
// Bun's behaviour that makes it necessary. And what each file made is undone after that file in
// both modes (test/preload.ts), not all at the end of a plain run.
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { tempDir } from "./helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const TEST_ROOT = import.meta.dir;
const testFiles = () => [...new Bun.Glob("**/*.test.ts").scanSync(TEST_ROOT)].sort();

/** Where `text` first registers a test or a group, at the top level; or -1. */
const firstRegistration = (text: string) => text.search(/^(test|describe|it|scenarios)\s*(\.\w+)?\s*\(/m);

test("every test file sets its own default timeout at the top level before its first test: `setDefaultTimeout(120_000);` after its imports", () => {
  const files = testFiles();
  expect(files.length).toBeGreaterThan(100);
  const without = files.filter((file) => {
    const text = readFileSync(join(TEST_ROOT, file), "utf8");
    const at = text.search(/^setDefaultTimeout\(\d[\d_]*\);/m);
    const first = firstRegistration(text);
    return at === -1 || (first !== -1 && first < at);
  });
  expect(without).toEqual([]);
});

test("the preload sets no timeout (it would reach only the first file of a plain run)", () => {
  expect(readFileSync(join(TEST_ROOT, "preload.ts"), "utf8")).not.toMatch(/^\s*setDefaultTimeout\(/m);
});

/** Runs `bun test --timeout 50 [extra] a.test.ts b.test.ts` in `dir`, whose tests each sleep
 * 200 ms: what passed and what failed, by test name. */
async function run(dir: string, extra: string[]): Promise<{ passed: string[]; failed: string[] }> {
  const child = Bun.spawn([process.execPath, "test", "--timeout", "50", ...extra, "./a.test.ts", "./b.test.ts"], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: "1" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  const names = (word: string) => [...(out + err).matchAll(new RegExp(`^\\(${word}\\) (\\w+)`, "gm"))].map((m) => m[1]).sort();
  return { passed: names("pass"), failed: names("fail") };
}

/** A folder with its own bunfig.toml and preload, and two test files, a and b. */
function project(preload: string, header: string): string {
  const dir = tempDir("dossier-timeouts-");
  writeFileSync(join(dir, "bunfig.toml"), `[test]\npreload = ["./preload.ts"]\n`);
  writeFileSync(join(dir, "preload.ts"), `import { setDefaultTimeout } from "bun:test";\n${preload}\n`);
  for (const name of ["a", "b"]) {
    writeFileSync(join(dir, `${name}.test.ts`), `import { setDefaultTimeout, test } from "bun:test";\n${header}\ntest("${name}", async () => { await Bun.sleep(200); });\n`);
  }
  expect(relative(TEST_ROOT, dir).startsWith("..")).toBe(true); // outside this suite
  return dir;
}

test("Bun's behaviour: a preload's setDefaultTimeout reaches only the first file of a plain run, every file under --parallel", async () => {
  const dir = project("setDefaultTimeout(60_000);", "");
  expect(await run(dir, [])).toEqual({ passed: ["a"], failed: ["b"] });
  expect(await run(dir, ["--parallel"])).toEqual({ passed: ["a", "b"], failed: [] });
});

test("Bun's behaviour: a file's own setDefaultTimeout holds for that file in both modes", async () => {
  const dir = project("", "setDefaultTimeout(60_000);");
  expect(await run(dir, [])).toEqual({ passed: ["a", "b"], failed: [] });
  expect(await run(dir, ["--parallel"])).toEqual({ passed: ["a", "b"], failed: [] });
});

test("the preload undoes each file's things after that file's own hooks and before the next file, plain or --parallel", async () => {
  const dir = tempDir("dossier-cleanups-");
  const log = join(dir, "log");
  writeFileSync(join(dir, "bunfig.toml"), `[test]\npreload = [${JSON.stringify(join(TEST_ROOT, "preload.ts"))}]\n`);
  for (const name of ["a", "b"]) {
    writeFileSync(
      join(dir, `${name}.test.ts`),
      [
        `import { afterAll, setDefaultTimeout, test } from "bun:test";`,
        `import { appendFileSync } from "node:fs";`,
        `import { onCleanup } from ${JSON.stringify(join(TEST_ROOT, "helpers/cleanup.ts"))};`,
        `setDefaultTimeout(60_000);`,
        `const note = (what: string) => appendFileSync(${JSON.stringify(log)}, "${name} " + what + "\\n");`,
        `onCleanup(() => note("cleanup"));`,
        `afterAll(() => note("afterAll"));`,
        `test("${name}", () => note("test"));`,
      ].join("\n"),
    );
  }
  const lines = () => (existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : []);

  expect(await run(dir, [])).toEqual({ passed: ["a", "b"], failed: [] });
  expect(lines()).toEqual(["a test", "a afterAll", "a cleanup", "b test", "b afterAll", "b cleanup"]);

  writeFileSync(log, "");
  expect(await run(dir, ["--parallel"])).toEqual({ passed: ["a", "b"], failed: [] });
  for (const name of ["a", "b"]) expect(lines().filter((l) => l.startsWith(name))).toEqual([`${name} test`, `${name} afterAll`, `${name} cleanup`]);
});
