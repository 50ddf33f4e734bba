// api-v1 "Notes"; C3 (oldest first, paging, text limits, order of checks), C7 (note.created),
// C10 (notes on archived dossiers, stored text as given, lengths in code points). The rules that
// are one request and its answer are rows of scenario tables (test/helpers/scenario.ts).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { DossierApp } from "../../src/app";
import type { Store } from "../../src/db/store";
import { call, makeOrg, type Org } from "../helpers";
import { ENGINES, appOn, queryRows } from "../helpers/stores";
import { refused, scenarios, type World } from "../helpers/scenario";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const UUID = "0b7c5f9e-8d3a-4e21-9a6b-2f4c1d0e9a87";

async function eventsOf(app: DossierApp<Store>, org: Org) {
  return (await queryRows<{ type: string; body: string }>(app, `SELECT type, body FROM events WHERE organization_id = ? ORDER BY seq`, org.id))
    .map((row) => ({ type: row.type, body: JSON.parse(row.body) }));
}

async function newDossier(app: DossierApp<Store>, org: Org, name: string): Promise<{ id: string }> {
  const answer = await call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name } });
  expect(answer.status).toBe(201);
  return answer.json.data;
}

/** Fixtures: a dossier of the organization (`dossier`), an archived one (`archived`) and one of
 * the other organization with a note (`theirs`). */
async function dossiers({ app, org, other }: World) {
  const archived = await newDossier(app, org, "Archived");
  expect((await call(app, "DELETE", `/dossiers/${archived.id}`, { key: org.key })).status).toBe(200);
  const theirs = await newDossier(app, other, "Theirs");
  expect((await call(app, "POST", `/dossiers/${theirs.id}/notes`, { key: other.key, body: { content: "secret" } })).status).toBe(201);
  return { dossier: await newDossier(app, org, "Noted"), archived, theirs };
}

describe.each(ENGINES)("POST /dossiers/{id}/notes on %s", async (engine) => {
  const clock = new Date("2026-02-02T12:00:00.000Z");
  const app = await appOn(engine, { now: () => clock });
  const org = await makeOrg(app, { rateLimit: 1_000_000 });

  test("api-v1: 201 with the Note; is_internal defaults to true; note.created carries the Note", async () => {
    const dossierId = (await newDossier(app, org, "Noted")).id;
    const answer = await call(app, "POST", `/dossiers/${dossierId}/notes`, { key: org.key, body: { content: "First call went well" } });
    expect(answer.status).toBe(201);
    const note = answer.json.data;
    expect(note).toEqual({ id: expect.any(String), dossier_id: dossierId, content: "First call went well", is_internal: true, created_at: clock.toISOString() });
    expect(Object.keys(note)).toEqual(["id", "dossier_id", "content", "is_internal", "created_at"]);
    const event = (await eventsOf(app, org)).at(-1)!;
    expect(event.type).toBe("note.created");
    expect(event.body).toEqual({ id: expect.stringMatching(/^evt_/), type: "note.created", created_at: expect.any(String), organization_id: org.id, data: note });
  });
});

/** A note refused with 400 invalid_body naming `field`. */
const badNote = (name: string, body: Record<string, unknown>, field: string) =>
  ({ name: `C3: ${name} → 400 invalid_body naming ${field}, nothing persisted`, method: "POST", path: "/dossiers/{dossier}/notes", body, status: 400, json: refused("invalid_body", field) }) as const;

