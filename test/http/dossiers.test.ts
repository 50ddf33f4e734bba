// api-v1 "Dossier", "States and transitions", "Dossiers"; C3 (paging, sort, text limits, order of
// checks), C4 (flow type), C5 (representation, filters, contact on create, rules), C7 (events
// recorded in the outbox), C10 (PATCH nulls, no-op PATCH, DELETE, filters).
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { DossierApp } from "../../src/app";
import { call, filesUnder, makeApp, makeKey, makeOrg, rowCounts, type Org } from "../helpers";

const DOSSIER_FIELDS = [
  "id", "organization_id", "flow_id", "type", "name", "email", "phone", "company", "role", "contact_person", "status",
  "current_stage_id", "assigned_to", "deal_size", "deal_currency", "intake_notes", "cv_url", "contact_id",
  "stage_entered_at", "stage_due_at", "created_at", "updated_at",
];
const UUID = "0b7c5f9e-8d3a-4e21-9a6b-2f4c1d0e9a87";
const DAY = 86_400_000;

interface Event {
  type: string;
  body: { id: string; type: string; created_at: string; organization_id: string; data: any; previous_attributes?: any };
}

function eventsOf(app: DossierApp, org: Org): Event[] {
  return app.dossier.store.sqlite
    .query<{ type: string; body: string }, [string]>(`SELECT type, body FROM events WHERE organization_id = ? ORDER BY seq`)
    .all(org.id)
    .map((row) => ({ type: row.type, body: JSON.parse(row.body) }));
}


async function flowsOf(app: DossierApp, org: Org) {
  const flows = (await call(app, "GET", "/flows", { key: org.key })).json.data;
  return {
    candidate: flows.find((f: any) => f.type === "candidate" && f.is_default),
    sales: flows.find((f: any) => f.type === "sales" && f.is_default),
  };
}

async function create(app: DossierApp, org: Org, body: Record<string, unknown>) {
  const answer = await call(app, "POST", "/dossiers", { key: org.key, body });
  expect(answer.status).toBe(201);
  return answer.json.data;
}

/** A rejected request leaves every table and the files folder as they were. */
async function expectRejected(app: DossierApp, request: () => Promise<{ status: number; json: any }>, status: number, code: string) {
  const before = rowCounts(app);
  const files = filesUnder(app.dossier.filesDir);
  const answer = await request();
  expect(answer.status).toBe(status);
  expect(answer.json).toEqual({ error: { code, message: expect.any(String) } });
  expect(rowCounts(app)).toEqual(before);
  expect(filesUnder(app.dossier.filesDir)).toEqual(files);
  return answer;
}

