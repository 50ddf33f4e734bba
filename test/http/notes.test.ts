// api-v1 "Notes"; C3 (oldest first, paging, text limits, order of checks), C7 (note.created),
// C10 (notes on archived dossiers, stored text as given, lengths in code points).
import { describe, expect, test } from "bun:test";
import type { DossierApp } from "../../src/app";
import { call, makeApp, makeKey, makeOrg, rowCounts, type Org } from "../helpers";

const UUID = "0b7c5f9e-8d3a-4e21-9a6b-2f4c1d0e9a87";

function eventsOf(app: DossierApp, org: Org) {
  return app.dossier.store.sqlite
    .query<{ type: string; body: string }, [string]>(`SELECT type, body FROM events WHERE organization_id = ? ORDER BY seq`)
    .all(org.id)
    .map((row) => ({ type: row.type, body: JSON.parse(row.body) }));
}

async function expectRejected(app: DossierApp, request: () => Promise<{ status: number; json: any }>, status: number, code: string) {
  const before = rowCounts(app);
  const answer = await request();
  expect([answer.status, answer.json?.error?.code]).toEqual([status, code]);
  expect(answer.json).toEqual({ error: { code, message: expect.any(String) } });
  expect(rowCounts(app)).toEqual(before);
  return answer;
}

describe("POST /dossiers/{id}/notes", () => {
  const clock = new Date("2026-02-02T12:00:00.000Z");
  const app = makeApp({ now: () => clock });
  const org = makeOrg(app, { rateLimit: 1_000_000 });
  const other = makeOrg(app);
  let dossierId = "";
  const post = (body: unknown, id = dossierId, key = org.key) => call(app, "POST", `/dossiers/${id}/notes`, { key, body });

  test("api-v1: 201 with the Note; is_internal defaults to true; note.created carries the Note", async () => {
    dossierId = (await call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "Noted" } })).json.data.id;
    const answer = await post({ content: "First call went well" });
    expect(answer.status).toBe(201);
    const note = answer.json.data;
    expect(note).toEqual({ id: expect.any(String), dossier_id: dossierId, content: "First call went well", is_internal: true, created_at: clock.toISOString() });
    expect(Object.keys(note)).toEqual(["id", "dossier_id", "content", "is_internal", "created_at"]);
    const event = eventsOf(app, org).at(-1)!;
    expect(event.type).toBe("note.created");
    expect(event.body).toEqual({ id: expect.stringMatching(/^evt_/), type: "note.created", created_at: expect.any(String), organization_id: org.id, data: note });
  });

  test("is_internal false is kept; C10: content is stored as given (checked after trimming)", async () => {
    const answer = await post({ content: "  shared note \n", is_internal: false });
    expect(answer.json.data).toMatchObject({ content: "  shared note \n", is_internal: false });
  });

  test("C3, C10: 20,000 characters after trimming (code points) are accepted", async () => {
    expect((await post({ content: `  ${"😀".repeat(20_000)}  ` })).status).toBe(201);
  });

  test("C10: an archived dossier takes notes", async () => {
    const id = (await call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "Archived" } })).json.data.id;
    await call(app, "DELETE", `/dossiers/${id}`, { key: org.key });
    expect((await post({ content: "still here" }, id)).status).toBe(201);
  });

  test.each<[string, unknown, string]>([
    ["content missing", {}, "content"],
    ["content empty", { content: "" }, "content"],
    ["content only blanks", { content: " \n\t " }, "content"],
    ["content of 20,001 characters", { content: "x".repeat(20_001) }, "content"],
    ["content not a string", { content: 5 }, "content"],
    ["content null", { content: null }, "content"],
    ["is_internal not a boolean", { content: "x", is_internal: "yes" }, "is_internal"],
    ["unknown field", { content: "x", author: "me" }, "author"],
    ["read-only field", { content: "x", created_at: "2026-01-01T00:00:00.000Z" }, "created_at"],
  ])("C3: %s → 400 invalid_body, nothing persisted", async (_name, body, field) => {
    const answer = await expectRejected(app, () => post(body), 400, "invalid_body");
    expect(answer.json.error.message).toContain(field);
  });

  test("C3: not JSON → 400; a JSON body over 1 MB → 413", async () => {
    await expectRejected(app, () => call(app, "POST", `/dossiers/${dossierId}/notes`, { key: org.key, raw: "hi", contentType: "text/plain" }), 400, "invalid_body");
    await expectRejected(app, () => call(app, "POST", `/dossiers/${dossierId}/notes`, { key: org.key, raw: JSON.stringify({ content: "x".repeat(1_048_576) }), contentType: "application/json" }), 413, "payload_too_large");
  });

  test("C3: order of checks: 403 (notes:read only) → 404 (unknown, malformed, other org's dossier) before 400", async () => {
    const theirs = (await call(app, "POST", "/dossiers", { key: other.key, body: { type: "candidate", name: "Theirs" } })).json.data.id;
    for (const id of [UUID, "nope", theirs]) await expectRejected(app, () => post({ nope: true }, id), 404, "not_found");
    const reader = makeKey(app, org, ["notes:read"]);
    await expectRejected(app, () => post({ content: "x" }, dossierId, reader), 403, "forbidden");
    const dossierWriter = makeKey(app, org, ["dossiers:write"]);
    await expectRejected(app, () => post({ content: "x" }, dossierId, dossierWriter), 403, "forbidden");
  });
});

