// Issue 8 / docs/embedding.md: an app made with createApp({ memory: true }) needs no cleanup beyond
// app.close(): close() removes the temporary folder its CV files went to. An app on a data folder
// keeps its files, of course.
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { createApp } from "../../src/app";
import { call, makeOrg, tempDir } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const PDF = new TextEncoder().encode("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n");

async function withCv(app: ReturnType<typeof createApp>) {
  const org = await makeOrg(app);
  const dossier = (await call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "Ada" } })).json.data;
  const upload = await call(app, "POST", `/dossiers/${dossier.id}/cv`, { key: org.key, raw: PDF, contentType: "application/pdf" });
  expect(upload.status).toBe(200);
  return join(app.dossier.filesDir, upload.json.data.cv_url);
}

test("docs/embedding.md: close() of a memory app removes its temporary CV folder", async () => {
  const app = createApp({ memory: true, webhooks: false, config: { log: "off" } });
  const folder = app.dossier.filesDir;
  expect(folder).toMatch(/dossier-files-/);
  const cv = await withCv(app);
  expect(existsSync(cv)).toBe(true);
  const database = app.dossier.store.sqlite.query<{ file: string }, []>("SELECT file FROM pragma_database_list WHERE name = 'main'").get()!.file;
  await app.close();
  expect(existsSync(folder)).toBe(false);
  expect(existsSync(dirname(database))).toBe(false);
});

test("close() of an app on a data folder keeps the folder and its CVs", async () => {
  const dataDir = tempDir();
  const app = createApp({ dataDir, webhooks: false, config: { log: "off" } });
  const cv = await withCv(app);
  await app.close();
  expect(existsSync(cv)).toBe(true);
  expect(readdirSync(dataDir)).toContain("dossier.db");
});