describe("POST /dossiers (JSON)", () => {
  const app = makeApp();
  const org = makeOrg(app, { rateLimit: 1_000_000 });
  const other = makeOrg(app);

  test("C5: a candidate dossier has every field, null where unset, and sits in the first stage of the default flow", async () => {
    const { candidate } = await flowsOf(app, org);
    const answer = await call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "  Ada Lovelace  " } });
    expect(answer.status).toBe(201);
    const d = answer.json.data;
    expect(Object.keys(d)).toEqual(DOSSIER_FIELDS);
    expect(d).toMatchObject({
      organization_id: org.id, flow_id: candidate.id, type: "candidate", name: "Ada Lovelace", status: "active",
      email: null, phone: null, company: null, role: null, contact_person: null, assigned_to: null, deal_size: null,
      deal_currency: null, intake_notes: null, cv_url: null, current_stage_id: candidate.stages[0].id,
    });
    expect(d.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(d.updated_at).toBe(d.created_at);
    expect(d.stage_entered_at).toBe(d.created_at);
    expect(Date.parse(d.stage_due_at) - Date.parse(d.stage_entered_at)).toBe(candidate.stages[0].deadline_days * DAY);
    expect((await call(app, "GET", `/dossiers/${d.id}`, { key: org.key })).json).toEqual({ data: d });
  });

  test("C4: a sales dossier with all fields goes into the first stage of the given flow", async () => {
    const { sales } = await flowsOf(app, org);
    const body = {
      type: "sales", name: "Big deal", email: "buyer@acme.example", phone: "+33 1 23", company: "Acme", role: "CTO",
      flow_id: sales.id, assigned_to: UUID, intake_notes: "from the fair", contact_person: "Jane", deal_size: 12500.5,
      deal_currency: "EUR",
    };
    const d = await create(app, org, body);
    const { flow_id, ...rest } = body;
    expect(d).toMatchObject({ ...rest, flow_id: sales.id, current_stage_id: sales.stages[0].id });
  });

  test("C10: null for an optional field on create (flow_id, contact_id, sales-only fields on a candidate) is the same as leaving it out", async () => {
    const d = await create(app, org, {
      type: "candidate", name: "Nulls", email: null, flow_id: null, contact_id: null, contact_person: null, deal_size: null,
      deal_currency: null, assigned_to: null, intake_notes: null,
    });
    expect(d.flow_id).not.toBeNull();
    expect(d.contact_id).not.toBeNull();
  });

  test("C3, C10: text limits count code points: a 200-emoji name is accepted", async () => {
    const d = await create(app, org, { type: "candidate", name: "😀".repeat(200), intake_notes: "😀".repeat(20_000) });
    expect([...d.name].length).toBe(200);
  });

  test("C3: deal_size 0 and every runtime currency are accepted", async () => {
    for (const currency of ["EUR", "USD", "JPY", "CHF"]) {
      const d = await create(app, org, { type: "sales", name: "Zero", deal_size: 0, deal_currency: currency });
      expect(d.deal_currency).toBe(currency);
    }
  });

  test("C7: dossier.created is recorded with the whole dossier as data", async () => {
    const d = await create(app, org, { type: "candidate", name: "Evented" });
    const last = eventsOf(app, org).at(-1)!;
    expect(last.type).toBe("dossier.created");
    expect(last.body).toEqual({ id: expect.stringMatching(/^evt_[A-Za-z0-9]{26,}$/), type: "dossier.created", created_at: expect.any(String), organization_id: org.id, data: d });
  });

  const long = (n: number) => "x".repeat(n);
  test.each<[string, Record<string, unknown>, number, string, string?]>([
    ["type missing", { name: "A" }, 400, "invalid_body", "type"],
    ["name missing", { type: "candidate" }, 400, "invalid_body", "name"],
    ["name blank after trimming", { type: "candidate", name: "   " }, 400, "invalid_body", "name"],
    ["name of 201 characters", { type: "candidate", name: long(201) }, 400, "invalid_body", "name"],
    ["name not a string", { type: "candidate", name: 5 }, 400, "invalid_body", "name"],
    ["type unknown", { type: "partner", name: "A" }, 400, "invalid_body", "type"],
    ["unknown field", { type: "candidate", name: "A", colour: "red" }, 400, "invalid_body", "colour"],
    ["read-only field id", { type: "candidate", name: "A", id: UUID }, 400, "invalid_body", "id"],
    ["status is not a create field", { type: "candidate", name: "A", status: "won" }, 400, "invalid_body", "status"],
    ["cv_url is read-only", { type: "candidate", name: "A", cv_url: "x" }, 400, "invalid_body", "cv_url"],
    ["email without @", { type: "candidate", name: "A", email: "nobody" }, 400, "invalid_body", "email"],
    ["email without a dot in the domain", { type: "candidate", name: "A", email: "a@localhost" }, 400, "invalid_body", "email"],
    ["email with two @", { type: "candidate", name: "A", email: "a@b@c.com" }, 400, "invalid_body", "email"],
    ["email with a space", { type: "candidate", name: "A", email: "a b@c.com" }, 400, "invalid_body", "email"],
    ["email of 201 characters", { type: "candidate", name: "A", email: `${long(190)}@example.com` }, 400, "invalid_body", "email"],
    ["phone of 201 characters", { type: "candidate", name: "A", phone: long(201) }, 400, "invalid_body", "phone"],
    ["company of 201 characters", { type: "candidate", name: "A", company: long(201) }, 400, "invalid_body", "company"],
    ["role of 201 characters", { type: "candidate", name: "A", role: long(201) }, 400, "invalid_body", "role"],
    ["contact_person of 201 characters", { type: "sales", name: "A", contact_person: long(201) }, 400, "invalid_body", "contact_person"],
    ["intake_notes of 20001 characters", { type: "candidate", name: "A", intake_notes: long(20_001) }, 400, "invalid_body", "intake_notes"],
    ["deal_size negative", { type: "sales", name: "A", deal_size: -1 }, 400, "invalid_body", "deal_size"],
    ["deal_size as a string", { type: "sales", name: "A", deal_size: "10" }, 400, "invalid_body", "deal_size"],
    ["deal_currency lower case", { type: "sales", name: "A", deal_currency: "eur" }, 400, "invalid_body", "deal_currency"],
    ["deal_currency unknown", { type: "sales", name: "A", deal_currency: "XYZ" }, 400, "invalid_body", "deal_currency"],
    ["contact_person on a candidate", { type: "candidate", name: "A", contact_person: "Jane" }, 400, "invalid_body", "contact_person"],
    ["deal_size on a candidate", { type: "candidate", name: "A", deal_size: 5 }, 400, "invalid_body", "deal_size"],
    ["deal_currency on a candidate", { type: "candidate", name: "A", deal_currency: "EUR" }, 400, "invalid_body", "deal_currency"],
    ["flow_id not a uuid", { type: "candidate", name: "A", flow_id: "abc" }, 400, "invalid_body", "flow_id"],
    ["contact_id not a uuid", { type: "candidate", name: "A", contact_id: "abc" }, 400, "invalid_body", "contact_id"],
    ["assigned_to not a uuid", { type: "candidate", name: "A", assigned_to: "bob" }, 400, "invalid_body", "assigned_to"],
    ["flow_id unknown", { type: "candidate", name: "A", flow_id: UUID }, 404, "not_found", "flow_id"],
    ["contact_id unknown", { type: "candidate", name: "A", contact_id: UUID }, 404, "not_found", "contact_id"],
  ])("C3, C5: %s → %i %s, nothing persisted", async (_name, body, status, code, field) => {
    const answer = await expectRejected(app, () => call(app, "POST", "/dossiers", { key: org.key, body }), status, code);
    if (field) expect(answer.json.error.message).toContain(field);
  });

  test("C4: a flow_id of the other type → 400 invalid_body, nothing persisted", async () => {
    const { sales } = await flowsOf(app, org);
    await expectRejected(app, () => call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "A", flow_id: sales.id } }), 400, "invalid_body");
  });

  test("C5: flow_id or contact_id of another organization → 404 not_found naming the field, nothing persisted", async () => {
    const theirFlow = (await flowsOf(app, other)).candidate;
    const theirDossier = await create(app, other, { type: "candidate", name: "Theirs" });
    const a = await expectRejected(app, () => call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "A", flow_id: theirFlow.id } }), 404, "not_found");
    expect(a.json.error.message).toContain("flow_id");
    const b = await expectRejected(app, () => call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "A", contact_id: theirDossier.contact_id } }), 404, "not_found");
    expect(b.json.error.message).toContain("contact_id");
  });

  test.each<[string, string | undefined, string]>([
    ["not JSON", "application/json", "{nope"],
    ["a JSON array", "application/json", "[]"],
    ["text/plain", "text/plain", JSON.stringify({ type: "candidate", name: "A" })],
    ["no Content-Type", undefined, JSON.stringify({ type: "candidate", name: "A" })],
  ])("C3: body %s → 400 invalid_body", async (_name, contentType, raw) => {
    await expectRejected(app, () => call(app, "POST", "/dossiers", { key: org.key, raw, contentType }), 400, "invalid_body");
  });

  test("C3: deal_size that overflows to Infinity (1e400) → 400 invalid_body", async () => {
    const raw = '{"type":"sales","name":"A","deal_size":1e400}';
    const answer = await expectRejected(app, () => call(app, "POST", "/dossiers", { key: org.key, raw, contentType: "application/json" }), 400, "invalid_body");
    expect(answer.json.error.message).toContain("deal_size");
  });

  test("C8: a JSON body over 1 MB → 413 payload_too_large", async () => {
    const raw = JSON.stringify({ type: "candidate", name: "A", intake_notes: "x".repeat(1_048_576) });
    await expectRejected(app, () => call(app, "POST", "/dossiers", { key: org.key, raw, contentType: "application/json" }), 413, "payload_too_large");
  });

  test("api-v1 Authentication: dossiers:read alone cannot create (403), before any body check", async () => {
    const reader = makeKey(app, org, ["dossiers:read"]);
    await expectRejected(app, () => call(app, "POST", "/dossiers", { key: reader, raw: "{nope", contentType: "application/json" }), 403, "forbidden");
  });
});

