// api-v1 "Dossier-contact link", "Dossier-contact links"; C3 (order of checks), C6 (201/200,
// demotion, contact_id follows the primary), C10 (order of the list, meta, re-link rules, unlink of a
// contact not linked, no events, contact_id of another organization).
import { describe, expect, test } from "bun:test";
import type { DossierApp } from "../../src/app";
import { dossiers } from "../../src/db/schema";
import { newId } from "../../src/ids";
import { call, makeApp, makeKey, makeOrg, rowCounts, type Org } from "../helpers";

function clock(start = "2026-03-01T12:00:00.000Z") {
  let time = Date.parse(start);
  return { now: () => new Date(time), tick: (ms = 1) => void (time += ms) };
}

/** A dossier row written directly (the dossiers endpoints are another issue's). */
function insertDossier(app: DossierApp, organizationId: string, status: "active" | "archived" = "active") {
  const now = app.dossier.now().toISOString();
  const id = newId();
  app.dossier.store.orm.insert(dossiers).values({ id, organizationId, type: "sales", name: "Deal", status, createdAt: now, updatedAt: now }).run();
  return id;
}

const dossierRow = (app: DossierApp, id: string) =>
  app.dossier.store.sqlite.query<{ contact_id: string | null; updated_at: string }, [string]>("SELECT contact_id, updated_at FROM dossiers WHERE id = ?").get(id)!;

async function contact(app: DossierApp, org: Org, full_name: string, extra: Record<string, unknown> = {}) {
  const answer = await call(app, "POST", "/contacts", { key: org.key, body: { full_name, ...extra } });
  if (answer.status !== 201) throw new Error(answer.text);
  return answer.json.data as { id: string; full_name: string; email: string | null; company: string | null };
}

const link = (app: DossierApp, org: Org, dossierId: string, body: Record<string, unknown> | unknown[], key = org.key) =>
  call(app, "POST", `/dossiers/${dossierId}/contacts`, { key, body });

