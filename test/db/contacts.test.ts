// Contacts' query module with the list's search (src/db/contacts.ts + contact-search.ts,
// src/db/pg/contacts.ts) on the store under test: the same answers on both engines, one
// organization's contacts never another's, and the search's matches equal across engines on names
// with accents, case, `%`, `_` and `\`. Dossiers have no query module on PostgreSQL yet: the tests
// insert them (and their links) as rows (insertRows).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { ContactPageQuery, ContactRow } from "../../src/db/contacts";
import { ENGINES, insertRows, twoOrgs, type EngineStore } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts); PostgreSQL starts once

const T0 = "2026-01-01T00:00:00.000Z";
const T1 = "2026-01-02T00:00:00.000Z";
const T2 = "2026-01-03T00:00:00.000Z";

const fold = (text: string) => text.toLowerCase();

const row = (id: string, organizationId: string, fullName: string, fields: Partial<ContactRow> = {}): ContactRow => ({
  id,
  organizationId,
  fullName,
  email: null,
  emailFolded: null,
  phone: null,
  linkedinUrl: null,
  company: null,
  role: null,
  city: null,
  kind: '["candidate"]',
  kindMask: 1,
  notes: null,
  poolAddedAt: null,
  poolExpiresAt: null,
  createdAt: T0,
  updatedAt: T0,
  metadata: "{}",
  ...fields,
  ...(fields.email ? { emailFolded: fold(fields.email) } : {}),
});

/** Inserts the row as the service does: then the search row folded as JavaScript folds (the
 * triggers fold ASCII only). */
async function put(s: EngineStore, r: ContactRow): Promise<boolean> {
  const ok = await s.contacts.insert(r);
  if (ok) {
    await s.contacts.setSearchText(r.organizationId, r.id, {
      fullName: fold(r.fullName),
      company: r.company === null ? null : fold(r.company),
      role: r.role === null ? null : fold(r.role),
    });
  }
  return ok;
}

const pageQuery = (q: Partial<ContactPageQuery>): ContactPageQuery => ({
  organizationId: "o1",
  mask: 0,
  search: null,
  updatedSince: null,
  offset: 0,
  limit: 25,
  cache: true,
  ...q,
});

