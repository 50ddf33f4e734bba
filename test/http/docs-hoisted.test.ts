// Issue 8: GET /docs's script is imported by package specifier (src/http/docs.ts), so that the
// app works when dossier is installed as a dependency and npm hoists its dependencies beside it
// (node_modules/dossier next to node_modules/@scalar/api-reference, no nested node_modules). A
// path like "../../node_modules/@scalar/..." only resolves in our own checkout.
import { expect, setDefaultTimeout, test } from "bun:test";
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { tempDir } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const ROOT = join(import.meta.dir, "../..");

test("an app installed as a hoisted dependency serves /docs and its script", () => {
  const project = tempDir("dossier-hoisted-");
  const modules = join(project, "node_modules");
  // dossier itself, as a package would ship it: its sources and migrations, no node_modules inside.
  const installed = join(modules, "dossier");
  mkdirSync(installed, { recursive: true });
  for (const part of ["src", "drizzle", "package.json"]) cpSync(join(ROOT, part), join(installed, part), { recursive: true });
  // Its dependencies, hoisted to the project's node_modules (links to ours: each resolves its own
  // dependencies from where it really is).
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { dependencies: Record<string, string> };
  for (const name of Object.keys(pkg.dependencies)) {
    mkdirSync(dirname(join(modules, name)), { recursive: true });
    symlinkSync(join(ROOT, "node_modules", name), join(modules, name), "dir");
  }
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "integrator", type: "module", private: true }));
  writeFileSync(
    join(project, "check.ts"),
    `import { createApp } from "dossier/src/app";
const app = createApp({ memory: true, webhooks: false, config: { log: "off" } });
const page = await app.handle(new Request("http://localhost/docs"));
const script = await app.handle(new Request("http://localhost/docs/assets/scalar.js"));
console.log(JSON.stringify({ page: page.status, script: script.status, type: script.headers.get("content-type"), size: (await script.text()).length }));
await app.close();
`,
  );
  const run = Bun.spawnSync([process.execPath, "check.ts"], { cwd: project, env: { ...process.env, DOSSIER_LOG: "off" }, stdout: "pipe", stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(`the installed app did not load (${run.exitCode}):\n${run.stderr.toString()}`);
  const result = JSON.parse(run.stdout.toString());
  expect(result).toMatchObject({ page: 200, script: 200 });
  expect(result.type).toContain("javascript");
  expect(result.size).toBeGreaterThan(1_000_000);
});

test("src/http/docs.ts names no node_modules path", () => {
  expect(readFileSync(join(ROOT, "src/http/docs.ts"), "utf8")).not.toMatch(/from\s+"[^"]*node_modules/);
});
