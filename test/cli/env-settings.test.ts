// C2: the settings `dossier` reads from the environment beside the store's (src/config.ts):
// DOSSIER_HOST and DOSSIER_PORT, where `serve` listens when --host and --port are not given, and
// DOSSIER_LOG_LEVEL=debug, which adds an unexpected failure's stack after its one line.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers";
import { startServerProcess } from "../helpers/process";
import { dossierRun } from "./helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

describe("C2: serve listens on DOSSIER_HOST:DOSSIER_PORT unless --host and --port say otherwise", () => {
  test("DOSSIER_PORT that is no port: exit 2, one line naming it, the data folder untouched", () => {
    const data = join(tempDir(), "new");
    for (const port of ["abc", "65536"]) {
      const result = dossierRun(["serve", "--no-bootstrap", "--data", data], { DOSSIER_PORT: port }, 20_000);
      expect([result.code, result.stdout, result.stderr]).toEqual([2, "", `dossier: --port must be an integer from 0 to 65535, not "${port}"\n`]);
    }
    expect(existsSync(data)).toBe(false);
  });

  test("DOSSIER_PORT is the port listened on: one in use is refused, naming it", () => {
    const taken = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("taken") });
    try {
      const result = dossierRun(["serve", "--no-bootstrap", "--data", tempDir()], { DOSSIER_PORT: String(taken.port) }, 20_000);
      expect(result.code).toBe(2);
      expect(result.stderr).toStartWith(`dossier: cannot listen on 127.0.0.1:${taken.port}: `);
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
    } finally {
      taken.stop(true);
    }
  });

  test("DOSSIER_HOST is the address listened on; --port wins over DOSSIER_PORT", async () => {
    const server = await startServerProcess(tempDir(), ["--no-bootstrap"], { DOSSIER_HOST: "127.0.0.2", DOSSIER_PORT: "abc" });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.2:\d+$/);
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      server.proc.kill("SIGTERM");
      expect(await server.exited).toBe(0);
    }
  });
});

describe("C2: an unexpected failure is one line; DOSSIER_LOG_LEVEL=debug adds its stack", () => {
  const data = tempDir();
  writeFileSync(join(data, "dossier.db"), "not a database, just text long enough to be read as a header".repeat(20));

  test.each([
    ["DOSSIER_LOG_LEVEL=warn: one line", { DOSSIER_LOG_LEVEL: "warn" }, false],
    ["DOSSIER_LOG_LEVEL=info: one line", { DOSSIER_LOG_LEVEL: "info" }, false],
    ["DOSSIER_LOG_LEVEL=debug: the line, then the stack", { DOSSIER_LOG_LEVEL: "debug" }, true],
  ])("%s", (_name, env, stack) => {
    const result = dossierRun(["org", "list", "--json", "--data", data], env as Record<string, string>);
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split("\n");
    expect(lines[0]).toStartWith(`dossier: cannot open the data folder ${data}: `);
    expect(lines.length > 1).toBe(stack);
    expect(lines.slice(1).some((line) => /^\s+at /.test(line))).toBe(stack);
  });

  test("DOSSIER_LOG_LEVEL=debug: a bad argument is still one line, with no stack", () => {
    const result = dossierRun(["org", "list", "--verbose", "--data", data], { DOSSIER_LOG_LEVEL: "debug" });
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });
});
