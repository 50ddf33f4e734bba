// CV storage (C1, C5): the temp-write, flush, rename-before-commit order, and the start-up sweep.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PDFDocument } from "pdf-lib";
import { transact } from "../../src/context";
import { cvUrl, isPdf, stageCv, sweepFiles } from "../../src/files/cv";
import { call, makeApp, makeOrg } from "../helpers";

const UUID = "0b7c5f9e-8d3a-4e21-9a6b-2f4c1d0e9a87";

async function pdf(): Promise<Uint8Array<ArrayBuffer>> {
  const doc = await PDFDocument.create();
  doc.addPage();
  return new Uint8Array(await doc.save());
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.push(path.slice(dir.length + 1));
    }
  };
  walk(dir);
  return out.sort();
}

describe("isPdf (C5)", () => {
  test.each<[string, string, boolean]>([
    ["a PDF header", "%PDF-1.7\n", true],
    ["just the magic", "%PDF-", true],
    ["too short", "%PDF", false],
    ["lower case", "%pdf-1.4", false],
    ["leading blank", " %PDF-1.4", false],
    ["empty", "", false],
  ])("%s → %p", (_name, text, expected) => {
    expect(isPdf(new TextEncoder().encode(text))).toBe(expected);
  });
});

describe("stageCv (C5)", () => {
  const app = makeApp();
  const org = makeOrg(app);
  const ctx = app.dossier;

  test("writes a temporary file beside the final one; place() renames it into place; nothing else remains", async () => {
    const bytes = await pdf();
    const staged = await stageCv(ctx, org.id, UUID, bytes);
    const folder = join(ctx.filesDir, org.id, "dossiers", UUID);
    expect(staged.url).toBe(cvUrl(org.id, UUID));
    expect(staged.url).toBe(`${org.id}/dossiers/${UUID}/cv.pdf`);
    const [temp, ...rest] = readdirSync(folder);
    expect(rest).toEqual([]);
    expect(temp).toMatch(/^\.cv\.pdf\.[A-Za-z0-9]+\.tmp$/);
    expect(new Uint8Array(readFileSync(join(folder, temp)))).toEqual(bytes);
    staged.place();
    expect(readdirSync(folder)).toEqual(["cv.pdf"]);
    expect(new Uint8Array(readFileSync(join(folder, "cv.pdf")))).toEqual(bytes);
    staged.discard({ placed: true });
    expect(existsSync(folder)).toBe(false); // the folder it made is gone with the file
  });

  test("discard() before place() removes the temporary file and the folder it created, not an existing one", async () => {
    const fresh = "1b7c5f9e-8d3a-4e21-9a6b-2f4c1d0e9a87";
    const staged = await stageCv(ctx, org.id, fresh, await pdf());
    staged.discard();
    expect(existsSync(join(ctx.filesDir, org.id, "dossiers", fresh))).toBe(false);

    const existing = join(ctx.filesDir, org.id, "dossiers", UUID);
    mkdirSync(existing, { recursive: true });
    writeFileSync(join(existing, "cv.pdf"), "%PDF-old");
    const again = await stageCv(ctx, org.id, UUID, await pdf());
    again.discard();
    expect(readdirSync(existing)).toEqual(["cv.pdf"]);
    expect(readFileSync(join(existing, "cv.pdf"), "utf8")).toBe("%PDF-old");
  });

  test("a transaction that throws after place() is rolled back; the caller's discard removes the placed file of a new dossier", async () => {
    const id = "2b7c5f9e-8d3a-4e21-9a6b-2f4c1d0e9a87";
    const staged = await stageCv(ctx, org.id, id, await pdf());
    expect(() =>
      transact(ctx, () => {
        staged.place();
        throw new Error("commit failed");
      }),
    ).toThrow("commit failed");
    staged.discard({ placed: true });
    expect(existsSync(join(ctx.filesDir, org.id, "dossiers", id))).toBe(false);
  });
});

describe("sweepFiles: the start-up sweep (C5)", () => {
  test("removes temporary files and CV files no dossier points at, keeps the pointed ones and files outside the layout", async () => {
    const app = makeApp();
    const org = makeOrg(app);
    const ctx = app.dossier;
    const bytes = await pdf();
    const kept = (await call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "Kept" } })).json.data;
    await call(app, "POST", `/dossiers/${kept.id}/cv`, { key: org.key, raw: bytes, contentType: "application/pdf" });
    const noCv = (await call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "No CV" } })).json.data;
    const keptDir = join(ctx.filesDir, org.id, "dossiers", kept.id);
    // A crash mid-upload: a temporary file beside the real CV.
    writeFileSync(join(keptDir, ".cv.pdf.abcDEF123.tmp"), "%PDF-half");
    // A crash between rename and commit: a CV for a dossier that does not point at it.
    mkdirSync(join(ctx.filesDir, org.id, "dossiers", noCv.id), { recursive: true });
    writeFileSync(join(ctx.filesDir, org.id, "dossiers", noCv.id, "cv.pdf"), "%PDF-orphan");
    // A CV for a dossier that never committed, in an organization with no other file.
    const stray = join(ctx.filesDir, "3c7c5f9e-8d3a-4e21-9a6b-2f4c1d0e9a87", "dossiers", UUID);
    mkdirSync(stray, { recursive: true });
    writeFileSync(join(stray, "cv.pdf"), "%PDF-orphan");
    writeFileSync(join(stray, ".cv.pdf.zz.tmp"), "%PDF-");
    // Another organization's dossier id under this organization's folder is not pointed at either.
    const other = makeOrg(app);
    const theirs = (await call(app, "POST", "/dossiers", { key: other.key, body: { type: "candidate", name: "Theirs" } })).json.data;
    await call(app, "POST", `/dossiers/${theirs.id}/cv`, { key: other.key, raw: bytes, contentType: "application/pdf" });
    mkdirSync(join(ctx.filesDir, org.id, "dossiers", theirs.id), { recursive: true });
    writeFileSync(join(ctx.filesDir, org.id, "dossiers", theirs.id, "cv.pdf"), "%PDF-misplaced");
    // Things outside the layout are not ours to remove.
    writeFileSync(join(ctx.filesDir, "README"), "operator's note");
    writeFileSync(join(keptDir, "notes.txt"), "left alone");

    expect(sweepFiles(ctx)).toEqual({ temporary: 2, orphans: 3 });
    expect(filesUnder(ctx.filesDir)).toEqual([
      "README",
      `${org.id}/dossiers/${kept.id}/cv.pdf`,
      `${org.id}/dossiers/${kept.id}/notes.txt`,
      `${other.id}/dossiers/${theirs.id}/cv.pdf`,
    ].sort());
    expect(existsSync(join(ctx.filesDir, "3c7c5f9e-8d3a-4e21-9a6b-2f4c1d0e9a87"))).toBe(false); // emptied folders go
    expect(existsSync(join(ctx.filesDir, org.id, "dossiers", noCv.id))).toBe(false);
    expect(new Uint8Array(readFileSync(join(keptDir, "cv.pdf")))).toEqual(bytes);
    // The kept CV is still served, and a second sweep finds nothing.
    const response = await app.handle(new Request(`http://localhost/api/v1/dossiers/${kept.id}/cv`, { headers: { authorization: `Bearer ${org.key}` } }));
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes);
    expect(sweepFiles(ctx)).toEqual({ temporary: 0, orphans: 0 });
  });

  test("an empty or missing files folder is fine", () => {
    const app = makeApp();
    expect(sweepFiles(app.dossier)).toEqual({ temporary: 0, orphans: 0 });
  });
});
