// Dossier ships as one `bun build --compile` executable: the CSV modules and csv-parse (its
// WHATWG-stream entry, node:stream/web and Buffer underneath) must work inside one, with no
// node_modules beside it. A small executable is built with the release build's flags and run from
// another folder.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

setDefaultTimeout(120_000);

const dir = mkdtempSync(join(tmpdir(), "dossier-csv-compiled-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("reader and writer inside a compiled executable", async () => {
  const src = resolve(import.meta.dir, "../../src/csv");
  const entry = join(dir, "entry.ts");
  writeFileSync(
    entry,
    `import { openCsv } from ${JSON.stringify(join(src, "reader.ts"))};
import { csvChunks, resourceColumns } from ${JSON.stringify(join(src, "writer.ts"))};
const parts: Uint8Array[] = [];
for await (const chunk of csvChunks(resourceColumns("contacts"), [[{ id: "1", full_name: "Zoë, \\"Z\\"", phone: "+33 1", kind: ["client", "partner"] }]])) parts.push(chunk);
const exported = new Uint8Array(await new Blob(parts).arrayBuffer());
const european = Uint8Array.from([...new TextEncoder().encode("Nom;Ville\\r\\nAndr"), 0xe9, ...new TextEncoder().encode(";\\"Li\\r\\nlle\\"\\r\\n")]);
const out: unknown[] = [];
for (const bytes of [exported, european]) {
  const { inspection, batches } = await openCsv(bytes);
  for await (const batch of batches()) out.push([inspection.encoding, inspection.delimiter, batch.rows.map((row) => row.cells.filter((cell) => cell !== ""))]);
}
try { await openCsv(new Uint8Array(0)); } catch (error) { out.push((error as { problem: string }).problem); }
console.log(JSON.stringify(out));
`,
  );
  const exe = join(dir, "csv-check");
  const build = Bun.spawn([process.execPath, "build", entry, "--compile", "--bytecode", "--format=esm", "--minify-syntax", "--minify-whitespace", "--outfile", exe], {
    cwd: dir,
    stdout: "pipe",
    stderr: "pipe",
  });
  const [buildErr, built] = await Promise.all([new Response(build.stderr).text(), build.exited]);
  expect(buildErr.includes("error:") ? buildErr : "").toBe("");
  expect(built).toBe(0);
  const run = Bun.spawn([exe], { cwd: "/", stdout: "pipe", stderr: "pipe", env: { PATH: "/usr/bin:/bin" } });
  const [out, err, code] = await Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text(), run.exited]);
  expect(err).toBe("");
  expect(code).toBe(0);
  expect(JSON.parse(out)).toEqual([
    ["utf-8", ",", [["1", 'Zoë, "Z"', "+33 1", "client;partner"]]],
    ["windows-1252", ";", [["André", "Li\r\nlle"]]],
    "empty",
  ]);
});