describe("POST /dossiers/{id}/contacts (C6, C10)", () => {
  const time = clock();
  const app = makeApp({ now: time.now });
  const org = makeOrg(app);

  test("C6: 201 for a new link with the link shape; is_primary defaults to false; no event, updated_at kept", async () => {
    const d = insertDossier(app, org.id);
    const c = await contact(app, org, "Linked Once");
    const before = rowCounts(app);
    const { updated_at } = dossierRow(app, d);
    time.tick(1000);
    const answer = await link(app, org, d, { contact_id: c.id, role_on_dossier: "champion" });
    expect(answer.status).toBe(201);
    expect(answer.json).toEqual({ data: { dossier_id: d, contact_id: c.id, role_on_dossier: "champion", is_primary: false } });
    expect(rowCounts(app)).toEqual({ ...before, dossier_contacts: before.dossier_contacts + 1 });
    expect(dossierRow(app, d)).toEqual({ contact_id: null, updated_at });
  });

  test("C6/C10: re-link answers 200, updates the role, keeps is_primary without it, keeps the link time", async () => {
    const d = insertDossier(app, org.id);
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
    expect(dossierRow(app, d).contact_id).toBe(second.id);
    // Re-link without is_primary keeps false; with is_primary false on the primary leaves none.
    expect((await link(app, org, d, { contact_id: first.id, role_on_dossier: "introducer" })).json.data.is_primary).toBe(false);
    const dropped = await link(app, org, d, { contact_id: second.id, role_on_dossier: "gatekeeper", is_primary: false });
    expect(dropped.status).toBe(200);
    expect(dossierRow(app, d).contact_id).toBeNull();
    const after = await call(app, "GET", `/dossiers/${d}/contacts`, { key: org.key });
    expect(after.json.data.map((l: { contact_id: string }) => l.contact_id)).toEqual([first.id, second.id]);
  });

  test("C6: is_primary true demotes the previous primary; the dossier's contact_id follows; no event", async () => {
    const d = insertDossier(app, org.id);
    const a = await contact(app, org, "Primary A");
    const b = await contact(app, org, "Primary B");
    const events = rowCounts(app).events;
    await link(app, org, d, { contact_id: a.id, role_on_dossier: "primary", is_primary: true });
    expect(dossierRow(app, d).contact_id).toBe(a.id);
    await link(app, org, d, { contact_id: b.id, role_on_dossier: "primary", is_primary: true });
    expect(dossierRow(app, d).contact_id).toBe(b.id);
    const primaries = app.dossier.store.sqlite.query<{ contact_id: string }, [string]>("SELECT contact_id FROM dossier_contacts WHERE dossier_id = ? AND is_primary = 1").all(d);
    expect(primaries).toEqual([{ contact_id: b.id }]);
    expect(rowCounts(app).events).toBe(events);
  });

  test("C6: archived dossiers can be linked and count in dossier_count", async () => {
    const d = insertDossier(app, org.id, "archived");
    const c = await contact(app, org, "Archived link");
    expect((await link(app, org, d, { contact_id: c.id, role_on_dossier: "other" })).status).toBe(201);
    expect((await call(app, "GET", `/contacts/${c.id}`, { key: org.key })).json.data.dossier_count).toBe(1);
  });

  const rejected: [string, Record<string, unknown> | unknown[], string][] = [
    ["contact_id missing", { role_on_dossier: "other" }, "contact_id"],
    ["contact_id not a uuid", { contact_id: "abc", role_on_dossier: "other" }, "contact_id"],
    ["contact_id null", { contact_id: null, role_on_dossier: "other" }, "contact_id"],
    ["role_on_dossier missing", { contact_id: "CONTACT" }, "role_on_dossier"],
    ["role_on_dossier unknown", { contact_id: "CONTACT", role_on_dossier: "boss" }, "role_on_dossier"],
    ["is_primary not a boolean", { contact_id: "CONTACT", role_on_dossier: "other", is_primary: "yes" }, "is_primary"],
    ["is_primary null", { contact_id: "CONTACT", role_on_dossier: "other", is_primary: null }, "is_primary"],
    ["C10 unknown field", { contact_id: "CONTACT", role_on_dossier: "other", weight: 1 }, "weight"],
    ["C10 read-only dossier_id", { contact_id: "CONTACT", role_on_dossier: "other", dossier_id: newId() }, "dossier_id"],
    ["not an object", [], ""],
  ];
  test.each(rejected)("C3/C10: %s → 400 invalid_body naming the field, no row changes", async (_name, body, field) => {
    const d = insertDossier(app, org.id);
    const c = await contact(app, org, "Rejected link");
    const filled = Array.isArray(body) ? body : Object.fromEntries(Object.entries(body).map(([k, v]) => [k, v === "CONTACT" ? c.id : v]));
    const before = rowCounts(app);
    const answer = await link(app, org, d, filled);
    expect(answer.status).toBe(400);
    expect(answer.json.error.code).toBe("invalid_body");
    expect(answer.json.error.message).toContain(field);
    expect(rowCounts(app)).toEqual(before);
  });

  test("C3: a body that is not JSON → 400", async () => {
    const d = insertDossier(app, org.id);
    const answer = await call(app, "POST", `/dossiers/${d}/contacts`, { key: org.key, raw: "contact_id=1", contentType: "application/x-www-form-urlencoded" });
    expect(answer.status).toBe(400);
  });

  test("C3 order of checks: an unknown dossier with a bad body → 404 not_found", async () => {
    for (const id of [newId(), "not-a-uuid"]) {
      const answer = await link(app, org, id, { nonsense: true });
      expect(answer.status).toBe(404);
      expect(answer.json.error.code).toBe("not_found");
    }
  });

  test("C10: an unknown contact_id → 404 not_found naming contact_id, no row changes", async () => {
    const d = insertDossier(app, org.id);
    const before = rowCounts(app);
    const answer = await link(app, org, d, { contact_id: newId(), role_on_dossier: "other" });
    expect(answer.status).toBe(404);
    expect(answer.json.error.message).toContain("contact_id");
    expect(rowCounts(app)).toEqual(before);
  });

  test("a contact_id in upper case names the same contact", async () => {
    const d = insertDossier(app, org.id);
    const c = await contact(app, org, "Upper id");
    const answer = await link(app, org, d, { contact_id: c.id.toUpperCase(), role_on_dossier: "other" });
    expect(answer.status).toBe(201);
    expect(answer.json.data.contact_id).toBe(c.id);
  });
});

