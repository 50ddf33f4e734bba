// CVs: multipart POST /dossiers with `cv`, POST and GET /dossiers/{id}/cv (api-v1 "Dossiers",
// "Limits"; C5, C8, C9, C10: atomicity, sizes, media types, order of checks, no file left behind).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import type { DossierApp } from "../../src/app";
import type { Store } from "../../src/db/store";
import { call, filesUnder, makeApp, makeKey, makeOrg, rowCounts, type Org } from "../helpers";
import { ENGINES, appOn, queryRows, rowCountsOf } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const MB10 = 10_485_760;
const MB11 = 11_534_336;
const UUID = "0b7c5f9e-8d3a-4e21-9a6b-2f4c1d0e9a87";

async function realPdf(text: string): Promise<Uint8Array<ArrayBuffer>> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage().drawText(text, { x: 50, y: 700, size: 18, font });
  doc.setTitle(`CV of ${text}`);
  return new Uint8Array(await doc.save());
}

/** A body of `size` bytes that begins like a PDF. */
function pdfLike(size: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  bytes.set(new TextEncoder().encode("%PDF-1.7\n"));
  return bytes;
}


async function eventsOf(app: DossierApp<Store>, org: Org) {
  return (await queryRows<{ type: string; body: string }>(app, `SELECT type, body FROM events WHERE organization_id = ? ORDER BY seq`, org.id))
    .map((row) => ({ type: row.type, body: JSON.parse(row.body) }));
}