describe("C5: contact on create", () => {
  const app = makeApp();
  const org = makeOrg(app, { rateLimit: 1_000_000 });
  const other = makeOrg(app);
  const sqlite = app.dossier.store.sqlite;
  const contact = (id: string) => sqlite.query<any, [string]>(`SELECT * FROM contacts WHERE id = ?`).get(id);
  const links = (dossierId: string) =>
    sqlite.query<any, [string]>(`SELECT contact_id, role_on_dossier, is_primary FROM dossier_contacts WHERE dossier_id = ?`).all(dossierId);

  test("without contact_id and no matching email: a new contact from name, email, phone, company and role, kind [candidate], linked as primary", async () => {
    const d = await create(app, org, { type: "candidate", name: " Grace Hopper ", email: "Grace@Navy.example", phone: "555", company: "Navy", role: "Admiral" });
    const c = contact(d.contact_id);
    expect(c).toMatchObject({ organization_id: org.id, full_name: "Grace Hopper", email: "Grace@Navy.example", phone: "555", company: "Navy", role: "Admiral" });
    expect(JSON.parse(c.kind)).toEqual(["candidate"]);
    expect(links(d.id)).toEqual([{ contact_id: d.contact_id, role_on_dossier: "primary", is_primary: 1 }]);
  });

  test("a sales dossier's new contact has kind [prospect]", async () => {
    const d = await create(app, org, { type: "sales", name: "Deal" });
    expect(JSON.parse(contact(d.contact_id).kind)).toEqual(["prospect"]);
  });

  test("an email matching an existing contact (case-insensitive, JavaScript lower-casing) links that contact; no new contact", async () => {
    const first = await create(app, org, { type: "candidate", name: "Émile", email: "ÉMILE@Example.com" });
    const before = rowCounts(app).contacts;
    const second = await create(app, org, { type: "sales", name: "Émile's deal", email: "émile@example.COM" });
    expect(second.contact_id).toBe(first.contact_id);
    expect(rowCounts(app).contacts).toBe(before);
    expect(links(second.id)).toEqual([{ contact_id: first.contact_id, role_on_dossier: "primary", is_primary: 1 }]);
  });

  test("the same email in another organization is not linked", async () => {
    const mine = await create(app, org, { type: "candidate", name: "Shared", email: "shared@example.com" });
    const theirs = await create(app, other, { type: "candidate", name: "Shared", email: "shared@example.com" });
    expect(theirs.contact_id).not.toBe(mine.contact_id);
    expect(contact(theirs.contact_id).organization_id).toBe(other.id);
  });

  test("with contact_id: that contact is linked as primary, even when the email names another contact", async () => {
    const a = await create(app, org, { type: "candidate", name: "A", email: "a-contact@example.com" });
    const b = await create(app, org, { type: "candidate", name: "B", email: "b-contact@example.com" });
    const before = rowCounts(app).contacts;
    const d = await create(app, org, { type: "candidate", name: "C", email: "b-contact@example.com", contact_id: a.contact_id });
    expect(d.contact_id).toBe(a.contact_id);
    expect(d.contact_id).not.toBe(b.contact_id);
    expect(rowCounts(app).contacts).toBe(before);
    expect(links(d.id)).toEqual([{ contact_id: a.contact_id, role_on_dossier: "primary", is_primary: 1 }]);
  });

  test("a rejected create makes no contact and no link", async () => {
    await expectRejected(app, () => call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "New person", email: "new@example.com", deal_size: 3 } }), 400, "invalid_body");
  });
});