describe.each(ENGINES)("contacts on %s", (engine) => {
  test("insert, reads by id and email, exists, update, the email clash (the unit goes on), search text, delete; another organization's never", async () => {
    const s = await twoOrgs(engine);
    await s.write(async () => {
      expect(await put(s, row("c1", "o1", "Ada", { email: "Ada@X.example", company: "Acme", kind: '["client","candidate"]', kindMask: 3 }))).toBe(true);
      expect(await put(s, row("c2", "o1", "Bob", { createdAt: T1, updatedAt: T1 }))).toBe(true);
      expect(await put(s, row("c9", "o2", "Nine", { email: "ada@x.example" }))).toBe(true);
      // The same folded email in o1: refused, and the unit goes on.
      expect(await put(s, row("c3", "o1", "Other", { email: "ADA@x.example" }))).toBe(false);
      expect(await s.contacts.update("o1", "c2", { email: "ada@X.EXAMPLE", emailFolded: "ada@x.example" })).toBe(false);
      expect(await s.contacts.update("o1", "c2", { city: "Paris", updatedAt: T2 })).toBe(true);
    });
    await insertRows(s, "dossiers", [{ id: "d1", organization_id: "o1", type: "candidate", status: "active", name: "D", created_at: T0, updated_at: T0 }]);
    await insertRows(s, "dossier_contacts", [
      { dossier_id: "d1", contact_id: "c1", organization_id: "o1", role_on_dossier: "primary", is_primary: true, created_at: T0 },
    ]);

    const ada = {
      id: "c1", full_name: "Ada", email: "Ada@X.example", phone: null, linkedin_url: null, company: "Acme", role: null, city: null,
      kind: ["client", "candidate"] as ("client" | "candidate")[], notes: null, dossier_count: 1, pool_added_at: null, pool_expires_at: null, created_at: T0, updated_at: T0,
      metadata: {},
    };
    expect(await s.read(() => s.contacts.byId("o1", "c1"))).toEqual(ada);
    expect(JSON.stringify(await s.contacts.byId("o1", "c1"))).toBe(JSON.stringify(ada));
    expect(await s.contacts.byId("o2", "c1")).toBeNull();
    for (const remember of [false, true]) {
      expect(await s.read(() => s.contacts.shown("o1", "c1", { remember }))).toEqual(ada);
      expect(await s.contacts.shown("o2", "c1", { remember })).toBeNull();
    }
    expect(await s.contacts.rowById("o1", "c2")).toEqual(row("c2", "o1", "Bob", { city: "Paris", createdAt: T1, updatedAt: T2 }));
    expect(await s.contacts.rowById("o2", "c2")).toBeNull();
    expect((await s.contacts.rowByEmail("o1", "ada@x.example"))?.id).toBe("c1");
    expect((await s.contacts.rowByEmail("o2", "ada@x.example"))?.id).toBe("c9");
    expect(await s.contacts.rowByEmail("o1", "nobody@x.example")).toBeNull();
    expect(await s.contacts.exists("o1", "c1")).toBe(true);
    expect(await s.contacts.exists("o2", "c1")).toBe(false);
    expect(await s.contacts.exists("o1", "c3")).toBe(false);
    // Another organization's update and delete touch nothing.
    await s.write(async () => {
      expect(await s.contacts.update("o2", "c1", { fullName: "Eve" })).toBe(true);
      await s.contacts.delete("o2", "c1");
      await s.contacts.setSearchText("o2", "c1", { fullName: "zzz", company: null, role: null });
    });
    expect((await s.contacts.rowById("o1", "c1"))?.fullName).toBe("Ada");
    expect((await s.contacts.page(pageQuery({ search: "ada" }))).total).toBe(1);
    await s.write(() => s.contacts.setSearchText("o1", "c1", { fullName: "zzz", company: null, role: null }));
    expect((await s.contacts.page(pageQuery({ search: "ada" }))).total).toBe(1); // still by its email
    expect((await s.contacts.page(pageQuery({ search: "zz" }))).data.map((c) => c.id)).toEqual(["c1"]);
    await s.write(() => s.contacts.delete("o1", "c1"));
    expect(await s.contacts.byId("o1", "c1")).toBeNull();
    expect(await s.contacts.page(pageQuery({ search: "zz" }))).toEqual({ data: [], total: 0 });
    expect((await s.contacts.page(pageQuery({}))).data.map((c) => c.id)).toEqual(["c2"]);
  });

  test("C21: exportPage walks the list's rows in its order, batch after batch from the last row seen, with its filters and search; another organization's never", async () => {
    const s = await twoOrgs(engine);
    await s.write(async () => {
      await put(s, row("c1", "o1", "Ann", { kind: '["candidate"]', kindMask: 1, createdAt: T0, updatedAt: T2 }));
      await put(s, row("c2", "o1", "Anna", { kind: '["client"]', kindMask: 2, createdAt: T1, updatedAt: T1 }));
      await put(s, row("c3", "o1", "Bo", { kind: '["client","candidate"]', kindMask: 3, createdAt: T1, updatedAt: T0 }));
      await put(s, row("c9", "o2", "Ann Nine", { createdAt: T2 }));
    });
    const walk = async (q: Partial<ContactPageQuery>, size: number) => {
      const seen: string[] = [];
      let after: { created_at: string; id: string } | undefined;
      for (let batch = 0; batch < 10; batch++) {
        const rows = await s.read(() => s.contacts.exportPage(pageQuery(q), after, size));
        seen.push(...rows.map((c) => c.id));
        if (rows.length < size) break;
        after = { created_at: rows.at(-1)!.created_at, id: rows.at(-1)!.id };
      }
      return seen;
    };
    for (const q of [{}, { mask: 2 }, { search: "ann" }, { updatedSince: T1 }]) {
      const listed = (await s.read(() => s.contacts.page(pageQuery({ ...q, cache: false })))).data.map((c) => c.id);
      expect(await walk(q, 1)).toEqual(listed);
      expect(await walk(q, 2)).toEqual(listed);
    }
    const whole = await s.read(() => s.contacts.exportPage(pageQuery({}), undefined, 100));
    expect(whole).toEqual((await s.read(() => s.contacts.page(pageQuery({ cache: false })))).data);
  });

  test("page: newest first, kinds, pool, updated_since, search with filters, offsets past the end; another organization's never", async () => {
    const s = await twoOrgs(engine);
    await s.write(async () => {
      await put(s, row("c1", "o1", "Ann", { kind: '["candidate"]', kindMask: 1, createdAt: T0, updatedAt: T2, poolAddedAt: T0 }));
      await put(s, row("c2", "o1", "Anna", { kind: '["client"]', kindMask: 2, createdAt: T1, updatedAt: T1, poolExpiresAt: T1 }));
      await put(s, row("c3", "o1", "Bo", { kind: '["client","candidate"]', kindMask: 3, createdAt: T1, updatedAt: T0 }));
      await put(s, row("c9", "o2", "Ann Nine", { createdAt: T2 }));
    });
    const ids = async (q: Partial<ContactPageQuery>) => {
      const { data, total } = await s.read(() => s.contacts.page(pageQuery(q)));
      return { ids: data.map((c) => c.id), total };
    };
    expect(await ids({})).toEqual({ ids: ["c3", "c2", "c1"], total: 3 });
    expect(await ids({ limit: 1, offset: 1 })).toEqual({ ids: ["c2"], total: 3 });
    expect(await ids({ offset: 5 })).toEqual({ ids: [], total: 3 });
    expect(await ids({ mask: 1 })).toEqual({ ids: ["c3", "c1"], total: 2 });
    expect(await ids({ mask: 2, cache: false })).toEqual({ ids: ["c3", "c2"], total: 2 });
    expect(await ids({ pool: { filter: "in_pool", now: T1 } })).toEqual({ ids: ["c1"], total: 1 });
    expect(await ids({ pool: { filter: "expired", now: T1 } })).toEqual({ ids: ["c2"], total: 1 });
    expect(await ids({ pool: { filter: "expired", now: T0 } })).toEqual({ ids: [], total: 0 });
    expect(await ids({ updatedSince: T1 })).toEqual({ ids: ["c2", "c1"], total: 2 });
    expect(await ids({ updatedSince: T1, offset: 2 })).toEqual({ ids: [], total: 2 });
    expect(await ids({ search: "ann" })).toEqual({ ids: ["c2", "c1"], total: 2 });
    expect(await ids({ search: "an", mask: 1 })).toEqual({ ids: ["c1"], total: 1 });
    expect(await ids({ search: "an", pool: { filter: "in_pool", now: T1 } })).toEqual({ ids: ["c1"], total: 1 });
    expect(await ids({ search: "ann", updatedSince: T2 })).toEqual({ ids: ["c1"], total: 1 });
    expect(await ids({ search: "ann", limit: 1, offset: 1 })).toEqual({ ids: ["c1"], total: 2 });
    expect(await ids({ search: "ann", offset: 2 })).toEqual({ ids: [], total: 2 });
    expect(await ids({ search: "nine" })).toEqual({ ids: [], total: 0 });
    expect(await ids({ organizationId: "o2", search: "ann" })).toEqual({ ids: ["c9"], total: 1 });
    expect(await ids({ organizationId: "o3" })).toEqual({ ids: [], total: 0 });
    // A page's records as GET shows them, byte for byte.
    const { data } = await s.contacts.page(pageQuery({ limit: 1 }));
    expect(JSON.stringify(data)).toBe(JSON.stringify([await s.contacts.byId("o1", "c3")]));
  });
});

