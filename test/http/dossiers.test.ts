// api-v1 "Dossier", "States and transitions", "Dossiers"; C3 (paging, sort, text limits, order of
// checks), C4 (flow type), C5 (representation, filters, contact on create, rules), C7 (events
// recorded in the outbox), C10 (PATCH nulls, no-op PATCH, DELETE, filters). The rules that are
// one request and its answer are rows of scenario tables (test/helpers/scenario.ts); the others
// are plain tests.
import { beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { DossierApp } from "../../src/app";
import type { Store } from "../../src/db/store";
import { call, filesUnder, makeApp, makeOrg, type Org } from "../helpers";
import { ENGINES, appOn, queryRows, rowCountsOf } from "../helpers/stores";
import { refused, scenarios, type Row, type World } from "../helpers/scenario";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const DOSSIER_FIELDS = [
  "id", "organization_id", "flow_id", "type", "name", "email", "phone", "company", "role", "contact_person", "status",
  "current_stage_id", "assigned_to", "deal_size", "deal_currency", "intake_notes", "cv_url", "contact_id",
  "stage_entered_at", "stage_due_at", "created_at", "updated_at", "metadata",
];
const UUID = "0b7c5f9e-8d3a-4e21-9a6b-2f4c1d0e9a87";
const DAY = 86_400_000;

interface Event {
  type: string;
  body: { id: string; type: string; created_at: string; organization_id: string; data: any; previous_attributes?: any };
}

async function eventsOf(app: DossierApp<Store>, org: Org): Promise<Event[]> {
  return (await queryRows<{ type: string; body: string }>(app, `SELECT type, body FROM events WHERE organization_id = ? ORDER BY seq`, org.id))
    .map((row) => ({ type: row.type, body: JSON.parse(row.body) }));
}

async function flowsOf(app: DossierApp<Store>, org: Org) {
  const flows = (await call(app, "GET", "/flows", { key: org.key })).json.data;
  return {
    candidate: flows.find((f: any) => f.type === "candidate" && f.is_default),
    sales: flows.find((f: any) => f.type === "sales" && f.is_default),
  };
}

async function create(app: DossierApp<Store>, org: Org, body: Record<string, unknown>) {
  const answer = await call(app, "POST", "/dossiers", { key: org.key, body });
  expect(answer.status).toBe(201);
  return answer.json.data;
}

/** Fixtures: the organization's default flows, and the other organization's candidate flow. */
async function flows({ app, org, other }: World) {
  return { ...(await flowsOf(app, org)), theirFlow: (await flowsOf(app, other)).candidate };
}

/** Fixtures: a candidate dossier of the organization (`dossier`) and one of the other (`theirs`). */
async function dossiers({ app, org, other }: World) {
  return {
    dossier: await create(app, org, { type: "candidate", name: "Target" }),
    theirs: await create(app, other, { type: "candidate", name: "Theirs" }),
  };
}

/** A clock that moves one second each time it is read: any write changes `updated_at`. */
function movingClock(start: string): () => Date {
  let ms = Date.parse(start);
  return () => new Date((ms += 1000));
}

const long = (n: number) => "x".repeat(n);

describe.each(ENGINES)("POST /dossiers (JSON) on %s", async (engine) => {
  const app = await appOn(engine);
  const org = await makeOrg(app, { rateLimit: 1_000_000 });

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

  test("C7: dossier.created is recorded with the whole dossier as data", async () => {
    const d = await create(app, org, { type: "candidate", name: "Evented" });
    const last = (await eventsOf(app, org)).at(-1)!;
    expect(last.type).toBe("dossier.created");
    expect(last.body).toEqual({ id: expect.stringMatching(/^evt_[A-Za-z0-9]{26,}$/), type: "dossier.created", created_at: expect.any(String), organization_id: org.id, data: d });
  });
});

const SALES_DEAL = {
  type: "sales", name: "Big deal", email: "buyer@acme.example", phone: "+33 1 23", company: "Acme", role: "CTO",
  assigned_to: UUID, intake_notes: "from the fair", contact_person: "Jane", deal_size: 12500.5, deal_currency: "EUR",
};

/** A create refused with 400 invalid_body naming `field`. */
const badCreate = (name: string, body: Record<string, unknown>, field: string) =>
  ({ name: `C3, C5: ${name} → 400 invalid_body naming ${field}, nothing persisted`, method: "POST", path: "/dossiers", body, status: 400, json: refused("invalid_body", field) }) as const;

scenarios("POST /dossiers (JSON): rules", async (world) => ({ ...(await flows(world)), theirs: await create(world.app, world.other, { type: "candidate", name: "Theirs" }) }), [
  {
    name: "C4: a sales dossier with all fields goes into the first stage of the given flow; dossier.created",
    method: "POST", path: "/dossiers", body: ({ sales }) => ({ ...SALES_DEAL, flow_id: sales.id }),
    status: 201, json: ({ sales }) => ({ data: { ...SALES_DEAL, flow_id: sales.id, current_stage_id: sales.stages[0].id } }),
    events: ["dossier.created"],
  },
  {
    name: "C10: null for an optional field on create (flow_id, contact_id, sales-only fields on a candidate) is the same as leaving it out",
    method: "POST", path: "/dossiers",
    body: { type: "candidate", name: "Nulls", email: null, flow_id: null, contact_id: null, contact_person: null, deal_size: null, deal_currency: null, assigned_to: null, intake_notes: null },
    status: 201, json: ({ candidate }) => ({ data: { flow_id: candidate.id, contact_id: expect.any(String) } }),
    events: ["dossier.created"],
  },
  {
    name: "C3, C10: text limits count code points: a 200-emoji name and 20,000-emoji intake_notes are accepted",
    method: "POST", path: "/dossiers", body: { type: "candidate", name: "😀".repeat(200), intake_notes: "😀".repeat(20_000) },
    status: 201, json: { data: { name: "😀".repeat(200) } }, events: ["dossier.created"],
  },
  ...["EUR", "USD", "JPY", "CHF"].map((currency) => ({
    name: `C3: deal_size 0 and the runtime currency ${currency} are accepted`,
    method: "POST" as const, path: "/dossiers", body: { type: "sales", name: "Zero", deal_size: 0, deal_currency: currency },
    status: 201, json: { data: { deal_size: 0, deal_currency: currency } }, events: ["dossier.created"],
  })),
  badCreate("type missing", { name: "A" }, "type"),
  badCreate("name missing", { type: "candidate" }, "name"),
  badCreate("name blank after trimming", { type: "candidate", name: "   " }, "name"),
  badCreate("name of 201 characters", { type: "candidate", name: long(201) }, "name"),
  badCreate("name not a string", { type: "candidate", name: 5 }, "name"),
  badCreate("type unknown", { type: "partner", name: "A" }, "type"),
  badCreate("unknown field", { type: "candidate", name: "A", colour: "red" }, "colour"),
  badCreate("read-only field id", { type: "candidate", name: "A", id: UUID }, "id"),
  badCreate("status is not a create field", { type: "candidate", name: "A", status: "won" }, "status"),
  badCreate("cv_url is read-only", { type: "candidate", name: "A", cv_url: "x" }, "cv_url"),
  badCreate("email without @", { type: "candidate", name: "A", email: "nobody" }, "email"),
  badCreate("email without a dot in the domain", { type: "candidate", name: "A", email: "a@localhost" }, "email"),
  badCreate("email with two @", { type: "candidate", name: "A", email: "a@b@c.com" }, "email"),
  badCreate("email with a space", { type: "candidate", name: "A", email: "a b@c.com" }, "email"),
  badCreate("email of 201 characters", { type: "candidate", name: "A", email: `${long(190)}@example.com` }, "email"),
  badCreate("phone of 201 characters", { type: "candidate", name: "A", phone: long(201) }, "phone"),
  badCreate("company of 201 characters", { type: "candidate", name: "A", company: long(201) }, "company"),
  badCreate("role of 201 characters", { type: "candidate", name: "A", role: long(201) }, "role"),
  badCreate("contact_person of 201 characters", { type: "sales", name: "A", contact_person: long(201) }, "contact_person"),
  badCreate("intake_notes of 20001 characters", { type: "candidate", name: "A", intake_notes: long(20_001) }, "intake_notes"),
  badCreate("deal_size negative", { type: "sales", name: "A", deal_size: -1 }, "deal_size"),
  badCreate("deal_size as a string", { type: "sales", name: "A", deal_size: "10" }, "deal_size"),
  badCreate("deal_currency lower case", { type: "sales", name: "A", deal_currency: "eur" }, "deal_currency"),
  badCreate("deal_currency unknown", { type: "sales", name: "A", deal_currency: "XYZ" }, "deal_currency"),
  badCreate("contact_person on a candidate", { type: "candidate", name: "A", contact_person: "Jane" }, "contact_person"),
  badCreate("deal_size on a candidate", { type: "candidate", name: "A", deal_size: 5 }, "deal_size"),
  badCreate("deal_currency on a candidate", { type: "candidate", name: "A", deal_currency: "EUR" }, "deal_currency"),
  badCreate("flow_id not a uuid", { type: "candidate", name: "A", flow_id: "abc" }, "flow_id"),
  badCreate("contact_id not a uuid", { type: "candidate", name: "A", contact_id: "abc" }, "contact_id"),
  badCreate("assigned_to not a uuid", { type: "candidate", name: "A", assigned_to: "bob" }, "assigned_to"),
  badCreate("a rejected create with a new email (C5: makes no contact and no link)", { type: "candidate", name: "New person", email: "new@example.com", deal_size: 3 }, "deal_size"),
  {
    name: "C5: flow_id unknown → 404 not_found naming flow_id, nothing persisted",
    method: "POST", path: "/dossiers", body: { type: "candidate", name: "A", flow_id: UUID }, status: 404, json: refused("not_found", "flow_id"),
  },
  {
    name: "C5: contact_id unknown → 404 not_found naming contact_id, nothing persisted",
    method: "POST", path: "/dossiers", body: { type: "candidate", name: "A", contact_id: UUID }, status: 404, json: refused("not_found", "contact_id"),
  },
  {
    name: "C4: a flow_id of the other type → 400 invalid_body, nothing persisted",
    method: "POST", path: "/dossiers", body: ({ sales }) => ({ type: "candidate", name: "A", flow_id: sales.id }), status: 400, json: refused("invalid_body"),
  },
  {
    name: "C5: flow_id of another organization → 404 not_found naming flow_id, nothing persisted",
    method: "POST", path: "/dossiers", body: ({ theirFlow }) => ({ type: "candidate", name: "A", flow_id: theirFlow.id }), status: 404, json: refused("not_found", "flow_id"),
  },
  {
    name: "C5: contact_id of another organization → 404 not_found naming contact_id, nothing persisted",
    method: "POST", path: "/dossiers", body: ({ theirs }) => ({ type: "candidate", name: "A", contact_id: theirs.contact_id }), status: 404, json: refused("not_found", "contact_id"),
  },
  ...([
    ["not JSON", "application/json", "{nope"],
    ["a JSON array", "application/json", "[]"],
    ["text/plain", "text/plain", JSON.stringify({ type: "candidate", name: "A" })],
    ["no Content-Type", undefined, JSON.stringify({ type: "candidate", name: "A" })],
  ] as const).map(([what, contentType, body]) => ({
    name: `C3: body ${what} → 400 invalid_body`,
    method: "POST" as const, path: "/dossiers", raw: { body, contentType }, status: 400, json: refused("invalid_body"),
  })),
  {
    name: "C3: deal_size that overflows to Infinity (1e400) → 400 invalid_body naming deal_size",
    method: "POST", path: "/dossiers", raw: { body: '{"type":"sales","name":"A","deal_size":1e400}', contentType: "application/json" },
    status: 400, json: refused("invalid_body", "deal_size"),
  },
  {
    name: "C8: a JSON body over 1 MB → 413 payload_too_large",
    method: "POST", path: "/dossiers", raw: { body: JSON.stringify({ type: "candidate", name: "A", intake_notes: long(1_048_576) }), contentType: "application/json" },
    status: 413, json: refused("payload_too_large"),
  },
  {
    name: "api-v1 Authentication, C3: no key → 401 unauthorized, before any body check",
    as: "no key", method: "POST", path: "/dossiers", raw: { body: "{nope", contentType: "application/json" },
    status: 401, json: refused("unauthorized"),
  },
  ...(["free plan", "pro plan"] as const).map((as) => ({
    name: `C3, C8: an organization on the ${as} → 402 plan_required, before the scope and the body checks`,
    as: as, method: "POST" as const, path: "/dossiers", raw: { body: "{nope", contentType: "application/json" },
    status: 402, json: refused("plan_required"),
  })),
  {
    name: "api-v1 Authentication, C3: a key with no scope → 403 forbidden, before any body check",
    as: "no scopes", method: "POST", path: "/dossiers", raw: { body: "{nope", contentType: "application/json" },
    status: 403, json: refused("forbidden", "dossiers:write"),
  },
  {
    name: "api-v1 Authentication, C3: dossiers:read alone cannot create (403), before any body check",
    as: ["dossiers:read"], method: "POST", path: "/dossiers", raw: { body: "{nope", contentType: "application/json" },
    status: 403, json: refused("forbidden"),
  },
]);
describe.each(ENGINES)("C5: contact on create on %s", async (engine) => {
  const app = await appOn(engine);
  const org = await makeOrg(app, { rateLimit: 1_000_000 });
  const other = await makeOrg(app);
  const contact = async (id: string) => (await queryRows<any>(app, `SELECT * FROM contacts WHERE id = ?`, id))[0];
  // is_primary as 1 or 0 on both engines (PostgreSQL's column is a boolean).
  const links = (dossierId: string) =>
    queryRows(app, `SELECT contact_id, role_on_dossier, CASE WHEN is_primary THEN 1 ELSE 0 END AS is_primary FROM dossier_contacts WHERE dossier_id = ?`, dossierId);

  test("without contact_id and no matching email: a new contact from name, email, phone, company and role, kind [candidate], linked as primary", async () => {
    const d = await create(app, org, { type: "candidate", name: " Grace Hopper ", email: "Grace@Navy.example", phone: "555", company: "Navy", role: "Admiral" });
    const c = await contact(d.contact_id);
    expect(c).toMatchObject({ organization_id: org.id, full_name: "Grace Hopper", email: "Grace@Navy.example", phone: "555", company: "Navy", role: "Admiral" });
    expect(JSON.parse(c.kind)).toEqual(["candidate"]);
    expect(await links(d.id)).toEqual([{ contact_id: d.contact_id, role_on_dossier: "primary", is_primary: 1 }]);
  });

  test("a sales dossier's new contact has kind [prospect]", async () => {
    const d = await create(app, org, { type: "sales", name: "Deal" });
    expect(JSON.parse((await contact(d.contact_id)).kind)).toEqual(["prospect"]);
  });

  test("an email matching an existing contact (case-insensitive, JavaScript lower-casing) links that contact; no new contact", async () => {
    const first = await create(app, org, { type: "candidate", name: "Émile", email: "ÉMILE@Example.com" });
    const before = (await rowCountsOf(app)).contacts;
    const second = await create(app, org, { type: "sales", name: "Émile's deal", email: "émile@example.COM" });
    expect(second.contact_id).toBe(first.contact_id);
    expect((await rowCountsOf(app)).contacts).toBe(before);
    expect(await links(second.id)).toEqual([{ contact_id: first.contact_id, role_on_dossier: "primary", is_primary: 1 }]);
  });

  test("the same email in another organization is not linked", async () => {
    const mine = await create(app, org, { type: "candidate", name: "Shared", email: "shared@example.com" });
    const theirs = await create(app, other, { type: "candidate", name: "Shared", email: "shared@example.com" });
    expect(theirs.contact_id).not.toBe(mine.contact_id);
    expect((await contact(theirs.contact_id)).organization_id).toBe(other.id);
  });

  test("with contact_id: that contact is linked as primary, even when the email names another contact", async () => {
    const a = await create(app, org, { type: "candidate", name: "A", email: "a-contact@example.com" });
    const b = await create(app, org, { type: "candidate", name: "B", email: "b-contact@example.com" });
    const before = (await rowCountsOf(app)).contacts;
    const d = await create(app, org, { type: "candidate", name: "C", email: "b-contact@example.com", contact_id: a.contact_id });
    expect(d.contact_id).toBe(a.contact_id);
    expect(d.contact_id).not.toBe(b.contact_id);
    expect((await rowCountsOf(app)).contacts).toBe(before);
    expect(await links(d.id)).toEqual([{ contact_id: a.contact_id, role_on_dossier: "primary", is_primary: 1 }]);
  });

});


// C5 "all of it happens in one transaction with the dossier", C7 "a change that rolls back emits
// nothing": the failure comes last, when the outbox event is written, after the contact, the
// dossier and the link are in. A trigger on the app's database refuses every event insert.
describe.each(ENGINES)("C5, C7: contact on create is atomic when the failure comes after the contact insert on %s", async (engine) => {
  const app = await appOn(engine);
  const org = await makeOrg(app, { rateLimit: 1_000_000 });
  /** Every row of the tables a create touches (counts kept by triggers included), and the files. */
  const state = async () => ({
    rows: await rowCountsOf(app),
    dossierCounts: await queryRows(app, `SELECT * FROM dossier_counts ORDER BY 1, 2, 3, 4, 5`),
    kindCounts: await queryRows(app, `SELECT * FROM contact_kind_counts ORDER BY 1, 2`),
    files: filesUnder(app.dossier.filesDir),
    // The dossiers' own folders (the organization's folders may stay: the start-up sweep removes them when empty).
    dossierFolders: existsSync(join(app.dossier.filesDir, org.id, "dossiers")) ? readdirSync(join(app.dossier.filesDir, org.id, "dossiers")) : [],
  });
  // The trigger in each engine's dialect (PostgreSQL's runs a function of its own).
  const down =
    engine === "sqlite"
      ? [`CREATE TRIGGER outbox_down BEFORE INSERT ON events BEGIN SELECT RAISE(ABORT, 'outbox down'); END`]
      : [
          `CREATE FUNCTION outbox_down() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'outbox down'; END $$`,
          `CREATE TRIGGER outbox_down BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION outbox_down()`,
        ];
  const up = engine === "sqlite" ? [`DROP TRIGGER outbox_down`] : [`DROP TRIGGER outbox_down ON events`, `DROP FUNCTION outbox_down()`];
  const outboxDown = async <T>(request: () => Promise<T>): Promise<T> => {
    for (const statement of down) await queryRows(app, statement);
    try {
      return await request();
    } finally {
      for (const statement of up) await queryRows(app, statement);
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
    const before = await state();
    const answer = await outboxDown(() => send(body(), multipart));
    expect([answer.status, answer.json.error.code]).toEqual([500, "internal"]);
    expect(await state()).toEqual(before);
    // With the outbox back, the same request goes through: the failure was the trigger's alone.
    const retry = await send(body(), multipart);
    expect(retry.status).toBe(201);
  });
});


// Each test lists the dossiers of its own organization, so none depends on what another made.
describe.each(ENGINES)("GET /dossiers on %s", async (engine) => {
  let clock = new Date("2026-03-01T10:00:00.000Z");
  const app = await appOn(engine, { now: () => clock });
  const tick = () => (clock = new Date(clock.getTime() + 1000));
  const list = async (org: Org, query: string) => {
    const answer = await call(app, "GET", `/dossiers${query}`, { key: org.key });
    expect(answer.status).toBe(200);
    return answer.json;
  };
  const names = async (org: Org, query: string) => (await list(org, query)).data.map((d: any) => d.name);
  /** `n` candidate dossiers "<prefix> 0".."<prefix> n-1", one second apart. */
  const seq = async (org: Org, n: number, prefix = "Seq") => {
    const made = [];
    for (let i = 0; i < n; i++) {
      tick();
      made.push(await create(app, org, { type: "candidate", name: `${prefix} ${i}` }));
    }
    return made;
  };

  test("C3: newest first (created_at desc, then id desc), every item a whole dossier; other organizations' left out", async () => {
    const org = await makeOrg(app, { rateLimit: 1_000_000 });
    await create(app, (await makeOrg(app)), { type: "candidate", name: "Other org" });
    const made = await seq(org, 3);
    // Three created in the same millisecond: id desc breaks the tie.
    tick();
    const same = [];
    for (let i = 0; i < 3; i++) same.push(await create(app, org, { type: "candidate", name: `Same ${i}` }));
    const body = await list(org, "");
    expect(body.meta).toEqual({ total: 6, page: 1, per_page: 25, next_after: null });
    const expected = [...same.sort((a, b) => (a.id < b.id ? 1 : -1)), ...made.reverse()];
    expect(body.data).toEqual(expected);
    for (const d of body.data) expect(Object.keys(d)).toEqual(DOSSIER_FIELDS);
  });

  test("C3: pagination edges: last page, past the end, per_page 100", async () => {
    const org = await makeOrg(app, { rateLimit: 1_000_000 });
    await seq(org, 6);
    const all = (await list(org, "?per_page=100")).data;
    expect(all.length).toBe(6);
    const p1 = await list(org, "?per_page=4&page=1");
    const p2 = await list(org, "?per_page=4&page=2");
    expect(p1.meta).toEqual({ total: 6, page: 1, per_page: 4, next_after: expect.any(String) });
    expect(p2.meta).toEqual({ total: 6, page: 2, per_page: 4, next_after: null });
    expect([...p1.data, ...p2.data]).toEqual(all);
    expect(await list(org, "?per_page=4&page=3")).toEqual({ data: [], meta: { total: 6, page: 3, per_page: 4, next_after: null } });
    expect(await list(org, "?per_page=6&page=1")).toMatchObject({ meta: { total: 6 } });
  });

  test("C10: without status archived dossiers are left out; status=archived lists them; status filters", async () => {
    const org = await makeOrg(app, { rateLimit: 1_000_000 });
    await seq(org, 2);
    tick();
    const won = await create(app, org, { type: "sales", name: "Won deal" });
    await call(app, "PATCH", `/dossiers/${won.id}`, { key: org.key, body: { status: "won" } });
    tick();
    const gone = await create(app, org, { type: "candidate", name: "Gone" });
    await call(app, "DELETE", `/dossiers/${gone.id}`, { key: org.key });
    expect(await names(org, "")).not.toContain("Gone");
    expect(await names(org, "")).toContain("Won deal");
    expect(await names(org, "?status=archived")).toEqual(["Gone"]);
    expect(await names(org, "?status=won")).toEqual(["Won deal"]);
    const active = (await list(org, "?status=active")).data;
    expect(active.length).toBe(2);
    expect(active.every((d: any) => d.status === "active")).toBe(true);
  });

  test("api-v1: type, stage_id, flow_id and assigned_to filters (C5)", async () => {
    const org = await makeOrg(app, { rateLimit: 1_000_000 });
    const other = await makeOrg(app);
    const { candidate, sales } = await flowsOf(app, org);
    const assigned = "5d1e2c3b-4a59-4687-9a0b-1c2d3e4f5a6b";
    await seq(org, 2);
    tick();
    const won = await create(app, org, { type: "sales", name: "Won deal" });
    await call(app, "PATCH", `/dossiers/${won.id}`, { key: org.key, body: { status: "won" } });
    tick();
    const a = await create(app, org, { type: "sales", name: "Assigned deal", assigned_to: assigned.toUpperCase() });
    expect(a.assigned_to).toBe(assigned);
    await call(app, "PATCH", `/dossiers/${a.id}`, { key: org.key, body: { current_stage_id: sales.stages[2].id } });
    expect(await names(org, "?type=sales")).toEqual(["Assigned deal", "Won deal"]);
    const candidates = (await list(org, "?type=candidate")).data;
    expect(candidates.length).toBe(2);
    expect(candidates.every((d: any) => d.type === "candidate")).toBe(true);
    expect(await names(org, `?stage_id=${sales.stages[2].id}`)).toEqual(["Assigned deal"]);
    expect(await names(org, `?stage_id=${sales.stages[2].id.toUpperCase()}`)).toEqual(["Assigned deal"]);
    expect(await names(org, `?assigned_to=${assigned}`)).toEqual(["Assigned deal"]);
    expect(await names(org, `?flow_id=${sales.id}`)).toEqual(["Assigned deal", "Won deal"]);
    expect((await list(org, `?flow_id=${candidate.id}`)).meta.total).toBe(2);
    expect(await names(org, `?flow_id=${sales.id}&stage_id=${sales.stages[0].id}`)).toEqual(["Won deal"]);
    expect(await names(org, `?type=sales&status=won`)).toEqual(["Won deal"]);
    expect((await list(org, `?flow_id=${(await flowsOf(app, other)).candidate.id}`)).meta.total).toBe(0);
  });

  test("C5, C10: q is a case-insensitive substring over name, email and company (JavaScript lower-casing), not role or phone", async () => {
    const org = await makeOrg(app, { rateLimit: 1_000_000 });
    await seq(org, 3);
    tick();
    await create(app, org, { type: "candidate", name: "Zoë ÅNGSTRÖM", email: "zoe@Mail.example", company: "Straße GmbH", role: "Needle", phone: "Needle" });
    await create(app, org, { type: "candidate", name: "\u212Aelvin" }); // KELVIN SIGN lower-cases to "k"
    expect(await names(org, "?q=ångström")).toEqual(["Zoë ÅNGSTRÖM"]);
    expect(await names(org, "?q=ZOË")).toEqual(["Zoë ÅNGSTRÖM"]);
    expect(await names(org, "?q=MAIL.EX")).toEqual(["Zoë ÅNGSTRÖM"]);
    expect(await names(org, "?q=straSSe")).toEqual([]);
    expect(await names(org, "?q=STRAßE")).toEqual(["Zoë ÅNGSTRÖM"]);
    expect(await names(org, "?q=needle")).toEqual([]);
    expect(await names(org, "?q=kelvin")).toEqual(["\u212Aelvin"]);
    expect(await names(org, "?q=%25")).toEqual([]); // no LIKE wildcards
    expect((await list(org, "?q=seq&per_page=2")).meta).toEqual({ total: 3, page: 1, per_page: 2, next_after: expect.any(String) });
    expect(await names(org, "?q=seq&per_page=2&page=2")).toEqual(["Seq 0"]);
  });

  test("C5, C10: overdue=true lists active dossiers whose stage_due_at has passed; overdue=false the others", async () => {
    // Its own app and clock: the test moves time.
    let now = new Date("2026-03-01T10:00:00.000Z");
    const fresh = await appOn(engine, { now: () => now });
    const o = await makeOrg(fresh);
    const { candidate } = await flowsOf(fresh, o);
    const late = await create(fresh, o, { type: "candidate", name: "Late" }); // Applied: 3 days
    const won = await create(fresh, o, { type: "candidate", name: "Late but won" });
    await call(fresh, "PATCH", `/dossiers/${won.id}`, { key: o.key, body: { status: "won" } });
    const hired = await create(fresh, o, { type: "candidate", name: "No deadline" });
    await call(fresh, "PATCH", `/dossiers/${hired.id}`, { key: o.key, body: { current_stage_id: candidate.stages[4].id } });
    const on = async (q: string) => (await call(fresh, "GET", `/dossiers?${q}`, { key: o.key })).json.data.map((d: any) => d.name).sort();
    expect(await on("overdue=true")).toEqual([]);
    expect(await on("overdue=false")).toEqual(["Late", "Late but won", "No deadline"]);
    now = new Date(Date.parse(late.stage_due_at) - 1);
    expect(await on("overdue=true")).toEqual([]);
    now = new Date(Date.parse(late.stage_due_at) + 1);
    expect(await on("overdue=true")).toEqual(["Late"]);
    expect(await on("overdue=false")).toEqual(["Late but won", "No deadline"]);
    expect(await on("overdue=true&type=sales")).toEqual([]);
    // Moving the dossier to a new stage restarts its clock.
    await call(fresh, "PATCH", `/dossiers/${late.id}`, { key: o.key, body: { current_stage_id: candidate.stages[1].id } });
    expect(await on("overdue=true")).toEqual([]);
  });
});

scenarios("GET /dossiers: query rules", dossiers, [
  ...["per_page=101", "per_page=0", "page=0", "page=-1", "per_page=2.5", "page=x"].map((query) => ({
    name: `C3: ${query} → 400 invalid_body`, method: "GET" as const, path: `/dossiers?${query}`, status: 400, json: refused("invalid_body"),
  })),
  ...["type=partner", "status=deleted", "stage_id=abc", "flow_id=abc", "assigned_to=abc", "overdue=yes", "overdue=1", "overdue="].map((query) => ({
    name: `C10: ${query} → 400 invalid_body`, method: "GET" as const, path: `/dossiers?${query}`, status: 400, json: refused("invalid_body"),
  })),
  {
    name: "C3: unknown query parameters are ignored", method: "GET", path: "/dossiers?colour=red",
    status: 200, json: ({ dossier }) => ({ data: [dossier], meta: { total: 1 } }),
  },
  {
    name: "C3: per_page 100 is the largest accepted", method: "GET", path: "/dossiers?per_page=100",
    status: 200, json: { meta: { total: 1, page: 1, per_page: 100 } },
  },
]);

scenarios("GET /dossiers/{id}", dossiers, [
  ...["not-a-uuid", UUID, "123"].map((id) => ({
    name: `C3: ${id} → 404 not_found`, method: "GET" as const, path: `/dossiers/${id}`, status: 404, json: refused("not_found"),
  })),
  {
    name: "C3: an upper-case id names the same dossier", method: "GET", path: ({ dossier }) => `/dossiers/${dossier.id.toUpperCase()}`,
    status: 200, json: ({ dossier }) => ({ data: dossier }),
  },
  {
    name: "tenancy: another organization's dossier → 404 not_found", method: "GET", path: "/dossiers/{theirs}", status: 404, json: refused("not_found"),
  },
]);
describe.each(ENGINES)("PATCH /dossiers/{id} on %s", async (engine) => {
  let clock = new Date("2026-05-01T08:00:00.000Z");
  const tick = () => (clock = new Date(clock.getTime() + 60_000));
  const app = await appOn(engine, { now: () => clock });
  const org = await makeOrg(app, { rateLimit: 1_000_000 });
  const patch = (id: string, body: unknown, key = org.key) => call(app, "PATCH", `/dossiers/${id}`, { key, body });

  test("every field of the PATCH table changes; dossier.updated carries the whole dossier and previous_attributes of exactly the changed fields", async () => {
    const d = await create(app, org, { type: "sales", name: "Deal", email: "old@example.com", company: "Old" });
    tick();
    const changes = {
      name: "  New deal  ", email: "new@example.com", phone: "123", company: "Old", role: "Buyer", contact_person: "Jim",
      deal_size: 99.5, deal_currency: "GBP", status: "lost", assigned_to: UUID, intake_notes: "notes",
    };
    const eventsBefore = (await eventsOf(app, org)).length;
    const answer = await patch(d.id, changes);
    expect(answer.status).toBe(200);
    const after = answer.json.data;
    expect(after).toEqual({ ...d, ...changes, name: "New deal", updated_at: clock.toISOString() });
    const events = (await eventsOf(app, org)).slice(eventsBefore);
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
    expect((await eventsOf(app, org)).at(-1)!.body.previous_attributes).toEqual({
      email: "x@example.com", phone: "1", company: "C", role: "R", contact_person: "P", deal_size: 1, deal_currency: "EUR",
      assigned_to: UUID, intake_notes: "I",
    });
  });

  test("C7: a new stage emits dossier.stage_changed {id, current_stage_id, previous_stage_id, status}, then dossier.updated; stage_entered_at and stage_due_at follow", async () => {
    const { candidate } = await flowsOf(app, org);
    const d = await create(app, org, { type: "candidate", name: "Mover" });
    tick();
    const n = (await eventsOf(app, org)).length;
    const answer = await patch(d.id, { current_stage_id: candidate.stages[2].id, status: "won" });
    const after = answer.json.data;
    expect(after.current_stage_id).toBe(candidate.stages[2].id);
    expect(after.stage_entered_at).toBe(clock.toISOString());
    expect(after.stage_due_at).toBe(new Date(clock.getTime() + candidate.stages[2].deadline_days * DAY).toISOString());
    const events = (await eventsOf(app, org)).slice(n);
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
    const n = (await eventsOf(app, org)).length;
    const after = (await patch(d.id, { current_stage_id: null })).json.data;
    expect(after).toMatchObject({ current_stage_id: null, stage_entered_at: null, stage_due_at: null });
    const events = (await eventsOf(app, org)).slice(n);
    expect(events.map((e) => e.type)).toEqual(["dossier.stage_changed", "dossier.updated"]);
    expect(events[0].body.data).toEqual({ id: d.id, current_stage_id: null, previous_stage_id: d.current_stage_id, status: "active" });
    // And back into a stage.
    const back = (await patch(d.id, { current_stage_id: d.current_stage_id })).json.data;
    expect(back.stage_entered_at).toBe(clock.toISOString());
    expect((await eventsOf(app, org)).slice(n + 2).map((e) => e.type)).toEqual(["dossier.stage_changed", "dossier.updated"]);
  });

  test("api-v1 state table: any status may follow any status; PATCH status archived emits dossier.updated only, and a PATCH restores", async () => {
    const d = await create(app, org, { type: "candidate", name: "Cycle" });
    const n = (await eventsOf(app, org)).length;
    for (const status of ["won", "lost", "active", "archived", "lost", "archived", "active"]) {
      const answer = await patch(d.id, { status });
      expect(answer.json.data.status).toBe(status);
    }
    const events = (await eventsOf(app, org)).slice(n);
    expect(events.map((e) => e.type)).toEqual(Array(7).fill("dossier.updated"));
    expect(events.map((e) => e.body.previous_attributes.status)).toEqual(["active", "won", "lost", "active", "archived", "lost", "archived"]);
  });

});

/** Fixtures of the PATCH rows: the flows, a candidate dossier (`dossier`), a sales one (`deal`)
 * and the other organization's dossier (`theirs`). */
async function patchFixtures(world: World) {
  return {
    ...(await flows(world)),
    ...(await dossiers(world)),
    deal: await create(world.app, world.org, { type: "sales", name: "Same", email: "same@example.com", deal_size: 10 }),
  };
}

/** A PATCH of `dossier` refused with 400 invalid_body naming `field`, changing nothing. */
const badPatch = (name: string, body: Row<Awaited<ReturnType<typeof patchFixtures>>>["body"], field: string) =>
  ({ name: `C3, C5, C10: PATCH ${name} → 400 invalid_body naming ${field}, nothing changed`, method: "PATCH", path: "/dossiers/{dossier}", body, status: 400, json: refused("invalid_body", field) }) as const;

/** A PATCH of the sales dossier `deal` that changes nothing: 200, the same dossier, no event, no row changed. */
const samePatch = (name: string, body: Row<Awaited<ReturnType<typeof patchFixtures>>>["body"]) =>
  ({ name: `C5, C10: a PATCH that changes nothing (${name}) answers 200, emits nothing, keeps updated_at`, method: "PATCH", path: "/dossiers/{deal}", body, status: 200, json: ({ deal }: { deal: unknown }) => ({ data: deal }), unchanged: true }) as const;

scenarios("PATCH /dossiers/{id}: rules", patchFixtures, [
  samePatch("{}", {}),
  samePatch("the same name", { name: "Same" }),
  samePatch("the same name once trimmed", { name: "  Same " }),
  samePatch("the same values, null for an unset field", { email: "same@example.com", deal_size: 10, phone: null }),
  samePatch("the same stage and status", ({ deal }) => ({ current_stage_id: deal.current_stage_id, status: "active" })),
  {
    name: "C10: sales-only fields may be set to null on a candidate (nothing to clear: no change)",
    method: "PATCH", path: "/dossiers/{dossier}", body: { deal_size: null, deal_currency: null, contact_person: null },
    status: 200, json: ({ dossier }) => ({ data: dossier }), unchanged: true,
  },
  badPatch("name null", { name: null }, "name"),
  badPatch("status null", { status: null }, "status"),
  badPatch("name blank", { name: "  " }, "name"),
  badPatch("status unknown", { status: "deleted" }, "status"),
  badPatch("type (not patchable)", { type: "sales" }, "type"),
  badPatch("flow_id (not patchable)", ({ sales }) => ({ flow_id: sales.id }), "flow_id"),
  badPatch("id (not patchable)", { id: UUID }, "id"),
  badPatch("created_at (read-only)", { created_at: "2026-01-01T00:00:00.000Z" }, "created_at"),
  badPatch("contact_id (not patchable)", { contact_id: UUID }, "contact_id"),
  badPatch("cv_url (read-only)", { cv_url: null }, "cv_url"),
  badPatch("a stage of another flow of the organization", ({ sales }) => ({ current_stage_id: sales.stages[1].id }), "current_stage_id"),
  badPatch("a stage of another organization", ({ theirFlow }) => ({ current_stage_id: theirFlow.stages[1].id }), "current_stage_id"),
  badPatch("an unknown stage", { current_stage_id: UUID }, "current_stage_id"),
  badPatch("a stage id that is not a uuid", { current_stage_id: "first" }, "current_stage_id"),
  badPatch("a sales-only field on a candidate", { deal_size: 4 }, "deal_size"),
  badPatch("contact_person on a candidate", { contact_person: "Jo" }, "contact_person"),
  badPatch("a bad email", { email: "nope" }, "email"),
  badPatch("a 201-character company", { company: "c".repeat(201) }, "company"),
  badPatch("assigned_to not a uuid", { assigned_to: "me" }, "assigned_to"),
  {
    name: "C3: a sales dossier's deal_size must be ≥ 0 on PATCH → 400 invalid_body",
    method: "PATCH", path: "/dossiers/{deal}", body: { deal_size: -0.01 }, status: 400, json: refused("invalid_body", "deal_size"),
  },
  {
    name: "C3: a sales dossier's deal_currency must be known on PATCH → 400 invalid_body",
    method: "PATCH", path: "/dossiers/{deal}", body: { deal_currency: "ABC" }, status: 400, json: refused("invalid_body", "deal_currency"),
  },
  {
    name: "C3: a sales dossier takes deal_currency JPY and deal_size 0 on PATCH; dossier.updated",
    method: "PATCH", path: "/dossiers/{deal}", body: { deal_currency: "JPY", deal_size: 0 },
    status: 200, json: { data: { deal_currency: "JPY", deal_size: 0 } }, events: ["dossier.updated"],
  },
  {
    name: "C3: order of checks: an unknown dossier with a bad body → 404 not_found",
    method: "PATCH", path: `/dossiers/${UUID}`, body: { type: "bad" }, status: 404, json: refused("not_found"),
  },
  {
    name: "C3: order of checks: an unknown dossier with a body that is not JSON → 404 not_found",
    method: "PATCH", path: `/dossiers/${UUID}`, raw: { body: "{nope", contentType: "application/json" }, status: 404, json: refused("not_found"),
  },
  {
    name: "C3: order of checks: 403 before 404 (dossiers:read alone, unknown dossier)",
    as: ["dossiers:read"], method: "PATCH", path: `/dossiers/${UUID}`, body: {}, status: 403, json: refused("forbidden"),
  },
  {
    name: "C3: a body that is not JSON on an existing dossier → 400 invalid_body",
    method: "PATCH", path: "/dossiers/{dossier}", raw: { body: "name=x", contentType: "application/x-www-form-urlencoded" }, status: 400, json: refused("invalid_body"),
  },
  {
    name: "tenancy: PATCH of another organization's dossier → 404 not_found, nothing changed",
    method: "PATCH", path: "/dossiers/{theirs}", body: { name: "Mine now" }, status: 404, json: refused("not_found"),
  },
], { appOptions: { now: movingClock("2026-05-01T08:00:00.000Z") } });

describe.each(ENGINES)("DELETE /dossiers/{id} on %s", async (engine) => {
  const app = await appOn(engine);
  const org = await makeOrg(app);

  test("C5, C10: archives and keeps the data; dossier.deleted carries the whole archived dossier", async () => {
    const d = await create(app, org, { type: "candidate", name: "Archive me", email: "arch@example.com" });
    const n = (await eventsOf(app, org)).length;
    const answer = await call(app, "DELETE", `/dossiers/${d.id}`, { key: org.key });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ data: { id: d.id, status: "archived" } });
    const kept = (await call(app, "GET", `/dossiers/${d.id}`, { key: org.key })).json.data;
    expect(kept).toMatchObject({ ...d, status: "archived", updated_at: expect.any(String) });
    const events = (await eventsOf(app, org)).slice(n);
    expect(events.map((e) => e.type)).toEqual(["dossier.deleted"]);
    expect(events[0].body.data).toEqual(kept);
  });
});

