// C21's uploaded import files with DOSSIER_FILES_URL (C19), on both stores and a real s3rver: the
// upload is the object `<prefix>/<org>/imports/<id>.csv` (nothing in the data folder), read by the
// job as a stream, deleted when the import ends; one that no import names is swept once an hour old;
// the 50 MB limit still answers 413 before anything is kept; S3 down answers 503 and queues nothing,
// and an import whose job cannot read its upload is left to go on later, not failed.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { parseImportForm } from "../../src/csv";
import { importPath, UNNAMED_FILE_AGE_MS } from "../../src/files/uploads";
import { newId } from "../../src/ids";
import { runImport, startImport, sweepImportFiles } from "../../src/services/imports";
import { call, filesUnder, makeOrg, until, type Org } from "../helpers";
import { keysUnder, startS3 } from "../helpers/s3";
import { appOn, ENGINES, rowCountsOf } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const s3 = await startS3();
const bucket = s3.client();

function upload(file: Blob, fields: Record<string, string>): FormData {
  const form = new FormData();
  form.append("file", file);
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
}

/** `rows` contacts, each row padded with an ignored column of `pad` bytes. */
function contactsCsv(rows: number, pad = 0): File {
  const filler = "x".repeat(pad);
  const batch = newId();
  const lines = ["full_name,email,filler"];
  for (let i = 0; i < rows; i++) lines.push(`Person ${i},person${i}.${batch}@example.com,${filler}`);
  return new File([lines.join("\r\n") + "\r\n"], "people.csv", { type: "text/csv" });
}

const contactsOnly = { resource: "contacts", mapping: JSON.stringify({ full_name: "full_name", email: "email" }) };

