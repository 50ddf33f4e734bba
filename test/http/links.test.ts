// api-v1 "Dossier-contact link", "Dossier-contact links"; C3 (order of checks), C6 (201/200,
// demotion, contact_id follows the primary), C10 (order of the list, meta, re-link rules, unlink of a
// contact not linked, no events, contact_id of another organization). The rules that are one
// request and its answer are rows of scenario tables (test/helpers/scenario.ts).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { DossierApp } from "../../src/app";
import type { Store } from "../../src/db/store";
import { newId } from "../../src/ids";
import { call, makeOrg, setUp, type Org } from "../helpers";
import { ENGINES, appOn, queryRows, rowCountsOf } from "../helpers/stores";
import { refused, scenarios, type Row, type World } from "../helpers/scenario";
import { seededRandom } from "../../src/random";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

function clock(start = "2026-03-01T12:00:00.000Z") {
  let time = Date.parse(start);
  return { now: () => new Date(time), tick: (ms = 1) => void (time += ms) };
}

/** A dossier row written directly, through the store's own insert (no flow, no history, no event). */
async function insertDossier(app: DossierApp<Store>, organizationId: string, status: "active" | "archived" = "active") {
  const now = app.dossier.now().toISOString();
  const id = newId();
  await setUp(app.dossier, () =>
    app.dossier.store.dossiers.insert({
      id, organization_id: organizationId, flow_id: null, type: "sales", name: "Deal", email: null, phone: null, company: null, role: null,
      contact_person: null, status, current_stage_id: null, assigned_to: null, deal_size: null, deal_currency: null, intake_notes: null,
      cv_url: null, contact_id: null, stage_entered_at: null, stage_due_at: null, created_at: now, updated_at: now, metadata: {},
    }),
  );
  return id;
}

const dossierRow = async (app: DossierApp<Store>, id: string) =>
  (await queryRows<{ contact_id: string | null; updated_at: string }>(app, "SELECT contact_id, updated_at FROM dossiers WHERE id = ?", id))[0];

/** Row counts of every table (rowCountsOf) but the caches' generations, bookkeeping on either
 * engine: rowCountsOf leaves SQLite's out and lists PostgreSQL's, which a link bumps. */
async function dataCounts(app: DossierApp<Store>) {
  const { generations: _, ...counts } = await rowCountsOf(app);
  return counts;
}

/** The dossier's primary links, read beneath the API (`is_primary` alone: 1 on SQLite, true on PostgreSQL). */
const primariesOf = (app: DossierApp<Store>, dossierId: string) =>
  queryRows<{ contact_id: string }>(app, "SELECT contact_id FROM dossier_contacts WHERE dossier_id = ? AND is_primary", dossierId);

async function contact(app: DossierApp<Store>, org: Org, full_name: string, extra: Record<string, unknown> = {}) {
  const answer = await call(app, "POST", "/contacts", { key: org.key, body: { full_name, ...extra } });
  if (answer.status !== 201) throw new Error(answer.text);
  return answer.json.data as { id: string; full_name: string; email: string | null; company: string | null };
}

const link = (app: DossierApp<Store>, org: Org, dossierId: string, body: Record<string, unknown> | unknown[], key = org.key) =>
  call(app, "POST", `/dossiers/${dossierId}/contacts`, { key, body });

/** Fixtures: a dossier without links (`dossier`), a contact (`contact`), a dossier linked to it
 * (`linked`), and the other organization's dossier (`theirs`) linked as primary to its contact
 * (`theirContact`). */
async function linkFixtures({ app, org, other }: World) {
  const dossier = await insertDossier(app, org.id);
  const c = await contact(app, org, "Linked");
  const linked = await insertDossier(app, org.id);
  expect((await link(app, org, linked, { contact_id: c.id, role_on_dossier: "other" })).status).toBe(201);
  const theirs = await insertDossier(app, other.id);
  const theirContact = await contact(app, other, "Theirs");
  expect((await link(app, other, theirs, { contact_id: theirContact.id, role_on_dossier: "primary", is_primary: true })).status).toBe(201);
  return { dossier, contact: c, linked, theirs, theirContact };
}
type Fixtures = Awaited<ReturnType<typeof linkFixtures>>;

