// docs/embedding.md "Adding Dossier to your project": the commands name a git and a folder
// dependency, and our own exact pin of @scalar/api-reference holds for a host project's install
// (a newer version has no file src/http/docs.ts imports).
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { docBlocks } from "./run-blocks";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const ROOT = join(import.meta.dir, "../..");
const section = docBlocks("docs/embedding.md").filter((b) => b.section === "Adding Dossier to your project");

test("embedding.md: a git dependency and a path dependency are shown", () => {
  const sh = section.filter((b) => b.lang === "sh").map((b) => b.code).join("\n");
  expect(sh).toMatch(/^bun add -d "dossier@git\+https:\/\/\S+#\S+"/m);
  expect(sh).toMatch(/^bun add -d "dossier@file:\.\.\/dossier"/m);
});

test("package.json pins @scalar/api-reference exactly, to the locked version, which has the file /docs serves (a host project's install reads no lockfile of ours)", () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8"));
  const locked = lock.packages["node_modules/@scalar/api-reference"].version;
  expect(pkg.dependencies["@scalar/api-reference"]).toBe(locked);
  const docs = readFileSync(join(ROOT, "src/http/docs.ts"), "utf8");
  const imported = /from "(@scalar\/api-reference\/[^"]+)"/.exec(docs)![1]!;
  expect(existsSync(Bun.resolveSync(imported, ROOT))).toBe(true); // through the package's exports
});