// Names whose search differs if the term is taken as a pattern or folded another way.
const NAMES: [string, string | null, string | null][] = [
  ["Élodie Durand", "Élodie@Example.com", "Café Crème"],
  ["élodie martin", null, "CAFÉ"],
  ["ELODIE", "elodie@example.com", null],
  ["Zoë Müller", null, "100% Bio"],
  ["MÜLLER", "mueller@example.com", "snake_case Ltd"],
  ["Ana_B", null, "50%off"],
  ["Back\\slash", null, "a\\b"],
  ["Plain", "plain@example.com", "Straße"],
];
const TERMS = ["é", "élo", "elo", "ELO".toLowerCase(), "lod", "%", "_", "0%", "% b", "e_c", "_b", "\\", "\\s", "ü", "müll", "ß", "strasse", "afé c", "x", "a", "ex", "@"];

describe("the search on both engines", () => {
  test("the same matches, in the same order, as JavaScript's substring test of the folded fields", async () => {
    const stores = await Promise.all(ENGINES.map(twoOrgs));
    const rows = NAMES.map(([fullName, email, company], i) =>
      row(`c${i}`, "o1", fullName, { email, company, createdAt: `2026-01-0${1 + (i % 3)}T00:00:00.000Z` }),
    );
    for (const s of stores) {
      await s.write(async () => {
        for (const r of rows) await put(s, r);
        await put(s, row("x1", "o2", "Élodie Other", { company: "100% Bio" }));
      });
    }
    const order = [...rows].sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1));
    for (const term of TERMS) {
      const folded = fold(term);
      const expected = order
        .filter((r) => [fold(r.fullName), r.emailFolded, r.company === null ? null : fold(r.company)].some((f) => f !== null && f.includes(folded)))
        .map((r) => r.id);
      const answers = await Promise.all(stores.map((s) => s.read(() => s.contacts.page(pageQuery({ search: folded })))));
      for (const answer of answers) expect({ term, ids: answer.data.map((c) => c.id), total: answer.total }).toEqual({ term, ids: expected, total: expected.length });
      // The records byte for byte (the envelope's key order is SQLite's own business: its remembered
      // pages come back as { total, data }, its computed ones as { data, total }).
      expect(JSON.stringify(answers[1].data)).toBe(JSON.stringify(answers[0].data));
    }
  });
});