describe.each(ENGINES)("POST /dossiers/{id}/contacts (C6, C10) on %s", async (engine) => {
  const time = clock();
  const app = await appOn(engine, { now: time.now });
  const org = await makeOrg(app);

  test("C6: 201 for a new link with the link shape; is_primary defaults to false; no event, updated_at kept", async () => {
    const d = await insertDossier(app, org.id);
    const c = await contact(app, org, "Linked Once");
    const before = await dataCounts(app);
    const { updated_at } = (await dossierRow(app, d));
    time.tick(1000);
    const answer = await link(app, org, d, { contact_id: c.id, role_on_dossier: "champion" });
    expect(answer.status).toBe(201);
    expect(answer.json).toEqual({ data: { dossier_id: d, contact_id: c.id, role_on_dossier: "champion", is_primary: false } });
    expect(await dataCounts(app)).toEqual({ ...before, dossier_contacts: before.dossier_contacts + 1, dossier_history: before.dossier_history + 1 });
    expect((await dossierRow(app, d))).toEqual({ contact_id: null, updated_at });
  });

  test("C6/C10: re-link answers 200, updates the role, keeps is_primary without it, keeps the link time", async () => {
    const d = await insertDossier(app, org.id);
    const first = await contact(app, org, "First linked");
    const second = await contact(app, org, "Second linked");
    expect((await link(app, org, d, { contact_id: first.id, role_on_dossier: "other", is_primary: true })).status).toBe(201);
    time.tick(10);
    expect((await link(app, org, d, { contact_id: second.id, role_on_dossier: "other" })).status).toBe(201);
    time.tick(10);
    const relink = await link(app, org, d, { contact_id: first.id, role_on_dossier: "decision_maker" });
    expect(relink.status).toBe(200);
    expect(relink.json.data).toEqual({ dossier_id: d, contact_id: first.id, role_on_dossier: "decision_maker", is_primary: true });
    // Demote the primary: second becomes primary (listed first), then first keeps its original place.
    time.tick(10);
    expect((await link(app, org, d, { contact_id: second.id, role_on_dossier: "gatekeeper", is_primary: true })).status).toBe(200);
    const list = await call(app, "GET", `/dossiers/${d}/contacts`, { key: org.key });
    expect(list.json.data.map((l: { contact_id: string; is_primary: boolean }) => [l.contact_id, l.is_primary])).toEqual([
      [second.id, true],
      [first.id, false],
    ]);
    expect((await dossierRow(app, d)).contact_id).toBe(second.id);
    // Re-link without is_primary keeps false; with is_primary false on the primary leaves none.
    expect((await link(app, org, d, { contact_id: first.id, role_on_dossier: "introducer" })).json.data.is_primary).toBe(false);
    const dropped = await link(app, org, d, { contact_id: second.id, role_on_dossier: "gatekeeper", is_primary: false });
    expect(dropped.status).toBe(200);
    expect((await dossierRow(app, d)).contact_id).toBeNull();
    const after = await call(app, "GET", `/dossiers/${d}/contacts`, { key: org.key });
    expect(after.json.data.map((l: { contact_id: string }) => l.contact_id)).toEqual([first.id, second.id]);
  });

  test("C6: is_primary true demotes the previous primary; the dossier's contact_id follows; no event", async () => {
    const d = await insertDossier(app, org.id);
    const a = await contact(app, org, "Primary A");
    const b = await contact(app, org, "Primary B");
    const events = (await dataCounts(app)).events;
    await link(app, org, d, { contact_id: a.id, role_on_dossier: "primary", is_primary: true });
    expect((await dossierRow(app, d)).contact_id).toBe(a.id);
    await link(app, org, d, { contact_id: b.id, role_on_dossier: "primary", is_primary: true });
    expect((await dossierRow(app, d)).contact_id).toBe(b.id);
    const primaries = await primariesOf(app, d);
    expect(primaries).toEqual([{ contact_id: b.id }]);
    expect((await dataCounts(app)).events).toBe(events);
  });

  test("C6: archived dossiers can be linked and count in dossier_count", async () => {
    const d = await insertDossier(app, org.id, "archived");
    const c = await contact(app, org, "Archived link");
    expect((await link(app, org, d, { contact_id: c.id, role_on_dossier: "other" })).status).toBe(201);
    expect((await call(app, "GET", `/contacts/${c.id}`, { key: org.key })).json.data.dossier_count).toBe(1);
  });
});

/** A link to `dossier` refused with 400 invalid_body naming `field`; `withContact` adds the fixture contact's id. */
const badLink = (name: string, body: Record<string, unknown> | unknown[], field: string, withContact = true): Row<Fixtures> => ({
  name: `C3, C10: ${name} → 400 invalid_body naming the field, no row changes`,
  method: "POST", path: "/dossiers/{dossier}/contacts",
  body: ({ contact: c }) => (Array.isArray(body) || !withContact ? body : { contact_id: c.id, ...body }),
  status: 400, json: refused("invalid_body", field),
});