function form(fields: Record<string, string | Blob>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

const pdfFile = (bytes: Uint8Array, name = "cv.pdf") => new File([bytes], name, { type: "application/pdf" });

async function download(app: DossierApp<Store>, key: string, id: string) {
  const response = await app.handle(new Request(`http://localhost/api/v1/dossiers/${id}/cv`, { headers: { authorization: `Bearer ${key}` } }));
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

async function expectRejected(app: DossierApp<Store>, request: () => Promise<{ status: number; json: any }>, status: number, code: string) {
  const before = await rowCountsOf(app);
  const files = filesUnder(app.dossier.filesDir);
  const answer = await request();
  expect([answer.status, answer.json?.error?.code]).toEqual([status, code]);
  // `param` names the form field at fault, when one is (issue 38).
  expect(answer.json).toEqual({ error: expect.objectContaining({ code, message: expect.any(String) }) });
  expect(await rowCountsOf(app)).toEqual(before);
  expect(filesUnder(app.dossier.filesDir)).toEqual(files);
  return answer;
}

describe.each(ENGINES)("C5: multipart POST /dossiers on %s", async (engine) => {
  const app = await appOn(engine);
  const org = await makeOrg(app, { rateLimit: 1_000_000 });
  const post = (data: FormData | Uint8Array, contentType?: string) => call(app, "POST", "/dossiers", { key: org.key, raw: data, contentType });

  test("a CV made by pdf-lib round-trips byte for byte: on disk at <org>/dossiers/<id>/cv.pdf and through GET /dossiers/{id}/cv", async () => {
    const pdf = await realPdf("Ada Lovelace");
    const answer = await post(form({ type: "candidate", name: "Ada", email: "ada@example.com", cv: pdfFile(pdf) }));
    expect(answer.status).toBe(201);
    const d = answer.json.data;
    expect(d.cv_url).toBe(`${org.id}/dossiers/${d.id}/cv.pdf`);
    expect(d).toMatchObject({ type: "candidate", name: "Ada", email: "ada@example.com", status: "active" });
    expect(new Uint8Array(readFileSync(join(app.dossier.filesDir, d.cv_url)))).toEqual(pdf);
    expect(filesUnder(app.dossier.filesDir)).toEqual([d.cv_url]); // no temporary file left
    const { response, bytes } = await download(app, org.key, d.id);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="cv.pdf"');
    expect(response.headers.get("x-request-id")).toBeTruthy();
    expect(bytes).toEqual(pdf);
    expect((await PDFDocument.load(bytes)).getTitle()).toBe("CV of Ada Lovelace");
    const created = (await eventsOf(app, org)).at(-1)!;
    expect(created.type).toBe("dossier.created");
    expect(created.body.data).toEqual(d);
  });

  test("C10: the same fields as form fields; numbers as decimal strings; an empty string is an absent field; no cv is fine", async () => {
    const answer = await post(form({
      type: "sales", name: " Deal ", email: "", phone: "", company: "Acme", deal_size: "1250.75", deal_currency: "EUR",
      contact_person: "", intake_notes: "hello", flow_id: "", contact_id: "", assigned_to: UUID,
    }));
    expect(answer.status).toBe(201);
    expect(answer.json.data).toMatchObject({
      name: "Deal", email: null, phone: null, company: "Acme", deal_size: 1250.75, deal_currency: "EUR", contact_person: null,
      intake_notes: "hello", assigned_to: UUID, cv_url: null,
    });
  });

  test("a browser's empty file input (no file name, no bytes) counts as no CV", async () => {
    const answer = await post(form({ type: "candidate", name: "No file", cv: new File([], "") }));
    expect(answer.status).toBe(201);
    expect(answer.json.data.cv_url).toBeNull();
  });

  // The last column: what the message must name ("" for nothing).
  const cases: [string, () => Promise<FormData | Uint8Array> | FormData | Uint8Array, number, string, string][] = [
    ["cv not a PDF", () => form({ type: "candidate", name: "A", cv: new File(["hello"], "cv.pdf") }), 400, "invalid_body", "cv"],
    ["cv empty file with a name", () => form({ type: "candidate", name: "A", cv: new File([], "cv.pdf") }), 400, "invalid_body", "cv"],
    ["cv sent as text", () => form({ type: "candidate", name: "A", cv: "%PDF-1.4" }), 400, "invalid_body", "cv"],
    ["cv over 10 MB", () => form({ type: "candidate", name: "A", cv: pdfFile(pdfLike(MB10 + 1)) }), 413, "file_too_large", ""],
    ["body over 11 MB", () => form({ type: "candidate", name: "A", cv: pdfFile(pdfLike(MB11 + 1)) }), 413, "file_too_large", ""],
    ["body over 11 MB whatever its fields", () => form({ bogus: "x", cv: "x".repeat(MB11 + 1) }), 413, "file_too_large", ""],
    ["unknown form field", async () => form({ type: "candidate", name: "A", colour: "red", cv: pdfFile(await realPdf("x")) }), 400, "invalid_body", "colour"],
    ["a field given twice", async () => { const f = form({ type: "candidate", name: "A" }); f.append("name", "B"); return f; }, 400, "invalid_body", "name"],
    ["a text field sent as a file", () => form({ type: "candidate", name: new File(["A"], "name.txt") }), 400, "invalid_body", "name"],
    ["type missing", async () => form({ name: "A", cv: pdfFile(await realPdf("x")) }), 400, "invalid_body", "type"],
    ["name only blanks", async () => form({ type: "candidate", name: "  ", cv: pdfFile(await realPdf("x")) }), 400, "invalid_body", "name"],
    ["deal_size not a decimal", () => form({ type: "sales", name: "A", deal_size: "ten" }), 400, "invalid_body", "deal_size"],
    ["deal_size negative", () => form({ type: "sales", name: "A", deal_size: "-3" }), 400, "invalid_body", "deal_size"],
    ["sales-only field on a candidate, with a CV", async () => form({ type: "candidate", name: "A", deal_currency: "EUR", cv: pdfFile(await realPdf("x")) }), 400, "invalid_body", "deal_currency"],
    ["flow_id unknown, with a CV (checked after the file is staged)", async () => form({ type: "candidate", name: "A", flow_id: UUID, cv: pdfFile(await realPdf("x")) }), 404, "not_found", "flow_id"],
    ["contact_id unknown, with a CV", async () => form({ type: "candidate", name: "A", contact_id: UUID, cv: pdfFile(await realPdf("x")) }), 404, "not_found", "contact_id"],
    ["a broken multipart body", () => new TextEncoder().encode("--x\r\nnonsense"), 400, "invalid_body", ""],
  ];
  test.each(cases)("C5, C10: %s → %i %s; no dossier, contact, event or file", async (_name, make, status, code, field) => {
    const body = await make();
    const contentType = body instanceof Uint8Array ? "multipart/form-data; boundary=x" : undefined;
    const answer = await expectRejected(app, () => post(body, contentType), status, code);
    if (field) expect(answer.json.error.message).toContain(field);
  });

  test("C5: a failed create leaves no folder for the dossier either", async () => {
    await post(form({ type: "candidate", name: "A", flow_id: UUID, cv: pdfFile(await realPdf("x")) }));
    const dossiersDir = join(app.dossier.filesDir, org.id, "dossiers");
    const ids = new Set((await queryRows<{ id: string }>(app, `SELECT id FROM dossiers`)).map((r) => r.id));
    for (const name of readdirSync(dossiersDir)) expect(ids.has(name)).toBe(true);
  });
});

describe.each(ENGINES)("C5: POST /dossiers/{id}/cv on %s", async (engine) => {
  const app = await appOn(engine);
  const org = await makeOrg(app, { rateLimit: 1_000_000 });
  const other = await makeOrg(app);
  const newDossier = async () => (await call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "With CV" } })).json.data;
  const upload = (id: string, raw: FormData | Uint8Array | string | undefined, contentType?: string, key = org.key) =>
    call(app, "POST", `/dossiers/${id}/cv`, { key, raw, contentType });

  test("raw application/pdf: answers the whole updated dossier; dossier.updated with previous_attributes {cv_url: null}", async () => {
    const d = await newDossier();
    const pdf = await realPdf("Raw upload");
    const n = (await eventsOf(app, org)).length;
    const answer = await upload(d.id, pdf, "application/pdf");
    expect(answer.status).toBe(200);
    const after = answer.json.data;
    expect(after).toEqual({ ...d, cv_url: `${org.id}/dossiers/${d.id}/cv.pdf`, updated_at: expect.any(String) });
    const events = (await eventsOf(app, org)).slice(n);
    expect(events.map((e) => e.type)).toEqual(["dossier.updated"]);
    expect(events[0].body.data).toEqual(after);
    expect(events[0].body.previous_attributes).toEqual({ cv_url: null });
    expect((await download(app, org.key, d.id)).bytes).toEqual(pdf);
    expect(new Uint8Array(readFileSync(join(app.dossier.filesDir, after.cv_url)))).toEqual(pdf);
  });

  test("multipart: a new CV replaces the old one; previous_attributes carries the old cv_url (the same path)", async () => {
    const d = await newDossier();
    const first = await realPdf("First");
    const second = await realPdf("Second, longer than the first");
    expect((await upload(d.id, form({ cv: pdfFile(first) }))).status).toBe(200);
    const n = (await eventsOf(app, org)).length;
    const answer = await upload(d.id, form({ cv: pdfFile(second, "other-name.pdf") }));
    expect(answer.status).toBe(200);
    const url = `${org.id}/dossiers/${d.id}/cv.pdf`;
    expect(answer.json.data.cv_url).toBe(url);
    expect((await eventsOf(app, org)).slice(n).map((e) => [e.type, e.body.previous_attributes])).toEqual([["dossier.updated", { cv_url: url }]]);
    expect((await download(app, org.key, d.id)).bytes).toEqual(second);
    expect(readdirSync(join(app.dossier.filesDir, org.id, "dossiers", d.id))).toEqual(["cv.pdf"]);
  });

  test("C10: an archived dossier takes a CV", async () => {
    const d = await newDossier();
    await call(app, "DELETE", `/dossiers/${d.id}`, { key: org.key });
    const answer = await upload(d.id, await realPdf("Archived"), "application/pdf");
    expect(answer.status).toBe(200);
    expect(answer.json.data.status).toBe("archived");
  });

  test("exactly 10 MB is accepted", async () => {
    const d = await newDossier();
    expect((await upload(d.id, pdfLike(MB10), "application/pdf")).status).toBe(200);
    expect(statSync(join(app.dossier.filesDir, org.id, "dossiers", d.id, "cv.pdf")).size).toBe(MB10);
  });

  const cases: [string, () => Promise<[FormData | Uint8Array | string | undefined, string?]>, number, string][] = [
    ["raw body not a PDF", async () => [new TextEncoder().encode("hello"), "application/pdf"], 400, "invalid_body"],
    ["raw body empty", async () => [new Uint8Array(), "application/pdf"], 400, "invalid_body"],
    ["raw body over 10 MB", async () => [pdfLike(MB10 + 1), "application/pdf"], 413, "file_too_large"],
    ["multipart file not a PDF", async () => [form({ cv: new File(["GIF89a"], "cv.pdf") })], 400, "invalid_body"],
    ["multipart without cv", async () => [form({ other: "x" })], 400, "invalid_body"],
    ["multipart with another field beside cv", async () => [form({ cv: pdfFile(await realPdf("x")), name: "x" })], 400, "invalid_body"],
    ["multipart cv as text", async () => [form({ cv: "%PDF-1.4" })], 400, "invalid_body"],
    ["multipart cv twice", async () => { const f = form({ cv: pdfFile(await realPdf("x")) }); f.append("cv", pdfFile(await realPdf("y"))); return [f]; }, 400, "invalid_body"],
    ["multipart file over 10 MB", async () => [form({ cv: pdfFile(pdfLike(MB10 + 1)) })], 413, "file_too_large"],
    ["multipart body over 11 MB", async () => [form({ cv: pdfFile(pdfLike(MB11 + 10)) })], 413, "file_too_large"],
    ["Content-Type text/plain", async () => ["%PDF-1.4", "text/plain"], 415, "unsupported_media_type"],
    ["Content-Type application/json", async () => [JSON.stringify({ cv: "x" }), "application/json"], 415, "unsupported_media_type"],
    ["Content-Type application/octet-stream", async () => [await realPdf("x"), "application/octet-stream"], 415, "unsupported_media_type"],
    ["no Content-Type", async () => [undefined], 415, "unsupported_media_type"],
  ];
  test.each(cases)("C5, C9: %s → %i %s; the dossier, its CV file, events and rows unchanged", async (_name, make, status, code) => {
    const d = await newDossier();
    const old = await realPdf("Old CV");
    await upload(d.id, old, "application/pdf");
    const before = (await call(app, "GET", `/dossiers/${d.id}`, { key: org.key })).json.data;
    const [raw, contentType] = await make();
    await expectRejected(app, () => upload(d.id, raw, contentType), status, code);
    expect((await call(app, "GET", `/dossiers/${d.id}`, { key: org.key })).json.data).toEqual(before);
    expect((await download(app, org.key, d.id)).bytes).toEqual(old);
  });

  test("C3, C10: order of checks: 404 for an unknown or another organization's dossier comes before 415, 400 and 413", async () => {
    const theirs = (await call(app, "POST", "/dossiers", { key: other.key, body: { type: "candidate", name: "Theirs" } })).json.data;
    for (const id of [UUID, "nope", theirs.id]) {
      await expectRejected(app, () => upload(id, "text", "text/plain"), 404, "not_found");
      await expectRejected(app, () => upload(id, "not a pdf", "application/pdf"), 404, "not_found");
      await expectRejected(app, () => upload(id, pdfLike(1000), "application/pdf"), 404, "not_found");
    }
    const reader = await makeKey(app, org, ["dossiers:read"]);
    await expectRejected(app, () => upload(UUID, "x", "text/plain", reader), 403, "forbidden");
  });

  test("C5: a rename that fails inside the transaction rolls it back: no event, cv_url unchanged, no temporary file", async () => {
    const d = await newDossier();
    const folder = join(app.dossier.filesDir, org.id, "dossiers", d.id);
    mkdirSync(join(folder, "cv.pdf"), { recursive: true }); // a folder where the file should go: rename fails
    writeFileSync(join(folder, "cv.pdf", "keep"), "x");
    const before = await rowCountsOf(app);
    const answer = await upload(d.id, await realPdf("Blocked"), "application/pdf");
    expect(answer.status).toBe(500);
    expect(await rowCountsOf(app)).toEqual(before);
    expect((await call(app, "GET", `/dossiers/${d.id}`, { key: org.key })).json.data.cv_url).toBeNull();
    expect(readdirSync(folder)).toEqual(["cv.pdf"]);
  });
});

