// `serve` of the compiled executable runs with BUN_JSC_forceRAMSize, the memory JavaScriptCore sizes
// its collections by (src/heap-hint.ts; issue 33's RSS), set by starting again as itself: the same
// process, before the commands load; an operator's own value is kept; nothing else changes.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { totalmem } from "node:os";
import { join } from "node:path";
import { heapHintedEnvironment } from "../src/config";
import { HEAP_HINT_BYTES, heapHintFor } from "../src/heap-hint";
import { tempDir } from "./helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const GB = 1024 ** 3;

describe("the heap's hint", () => {
  test.each([
    ["serve, compiled, a large machine", ["serve", "--port", "0"], true, 24 * GB, String(HEAP_HINT_BYTES)],
    ["serve, compiled, a machine of 2 GB: its own", ["serve"], true, 2 * GB, String(2 * GB)],
    ["serve from source (bun src/main.ts)", ["serve"], false, 24 * GB, null],
    ["another command", ["org", "create", "--name", "serve"], true, 24 * GB, null],
    ["no command", [], true, 24 * GB, null],
  ])("%s", (_name, argv, compiled, machine, hint) => {
    expect(heapHintFor(argv, compiled, machine)).toBe(hint);
  });

  test("the environment keeps every variable and adds the hint; an operator's hint is kept as it is", () => {
    expect(heapHintedEnvironment("4096", { PATH: "/bin", DOSSIER_PORT: "8080", UNSET: undefined })).toEqual({ PATH: "/bin", DOSSIER_PORT: "8080", BUN_JSC_forceRAMSize: "4096" });
    expect(heapHintedEnvironment("4096", { BUN_JSC_forceRAMSize: "123" })).toBeNull();
  });

  test("inside a compiled executable, serve starts again as the same process with the hint; other commands and an operator's value as they are", () => {
    const dir = tempDir("dossier-heap-hint-");
    const program = join(dir, "program.ts");
    writeFileSync(
      program,
      `import { withHeapHint } from ${JSON.stringify(join(import.meta.dir, "../src/heap-hint.ts"))};\n` +
        `withHeapHint();\nconsole.log(JSON.stringify({ pid: process.pid, hint: process.env.BUN_JSC_forceRAMSize ?? null, argv: process.argv.slice(2) }));\n`,
    );
    const build = Bun.spawnSync([process.execPath, "build", program, "--compile", "--bytecode", "--format=esm", "--minify-whitespace", "--minify-syntax", "--outfile", join(dir, "program")], {
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(build.stderr.toString()).not.toContain("error:");
    expect(build.exitCode).toBe(0);
    const run = (args: string[], env: Record<string, string> = {}) => {
      const child = Bun.spawnSync([join(dir, "program"), ...args], { cwd: dir, stdout: "pipe", stderr: "pipe", env: { PATH: "/usr/bin:/bin", ...env } });
      expect(child.stderr.toString()).toBe("");
      expect(child.exitCode).toBe(0);
      return { spawned: child.pid, ...(JSON.parse(child.stdout.toString()) as { pid: number; hint: string | null; argv: string[] }) };
    };
    const served = run(["serve", "--port", "0"]);
    expect(served.hint).toBe(String(Math.min(totalmem(), HEAP_HINT_BYTES)));
    expect(served.argv).toEqual(["serve", "--port", "0"]);
    expect(served.pid).toBe(served.spawned);
    expect(run(["serve"], { BUN_JSC_forceRAMSize: "1073741824" }).hint).toBe("1073741824");
    expect(run(["version"]).hint).toBeNull();
  });
});