describe("GET /dossiers/{id}/notes", () => {
  let clock = new Date("2026-02-02T12:00:00.000Z");
  const app = makeApp({ now: () => clock });
  const org = makeOrg(app, { rateLimit: 1_000_000 });
  const other = makeOrg(app);
  const get = (id: string, query = "", key = org.key) => call(app, "GET", `/dossiers/${id}/notes${query}`, { key });

  test("C3: oldest first (also within one millisecond), paginated; other dossiers' notes left out", async () => {
    const id = (await call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "Timeline" } })).json.data.id;
    const otherId = (await call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "Other" } })).json.data.id;
    const written = [];
    for (let i = 0; i < 7; i++) {
      if (i % 3 === 0) clock = new Date(clock.getTime() + 1000);
      written.push((await call(app, "POST", `/dossiers/${id}/notes`, { key: org.key, body: { content: `note ${i}` } })).json.data);
      await call(app, "POST", `/dossiers/${otherId}/notes`, { key: org.key, body: { content: `other ${i}` } });
    }
    const all = await get(id);
    expect(all.status).toBe(200);
    expect(all.json).toEqual({ data: written, meta: { total: 7, page: 1, per_page: 25 } });
    const p1 = await get(id, "?per_page=3");
    const p3 = await get(id, "?per_page=3&page=3");
    expect(p1.json.data).toEqual(written.slice(0, 3));
    expect(p3.json).toEqual({ data: written.slice(6), meta: { total: 7, page: 3, per_page: 3 } }); // the last page
    expect((await get(id, "?per_page=3&page=4")).json).toEqual({ data: [], meta: { total: 7, page: 4, per_page: 3 } });
    expect((await get(id, "?per_page=100")).json.data).toEqual(written);
    for (const query of ["?per_page=101", "?per_page=0", "?page=0", "?page=a"]) {
      const answer = await get(id, query);
      expect([query, answer.status, answer.json.error.code]).toEqual([query, 400, "invalid_body"]);
    }
  });

  test("a dossier without notes: empty list, total 0", async () => {
    const id = (await call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "Quiet" } })).json.data.id;
    expect((await get(id)).json).toEqual({ data: [], meta: { total: 0, page: 1, per_page: 25 } });
  });

  test("C3, tenancy: unknown, malformed or another organization's dossier → 404, even with a bad per_page; notes:write alone → 403", async () => {
    const theirs = (await call(app, "POST", "/dossiers", { key: other.key, body: { type: "candidate", name: "Theirs" } })).json.data.id;
    await call(app, "POST", `/dossiers/${theirs}/notes`, { key: other.key, body: { content: "secret" } });
    for (const id of [UUID, "nope", theirs]) {
      const answer = await get(id, "?per_page=500");
      expect([answer.status, answer.json.error.code]).toEqual([404, "not_found"]);
    }
    const writer = makeKey(app, org, ["notes:write"]);
    expect((await get(theirs, "", writer)).status).toBe(403);
  });
});
