// CV storage (C1, C5): the temp-write, flush, rename-before-commit order, and the start-up sweep.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PDFDocument } from "pdf-lib";
import { cvUrl, isPdf } from "../../src/files";
import { foldersToSync, stageCv, sweepFiles } from "../../src/files/cv";
import { recordEvent } from "../../src/services/outbox";
import { call, filesUnder, makeApp, makeOrg } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const UUID = "0b7c5f9e-8d3a-4e21-9a6b-2f4c1d0e9a87";

async function pdf(): Promise<Uint8Array<ArrayBuffer>> {
  const doc = await PDFDocument.create();
  doc.addPage();
  return new Uint8Array(await doc.save());
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
  /** Each test's own app and organization, so no test sees a folder another one left. */
  async function ownOrg() {
    const app = makeApp();
    return { org: (await makeOrg(app)), ctx: app.dossier };
  }

  test("writes a temporary file beside the final one; place() renames it into place; nothing else remains", async () => {
    const { org, ctx } = await ownOrg();
    const bytes = await pdf();
    const staged = await stageCv(ctx, org.id, UUID, bytes);
    const folder = join(ctx.filesDir, org.id, "dossiers", UUID);
    expect(staged.url).toBe(cvUrl(org.id, UUID));
    expect(staged.url).toBe(`${org.id}/dossiers/${UUID}/cv.pdf`);
    const [temp, ...rest] = readdirSync(folder);
    expect(rest).toEqual([]);
    expect(temp).toMatch(/^\.cv\.pdf\.[A-Za-z0-9]+\.tmp$/);
    expect(new Uint8Array(readFileSync(join(folder, temp)))).toEqual(bytes);
    staged.place("evt_NeverRecorded0000000000000000");
    expect(readdirSync(folder)).toEqual(["cv.pdf"]);
    expect(new Uint8Array(readFileSync(join(folder, "cv.pdf")))).toEqual(bytes);
    await staged.discard(); // no such event: the transaction did not commit
    expect(existsSync(folder)).toBe(false); // the folder it made is gone with the file
  });

  test("discard() before place() removes the temporary file and the folder it created, not an existing one", async () => {
    const { org, ctx } = await ownOrg();
    const fresh = "1b7c5f9e-8d3a-4e21-9a6b-2f4c1d0e9a87";
    const staged = await stageCv(ctx, org.id, fresh, await pdf());
    await staged.discard();
    expect(existsSync(join(ctx.filesDir, org.id, "dossiers", fresh))).toBe(false);

    const existing = join(ctx.filesDir, org.id, "dossiers", UUID);
    mkdirSync(existing, { recursive: true });
    writeFileSync(join(existing, "cv.pdf"), "%PDF-old");
    const again = await stageCv(ctx, org.id, UUID, await pdf());
    await again.discard();
    expect(readdirSync(existing)).toEqual(["cv.pdf"]);
    expect(readFileSync(join(existing, "cv.pdf"), "utf8")).toBe("%PDF-old");
  });

  test("a transaction that throws after place() is rolled back; the caller's discard removes the placed file of a new dossier", async () => {
    const { org, ctx } = await ownOrg();
    const id = "2b7c5f9e-8d3a-4e21-9a6b-2f4c1d0e9a87";
    const staged = await stageCv(ctx, org.id, id, await pdf());
    await expect(
      ctx.store.write(async () => {
        staged.place((await recordEvent(ctx, org.id, "dossier.created", { id })));
        throw new Error("commit failed");
      }),
    ).rejects.toThrow("commit failed");
    await staged.discard();
    expect(existsSync(join(ctx.filesDir, org.id, "dossiers", id))).toBe(false);
  });
});

