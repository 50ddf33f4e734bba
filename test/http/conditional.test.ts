// Conditional requests (C16, C20 "ETag", "412 in C3's order"): a strong ETag on one dossier or
// contact, If-Match on PATCH, DELETE and a CV upload (412, nothing changed), If-None-Match on GET (304).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { DossierApp } from "../../src/app";
import type { Store } from "../../src/db/store";
import { call, filesUnder, makeOrg } from "../helpers";
import { ENGINES, appOn, queryRows, rowCountsOf, type Engine } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const pdf = new TextEncoder().encode("%PDF-1.7\n% a CV\n%%EOF\n");

async function setup(engine: Engine) {
  const app = await appOn(engine);
  const org = await makeOrg(app);
  const created = await call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "Ada", email: "ada@example.com" } });
  return { app, org, id: created.json.data.id as string, contactId: created.json.data.contact_id as string, etag: created.headers.get("etag") };
}

// `seq` is the events' order on both engines (on SQLite, the rowid itself).
const eventTypes = async (app: DossierApp<Store>, orgId: string) =>
  (await queryRows<{ type: string }>(app, `SELECT type FROM events WHERE organization_id = ? ORDER BY seq`, orgId)).map((r) => r.type);

describe.each(ENGINES)("conditional requests on %s", (engine) => {
  describe("C16: ETag", async () => {
    test("C16: GET, PATCH and POST .../cv of one dossier carry a strong ETag that changes with the record", async () => {
      const { app, org, id } = await setup(engine);
      const read = await call(app, "GET", `/dossiers/${id}`, { key: org.key });
      const tag = read.headers.get("etag")!;
      expect(tag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      expect((await call(app, "GET", `/dossiers/${id}`, { key: org.key })).headers.get("etag")).toBe(tag);
      const patched = await call(app, "PATCH", `/dossiers/${id}`, { key: org.key, body: { company: "Analytical Engines" } });
      expect(patched.headers.get("etag")).not.toBe(tag);
      expect((await call(app, "GET", `/dossiers/${id}`, { key: org.key })).headers.get("etag")).toBe(patched.headers.get("etag"));
      const cv = await call(app, "POST", `/dossiers/${id}/cv`, { key: org.key, raw: pdf, contentType: "application/pdf" });
      expect(cv.status).toBe(200);
      expect(cv.headers.get("etag")).not.toBe(patched.headers.get("etag"));
      expect((await call(app, "GET", `/dossiers/${id}`, { key: org.key })).headers.get("etag")).toBe(cv.headers.get("etag"));
    });

    test("C20: a contact's ETag covers its derived dossier_count", async () => {
      const { app, org, contactId } = await setup(engine);
      const before = (await call(app, "GET", `/contacts/${contactId}`, { key: org.key })).headers.get("etag");
      await call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "Ada again", contact_id: contactId } });
      const after = await call(app, "GET", `/contacts/${contactId}`, { key: org.key });
      expect(after.json.data.dossier_count).toBe(2);
      expect(after.headers.get("etag")).not.toBe(before);
      const patched = await call(app, "PATCH", `/contacts/${contactId}`, { key: org.key, body: { company: "Analytical Engines" }, headers: { "if-match": after.headers.get("etag")! } });
      expect(patched.status).toBe(200);
      expect((await call(app, "GET", `/contacts/${contactId}`, { key: org.key })).headers.get("etag")).toBe(patched.headers.get("etag"));
    });
  });

  describe("C16: If-None-Match", async () => {
    test("C16: a GET whose If-None-Match matches answers 304 with no body; a weak form matches too; another tag 200", async () => {
      const { app, org, id, contactId } = await setup(engine);
      const tag = (await call(app, "GET", `/dossiers/${id}`, { key: org.key })).headers.get("etag")!;
      const same = await call(app, "GET", `/dossiers/${id}`, { key: org.key, headers: { "if-none-match": tag } });
      expect(same.status).toBe(304);
      expect(same.text).toBe("");
      expect(same.headers.get("etag")).toBe(tag);
      expect((await call(app, "GET", `/dossiers/${id}`, { key: org.key, headers: { "if-none-match": `"other", W/${tag}` } })).status).toBe(304);
      expect((await call(app, "GET", `/dossiers/${id}`, { key: org.key, headers: { "if-none-match": '"other"' } })).status).toBe(200);
      const contactTag = (await call(app, "GET", `/contacts/${contactId}`, { key: org.key })).headers.get("etag")!;
      expect((await call(app, "GET", `/contacts/${contactId}`, { key: org.key, headers: { "if-none-match": contactTag } })).status).toBe(304);
    });
  });

  describe("C16: If-Match", async () => {
    test("C16: a PATCH with a stale If-Match is 412 precondition_failed, nothing changed; with the current one it runs", async () => {
      const { app, org, id } = await setup(engine);
      const tag = (await call(app, "GET", `/dossiers/${id}`, { key: org.key })).headers.get("etag")!;
      await call(app, "PATCH", `/dossiers/${id}`, { key: org.key, body: { company: "First" } });
      const before = await rowCountsOf(app);
      const stale = await call(app, "PATCH", `/dossiers/${id}`, { key: org.key, body: { company: "Second" }, headers: { "if-match": tag } });
      expect(stale.status).toBe(412);
      expect(stale.json.error.code).toBe("precondition_failed");
      expect(await rowCountsOf(app)).toEqual(before);
      const current = (await call(app, "GET", `/dossiers/${id}`, { key: org.key })).headers.get("etag")!;
      const ok = await call(app, "PATCH", `/dossiers/${id}`, { key: org.key, body: { company: "Second" }, headers: { "if-match": current } });
      expect(ok.status).toBe(200);
      expect((await call(app, "PATCH", `/dossiers/${id}`, { key: org.key, body: { company: "Third" }, headers: { "if-match": "*" } })).status).toBe(200);
      expect((await call(app, "PATCH", `/dossiers/${id}`, { key: org.key, body: { company: "x" }, headers: { "if-match": `W/${current}` } })).status).toBe(412);
    });

    test("C16: two clients read one dossier and both PATCH with If-Match at once: exactly one wins", async () => {
      const { app, org, id } = await setup(engine);
      const tag = (await call(app, "GET", `/dossiers/${id}`, { key: org.key })).headers.get("etag")!;
      const before = (await eventTypes(app, org.id)).length;
      const [a, b] = await Promise.all([
        call(app, "PATCH", `/dossiers/${id}`, { key: org.key, body: { company: "Alice's" }, headers: { "if-match": tag } }),
        call(app, "PATCH", `/dossiers/${id}`, { key: org.key, body: { company: "Bob's" }, headers: { "if-match": tag } }),
      ]);
      expect([a.status, b.status].sort()).toEqual([200, 412]);
      const winner = a.status === 200 ? a : b;
      expect((await call(app, "GET", `/dossiers/${id}`, { key: org.key })).json.data.company).toBe(winner.json.data.company);
      expect((await eventTypes(app, org.id)).slice(before)).toEqual(["dossier.updated"]);
    });

    // On PostgreSQL units run side by side: both once passed the check made in the unit (C19).
    test("C16: the same for a contact and a task: of two PATCHes with one If-Match at once, exactly one wins", async () => {
      const { app, org, contactId } = await setup(engine);
      const task = (await call(app, "POST", "/tasks", { key: org.key, body: { title: "Call Ada" } })).json.data.id as string;
      for (let round = 0; round < 3; round++) {
        for (const [path, field] of [[`/contacts/${contactId}`, "company"], [`/tasks/${task}`, "title"]]) {
          const tag = (await call(app, "GET", path, { key: org.key })).headers.get("etag")!;
          const [a, b] = await Promise.all(
            ["Alice's", "Bob's"].map((value) => call(app, "PATCH", path, { key: org.key, body: { [field]: `${value} ${round}` }, headers: { "if-match": tag } })),
          );
          expect([path, [a.status, b.status].sort()]).toEqual([path, [200, 412]]);
          const winner = a.status === 200 ? a : b;
          expect((await call(app, "GET", path, { key: org.key })).json.data[field]).toBe(winner.json.data[field]);
        }
      }
    });

    test("C20: 412 comes after 404 and before 400; DELETE and a contact's PATCH and DELETE check it too", async () => {
      const { app, org, id, contactId } = await setup(engine);
      const stale = { "if-match": '"stale"' };
      expect((await call(app, "PATCH", `/dossiers/${crypto.randomUUID()}`, { key: org.key, body: { company: "x" }, headers: stale })).status).toBe(404);
      expect((await call(app, "PATCH", `/dossiers/${id}`, { key: org.key, body: { unknown: 1 }, headers: stale })).status).toBe(412);
      expect((await call(app, "PATCH", `/dossiers/${id}`, { key: org.key, raw: "not json", contentType: "text/plain", headers: stale })).status).toBe(412);
      expect((await call(app, "DELETE", `/dossiers/${id}`, { key: org.key, headers: stale })).status).toBe(412);
      expect((await call(app, "GET", `/dossiers/${id}`, { key: org.key })).json.data.status).toBe("active");
      expect((await call(app, "PATCH", `/contacts/${contactId}`, { key: org.key, body: { company: "x" }, headers: stale })).status).toBe(412);
      expect((await call(app, "DELETE", `/contacts/${contactId}`, { key: org.key, headers: stale })).status).toBe(412);
      const contactTag = (await call(app, "GET", `/contacts/${contactId}`, { key: org.key })).headers.get("etag")!;
      expect((await call(app, "DELETE", `/contacts/${contactId}`, { key: org.key, headers: { "if-match": contactTag } })).status).toBe(200);
      const tag = (await call(app, "GET", `/dossiers/${id}`, { key: org.key })).headers.get("etag")!;
      expect((await call(app, "DELETE", `/dossiers/${id}`, { key: org.key, headers: { "if-match": tag } })).status).toBe(200);
    });

    test("C16: a CV upload with a stale If-Match is 412 before 415, and writes no file", async () => {
      const { app, org, id } = await setup(engine);
      const files = filesUnder(app.dossier.filesDir);
      const before = await rowCountsOf(app);
      const stale = await call(app, "POST", `/dossiers/${id}/cv`, { key: org.key, raw: pdf, contentType: "application/pdf", headers: { "if-match": '"stale"' } });
      expect(stale.status).toBe(412);
      const wrongType = await call(app, "POST", `/dossiers/${id}/cv`, { key: org.key, raw: "text", contentType: "text/plain", headers: { "if-match": '"stale"' } });
      expect(wrongType.status).toBe(412);
      expect(filesUnder(app.dossier.filesDir)).toEqual(files);
      expect(await rowCountsOf(app)).toEqual(before);
      const tag = (await call(app, "GET", `/dossiers/${id}`, { key: org.key })).headers.get("etag")!;
      expect((await call(app, "POST", `/dossiers/${id}/cv`, { key: org.key, raw: pdf, contentType: "application/pdf", headers: { "if-match": tag } })).status).toBe(200);
    });
  });
});