// C5 "all of it happens in one transaction with the dossier", C7 "a change that rolls back emits
// nothing": the failure comes last, when the outbox event is written, after the contact, the
// dossier and the link are in. A trigger on this file's database refuses every event insert.
describe("C5, C7: contact on create is atomic when the failure comes after the contact insert", () => {
  const app = makeApp();
  const org = makeOrg(app, { rateLimit: 1_000_000 });
  const sqlite = app.dossier.store.sqlite;
  /** Every row of the tables a create touches (counts kept by triggers included), and the files. */
  const state = () => ({
    rows: rowCounts(app),
    dossierCounts: sqlite.query(`SELECT * FROM dossier_counts ORDER BY 1, 2, 3, 4, 5`).all(),
    kindCounts: sqlite.query(`SELECT * FROM contact_kind_counts ORDER BY 1, 2`).all(),
    files: filesUnder(app.dossier.filesDir),
    // The dossiers' own folders (the organization's folders may stay: the start-up sweep removes them when empty).
    dossierFolders: existsSync(join(app.dossier.filesDir, org.id, "dossiers")) ? readdirSync(join(app.dossier.filesDir, org.id, "dossiers")) : [],
  });
  const outboxDown = async <T>(request: () => Promise<T>): Promise<T> => {
    sqlite.run(`CREATE TRIGGER outbox_down BEFORE INSERT ON events BEGIN SELECT RAISE(ABORT, 'outbox down'); END`);
    try {
      return await request();
    } finally {
      sqlite.run(`DROP TRIGGER outbox_down`);
    }
  };
  const send = (fields: Record<string, unknown>, multipart: boolean) => {
    if (!multipart) return call(app, "POST", "/dossiers", { key: org.key, body: fields });
    const data = new FormData();
    for (const [name, value] of Object.entries(fields)) data.append(name, value as string | File);
    return call(app, "POST", "/dossiers", { key: org.key, raw: data });
  };
  const pdf = () => new File([new TextEncoder().encode("%PDF-1.4 atomic")], "cv.pdf", { type: "application/pdf" });

  beforeAll(async () => {
    expect((await call(app, "POST", "/contacts", { key: org.key, body: { full_name: "Known", email: "known-atomic@example.com" } })).status).toBe(201);
  });

  const cases: [string, () => Record<string, unknown>, boolean][] = [
    ["JSON, a new contact from the email", () => ({ type: "candidate", name: "New person", email: "new-atomic@example.com", company: "Acme" }), false],
    ["JSON, no email: a new contact from the name", () => ({ type: "sales", name: "Nameless deal" }), false],
    ["JSON, the email of an existing contact (link only)", () => ({ type: "candidate", name: "Known", email: "KNOWN-atomic@example.com" }), false],
    ["multipart with a CV, a new contact", () => ({ type: "candidate", name: "With CV", email: "cv-atomic@example.com", cv: pdf() }), true],
    ["multipart with a CV, the email of an existing contact", () => ({ type: "candidate", name: "Known CV", email: "known-atomic@example.com", cv: pdf() }), true],
  ];
  test.each(cases)("C5, C7: %s; the event insert fails → 500; no contact, no link, no dossier, no event, no file", async (_name, body, multipart) => {
    const before = state();
    const answer = await outboxDown(() => send(body(), multipart));
    expect([answer.status, answer.json.error.code]).toEqual([500, "internal"]);
    expect(state()).toEqual(before);
    // With the outbox back, the same request goes through: the failure was the trigger's alone.
    const retry = await send(body(), multipart);
    expect(retry.status).toBe(201);
  });
});