scenarios("POST /dossiers/{id}/notes: rules", dossiers, [
  {
    name: "api-v1: is_internal false is kept; C10: content is stored as given (checked after trimming); note.created",
    method: "POST", path: "/dossiers/{dossier}/notes", body: { content: "  shared note \n", is_internal: false },
    status: 201, json: ({ dossier }) => ({ data: { dossier_id: dossier.id, content: "  shared note \n", is_internal: false } }), events: ["note.created"],
  },
  {
    name: "C3, C10: 20,000 characters after trimming (code points) are accepted",
    method: "POST", path: "/dossiers/{dossier}/notes", body: { content: `  ${"😀".repeat(20_000)}  ` },
    status: 201, json: { data: { content: `  ${"😀".repeat(20_000)}  ` } }, events: ["note.created"],
  },
  {
    name: "C10: an archived dossier takes notes",
    method: "POST", path: "/dossiers/{archived}/notes", body: { content: "still here" },
    status: 201, json: ({ archived }) => ({ data: { dossier_id: archived.id, content: "still here" } }), events: ["note.created"],
  },
  badNote("content missing", {}, "content"),
  badNote("content empty", { content: "" }, "content"),
  badNote("content only blanks", { content: " \n\t " }, "content"),
  badNote("content of 20,001 characters", { content: "x".repeat(20_001) }, "content"),
  badNote("content not a string", { content: 5 }, "content"),
  badNote("content null", { content: null }, "content"),
  badNote("is_internal not a boolean", { content: "x", is_internal: "yes" }, "is_internal"),
  badNote("unknown field", { content: "x", author: "me" }, "author"),
  badNote("read-only field", { content: "x", created_at: "2026-01-01T00:00:00.000Z" }, "created_at"),
  {
    name: "C3: a body that is not JSON → 400 invalid_body",
    method: "POST", path: "/dossiers/{dossier}/notes", raw: { body: "hi", contentType: "text/plain" }, status: 400, json: refused("invalid_body"),
  },
  {
    name: "C3, C10: a JSON body over 1 MB → 413 payload_too_large",
    method: "POST", path: "/dossiers/{dossier}/notes", raw: { body: JSON.stringify({ content: "x".repeat(1_048_576) }), contentType: "application/json" },
    status: 413, json: refused("payload_too_large"),
  },
  ...([["an unknown", UUID], ["a malformed", "nope"], ["another organization's", "{theirs}"]] as const).map(([which, id]) => ({
    name: `C3: order of checks: ${which} dossier with a bad body → 404 not_found before 400`,
    method: "POST" as const, path: `/dossiers/${id}/notes`, body: { nope: true }, status: 404, json: refused("not_found"),
  })),
  {
    name: "C3: notes:read alone cannot write a note → 403 forbidden",
    as: ["notes:read"], method: "POST", path: "/dossiers/{dossier}/notes", body: { content: "x" }, status: 403, json: refused("forbidden"),
  },
  {
    name: "C3: dossiers:write alone cannot write a note → 403 forbidden",
    as: ["dossiers:write"], method: "POST", path: "/dossiers/{dossier}/notes", body: { content: "x" }, status: 403, json: refused("forbidden"),
  },
]);

describe.each(ENGINES)("GET /dossiers/{id}/notes on %s", async (engine) => {
  let clock = new Date("2026-02-02T12:00:00.000Z");
  const app = await appOn(engine, { now: () => clock });
  const org = await makeOrg(app, { rateLimit: 1_000_000 });
  const get = (id: string, query = "") => call(app, "GET", `/dossiers/${id}/notes${query}`, { key: org.key });

  test("C3: oldest first (also within one millisecond), paginated; other dossiers' notes left out", async () => {
    const id = (await newDossier(app, org, "Timeline")).id;
    const otherId = (await newDossier(app, org, "Other")).id;
    const written = [];
    for (let i = 0; i < 7; i++) {
      if (i % 3 === 0) clock = new Date(clock.getTime() + 1000);
      written.push((await call(app, "POST", `/dossiers/${id}/notes`, { key: org.key, body: { content: `note ${i}` } })).json.data);
      await call(app, "POST", `/dossiers/${otherId}/notes`, { key: org.key, body: { content: `other ${i}` } });
    }
    const all = await get(id);
    expect(all.status).toBe(200);
    expect(all.json).toEqual({ data: written, meta: { total: 7, page: 1, per_page: 25, next_after: null } });
    const p1 = await get(id, "?per_page=3");
    const p3 = await get(id, "?per_page=3&page=3");
    expect(p1.json.data).toEqual(written.slice(0, 3));
    expect(p3.json).toEqual({ data: written.slice(6), meta: { total: 7, page: 3, per_page: 3, next_after: null } }); // the last page
    expect((await get(id, "?per_page=3&page=4")).json).toEqual({ data: [], meta: { total: 7, page: 4, per_page: 3, next_after: null } });
    expect((await get(id, "?per_page=100")).json.data).toEqual(written);
  });
});

scenarios("GET /dossiers/{id}/notes: rules", dossiers, [
  {
    name: "api-v1: a dossier without notes: empty list, total 0",
    method: "GET", path: "/dossiers/{dossier}/notes", status: 200, json: { data: [], meta: { total: 0, page: 1, per_page: 25 } },
  },
  ...["per_page=101", "per_page=0", "page=0", "page=a"].map((query) => ({
    name: `C3: ${query} → 400 invalid_body`, method: "GET" as const, path: `/dossiers/{dossier}/notes?${query}`, status: 400, json: refused("invalid_body"),
  })),
  ...([["an unknown", UUID], ["a malformed", "nope"], ["another organization's", "{theirs}"]] as const).map(([which, id]) => ({
    name: `C3, tenancy: ${which} dossier → 404 not_found, even with a bad per_page`,
    method: "GET" as const, path: `/dossiers/${id}/notes?per_page=500`, status: 404, json: refused("not_found"),
  })),
  {
    name: "C3: notes:write alone cannot read notes → 403 forbidden, before the 404 of another organization's dossier",
    as: ["notes:write"], method: "GET", path: "/dossiers/{theirs}/notes", status: 403, json: refused("forbidden"),
  },
]);