describe.each(ENGINES)("C5: GET /dossiers/{id}/cv on %s", async (engine) => {
  const app = await appOn(engine);
  const org = await makeOrg(app);
  const other = await makeOrg(app);

  test("404 not_found when the dossier has no CV, is unknown, or is another organization's", async () => {
    const d = (await call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "No CV" } })).json.data;
    const theirs = (await call(app, "POST", "/dossiers", { key: other.key, body: { type: "candidate", name: "Theirs" } })).json.data;
    await call(app, "POST", `/dossiers/${theirs.id}/cv`, { key: other.key, raw: await realPdf("theirs"), contentType: "application/pdf" });
    for (const id of [d.id, UUID, "nope", theirs.id]) {
      const answer = await call(app, "GET", `/dossiers/${id}/cv`, { key: org.key });
      expect([id, answer.status, answer.json.error.code]).toEqual([id, 404, "not_found"]);
    }
    expect((await download(app, other.key, theirs.id)).response.status).toBe(200);
  });

  test("api-v1 Authentication: needs dossiers:read", async () => {
    const writer = await makeKey(app, org, ["notes:read"]);
    expect((await call(app, "GET", `/dossiers/${UUID}/cv`, { key: writer })).status).toBe(403);
  });
});

// A failure at COMMIT, after place(): a deferred foreign key that a trigger breaks is checked only
// then. The trap is set and removed around each request, so that the setup's uploads commit.
// On SQLite alone: the failing COMMIT is a deferred foreign key of SQLite's (a trigger of its dialect).
describe("C5, C7: a CV upload whose COMMIT fails leaves the files as they were and emits nothing", async () => {
  const app = makeApp();
  const org = await makeOrg(app, { rateLimit: 1_000_000 });
  const { sqlite } = app.dossier.store;
  sqlite.run(`CREATE TABLE commit_trap (x TEXT REFERENCES organizations(id) DEFERRABLE INITIALLY DEFERRED)`);
  const armed = async <T>(request: () => Promise<T>): Promise<T> => {
    sqlite.run(`CREATE TRIGGER commit_trap_cv AFTER UPDATE OF cv_url ON dossiers BEGIN INSERT INTO commit_trap VALUES ('no-such-org'); END`);
    sqlite.run(`CREATE TRIGGER commit_trap_new AFTER INSERT ON dossiers WHEN NEW.cv_url IS NOT NULL BEGIN INSERT INTO commit_trap VALUES ('no-such-org'); END`);
    try {
      return await request();
    } finally {
      sqlite.run(`DROP TRIGGER commit_trap_cv`);
      sqlite.run(`DROP TRIGGER commit_trap_new`);
    }
  };
  const newDossier = async (name: string) => (await call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name } })).json.data;
  const upload = (id: string, text: string) =>
    call(app, "POST", `/dossiers/${id}/cv`, { key: org.key, raw: new TextEncoder().encode(text), contentType: "application/pdf" });

  test("C5: the first CV of a dossier, commit failing → 500; cv_url stays null, no event, no cv.pdf (nor folder) left on disk", async () => {
    const d = await newDossier("First CV");
    const rows = rowCounts(app);
    const files = filesUnder(app.dossier.filesDir);
    const answer = await armed(() => upload(d.id, "%PDF-1.4 ONE"));
    expect([answer.status, answer.json.error.code]).toEqual([500, "internal"]);
    expect(rowCounts(app)).toEqual(rows);
    expect(filesUnder(app.dossier.filesDir)).toEqual(files);
    expect(existsSync(join(app.dossier.filesDir, org.id, "dossiers", d.id))).toBe(false);
    expect((await call(app, "GET", `/dossiers/${d.id}`, { key: org.key })).json.data).toEqual(d);
    expect((await call(app, "GET", `/dossiers/${d.id}/cv`, { key: org.key })).status).toBe(404);
  });

  test("C5, C7: replacing a committed CV, commit failing → 500, no event; GET /cv still answers the old file; only cv.pdf in the folder", async () => {
    const d = await newDossier("Replaced CV");
    const first = await upload(d.id, "%PDF-1.4 ONE");
    expect(first.status).toBe(200);
    const rows = rowCounts(app);
    const answer = await armed(() => upload(d.id, "%PDF-1.4 TWO"));
    expect(answer.status).toBe(500);
    expect(rowCounts(app)).toEqual(rows);
    expect((await call(app, "GET", `/dossiers/${d.id}`, { key: org.key })).json.data).toEqual(first.json.data);
    expect(new TextDecoder().decode((await download(app, org.key, d.id)).bytes)).toBe("%PDF-1.4 ONE");
    expect(readdirSync(join(app.dossier.filesDir, org.id, "dossiers", d.id))).toEqual(["cv.pdf"]);
    // The next upload, committing, replaces it and leaves no copy behind.
    expect((await upload(d.id, "%PDF-1.4 THREE")).status).toBe(200);
    expect(new TextDecoder().decode((await download(app, org.key, d.id)).bytes)).toBe("%PDF-1.4 THREE");
    expect(readdirSync(join(app.dossier.filesDir, org.id, "dossiers", d.id))).toEqual(["cv.pdf"]);
  });

  test("C5: a multipart create with a CV, commit failing → 500; no row of any kind, no file, no folder", async () => {
    const rows = rowCounts(app);
    const files = filesUnder(app.dossier.filesDir);
    const data = form({ type: "candidate", name: "Created", email: "created@example.com", cv: pdfFile(new TextEncoder().encode("%PDF-1.4 NEW")) });
    const answer = await armed(() => call(app, "POST", "/dossiers", { key: org.key, raw: data }));
    expect(answer.status).toBe(500);
    expect(rowCounts(app)).toEqual(rows);
    expect(filesUnder(app.dossier.filesDir)).toEqual(files);
  });
});