describe("GET /dossiers", () => {
  let clock = new Date("2026-03-01T10:00:00.000Z");
  const app = makeApp({ now: () => clock });
  const org = makeOrg(app, { rateLimit: 1_000_000 });
  const other = makeOrg(app);
  const list = async (query: string, key = org.key) => {
    const answer = await call(app, "GET", `/dossiers${query}`, { key });
    expect(answer.status).toBe(200);
    return answer.json;
  };
  const names = async (query: string) => (await list(query)).data.map((d: any) => d.name);
  const tick = () => (clock = new Date(clock.getTime() + 1000));

  test("C3: newest first (created_at desc, then id desc), every item a whole dossier; other organizations' left out", async () => {
    await create(app, other, { type: "candidate", name: "Other org" });
    const made = [];
    for (let i = 0; i < 3; i++) {
      clock = new Date(clock.getTime() + 1000);
      made.push(await create(app, org, { type: "candidate", name: `Seq ${i}` }));
    }
    // Three created in the same millisecond: id desc breaks the tie.
    clock = new Date(clock.getTime() + 1000);
    const same = [];
    for (let i = 0; i < 3; i++) same.push(await create(app, org, { type: "candidate", name: `Same ${i}` }));
    const body = await list("");
    expect(body.meta).toEqual({ total: 6, page: 1, per_page: 25 });
    const expected = [...same.sort((a, b) => (a.id < b.id ? 1 : -1)), ...made.reverse()];
    expect(body.data).toEqual(expected);
    for (const d of body.data) expect(Object.keys(d)).toEqual(DOSSIER_FIELDS);
  });

  test("C3: pagination edges: last page, past the end, per_page 100 and 101, page 0", async () => {
    const all = (await list("?per_page=100")).data;
    expect(all.length).toBe(6);
    const p1 = await list("?per_page=4&page=1");
    const p2 = await list("?per_page=4&page=2");
    expect(p1.meta).toEqual({ total: 6, page: 1, per_page: 4 });
    expect(p2.meta).toEqual({ total: 6, page: 2, per_page: 4 });
    expect([...p1.data, ...p2.data]).toEqual(all);
    expect(await list("?per_page=4&page=3")).toEqual({ data: [], meta: { total: 6, page: 3, per_page: 4 } });
    expect(await list("?per_page=6&page=1")).toMatchObject({ meta: { total: 6 } });
    for (const query of ["per_page=101", "per_page=0", "page=0", "page=-1", "per_page=2.5", "page=x"]) {
      const answer = await call(app, "GET", `/dossiers?${query}`, { key: org.key });
      expect([query, answer.status, answer.json.error.code]).toEqual([query, 400, "invalid_body"]);
    }
  });

  test("C10: without status archived dossiers are left out; status=archived lists them; status filters", async () => {
    tick();
    const won = await create(app, org, { type: "sales", name: "Won deal" });
    await call(app, "PATCH", `/dossiers/${won.id}`, { key: org.key, body: { status: "won" } });
    tick();
    const gone = await create(app, org, { type: "candidate", name: "Gone" });
    await call(app, "DELETE", `/dossiers/${gone.id}`, { key: org.key });
    expect(await names("")).not.toContain("Gone");
    expect(await names("")).toContain("Won deal");
    expect(await names("?status=archived")).toEqual(["Gone"]);
    expect(await names("?status=won")).toEqual(["Won deal"]);
    expect((await list("?status=active")).data.every((d: any) => d.status === "active")).toBe(true);
  });

  test("api-v1: type, stage_id, flow_id and assigned_to filters (C5)", async () => {
    const { candidate, sales } = await flowsOf(app, org);
    const assigned = "5d1e2c3b-4a59-4687-9a0b-1c2d3e4f5a6b";
    tick();
    const a = await create(app, org, { type: "sales", name: "Assigned deal", assigned_to: assigned.toUpperCase() });
    expect(a.assigned_to).toBe(assigned);
    await call(app, "PATCH", `/dossiers/${a.id}`, { key: org.key, body: { current_stage_id: sales.stages[2].id } });
    expect(await names("?type=sales")).toEqual(["Assigned deal", "Won deal"]);
    expect((await list("?type=candidate")).data.every((d: any) => d.type === "candidate")).toBe(true);
    expect(await names(`?stage_id=${sales.stages[2].id}`)).toEqual(["Assigned deal"]);
    expect(await names(`?stage_id=${sales.stages[2].id.toUpperCase()}`)).toEqual(["Assigned deal"]);
    expect(await names(`?assigned_to=${assigned}`)).toEqual(["Assigned deal"]);
    expect(await names(`?flow_id=${sales.id}`)).toEqual(["Assigned deal", "Won deal"]);
    expect((await list(`?flow_id=${candidate.id}`)).meta.total).toBe(6);
    expect(await names(`?flow_id=${sales.id}&stage_id=${sales.stages[0].id}`)).toEqual(["Won deal"]);
    expect(await names(`?type=sales&status=won`)).toEqual(["Won deal"]);
    expect((await list(`?flow_id=${(await flowsOf(app, other)).candidate.id}`)).meta.total).toBe(0);
  });

  test("C5, C10: q is a case-insensitive substring over name, email and company (JavaScript lower-casing), not role or phone", async () => {
    tick();
    await create(app, org, { type: "candidate", name: "Zoë ÅNGSTRÖM", email: "zoe@Mail.example", company: "Straße GmbH", role: "Needle", phone: "Needle" });
    await create(app, org, { type: "candidate", name: "\u212Aelvin" }); // KELVIN SIGN lower-cases to "k"
    expect(await names("?q=ångström")).toEqual(["Zoë ÅNGSTRÖM"]);
    expect(await names("?q=ZOË")).toEqual(["Zoë ÅNGSTRÖM"]);
    expect(await names("?q=MAIL.EX")).toEqual(["Zoë ÅNGSTRÖM"]);
    expect(await names("?q=straSSe")).toEqual([]);
    expect(await names("?q=STRAßE")).toEqual(["Zoë ÅNGSTRÖM"]);
    expect(await names("?q=needle")).toEqual([]);
    expect(await names("?q=kelvin")).toEqual(["\u212Aelvin"]);
    expect(await names("?q=%25")).toEqual([]); // no LIKE wildcards
    expect((await list("?q=seq&per_page=2")).meta).toEqual({ total: 3, page: 1, per_page: 2 });
    expect(await names("?q=seq&per_page=2&page=2")).toEqual(["Seq 0"]);
  });

  test("C5, C10: overdue=true lists active dossiers whose stage_due_at has passed; overdue=false the others", async () => {
    const fresh = makeApp({ now: () => clock });
    const o = makeOrg(fresh);
    const { candidate } = await flowsOf(fresh, o);
    const start = clock;
    const late = await create(fresh, o, { type: "candidate", name: "Late" }); // Applied: 3 days
    const won = await create(fresh, o, { type: "candidate", name: "Late but won" });
    await call(fresh, "PATCH", `/dossiers/${won.id}`, { key: o.key, body: { status: "won" } });
    const hired = await create(fresh, o, { type: "candidate", name: "No deadline" });
    await call(fresh, "PATCH", `/dossiers/${hired.id}`, { key: o.key, body: { current_stage_id: candidate.stages[4].id } });
    const on = async (q: string) => (await call(fresh, "GET", `/dossiers?${q}`, { key: o.key })).json.data.map((d: any) => d.name).sort();
    expect(await on("overdue=true")).toEqual([]);
    expect(await on("overdue=false")).toEqual(["Late", "Late but won", "No deadline"]);
    clock = new Date(Date.parse(late.stage_due_at) - 1);
    expect(await on("overdue=true")).toEqual([]);
    clock = new Date(Date.parse(late.stage_due_at) + 1);
    expect(await on("overdue=true")).toEqual(["Late"]);
    expect(await on("overdue=false")).toEqual(["Late but won", "No deadline"]);
    expect(await on("overdue=true&type=sales")).toEqual([]);
    // Moving the dossier to a new stage restarts its clock.
    await call(fresh, "PATCH", `/dossiers/${late.id}`, { key: o.key, body: { current_stage_id: candidate.stages[1].id } });
    expect(await on("overdue=true")).toEqual([]);
    clock = start;
  });

  test.each([
    "type=partner", "status=deleted", "stage_id=abc", "flow_id=abc", "assigned_to=abc", "overdue=yes", "overdue=1", "overdue=",
  ])("C10: %s → 400 invalid_body", async (query) => {
    const answer = await call(app, "GET", `/dossiers?${query}`, { key: org.key });
    expect(answer.status).toBe(400);
    expect(answer.json.error.code).toBe("invalid_body");
  });

  test("C3: unknown query parameters are ignored", async () => {
    expect((await call(app, "GET", "/dossiers?colour=red", { key: org.key })).status).toBe(200);
  });
});