describe("GET /dossiers/{id}/contacts (C10 order and meta)", () => {
  const time = clock();
  const app = makeApp({ now: time.now });
  const org = makeOrg(app);

  test("C10: no contacts → data [] and meta {total: 0, page: 1, per_page: 0}", async () => {
    const d = insertDossier(app, org.id);
    const answer = await call(app, "GET", `/dossiers/${d}/contacts`, { key: org.key });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ data: [], meta: { total: 0, page: 1, per_page: 0 } });
  });

  test("C10: the primary first, then by link time, oldest first; items carry api-v1's fields; paging parameters ignored", async () => {
    const d = insertDossier(app, org.id);
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
    const d = insertDossier(app, org.id);
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      const c = await contact(app, org, `Same ms ${i}`);
      await link(app, org, d, { contact_id: c.id, role_on_dossier: "other" });
      made.push(c.id);
    }
    const answer = await call(app, "GET", `/dossiers/${d}/contacts`, { key: org.key });
    expect(answer.json.data.map((l: { contact_id: string }) => l.contact_id)).toEqual(made);
  });

  test("C3: an unknown or malformed dossier id → 404", async () => {
    for (const id of [newId(), "x"]) expect((await call(app, "GET", `/dossiers/${id}/contacts`, { key: org.key })).status).toBe(404);
  });
});

describe("DELETE /dossiers/{id}/contacts/{contact_id} (C10)", () => {
  const app = makeApp();
  const org = makeOrg(app);

  test("unlinks, keeps the contact; the primary's unlink sets contact_id null; no event", async () => {
    const d = insertDossier(app, org.id);
    const a = await contact(app, org, "Unlink primary");
    const b = await contact(app, org, "Unlink other");
    await link(app, org, d, { contact_id: a.id, role_on_dossier: "primary", is_primary: true });
    await link(app, org, d, { contact_id: b.id, role_on_dossier: "other" });
    const { updated_at } = dossierRow(app, d);
    const before = rowCounts(app);
    const answer = await call(app, "DELETE", `/dossiers/${d}/contacts/${a.id}`, { key: org.key });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ data: { dossier_id: d, contact_id: a.id, unlinked: true } });
    expect(rowCounts(app)).toEqual({ ...before, dossier_contacts: before.dossier_contacts - 1 });
    expect(dossierRow(app, d)).toEqual({ contact_id: null, updated_at });
    expect((await call(app, "GET", `/contacts/${a.id}`, { key: org.key })).json.data.dossier_count).toBe(0);
    // Unlinking a non-primary leaves the primary in place.
    await link(app, org, d, { contact_id: a.id, role_on_dossier: "primary", is_primary: true });
    await call(app, "DELETE", `/dossiers/${d}/contacts/${b.id}`, { key: org.key });
    expect(dossierRow(app, d).contact_id).toBe(a.id);
  });

  test("C10: a contact that is not linked → 404 not_found, no row changes", async () => {
    const d = insertDossier(app, org.id);
    const c = await contact(app, org, "Never linked");
    const before = rowCounts(app);
    for (const id of [c.id, newId(), "nope"]) {
      const answer = await call(app, "DELETE", `/dossiers/${d}/contacts/${id}`, { key: org.key });
      expect(answer.status).toBe(404);
      expect(answer.json.error.code).toBe("not_found");
    }
    expect((await call(app, "DELETE", `/dossiers/${newId()}/contacts/${c.id}`, { key: org.key })).status).toBe(404);
    expect(rowCounts(app)).toEqual(before);
  });
});