scenarios("POST /dossiers/{id}/contacts: rules", linkFixtures, [
  badLink("contact_id missing", { role_on_dossier: "other" }, "contact_id", false),
  badLink("contact_id not a uuid", { contact_id: "abc", role_on_dossier: "other" }, "contact_id", false),
  badLink("contact_id null", { contact_id: null, role_on_dossier: "other" }, "contact_id", false),
  badLink("role_on_dossier missing", {}, "role_on_dossier"),
  badLink("role_on_dossier unknown", { role_on_dossier: "boss" }, "role_on_dossier"),
  badLink("is_primary not a boolean", { role_on_dossier: "other", is_primary: "yes" }, "is_primary"),
  badLink("is_primary null", { role_on_dossier: "other", is_primary: null }, "is_primary"),
  badLink("unknown field", { role_on_dossier: "other", weight: 1 }, "weight"),
  badLink("read-only dossier_id", { role_on_dossier: "other", dossier_id: newId() }, "dossier_id"),
  badLink("a body that is not an object", [], ""),
  {
    name: "C3: a body that is not JSON → 400 invalid_body",
    method: "POST", path: "/dossiers/{dossier}/contacts", raw: { body: "contact_id=1", contentType: "application/x-www-form-urlencoded" },
    status: 400, json: refused("invalid_body"),
  },
  ...[newId(), "not-a-uuid"].map((id) => ({
    name: `C3 order of checks: an unknown dossier (${id}) with a bad body → 404 not_found`,
    method: "POST" as const, path: `/dossiers/${id}/contacts`, body: { nonsense: true }, status: 404, json: refused("not_found"),
  })),
  {
    name: "C10: an unknown contact_id → 404 not_found naming contact_id, no row changes",
    method: "POST", path: "/dossiers/{dossier}/contacts", body: { contact_id: newId(), role_on_dossier: "other" },
    status: 404, json: refused("not_found", "contact_id"),
  },
  {
    name: "C6: a contact_id in upper case names the same contact (201, no event)",
    method: "POST", path: "/dossiers/{dossier}/contacts", body: ({ contact: c }) => ({ contact_id: c.id.toUpperCase(), role_on_dossier: "other" }),
    status: 201, json: ({ contact: c }) => ({ data: { contact_id: c.id } }),
  },
]);

describe.each(ENGINES)("GET /dossiers/{id}/contacts (C10 order and meta) on %s", async (engine) => {
  const time = clock();
  const app = await appOn(engine, { now: time.now });
  const org = await makeOrg(app);

  test("C10: the primary first, then by link time, oldest first; items carry api-v1's fields; paging parameters ignored", async () => {
    const d = await insertDossier(app, org.id);
    const a = await contact(app, org, "Oldest", { email: "oldest@example.com", company: "Old Co" });
    const b = await contact(app, org, "Middle");
    const c = await contact(app, org, "Newest");
    await link(app, org, d, { contact_id: a.id, role_on_dossier: "introducer" });
    time.tick(5);
    await link(app, org, d, { contact_id: b.id, role_on_dossier: "hiring_manager" });
    time.tick(5);
    await link(app, org, d, { contact_id: c.id, role_on_dossier: "primary", is_primary: true });
    const answer = await call(app, "GET", `/dossiers/${d}/contacts?per_page=1&page=3`, { key: org.key });
    expect(answer.json).toEqual({
      data: [
        { contact_id: c.id, full_name: "Newest", email: null, company: null, role_on_dossier: "primary", is_primary: true },
        { contact_id: a.id, full_name: "Oldest", email: "oldest@example.com", company: "Old Co", role_on_dossier: "introducer", is_primary: false },
        { contact_id: b.id, full_name: "Middle", email: null, company: null, role_on_dossier: "hiring_manager", is_primary: false },
      ],
      meta: { total: 3, page: 1, per_page: 3 },
    });
  });

  test("C10: links made in the same millisecond keep the order they were made in", async () => {
    const d = await insertDossier(app, org.id);
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      const c = await contact(app, org, `Same ms ${i}`);
      await link(app, org, d, { contact_id: c.id, role_on_dossier: "other" });
      made.push(c.id);
    }
    const answer = await call(app, "GET", `/dossiers/${d}/contacts`, { key: org.key });
    expect(answer.json.data.map((l: { contact_id: string }) => l.contact_id)).toEqual(made);
  });
});

