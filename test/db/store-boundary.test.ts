// One store, one boundary (docs/dev-brief.md): only src/db/ speaks SQL. Outside it, no file of
// src/ imports bun:sqlite or drizzle-orm, or reaches for the store's connection (`store.sqlite`,
// `store.orm`); services go through the query modules (`ctx.store.dossiers.byId(...)`), so that a
// PostgreSQL store (C19) is a second set of those modules, not a rewrite.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const ROOT = join(import.meta.dir, "../..");
const SRC = join(ROOT, "src");

const SQL_REACHES = [
  /from\s+["']bun:sqlite["']/,
  /from\s+["']drizzle-orm(?:\/[^"']*)?["']/,
  /\bimport\(\s*["'](?:bun:sqlite|drizzle-orm[^"']*)["']\s*\)/,
  /\bstore\s*(?:\?\.|\.)\s*(?:sqlite|orm)\b/,
  /\{[^}]*\b(?:sqlite|orm)\b[^}]*\}\s*=\s*[\w.]*\bstore\b/,
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : /\.[cm]?[jt]sx?$/.test(name) ? [path] : [];
  });
}

function reaches(file: string, text: string): string[] {
  return text.split("\n").flatMap((line, index) => (SQL_REACHES.some((pattern) => pattern.test(line)) ? [`${file}:${index + 1}: ${line.trim()}`] : []));
}

describe("only src/db/ speaks SQL", () => {
  test("no file of src/ outside src/db/ imports bun:sqlite or drizzle-orm or touches the store's connection", () => {
    const files = sourceFiles(SRC).map((path) => relative(ROOT, path));
    expect(files.length).toBeGreaterThan(40);
    const offenders = files.filter((file) => !file.startsWith("src/db/")).flatMap((file) => reaches(file, readFileSync(join(ROOT, file), "utf8")));
    expect(offenders).toEqual([]);
  });

  test("the check sees each way in", () => {
    for (const line of [
      `import { Database } from "bun:sqlite";`,
      `import type { Database } from "bun:sqlite";`,
      `import { eq } from "drizzle-orm";`,
      `import { sqliteTable } from "drizzle-orm/sqlite-core";`,
      `const { Database } = await import("bun:sqlite");`,
      `ctx.store.sqlite.query("SELECT 1").get();`,
      `const rows = app.store.orm.select().from(t);`,
      `const { sqlite } = ctx.store;`,
    ]) {
      expect(reaches("src/x.ts", `// a file\n${line}\n`)).toEqual([`src/x.ts:2: ${line}`]);
    }
    expect(reaches("src/x.ts", `const dossier = ctx.store.dossiers.byId(org, id);\nconst sqliteFree = true;\n`)).toEqual([]);
  });
});