describe("links: scopes (api-v1: contacts:write and dossiers:write both required)", () => {
  const app = makeApp();
  const org = makeOrg(app);

  test("a key with only one of the two write scopes → 403 on POST and DELETE; GET needs contacts:read", async () => {
    const d = insertDossier(app, org.id);
    const c = await contact(app, org, "Scopes");
    await link(app, org, d, { contact_id: c.id, role_on_dossier: "other" });
    const keys = ([["contacts:write"], ["dossiers:write"], ["contacts:read", "dossiers:read"]] as const).map((scopes) => makeKey(app, org, [...scopes]));
    const before = rowCounts(app);
    const linksBefore = app.dossier.store.sqlite.query("SELECT * FROM dossier_contacts").all();
    for (const key of keys) {
      const post = await link(app, org, d, { contact_id: c.id, role_on_dossier: "champion", is_primary: true }, key);
      expect(post.status).toBe(403);
      expect(post.json.error.code).toBe("forbidden");
      expect((await call(app, "DELETE", `/dossiers/${d}/contacts/${c.id}`, { key })).status).toBe(403);
    }
    expect(rowCounts(app)).toEqual(before);
    expect(app.dossier.store.sqlite.query("SELECT * FROM dossier_contacts").all()).toEqual(linksBefore);
    const both = makeKey(app, org, ["contacts:write", "dossiers:write"]);
    expect((await link(app, org, d, { contact_id: c.id, role_on_dossier: "champion" }, both)).status).toBe(200);
    expect((await call(app, "GET", `/dossiers/${d}/contacts`, { key: makeKey(app, org, ["dossiers:read"]) })).status).toBe(403);
    expect((await call(app, "GET", `/dossiers/${d}/contacts`, { key: makeKey(app, org, ["contacts:read"]) })).status).toBe(200);
  });
});

describe("links: cross-organization 404 on every route (api-v1 Tenancy, C10)", () => {
  const app = makeApp();
  const org = makeOrg(app);
  const other = makeOrg(app);

  test("another organization's dossier or contact → 404, and no row changes", async () => {
    const mine = insertDossier(app, org.id);
    const theirs = insertDossier(app, other.id);
    const myContact = await contact(app, org, "Mine");
    const theirContact = await contact(app, other, "Theirs");
    await link(app, other, theirs, { contact_id: theirContact.id, role_on_dossier: "primary", is_primary: true });
    await link(app, org, mine, { contact_id: myContact.id, role_on_dossier: "other" });
    const before = rowCounts(app);
    const attempts = [
      call(app, "GET", `/dossiers/${theirs}/contacts`, { key: org.key }),
      link(app, org, theirs, { contact_id: myContact.id, role_on_dossier: "other" }),
      link(app, org, mine, { contact_id: theirContact.id, role_on_dossier: "other" }),
      call(app, "DELETE", `/dossiers/${theirs}/contacts/${theirContact.id}`, { key: org.key }),
      call(app, "DELETE", `/dossiers/${mine}/contacts/${theirContact.id}`, { key: org.key }),
    ];
    for (const answer of await Promise.all(attempts)) {
      expect(answer.status).toBe(404);
      expect(answer.json.error.code).toBe("not_found");
    }
    const named = await link(app, org, mine, { contact_id: theirContact.id, role_on_dossier: "other" });
    expect(named.json.error.message).toContain("contact_id");
    expect(rowCounts(app)).toEqual(before);
    expect(dossierRow(app, theirs).contact_id).toBe(theirContact.id);
  });
});

describe("C6: at most one primary after any sequence of link calls (bounded random sequence)", () => {
  const app = makeApp();
  const org = makeOrg(app, { rateLimit: 1_000_000 });

  test("300 random link, re-link and unlink calls over 2 dossiers and 5 contacts agree with a model", async () => {
    // A small seeded generator (mulberry32), so a failure replays.
    let seed = 0x5eed1234;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
    const ds = [insertDossier(app, org.id), insertDossier(app, org.id)];
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
        const primaries = app.dossier.store.sqlite
          .query<{ contact_id: string }, [string]>("SELECT contact_id FROM dossier_contacts WHERE dossier_id = ? AND is_primary = 1")
          .all(dossier);
        expect(primaries.length).toBeLessThanOrEqual(1);
        const expected = [...model.get(dossier)!].find(([, l]) => l.primary)?.[0] ?? null;
        expect<string | null>(primaries[0]?.contact_id ?? null).toBe(expected);
        expect(dossierRow(app, dossier).contact_id).toBe(expected);
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