scenarios("GET /dossiers/{id}/contacts: rules", linkFixtures, [
  {
    name: "C10: no contacts → data [] and meta {total: 0, page: 1, per_page: 0}",
    method: "GET", path: "/dossiers/{dossier}/contacts", status: 200, json: { data: [], meta: { total: 0, page: 1, per_page: 0 } },
  },
  ...[newId(), "x"].map((id) => ({
    name: `C3: an unknown or malformed dossier id (${id}) → 404 not_found`, method: "GET" as const, path: `/dossiers/${id}/contacts`, status: 404, json: refused("not_found"),
  })),
]);

describe.each(ENGINES)("DELETE /dossiers/{id}/contacts/{contact_id} (C10) on %s", async (engine) => {
  const app = await appOn(engine);
  const org = await makeOrg(app);

  test("unlinks, keeps the contact; the primary's unlink sets contact_id null; no event", async () => {
    const d = await insertDossier(app, org.id);
    const a = await contact(app, org, "Unlink primary");
    const b = await contact(app, org, "Unlink other");
    await link(app, org, d, { contact_id: a.id, role_on_dossier: "primary", is_primary: true });
    await link(app, org, d, { contact_id: b.id, role_on_dossier: "other" });
    const { updated_at } = (await dossierRow(app, d));
    const before = await dataCounts(app);
    const answer = await call(app, "DELETE", `/dossiers/${d}/contacts/${a.id}`, { key: org.key });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ data: { dossier_id: d, contact_id: a.id, unlinked: true } });
    expect(await dataCounts(app)).toEqual({ ...before, dossier_contacts: before.dossier_contacts - 1, dossier_history: before.dossier_history + 1 });
    expect((await dossierRow(app, d))).toEqual({ contact_id: null, updated_at });
    expect((await call(app, "GET", `/contacts/${a.id}`, { key: org.key })).json.data.dossier_count).toBe(0);
    // Unlinking a non-primary leaves the primary in place.
    await link(app, org, d, { contact_id: a.id, role_on_dossier: "primary", is_primary: true });
    await call(app, "DELETE", `/dossiers/${d}/contacts/${b.id}`, { key: org.key });
    expect((await dossierRow(app, d)).contact_id).toBe(a.id);
  });
});

scenarios("DELETE /dossiers/{id}/contacts/{contact_id}: rules", linkFixtures, [
  ...([["a contact that is not linked", "{contact}"], ["an unknown contact", newId()], ["a malformed contact id", "nope"]] as const).map(([what, id]) => ({
    name: `C10: ${what} → 404 not_found, no row changes`, method: "DELETE" as const, path: `/dossiers/{dossier}/contacts/${id}`, status: 404, json: refused("not_found"),
  })),
  {
    name: "C3: an unknown dossier → 404 not_found, no row changes", method: "DELETE", path: `/dossiers/${newId()}/contacts/{contact}`, status: 404, json: refused("not_found"),
  },
]);

scenarios("links: scopes (api-v1: contacts:write and dossiers:write both required)", linkFixtures, [
  ...([["contacts:write"], ["dossiers:write"], ["contacts:read", "dossiers:read"]] as const).flatMap((scopes) => [
    {
      name: `api-v1: a key with only ${scopes.join(" and ")} cannot link → 403 forbidden, no row changes`,
      as: [...scopes], method: "POST" as const, path: "/dossiers/{linked}/contacts",
      body: ({ contact: c }: Fixtures) => ({ contact_id: c.id, role_on_dossier: "champion", is_primary: true }), status: 403, json: refused("forbidden"),
    },
    {
      name: `api-v1: a key with only ${scopes.join(" and ")} cannot unlink → 403 forbidden, no row changes`,
      as: [...scopes], method: "DELETE" as const, path: "/dossiers/{linked}/contacts/{contact}", status: 403, json: refused("forbidden"),
    },
  ]),
  {
    name: "api-v1: contacts:write and dossiers:write together re-link → 200, no event",
    as: ["contacts:write", "dossiers:write"], method: "POST", path: "/dossiers/{linked}/contacts",
    body: ({ contact: c }) => ({ contact_id: c.id, role_on_dossier: "champion" }),
    status: 200, json: ({ linked, contact: c }) => ({ data: { dossier_id: linked, contact_id: c.id, role_on_dossier: "champion", is_primary: false } }),
  },
  {
    name: "api-v1: listing a dossier's contacts needs contacts:read (dossiers:read alone → 403)",
    as: ["dossiers:read"], method: "GET", path: "/dossiers/{linked}/contacts", status: 403, json: refused("forbidden"),
  },
  {
    name: "api-v1: contacts:read lists a dossier's contacts",
    as: ["contacts:read"], method: "GET", path: "/dossiers/{linked}/contacts", status: 200, json: ({ contact: c }) => ({ data: [{ contact_id: c.id }], meta: { total: 1 } }),
  },
]);