scenarios("DELETE /dossiers/{id}: rules", async (world) => {
  const fixtures = await dossiers(world);
  const archived = await create(world.app, world.org, { type: "candidate", name: "Archived" });
  await call(world.app, "DELETE", `/dossiers/${archived.id}`, { key: world.org.key });
  return { ...fixtures, archived: (await call(world.app, "GET", `/dossiers/${archived.id}`, { key: world.org.key })).json.data };
}, [
  {
    name: "C5, C10: DELETE archives: 200 {id, status: archived}; dossier.deleted only",
    method: "DELETE", path: "/dossiers/{dossier}", status: 200, json: ({ dossier }) => ({ data: { id: dossier.id, status: "archived" } }), events: ["dossier.deleted"],
  },
  {
    name: "C5: DELETE of an archived dossier answers 200 again, emits nothing, changes nothing",
    method: "DELETE", path: "/dossiers/{archived}", status: 200, json: ({ archived }) => ({ data: { id: archived.id, status: "archived" } }), unchanged: true,
  },
  ...[UUID, "nope"].map((id) => ({
    name: `C3: DELETE of ${id} → 404 not_found, nothing changed`, method: "DELETE" as const, path: `/dossiers/${id}`, status: 404, json: refused("not_found"),
  })),
  {
    name: "tenancy: DELETE of another organization's dossier → 404 not_found, nothing changed",
    method: "DELETE", path: "/dossiers/{theirs}", status: 404, json: refused("not_found"),
  },
]);

scenarios("tenancy: every dossier, CV and note route answers 404 for another organization's dossier", async ({ app, org }) => {
  const dossier = await create(app, org, { type: "candidate", name: "Mine" });
  await call(app, "POST", `/dossiers/${dossier.id}/cv`, { key: org.key, raw: new TextEncoder().encode("%PDF-1.4 mine"), contentType: "application/pdf" });
  await call(app, "POST", `/dossiers/${dossier.id}/notes`, { key: org.key, body: { content: "mine" } });
  return { dossier };
}, ([
  ["GET", "", {}],
  ["PATCH", "", { body: { name: "x" } }],
  ["DELETE", "", {}],
  ["GET", "/cv", {}],
  ["POST", "/cv", { raw: { body: new TextEncoder().encode("%PDF-1.4\n"), contentType: "application/pdf" } }],
  ["GET", "/notes", {}],
  ["POST", "/notes", { body: { content: "hello" } }],
] as const).map(([method, suffix, request]) => ({
  name: `tenancy: ${method} /dossiers/{id}${suffix} of another organization's dossier → 404 not_found`,
  as: "another org", method, path: `/dossiers/{dossier}${suffix}`, ...request, status: 404, json: refused("not_found"),
})));