describe("replacing a CV: the committed file is kept aside until the transaction ends (C5, C7)", async () => {
  const app = makeApp();
  const org = await makeOrg(app);
  const ctx = app.dossier;
  const ASIDE = /^\.cv\.pdf\.evt_[A-Za-z0-9]+\.old$/;

  /** A dossier folder holding a committed cv.pdf "%PDF-old". */
  /** A transaction that places the CV and then fails, as a failing COMMIT would. */
  async function placeThenFail(staged: { place(eventId: string): void }, id: string) {
    await expect(
      ctx.store.write(async () => {
        staged.place((await recordEvent(ctx, org.id, "dossier.updated", { id })));
        throw new Error("commit failed");
      }),
    ).rejects.toThrow("commit failed");
  }

  function withOldCv(id: string) {
    const folder = join(ctx.filesDir, org.id, "dossiers", id);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "cv.pdf"), "%PDF-old");
    return folder;
  }

  test("C5: place() over an existing cv.pdf keeps the old file under a name carrying the event id; committed() removes that copy", async () => {
    const id = "4b7c5f9e-8d3a-4e21-9a6b-2f4c1d0e9a87";
    const folder = withOldCv(id);
    const staged = await stageCv(ctx, org.id, id, new TextEncoder().encode("%PDF-new"));
    let eventId = "";
    await ctx.store.write(async () => {
      eventId = await recordEvent(ctx, org.id, "dossier.updated", { id });
      staged.place(eventId);
      expect(readdirSync(folder).sort()).toEqual([`.cv.pdf.${eventId}.old`, "cv.pdf"]);
      expect(readFileSync(join(folder, `.cv.pdf.${eventId}.old`), "utf8")).toBe("%PDF-old");
      expect(readFileSync(join(folder, "cv.pdf"), "utf8")).toBe("%PDF-new");
    });
    staged.committed();
    expect(readdirSync(folder)).toEqual(["cv.pdf"]);
    expect(readFileSync(join(folder, "cv.pdf"), "utf8")).toBe("%PDF-new");
  });

  test("C5, C7: a transaction that fails after place() over an existing cv.pdf: discard() puts the old file back, nothing else remains", async () => {
    const id = "5b7c5f9e-8d3a-4e21-9a6b-2f4c1d0e9a87";
    const folder = withOldCv(id);
    const staged = await stageCv(ctx, org.id, id, new TextEncoder().encode("%PDF-new"));
    await placeThenFail(staged, id);
    await staged.discard();
    expect(readdirSync(folder)).toEqual(["cv.pdf"]);
    expect(readFileSync(join(folder, "cv.pdf"), "utf8")).toBe("%PDF-old");
  });

  test("C5: a transaction that fails after place() on a dossier without a CV: discard() removes the new file and the folder it made", async () => {
    const id = "6b7c5f9e-8d3a-4e21-9a6b-2f4c1d0e9a87";
    const staged = await stageCv(ctx, org.id, id, new TextEncoder().encode("%PDF-new"));
    await placeThenFail(staged, id);
    await staged.discard();
    expect(existsSync(join(ctx.filesDir, org.id, "dossiers", id))).toBe(false);
  });

  test("C5: discard() after a transaction that did commit (its event is recorded) keeps the new file and drops the copy", async () => {
    const id = "7b7c5f9e-8d3a-4e21-9a6b-2f4c1d0e9a87";
    const folder = withOldCv(id);
    const staged = await stageCv(ctx, org.id, id, new TextEncoder().encode("%PDF-new"));
    await ctx.store.write(async () => {
      staged.place((await recordEvent(ctx, org.id, "dossier.updated", { id })));
      expect(readdirSync(folder).filter((name) => ASIDE.test(name))).toHaveLength(1);
    });
    await staged.discard(); // e.g. something after the commit threw
    expect(readdirSync(folder)).toEqual(["cv.pdf"]);
    expect(readFileSync(join(folder, "cv.pdf"), "utf8")).toBe("%PDF-new");
  });
});

describe("D3: the new folders of a CV are flushed in their parents (C1, C5)", () => {
  test("foldersToSync: the parent of each folder stageCv must create, outermost first; none when the dossier's folder exists", async () => {
    const app = makeApp();
    const org = await makeOrg(app);
    const base = app.dossier.filesDir;
    const id = "9b7c5f9e-8d3a-4e21-9a6b-2f4c1d0e9a87";
    const dossierDir = join(base, org.id, "dossiers", id);
    expect(foldersToSync(base, dossierDir)).toEqual([base, join(base, org.id), join(base, org.id, "dossiers")]);
    mkdirSync(join(base, org.id), { recursive: true });
    expect(foldersToSync(base, dossierDir)).toEqual([join(base, org.id), join(base, org.id, "dossiers")]);
    mkdirSync(join(base, org.id, "dossiers"));
    expect(foldersToSync(base, dossierDir)).toEqual([join(base, org.id, "dossiers")]);
    mkdirSync(dossierDir);
    expect(foldersToSync(base, dossierDir)).toEqual([]);
  });

  test("stageCv in a new organization's folder creates (and flushes) the whole chain; discard removes only the dossier's folder", async () => {
    const app = makeApp();
    const org = await makeOrg(app);
    const base = app.dossier.filesDir;
    const id = "ab7c5f9e-8d3a-4e21-9a6b-2f4c1d0e9a87";
    const dossierDir = join(base, org.id, "dossiers", id);
    expect(foldersToSync(base, dossierDir)).toHaveLength(3);
    const staged = await stageCv(app.dossier, org.id, id, await pdf());
    expect(foldersToSync(base, dossierDir)).toEqual([]);
    expect(readdirSync(dossierDir)).toHaveLength(1);
    await staged.discard();
    expect(existsSync(dossierDir)).toBe(false);
    expect(existsSync(join(base, org.id, "dossiers"))).toBe(true);
  });
});