describe("GET /dossiers/{id}", () => {
  const app = makeApp();
  const org = makeOrg(app);
  const other = makeOrg(app);

  test.each(["not-a-uuid", UUID, "123"])("C3: %s → 404 not_found", async (id) => {
    const answer = await call(app, "GET", `/dossiers/${id}`, { key: org.key });
    expect(answer.status).toBe(404);
    expect(answer.json.error.code).toBe("not_found");
  });

  test("an upper-case id names the same dossier", async () => {
    const d = await create(app, org, { type: "candidate", name: "Case" });
    expect((await call(app, "GET", `/dossiers/${d.id.toUpperCase()}`, { key: org.key })).json.data).toEqual(d);
  });

  test("tenancy: another organization's dossier → 404", async () => {
    const theirs = await create(app, other, { type: "candidate", name: "Theirs" });
    expect((await call(app, "GET", `/dossiers/${theirs.id}`, { key: org.key })).status).toBe(404);
  });
});

describe("PATCH /dossiers/{id}", () => {
  let clock = new Date("2026-05-01T08:00:00.000Z");
  const tick = () => (clock = new Date(clock.getTime() + 60_000));
  const app = makeApp({ now: () => clock });
  const org = makeOrg(app, { rateLimit: 1_000_000 });
  const other = makeOrg(app);
  const patch = (id: string, body: unknown, key = org.key) => call(app, "PATCH", `/dossiers/${id}`, { key, body });

  test("every field of the PATCH table changes; dossier.updated carries the whole dossier and previous_attributes of exactly the changed fields", async () => {
    const d = await create(app, org, { type: "sales", name: "Deal", email: "old@example.com", company: "Old" });
    tick();
    const changes = {
      name: "  New deal  ", email: "new@example.com", phone: "123", company: "Old", role: "Buyer", contact_person: "Jim",
      deal_size: 99.5, deal_currency: "GBP", status: "lost", assigned_to: UUID, intake_notes: "notes",
    };
    const eventsBefore = eventsOf(app, org).length;
    const answer = await patch(d.id, changes);
    expect(answer.status).toBe(200);
    const after = answer.json.data;
    expect(after).toEqual({ ...d, ...changes, name: "New deal", updated_at: clock.toISOString() });
    const events = eventsOf(app, org).slice(eventsBefore);
    expect(events.map((e) => e.type)).toEqual(["dossier.updated"]);
    expect(events[0].body.data).toEqual(after);
    expect(events[0].body.previous_attributes).toEqual({
      name: "Deal", email: "old@example.com", phone: null, role: null, contact_person: null, deal_size: null,
      deal_currency: null, status: "active", assigned_to: null, intake_notes: null,
    });
    expect(Object.keys(events[0].body)).toEqual(["id", "type", "created_at", "organization_id", "data", "previous_attributes"]);
  });

  test("C10: null clears every nullable field", async () => {
    const d = await create(app, org, {
      type: "sales", name: "Full", email: "x@example.com", phone: "1", company: "C", role: "R", contact_person: "P",
      deal_size: 1, deal_currency: "EUR", assigned_to: UUID, intake_notes: "I",
    });
    tick();
    const nulls = { email: null, phone: null, company: null, role: null, contact_person: null, deal_size: null, deal_currency: null, assigned_to: null, intake_notes: null };
    const answer = await patch(d.id, nulls);
    expect(answer.status).toBe(200);
    expect(answer.json.data).toEqual({ ...d, ...nulls, updated_at: clock.toISOString() });
    expect(eventsOf(app, org).at(-1)!.body.previous_attributes).toEqual({
      email: "x@example.com", phone: "1", company: "C", role: "R", contact_person: "P", deal_size: 1, deal_currency: "EUR",
      assigned_to: UUID, intake_notes: "I",
    });
  });

  test("C7: a new stage emits dossier.stage_changed {id, current_stage_id, previous_stage_id, status}, then dossier.updated; stage_entered_at and stage_due_at follow", async () => {
    const { candidate } = await flowsOf(app, org);
    const d = await create(app, org, { type: "candidate", name: "Mover" });
    tick();
    const n = eventsOf(app, org).length;
    const answer = await patch(d.id, { current_stage_id: candidate.stages[2].id, status: "won" });
    const after = answer.json.data;
    expect(after.current_stage_id).toBe(candidate.stages[2].id);
    expect(after.stage_entered_at).toBe(clock.toISOString());
    expect(after.stage_due_at).toBe(new Date(clock.getTime() + candidate.stages[2].deadline_days * DAY).toISOString());
    const events = eventsOf(app, org).slice(n);
    expect(events.map((e) => e.type)).toEqual(["dossier.stage_changed", "dossier.updated"]);
    expect(events[0].body.data).toEqual({ id: d.id, current_stage_id: candidate.stages[2].id, previous_stage_id: candidate.stages[0].id, status: "won" });
    expect(events[0].body.previous_attributes).toBeUndefined();
    expect(events[1].body.data).toEqual(after);
    expect(events[1].body.previous_attributes).toEqual({ status: "active", current_stage_id: candidate.stages[0].id });

    tick();
    const toHired = await patch(d.id, { current_stage_id: candidate.stages[4].id });
    expect(toHired.json.data.stage_due_at).toBeNull(); // no deadline on Hired
    expect(toHired.json.data.stage_entered_at).toBe(clock.toISOString());
  });

  test("C10: current_stage_id null is allowed: stage dates become null; stage_changed (current_stage_id null) then updated", async () => {
    const d = await create(app, org, { type: "candidate", name: "Stageless" });
    const n = eventsOf(app, org).length;
    const after = (await patch(d.id, { current_stage_id: null })).json.data;
    expect(after).toMatchObject({ current_stage_id: null, stage_entered_at: null, stage_due_at: null });
    const events = eventsOf(app, org).slice(n);
    expect(events.map((e) => e.type)).toEqual(["dossier.stage_changed", "dossier.updated"]);
    expect(events[0].body.data).toEqual({ id: d.id, current_stage_id: null, previous_stage_id: d.current_stage_id, status: "active" });
    // And back into a stage.
    const back = (await patch(d.id, { current_stage_id: d.current_stage_id })).json.data;
    expect(back.stage_entered_at).toBe(clock.toISOString());
    expect(eventsOf(app, org).slice(n + 2).map((e) => e.type)).toEqual(["dossier.stage_changed", "dossier.updated"]);
  });

  test("C5, C10: a PATCH that changes nothing ({} or the same values, the same stage) answers 200, emits nothing, keeps updated_at", async () => {
    const d = await create(app, org, { type: "sales", name: "Same", email: "same@example.com", deal_size: 10 });
    tick();
    for (const body of [{}, { name: "Same" }, { name: "  Same " }, { email: "same@example.com", deal_size: 10, phone: null }, { current_stage_id: d.current_stage_id, status: "active" }]) {
      const before = rowCounts(app);
      const answer = await patch(d.id, body);
      expect(answer.status).toBe(200);
      expect(answer.json.data).toEqual(d);
      expect(rowCounts(app)).toEqual(before);
    }
  });

  test("api-v1 state table: any status may follow any status; PATCH status archived emits dossier.updated only, and a PATCH restores", async () => {
    const d = await create(app, org, { type: "candidate", name: "Cycle" });
    const n = eventsOf(app, org).length;
    for (const status of ["won", "lost", "active", "archived", "lost", "archived", "active"]) {
      const answer = await patch(d.id, { status });
      expect(answer.json.data.status).toBe(status);
    }
    const events = eventsOf(app, org).slice(n);
    expect(events.map((e) => e.type)).toEqual(Array(7).fill("dossier.updated"));
    expect(events.map((e) => e.body.previous_attributes.status)).toEqual(["active", "won", "lost", "active", "archived", "lost", "archived"]);
  });

  test.each<[string, (ctx: { sales: any; candidate: any; theirs: any }) => Record<string, unknown>, string]>([
    ["name null", () => ({ name: null }), "name"],
    ["status null", () => ({ status: null }), "status"],
    ["name blank", () => ({ name: "  " }), "name"],
    ["status unknown", () => ({ status: "deleted" }), "status"],
    ["type is not patchable", () => ({ type: "sales" }), "type"],
    ["flow_id is not patchable", ({ sales }) => ({ flow_id: sales.id }), "flow_id"],
    ["id is not patchable", () => ({ id: UUID }), "id"],
    ["created_at is read-only", () => ({ created_at: "2026-01-01T00:00:00.000Z" }), "created_at"],
    ["contact_id is not patchable", () => ({ contact_id: UUID }), "contact_id"],
    ["cv_url is read-only", () => ({ cv_url: null }), "cv_url"],
    ["a stage of another flow of the organization", ({ sales }) => ({ current_stage_id: sales.stages[1].id }), "current_stage_id"],
    ["a stage of another organization", ({ theirs }) => ({ current_stage_id: theirs.stages[1].id }), "current_stage_id"],
    ["an unknown stage", () => ({ current_stage_id: UUID }), "current_stage_id"],
    ["a stage id that is not a uuid", () => ({ current_stage_id: "first" }), "current_stage_id"],
    ["a sales-only field on a candidate", () => ({ deal_size: 4 }), "deal_size"],
    ["contact_person on a candidate", () => ({ contact_person: "Jo" }), "contact_person"],
    ["a bad email", () => ({ email: "nope" }), "email"],
    ["a 201-character company", () => ({ company: "c".repeat(201) }), "company"],
    ["assigned_to not a uuid", () => ({ assigned_to: "me" }), "assigned_to"],
  ])("C3, C5, C10: %s → 400 invalid_body naming the field, nothing changed", async (_name, body, field) => {
    const { candidate, sales } = await flowsOf(app, org);
    const theirs = (await flowsOf(app, other)).candidate;
    const d = await create(app, org, { type: "candidate", name: "Target" });
    const answer = await expectRejected(app, () => patch(d.id, body({ sales, candidate, theirs })), 400, "invalid_body");
    expect(answer.json.error.message).toContain(field);
    expect((await call(app, "GET", `/dossiers/${d.id}`, { key: org.key })).json.data).toEqual(d);
  });

  test("C10: sales-only fields may be set to null on a candidate (nothing to clear: no change)", async () => {
    const d = await create(app, org, { type: "candidate", name: "Cand" });
    const answer = await patch(d.id, { deal_size: null, deal_currency: null, contact_person: null });
    expect(answer.status).toBe(200);
    expect(answer.json.data).toEqual(d);
  });

  test("a sales dossier's deal fields are checked on PATCH (deal_size finite ≥ 0, known currency)", async () => {
    const d = await create(app, org, { type: "sales", name: "S" });
    await expectRejected(app, () => patch(d.id, { deal_size: -0.01 }), 400, "invalid_body");
    await expectRejected(app, () => patch(d.id, { deal_currency: "ABC" }), 400, "invalid_body");
    expect((await patch(d.id, { deal_currency: "JPY", deal_size: 0 })).json.data).toMatchObject({ deal_currency: "JPY", deal_size: 0 });
  });

  test("C3: order of checks: unknown dossier with a bad body → 404; 403 before 404", async () => {
    await expectRejected(app, () => patch(UUID, { type: "bad" }), 404, "not_found");
    await expectRejected(app, () => call(app, "PATCH", `/dossiers/${UUID}`, { key: org.key, raw: "{nope", contentType: "application/json" }), 404, "not_found");
    const reader = makeKey(app, org, ["dossiers:read"]);
    await expectRejected(app, () => patch(UUID, {}, reader), 403, "forbidden");
  });

  test("C3: a non-JSON body on an existing dossier → 400", async () => {
    const d = await create(app, org, { type: "candidate", name: "J" });
    await expectRejected(app, () => call(app, "PATCH", `/dossiers/${d.id}`, { key: org.key, raw: "name=x", contentType: "application/x-www-form-urlencoded" }), 400, "invalid_body");
  });

  test("tenancy: PATCH of another organization's dossier → 404, nothing changed", async () => {
    const theirs = await create(app, other, { type: "candidate", name: "Theirs" });
    await expectRejected(app, () => patch(theirs.id, { name: "Mine now" }), 404, "not_found");
    expect((await call(app, "GET", `/dossiers/${theirs.id}`, { key: other.key })).json.data.name).toBe("Theirs");
  });
});

