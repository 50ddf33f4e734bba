// The OpenAPI document passes @redocly/cli lint with its recommended rules, with no error (C2: a
// document a third party's tooling accepts). The CLI runs as a child process on the served
// document written to a temporary file, with telemetry and the update check off (the machine may
// have no internet), and is killed if it does not finish in time.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { call, makeApp, tempDir } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const CLI = join(import.meta.dir, "../../node_modules/@redocly/cli/bin/cli.js");
const LIMIT_MS = 60_000;

type Problem = { ruleId: string; severity: "error" | "warn"; message: string; location: { pointer: string }[] };

describe("the OpenAPI document and @redocly/cli lint", () => {
  test("the recommended rules report no error", async () => {
    const app = makeApp();
    const file = join(tempDir(), "openapi.json");
    await Bun.write(file, (await call(app, "GET", "/openapi.json")).text);
    const lint = Bun.spawn(["node", CLI, "lint", "--extends=recommended", "--format=json", file], {
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" },
      stdout: "pipe",
      stderr: "pipe",
    });
    const timer = setTimeout(() => lint.kill(), LIMIT_MS);
    try {
      const [stdout, stderr, status] = await Promise.all([new Response(lint.stdout).text(), new Response(lint.stderr).text(), lint.exited]);
      const { problems } = JSON.parse(stdout) as { problems: Problem[] };
      const errors = problems.filter((p) => p.severity === "error").map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
      expect(errors).toEqual([]);
      expect(status, stderr).toBe(0);
      // The one warning left: GET /healthz has no 4XX answer, because it has none to give.
      const warnings = problems.filter((p) => p.severity === "warn").map((p) => `${p.ruleId} ${p.location[0]?.pointer}`);
      expect(warnings).toEqual(["operation-4xx-response #/paths/~1healthz/get/responses"]);
    } finally {
      clearTimeout(timer);
      lint.kill();
    }
  }, LIMIT_MS + 10_000);
});