describe("sweepFiles: the start-up sweep (C5)", () => {
  test("removes temporary files and CV files no dossier points at, keeps the pointed ones and files outside the layout", async () => {
    const app = makeApp();
    const org = await makeOrg(app);
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
    const other = await makeOrg(app);
    const theirs = (await call(app, "POST", "/dossiers", { key: other.key, body: { type: "candidate", name: "Theirs" } })).json.data;
    await call(app, "POST", `/dossiers/${theirs.id}/cv`, { key: other.key, raw: bytes, contentType: "application/pdf" });
    mkdirSync(join(ctx.filesDir, org.id, "dossiers", theirs.id), { recursive: true });
    writeFileSync(join(ctx.filesDir, org.id, "dossiers", theirs.id, "cv.pdf"), "%PDF-misplaced");
    // Things outside the layout are not ours to remove.
    writeFileSync(join(ctx.filesDir, "README"), "operator's note");
    writeFileSync(join(keptDir, "notes.txt"), "left alone");

    expect((await sweepFiles(ctx))).toEqual({ temporary: 2, orphans: 3, restored: 0 });
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
    expect((await sweepFiles(ctx))).toEqual({ temporary: 0, orphans: 0, restored: 0 });
  });

  test("C5, C7: a crash while a replacement was in flight: a copy kept aside for a transaction that never committed is put back as cv.pdf", async () => {
    const app = makeApp();
    const org = await makeOrg(app);
    const ctx = app.dossier;
    const one = new TextEncoder().encode("%PDF-1.4 ONE");
    // Two dossiers with a committed CV "ONE".
    const ids: string[] = [];
    for (const name of ["Renamed", "Linked"]) {
      const d = (await call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name } })).json.data;
      expect((await call(app, "POST", `/dossiers/${d.id}/cv`, { key: org.key, raw: one, contentType: "application/pdf" })).status).toBe(200);
      ids.push(d.id);
    }
    const [renamed, linked] = ids.map((id) => join(ctx.filesDir, org.id, "dossiers", id));
    // Crash after the new file was renamed into place, before the commit: cv.pdf is "TWO", the copy is "ONE".
    writeFileSync(join(renamed, ".cv.pdf.evt_NeverCommitted000000000000000.old"), one);
    writeFileSync(join(renamed, "cv.pdf"), "%PDF-1.4 TWO");
    writeFileSync(join(renamed, ".cv.pdf.abc123.tmp"), "%PDF-1.4 TWO");
    // Crash after the copy was made, before the rename: both names are links to the one file "ONE".
    linkSync(join(linked, "cv.pdf"), join(linked, ".cv.pdf.evt_NeverCommitted111111111111111.old"));

    expect((await sweepFiles(ctx))).toEqual({ temporary: 1, orphans: 0, restored: 2 });
    for (const [folder, id] of [[renamed, ids[0]], [linked, ids[1]]]) {
      expect(readdirSync(folder)).toEqual(["cv.pdf"]);
      const response = await app.handle(new Request(`http://localhost/api/v1/dossiers/${id}/cv`, { headers: { authorization: `Bearer ${org.key}` } }));
      expect(await response.text()).toBe("%PDF-1.4 ONE");
    }
    expect((await sweepFiles(ctx))).toEqual({ temporary: 0, orphans: 0, restored: 0 });
  });

  test("C5: a crash after the commit, before the copy was removed: the copy is garbage, the new cv.pdf stays", async () => {
    const app = makeApp();
    const org = await makeOrg(app);
    const ctx = app.dossier;
    const d = (await call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "Committed" } })).json.data;
    await call(app, "POST", `/dossiers/${d.id}/cv`, { key: org.key, raw: new TextEncoder().encode("%PDF-1.4 ONE"), contentType: "application/pdf" });
    await call(app, "POST", `/dossiers/${d.id}/cv`, { key: org.key, raw: new TextEncoder().encode("%PDF-1.4 TWO"), contentType: "application/pdf" });
    const last = ctx.store.sqlite.query<{ id: string }, [string]>(`SELECT id FROM events WHERE organization_id = ? ORDER BY seq DESC LIMIT 1`).get(org.id)!;
    const folder = join(ctx.filesDir, org.id, "dossiers", d.id);
    writeFileSync(join(folder, `.cv.pdf.${last.id}.old`), "%PDF-1.4 ONE");
    expect((await sweepFiles(ctx))).toEqual({ temporary: 1, orphans: 0, restored: 0 });
    expect(readdirSync(folder)).toEqual(["cv.pdf"]);
    expect(readFileSync(join(folder, "cv.pdf"), "utf8")).toBe("%PDF-1.4 TWO");
  });

  test("an empty or missing files folder is fine", async () => {
    const app = makeApp();
    expect((await sweepFiles(app.dossier))).toEqual({ temporary: 0, orphans: 0, restored: 0 });
  });
});