describe("DELETE /dossiers/{id}", () => {
  const app = makeApp();
  const org = makeOrg(app);
  const other = makeOrg(app);

  test("C5, C10: archives and keeps the data; emits dossier.deleted only, with the whole dossier; again: 200 and nothing", async () => {
    const d = await create(app, org, { type: "candidate", name: "Archive me", email: "arch@example.com" });
    const n = eventsOf(app, org).length;
    const answer = await call(app, "DELETE", `/dossiers/${d.id}`, { key: org.key });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ data: { id: d.id, status: "archived" } });
    const kept = (await call(app, "GET", `/dossiers/${d.id}`, { key: org.key })).json.data;
    expect(kept).toMatchObject({ ...d, status: "archived", updated_at: expect.any(String) });
    const events = eventsOf(app, org).slice(n);
    expect(events.map((e) => e.type)).toEqual(["dossier.deleted"]);
    expect(events[0].body.data).toEqual(kept);
    const before = rowCounts(app);
    const again = await call(app, "DELETE", `/dossiers/${d.id}`, { key: org.key });
    expect(again.status).toBe(200);
    expect(again.json).toEqual({ data: { id: d.id, status: "archived" } });
    expect(rowCounts(app)).toEqual(before);
    expect((await call(app, "GET", `/dossiers/${d.id}`, { key: org.key })).json.data).toEqual(kept);
  });

  test("C3, tenancy: unknown, malformed or another organization's id → 404, nothing changed", async () => {
    const theirs = await create(app, other, { type: "candidate", name: "Theirs" });
    for (const id of [UUID, "nope", theirs.id]) await expectRejected(app, () => call(app, "DELETE", `/dossiers/${id}`, { key: org.key }), 404, "not_found");
    expect((await call(app, "GET", `/dossiers/${theirs.id}`, { key: other.key })).json.data.status).toBe("active");
  });
});

describe("tenancy: every dossier, CV and note route answers 404 for another organization's dossier", () => {
  const app = makeApp();
  const org = makeOrg(app);
  const other = makeOrg(app);

  test.each<[string, string, Record<string, unknown>]>([
    ["GET", "", {}],
    ["PATCH", "", { body: { name: "x" } }],
    ["DELETE", "", {}],
    ["GET", "/cv", {}],
    ["POST", "/cv", { raw: new TextEncoder().encode("%PDF-1.4\n"), contentType: "application/pdf" }],
    ["GET", "/notes", {}],
    ["POST", "/notes", { body: { content: "hello" } }],
  ])("%s /dossiers/{id}%s → 404 not_found", async (method, suffix, options) => {
    const theirs = await create(app, other, { type: "candidate", name: "Theirs" });
    await call(app, "POST", `/dossiers/${theirs.id}/cv`, { key: other.key, raw: new TextEncoder().encode("%PDF-1.4 theirs"), contentType: "application/pdf" });
    await expectRejected(app, () => call(app, method, `/dossiers/${theirs.id}${suffix}`, { key: org.key, ...options }), 404, "not_found");
  });
});
