// The CI scripts (.ci/run, .ci/smoke), run for real with bash. `npm` is a stand-in script first on
// PATH that records how it was called, so .ci/run's own logic runs without the whole suite inside.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const root = join(import.meta.dir, "../..");

/** A folder holding an `npm` that logs its arguments and prints `testOutput` for `npm test`.
 * Its `npm run build` fails (exit 3), so a run never goes on to the smoke test of a real binary. */
function fakeNpm(testOutput: string, testExit: number, testMakes = "") {
  const bin = tempDir();
  const calls = join(bin, "calls.log");
  writeFileSync(
    join(bin, "npm"),
    `#!/usr/bin/env bash
echo "$*" >> "${calls}"
if [ "$1" = test ]; then ${testMakes} printf '%s\\n' "${testOutput}"; exit ${testExit}; fi
if [ "$1" = run ]; then exit 3; fi
exit 0
`,
  );
  chmodSync(join(bin, "npm"), 0o755);
  return { bin, calls: () => readFileSync(calls, "utf8").trim().split("\n") };
}

/** Runs .ci/run with the stand-in npm first on PATH, and a temp folder of its own (other test
 * files, running at the same time, make and remove entries in the shared one). */
function runCi(bin: string, tmp = tempDir()) {
  const result = Bun.spawnSync(["bash", join(root, ".ci/run")], {
    env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, TMPDIR: tmp },
    stdout: "pipe",
    stderr: "pipe",
  });
  return { code: result.exitCode, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
}

describe(".ci/run: the README's test command, its summary line, its failures", () => {
  test("README: runs `npm install && npm test` as written (no extra flags), then counts", () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    expect(readme).toContain("npm install && npm test ");
    const npm = fakeNpm(" 12 pass\n 0 fail", 0);
    const result = runCi(npm.bin);
    expect(npm.calls()).toEqual(["install", "test", "run build"]);
    expect(result.stdout).toContain("tests: 12 passed, 0 failed\n");
    expect(result.code).toBe(3); // the stand-in build's failure fails CI too
  });

  test("a failing suite prints the summary line, then fails CI without building", () => {
    const npm = fakeNpm(" 7 pass\n 2 fail", 1);
    const result = runCi(npm.bin);
    expect(result.stdout).toContain("tests: 7 passed, 2 failed\n");
    expect(result.code).not.toBe(0);
    expect(npm.calls()).toEqual(["install", "test"]); // no `run build`
  });

  test("a run that leaves dossier* entries in the temp folder fails, naming them; older ones are not its doing", () => {
    const tmp = tempDir();
    mkdirSync(join(tmp, "dossier-before-run"));
    const npm = fakeNpm(" 3 pass\n 0 fail", 0, `mkdir "$TMPDIR/dossier-test-left" && touch "$TMPDIR/Dossier-file.db" "$TMPDIR/other-tool";`);
    const result = runCi(npm.bin, tmp);
    expect(result.stdout).toContain("tests: 3 passed, 0 failed\n");
    expect(result.stderr).toContain("the run left these in");
    expect(result.stderr).toContain("  Dossier-file.db\n  dossier-test-left\n");
    expect(result.stderr).not.toContain("dossier-before-run");
    expect(result.stderr).not.toContain("other-tool");
    expect(result.code).toBe(3); // the stand-in build's own failure is kept

    const clean = fakeNpm(" 3 pass\n 0 fail", 1);
    const cleanResult = runCi(clean.bin, tmp);
    expect(cleanResult.stderr).not.toContain("the run left these in"); // the same entries, there before this run
    expect(cleanResult.code).toBe(1);
  });
});

describe(".ci/smoke: cleans up when it fails before the server starts", () => {
  test("a binary that does not run: no unbound-variable error, the work folder is removed", () => {
    const tmp = tempDir();
    const result = Bun.spawnSync(["bash", join(root, ".ci/smoke"), join(tmp, "no-such-dossier")], {
      env: { ...process.env, TMPDIR: tmp },
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr.toString()).not.toContain("unbound variable");
    expect(readdirSync(tmp)).toEqual([]);
  });
});
