// Issue 38 point 5: the document as two linters that integrators run read it. Spectral's `oas`
// ruleset (@stoplight/spectral-cli) reports nothing at all, not even a hint; Redocly's recommended
// rules (@redocly/cli) report no error and no warning. The one thing Redocly would say is set
// aside by name, with its reason, in its own ignore file: GET /healthz has no 4XX answer, because it
// has none to give (it answers 200 or 503, whatever the request). Both CLIs run as child processes
// on the served document written to a temporary folder, offline (telemetry and update checks off),
// and are killed if they do not finish in time.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { call, makeApp, tempDir } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const ROOT = join(import.meta.dir, "../..");
const SPECTRAL = join(ROOT, "node_modules/@stoplight/spectral-cli/dist/index.js");
const REDOCLY = join(ROOT, "node_modules/@redocly/cli/bin/cli.js");
const LIMIT_MS = 90_000;
const OFFLINE = { REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", SCARF_ANALYTICS: "false", DO_NOT_TRACK: "1", NO_COLOR: "1" };

/** The served document in a new folder, as openapi.json. */
async function documentFolder(): Promise<string> {
  const dir = tempDir("dossier-lint-");
  await Bun.write(join(dir, "openapi.json"), (await call(makeApp(), "GET", "/openapi.json")).text);
  return dir;
}

/** Runs `node <args>` in `cwd`; its stdout, stderr and exit status. Killed after LIMIT_MS. */
async function run(args: string[], cwd: string): Promise<{ stdout: string; stderr: string; status: number }> {
  const child = Bun.spawn(["node", ...args], { cwd, env: { ...process.env, ...OFFLINE }, stdout: "pipe", stderr: "pipe" });
  const timer = setTimeout(() => child.kill(), LIMIT_MS);
  try {
    const [stdout, stderr, status] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
    return { stdout, stderr, status };
  } finally {
    clearTimeout(timer);
    child.kill();
  }
}

describe("issue 38: the document lints clean", () => {
  test("Spectral's oas ruleset: no result of any severity (tags declared, info.contact, ...)", async () => {
    const dir = await documentFolder();
    await Bun.write(join(dir, ".spectral.yaml"), 'extends: ["spectral:oas"]\n');
    const { stdout, stderr, status } = await run([SPECTRAL, "lint", "--ruleset", ".spectral.yaml", "--format", "json", "--fail-severity", "hint", "--quiet", "openapi.json"], dir);
    const results = JSON.parse(stdout || "[]") as { code: string; severity: number; path: string[]; message: string }[];
    expect(results.map((r) => `${r.code} (severity ${r.severity}) at ${r.path.join(".")}: ${r.message}`)).toEqual([]);
    expect(status, stderr).toBe(0);
  }, LIMIT_MS + 10_000);

  test("Redocly's recommended rules: no error, no warning; GET /healthz's missing 4XX is the one problem set aside", async () => {
    const dir = await documentFolder();
    await Bun.write(
      join(dir, ".redocly.lint-ignore.yaml"),
      "# GET /healthz answers 200 or 503 and nothing else: it has no 4XX answer to document.\n" +
        "openapi.json:\n  operation-4xx-response:\n    - '#/paths/~1healthz/get/responses'\n",
    );
    const { stdout, stderr, status } = await run([REDOCLY, "lint", "--extends=recommended", "--format=json", "openapi.json"], dir);
    const { problems, totals } = JSON.parse(stdout) as {
      problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
      totals: { errors: number; warnings: number; ignored: number };
    };
    expect(problems.map((p) => `${p.ruleId} (${p.severity}) at ${p.location[0]?.pointer}: ${p.message}`)).toEqual([]);
    expect(totals).toEqual({ errors: 0, warnings: 0, ignored: 1 });
    expect(status, stderr).toBe(0);
  }, LIMIT_MS + 10_000);
});