scenarios("links: cross-organization 404 on every route (api-v1 Tenancy, C10)", linkFixtures, [
  { name: "api-v1 Tenancy: listing another organization's dossier's contacts → 404", method: "GET", path: "/dossiers/{theirs}/contacts", status: 404, json: refused("not_found") },
  {
    name: "api-v1 Tenancy: linking a contact to another organization's dossier → 404, no row changes",
    method: "POST", path: "/dossiers/{theirs}/contacts", body: ({ contact: c }) => ({ contact_id: c.id, role_on_dossier: "other" }), status: 404, json: refused("not_found"),
  },
  {
    name: "C10: linking another organization's contact → 404 not_found naming contact_id, no row changes",
    method: "POST", path: "/dossiers/{dossier}/contacts", body: ({ theirContact }) => ({ contact_id: theirContact.id, role_on_dossier: "other" }), status: 404, json: refused("not_found", "contact_id"),
  },
  {
    name: "api-v1 Tenancy: unlinking from another organization's dossier → 404, its link kept",
    method: "DELETE", path: "/dossiers/{theirs}/contacts/{theirContact}", status: 404, json: refused("not_found"),
  },
  {
    name: "api-v1 Tenancy: unlinking another organization's contact from my dossier → 404",
    method: "DELETE", path: "/dossiers/{linked}/contacts/{theirContact}", status: 404, json: refused("not_found"),
  },
]);

describe.each(ENGINES)("C6: at most one primary after any sequence of link calls (bounded random sequence) on %s", async (engine) => {
  const app = await appOn(engine);
  const org = await makeOrg(app, { rateLimit: 1_000_000 });

  test("300 random link, re-link and unlink calls over 2 dossiers and 5 contacts agree with a model", async () => {
    // Seeded, so a failure replays.
    const random = seededRandom(0x5eed1234);
    const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
    const ds = [await insertDossier(app, org.id), await insertDossier(app, org.id)];
    const cs: string[] = [];
    for (let i = 0; i < 5; i++) cs.push((await contact(app, org, `Random ${i}`)).id);
    const roles = ["primary", "hiring_manager", "decision_maker", "champion", "gatekeeper", "introducer", "other"] as const;
    // model: dossier → contact → { role, primary }
    const model = new Map(ds.map((d) => [d, new Map<string, { role: string; primary: boolean }>()]));

    for (let step = 0; step < 300; step++) {
      const d = pick(ds);
      const c = pick(cs);
      const links = model.get(d)!;
      if (random() < 0.25) {
        const answer = await call(app, "DELETE", `/dossiers/${d}/contacts/${c}`, { key: org.key });
        expect(answer.status).toBe(links.has(c) ? 200 : 404);
        links.delete(c);
      } else {
        const role = pick(roles);
        const choice = pick([true, false, undefined]);
        const answer = await link(app, org, d, { contact_id: c, role_on_dossier: role, ...(choice === undefined ? {} : { is_primary: choice }) });
        expect(answer.status).toBe(links.has(c) ? 200 : 201);
        const primary = choice ?? links.get(c)?.primary ?? false;
        if (primary) for (const l of links.values()) l.primary = false;
        links.set(c, { role, primary });
        expect(answer.json.data).toEqual({ dossier_id: d, contact_id: c, role_on_dossier: role, is_primary: primary });
      }
      // The invariants, after every call, straight from the database.
      for (const dossier of ds) {
        const primaries = await primariesOf(app, dossier);
        expect(primaries.length).toBeLessThanOrEqual(1);
        const expected = [...model.get(dossier)!].find(([, l]) => l.primary)?.[0] ?? null;
        expect<string | null>(primaries[0]?.contact_id ?? null).toBe(expected);
        expect((await dossierRow(app, dossier)).contact_id).toBe(expected);
      }
    }
    for (const d of ds) {
      const listed = (await call(app, "GET", `/dossiers/${d}/contacts`, { key: org.key })).json.data as { contact_id: string; role_on_dossier: string; is_primary: boolean }[];
      const expected = model.get(d)!;
      expect(listed.length).toBe(expected.size);
      expect(listed.filter((l) => l.is_primary).length).toBeLessThanOrEqual(1);
      if (listed.some((l) => l.is_primary)) expect(listed[0].is_primary).toBe(true);
      for (const l of listed) expect(expected.get(l.contact_id)).toEqual({ role: l.role_on_dossier, primary: l.is_primary });
    }
  });
});