for (const engine of ENGINES) {
  describe(`import uploads on S3, ${engine} store (C19, C21)`, async () => {
    const prefix = `imports-${engine}`;
    const app = await appOn(engine, { env: s3.env(prefix), imports: true });
    const ctx = app.dossier;
    const org: Org = await makeOrg(app, { rateLimit: 1_000_000 });
    const uploads = () => keysUnder(bucket, `${prefix}/${org.id}/imports/`);
    const finished = (id: string) =>
      until(
        async () => {
          const { json } = await call(app, "GET", `/imports/${id}`, { key: org.key });
          return json.data.status !== "queued" && json.data.status !== "running" && json.data;
        },
        60_000,
        `import ${id} to finish`,
      );

    test("a queued import's file is the object <prefix>/<org>/imports/<id>.csv, byte for byte, and nothing is in the data folder", async () => {
      const file = contactsCsv(3);
      const started = await startImport(ctx, org.id, parseImportForm(Object.entries({ ...contactsOnly, file })), null);
      const key = `${prefix}/${importPath(org.id, started.id)}`;
      // The runner may already be reading it: the object is there until the import ends.
      const bytes = await bucket.file(key).bytes().catch(() => null);
      if (bytes !== null) expect(Buffer.compare(bytes, new Uint8Array(await file.arrayBuffer()))).toBe(0);
      expect(existsSync(join(ctx.filesDir, org.id, "imports"))).toBe(false);
      expect(await finished(started.id)).toMatchObject({ status: "succeeded", rows: 3, created: 3 });
      // Deleted just after the status says so (the record first, then the file).
      await until(async () => (await uploads()).length === 0, 60_000, "the import's object to be deleted");
      expect(filesUnder(ctx.filesDir)).toEqual([]);
    });

    test("a file of 12 MB (sent in parts) goes in whole through POST /imports, read from the bucket as a stream of chunks; its object is then deleted", async () => {
      const file = contactsCsv(600, 20_000);
      expect(file.size).toBeGreaterThan(12_000_000);
      const answer = await call(app, "POST", "/imports", { key: org.key, raw: upload(file, contactsOnly) });
      expect(answer.status, answer.text).toBe(202);
      expect(await finished(answer.json.data.id)).toMatchObject({ status: "succeeded", rows: 600, created: 600, failed: 0 });
      await until(async () => (await uploads()).length === 0, 60_000, "the import's object to be deleted");

      // What the job reads: the object's stream, never the file whole in one buffer.
      const path = importPath(org.id, newId());
      await ctx.files.imports.save(path, file);
      const source = await ctx.files.imports.source(path);
      expect(typeof source).toBe("function");
      let total = 0;
      let largest = 0;
      let chunks = 0;
      for await (const chunk of (source as () => AsyncIterable<Uint8Array>)()) {
        total += chunk.length;
        largest = Math.max(largest, chunk.length);
        chunks++;
      }
      expect(total).toBe(file.size);
      expect(chunks).toBeGreaterThan(1);
      expect(largest).toBeLessThan(file.size / 4);
      await ctx.files.imports.remove(path);
      expect(await ctx.files.imports.source(path)).toBeNull();
    });

    test("over 50 MB: 413 payload_too_large before anything is kept, no object, no import", async () => {
      const before = await rowCountsOf(app);
      const big = new File([new Uint8Array(50 * 1024 * 1024 + 1).fill(0x61)], "big.csv", { type: "text/csv" });
      const answer = await call(app, "POST", "/imports", { key: org.key, raw: upload(big, contactsOnly) });
      expect([answer.status, answer.json.error.code]).toEqual([413, "payload_too_large"]);
      expect(await uploads()).toEqual([]);
      expect(await rowCountsOf(app)).toEqual(before);
    });

    test("the sweep deletes uploads no import names once an hour old; a queued import's and a young one stay", async () => {
      const quiet = await appOn(engine, { env: s3.env(`${prefix}-quiet`), imports: false });
      const qorg = await makeOrg(quiet);
      const queued = await startImport(quiet.dossier, qorg.id, parseImportForm(Object.entries({ ...contactsOnly, file: contactsCsv(2) })), null);
      const orphan = `${prefix}-quiet/${importPath(qorg.id, newId())}`;
      const stray = `${prefix}-quiet/${qorg.id}/imports/leftover.tmp`;
      const cv = `${prefix}-quiet/${qorg.id}/dossiers/${newId()}/notes.txt`; // not an upload: left alone
      for (const key of [orphan, stray, cv]) await bucket.write(key, "full_name\nNobody\n");
      const all = () => keysUnder(bucket, `${prefix}-quiet/`);
      const queuedKey = `${prefix}-quiet/${importPath(qorg.id, queued.id)}`;
      expect(await sweepImportFiles(quiet.dossier)).toBe(0); // all young
      expect(await all()).toEqual([orphan, stray, cv, queuedKey].sort());
      const later = Date.now() + UNNAMED_FILE_AGE_MS + 60_000;
      expect(await sweepImportFiles(quiet.dossier, later)).toBe(2);
      expect(await all()).toEqual([cv, queuedKey].sort());
    });
  });
}

describe("S3 down (C9, C19)", async () => {
  const down = await startS3();
  const app = await appOn("sqlite", { env: down.env("imports"), imports: false });
  const org = await makeOrg(app);
  const queued = await startImport(app.dossier, org.id, parseImportForm(Object.entries({ ...contactsOnly, file: contactsCsv(2) })), null);
  await down.stop();

  test("a job that cannot read its upload leaves the import as it was (to go on later), not failed", async () => {
    await expect(runImport(app.dossier, org.id, queued.id)).rejects.toMatchObject({ code: "storage_unavailable" });
    const now = (await call(app, "GET", `/imports/${queued.id}`, { key: org.key })).json.data;
    expect(["queued", "running"]).toContain(now.status);
    expect(now.processed).toBe(0);
  });

  test("POST /imports: 503 storage_unavailable, nothing queued", async () => {
    const before = await rowCountsOf(app);
    const answer = await call(app, "POST", "/imports", { key: org.key, raw: upload(contactsCsv(2), contactsOnly) });
    expect([answer.status, answer.json.error.code]).toEqual([503, "storage_unavailable"]);
    expect(await rowCountsOf(app)).toEqual(before);
  });
});
