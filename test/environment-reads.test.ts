// Every environment variable is read in src/config.ts and nowhere else in src/ (docs/dev-brief.md):
// one file says what the environment can change, and tests and embedding programs hand the settings
// in through `env` (createApp, openContext) rather than through the process's environment.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const ROOT = join(import.meta.dir, "..");
const SRC = join(ROOT, "src");
const CONFIG = "src/config.ts";

/** The ways code reads the environment: process.env (also as process["env"]), Bun.env,
 * import.meta.env, `env` taken out of process by destructuring or from an import of node:process. */
const ENV_READS = [
  /\bprocess\s*(?:\?\.|\.)\s*env\b/,
  /\bprocess\s*\[\s*["'`]env["'`]\s*\]/,
  /\bBun\s*(?:\?\.|\.)\s*env\b/,
  /\bimport\.meta\.env\b/,
  /\{[^}]*\benv\b[^}]*\}\s*=\s*(?:globalThis\.)?process\b/,
  /\bimport\s*\{[^}]*\benv\b[^}]*\}\s*from\s*["'](?:node:)?process["']/,
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : /\.[cm]?[jt]sx?$/.test(name) ? [path] : [];
  });
}

/** `file:line: text` of each line of `text` that reads the environment. */
function envReads(file: string, text: string): string[] {
  return text.split("\n").flatMap((line, index) => (ENV_READS.some((pattern) => pattern.test(line)) ? [`${file}:${index + 1}: ${line.trim()}`] : []));
}

describe("the environment is read in src/config.ts only", () => {
  const files = sourceFiles(SRC).map((path) => relative(ROOT, path));

  test("no file of src/ but src/config.ts reads process.env, Bun.env or import.meta.env", () => {
    expect(files.length).toBeGreaterThan(20);
    const offenders = files.filter((file) => file !== CONFIG).flatMap((file) => envReads(file, readFileSync(join(ROOT, file), "utf8")));
    expect(offenders).toEqual([]);
  });

  test("the check sees a read: src/config.ts's own, and each form of one", () => {
    expect(envReads(CONFIG, readFileSync(join(ROOT, CONFIG), "utf8")).length).toBeGreaterThan(0);
    for (const line of [
      `const port = process.env.DOSSIER_PORT;`,
      `const env = process?.env;`,
      `const port = process["env"].DOSSIER_PORT;`,
      `const port = Bun.env.DOSSIER_PORT;`,
      `const port = import.meta.env.DOSSIER_PORT;`,
      `const { env } = process;`,
      `const { argv, env: vars } = globalThis.process;`,
      `import { env } from "node:process";`,
    ]) {
      expect(envReads("src/x.ts", `// a file\n${line}\n`)).toEqual([`src/x.ts:2: ${line}`]);
    }
    expect(envReads("src/x.ts", `const environment = options.env;\nconst parsed = loadConfig(env);\n`)).toEqual([]);
  });
});
