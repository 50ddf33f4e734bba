// Issue 6: GET /contacts?search= remembers its results per organization (src/db/contact-search.ts)
// and kind= totals come from contact_kind_counts (migration 0004). Both must stay exact after every
// kind of contact write, through the API, through the services, and through another connection on
// the same file (as the CLI would write). The expected answers are computed by brute force in
// JavaScript from the contacts table itself.
import { beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { openContext, type Context } from "../../src/context";
import type { SqliteStore } from "../../src/db/client";
import { CACHE_LIMITS, cacheStats } from "../../src/db/contact-search";
import { createContact, deleteContact, getContact, KINDS, kindMaskOf, listContacts, updateContact, type Kind, writeNewContact, writeContactPatch, writeContactDeletion } from "../../src/services/contacts";
import { call, makeApp, makeOrg, type Org } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

interface Raw {
  id: string;
  full_name: string;
  email_folded: string | null;
  company: string | null;
  role: string | null;
  kind_mask: number;
  created_at: string;
}

/** The list's answer by brute force: C10 folding, any of the kinds, newest first then id desc. */
function expected(ctx: Context<SqliteStore>, organizationId: string, term: string, mask = 0): string[] {
  const needle = term.toLowerCase();
  return ctx.store.sqlite
    .query<Raw, [string]>("SELECT id, full_name, email_folded, company, role, kind_mask, created_at FROM contacts WHERE organization_id = ?")
    .all(organizationId)
    .filter((c) => [c.full_name, c.email_folded, c.company, c.role].some((t) => t !== null && t.toLowerCase().includes(needle)))
    .filter((c) => mask === 0 || (c.kind_mask & mask) !== 0)
    .sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1))
    .map((c) => c.id);
}

/** Every page of the search through the service (so through the cache), concatenated; checks the
 * total on each page. */
async function searched(ctx: Context, organizationId: string, term: string, kinds: Kind[] = [], perPage = 3): Promise<string[]> {
  const ids: string[] = [];
  const first = await listContacts(ctx, organizationId, { search: term, kinds, page: 1, perPage });
  for (let page = 1; page <= Math.ceil(first.total / perPage) + 1 && page <= 50; page++) {
    const { data, total } = await listContacts(ctx, organizationId, { search: term, kinds, page, perPage });
    expect(total).toBe(first.total);
    // Whole pages are cached too: every field, dossier_count included, as a fresh read gives it.
    for (const contact of data) expect(contact).toEqual((await getContact(ctx, organizationId, contact.id))!);
    ids.push(...data.map((c) => c.id));
  }
  expect(ids.length).toBe(first.total);
  return ids;
}

const TERMS = ["ann", "an", "a", "smith", "acme", "@corp", "engineer", "zz"];

/** GET /contacts without search (kind filter or none): exact total and full first pages. */
async function expectKindPages(ctx: Context<SqliteStore>, organizationId: string) {
  for (const kinds of [[], ["client"], ["candidate", "partner"]] as Kind[][]) {
    const mask = kindMaskOf(kinds);
    const all = expected(ctx, organizationId, "", mask);
    for (const page of [1, 2]) {
      const { data, total } = await listContacts(ctx, organizationId, { kinds, page, perPage: 2 });
      expect(total).toBe(all.length);
      expect(data.map((c) => c.id)).toEqual(all.slice((page - 1) * 2, page * 2));
      for (const contact of data) expect(contact).toEqual((await getContact(ctx, organizationId, contact.id))!);
    }
  }
}

async function expectExact(ctx: Context<SqliteStore>, organizationId: string) {
  await expectKindPages(ctx, organizationId);
  for (const term of TERMS) {
    expect((await searched(ctx, organizationId, term))).toEqual(expected(ctx, organizationId, term));
    expect((await searched(ctx, organizationId, term, ["client"]))).toEqual(expected(ctx, organizationId, term, kindMaskOf(["client"])));
  }
}

function expectKindCounts(ctx: Context<SqliteStore>) {
  const { sqlite } = ctx.store;
  const counted = sqlite
    .query<{ k: string }, []>("SELECT organization_id || ':' || kind_mask || ':' || count(*) AS k FROM contacts GROUP BY organization_id, kind_mask ORDER BY 1")
    .all();
  const kept = sqlite
    .query<{ k: string }, []>("SELECT organization_id || ':' || kind_mask || ':' || n AS k FROM contact_kind_counts WHERE n <> 0 ORDER BY 1")
    .all();
  expect(kept).toEqual(counted);
}

describe("contact search cache: exact after every contact write", () => {
  /** Each test's own app: Ann, Bob and Joanna in one organization, an "Ann Smith-Other" in another,
   * and every answer expectExact checks already cached, so the write a test makes meets a warm cache. */
  async function cachedContacts() {
    const app = makeApp();
    const ctx = app.dossier;
    const org = await makeOrg(app, { rateLimit: 1_000_000 });
    const other = await makeOrg(app, { rateLimit: 1_000_000 });
    const post = async (body: object, key = org.key) => {
      const answer = await call(app, "POST", "/contacts", { key, body });
      expect(answer.status).toBe(201);
      return answer.json.data.id as string;
    };
    const patch = async (id: string, body: object) => expect((await call(app, "PATCH", `/contacts/${id}`, { key: org.key, body })).status).toBe(200);
    const ann = await post({ full_name: "Ann Smith", email: "ann@corp.example", company: "Acme", role: "Engineer", kind: ["client"] });
    const bob = await post({ full_name: "Bob Jones", email: "bob@corp.example", company: "Globex", role: "Manager" });
    await post({ full_name: "Joanna Banner", company: "Acme Labs", kind: ["candidate", "client"] });
    await post({ full_name: "Ann Smith-Other" }, other.key);
    await expectExact(ctx, org.id);
    return { app, ctx, org, other, post, patch, ann, bob };
  }

  test("results are cached, and the cache answers the same as the SQL", async () => {
    const { ctx, org } = await cachedContacts();
    expect(cacheStats(ctx.store.reader).entries).toBeGreaterThan(0);
    await expectExact(ctx, org.id); // now from the cache
  });

  test("create through the API", async () => {
    const { ctx, org, post } = await cachedContacts();
    await post({ full_name: "Annabel Lee", role: "Software Engineer", kind: ["partner"] });
    await expectExact(ctx, org.id);
  });

  test.each([
    ["full_name", { full_name: "Hannah Smithers" }],
    ["email", { email: "hannah@corp.example" }],
    ["email to null", { email: null }],
    ["company", { company: "Zz Top" }],
    ["role", { role: "Chief Engineer" }],
    ["role to null", { role: null }],
  ])("PATCH of %s", async (_name, body) => {
    const { ctx, org, patch, bob } = await cachedContacts();
    await patch(bob, body);
    await expectExact(ctx, org.id);
  });

  test("kind change (the kind filter's cached answers follow)", async () => {
    const { ctx, org, patch, ann, bob } = await cachedContacts();
    await patch(bob, { kind: ["client"] });
    await expectExact(ctx, org.id);
    await patch(ann, { kind: ["supplier"] });
    await expectExact(ctx, org.id);
  });

  test("PATCH of a field the search does not read keeps the answers", async () => {
    const { ctx, org, patch, ann } = await cachedContacts();
    await patch(ann, { phone: "+1 555", notes: "met at the fair", city: "Annecy" });
    await expectExact(ctx, org.id);
  });

  test("a link to a dossier and its removal (dossier_count)", async () => {
    const { app, ctx, org, ann } = await cachedContacts();
    const dossier = (await call(app, "POST", "/dossiers", { key: org.key, body: { type: "sales", name: "Deal" } })).json.data;
    await expectExact(ctx, org.id);
    const linked = await call(app, "POST", `/dossiers/${dossier.id}/contacts`, { key: org.key, body: { contact_id: ann, role_on_dossier: "champion" } });
    expect(linked.status).toBe(201);
    expect((await getContact(ctx, org.id, ann))!.dossier_count).toBe(1);
    await expectExact(ctx, org.id);
    expect((await call(app, "DELETE", `/dossiers/${dossier.id}/contacts/${ann}`, { key: org.key })).status).toBe(200);
    await expectExact(ctx, org.id);
  });

  test("delete", async () => {
    const { app, ctx, org, ann } = await cachedContacts();
    expect((await call(app, "DELETE", `/contacts/${ann}`, { key: org.key })).status).toBe(200);
    await expectExact(ctx, org.id);
  });

  test("a dossier creation that creates a contact", async () => {
    const { app, ctx, org } = await cachedContacts();
    const answer = await call(app, "POST", "/dossiers", {
      key: org.key,
      body: { type: "candidate", name: "Annika Smithson", email: "annika@corp.example", company: "Acme", role: "Engineer" },
    });
    expect(answer.status).toBe(201);
    expect(expected(ctx, org.id, "annika")).toHaveLength(1);
    await expectExact(ctx, org.id);
  });

  test("a write by another connection on the same file (as the CLI would make)", async () => {
    const { ctx, org } = await cachedContacts();
    const second = openContext({ dataDir: ctx.config.dataDir, env: { DOSSIER_LOG: "off" }, config: { log: "off" } });
    try {
      await expectExact(ctx, org.id); // cached in this connection
      const made = await second.store.write(() => writeNewContact(second, org.id, { full_name: "Anneliese Smith", company: "Acme", kind: ["client"] }));
      await expectExact(ctx, org.id);
      await second.store.write(() => writeContactPatch(second, org.id, made.id, { full_name: "Liese Zz", role: "Engineer" }));
      await expectExact(ctx, org.id);
      await second.store.write(() => writeContactPatch(second, org.id, made.id, { kind: ["candidate"] }));
      await expectExact(ctx, org.id);
      await second.store.write(() => writeContactPatch(second, org.id, made.id, { phone: "+49 30 1", city: "Berlin" }));
      await expectExact(ctx, org.id);
      await second.store.write(() => writeContactDeletion(second, org.id, made.id));
      await expectExact(ctx, org.id);
      expectKindCounts(ctx);
    } finally {
      await second.store.close();
    }
  });

  test("a read inside a transaction that rolls back leaves nothing behind in the cache", async () => {
    const { ctx, org } = await cachedContacts();
    await expectExact(ctx, org.id);
    expect(
      ctx.store.write(async () => {
        await writeNewContact(ctx, org.id, { full_name: "Ann Rolledback" });
        expect(await searched(ctx, org.id, "rolledb")).toHaveLength(1);
        expect((await listContacts(ctx, org.id, { page: 1, perPage: 2 })).data[0].full_name).toBe("Ann Rolledback");
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    // The next write brings the generation back to the number it had inside the rolled-back transaction.
    await ctx.store.write(() => writeNewContact(ctx, org.id, { full_name: "Quentin Other" }));
    expect((await searched(ctx, org.id, "rolledb"))).toEqual([]);
    expect((await listContacts(ctx, org.id, { page: 1, perPage: 2 })).data[0].full_name).toBe("Quentin Other");
    await expectExact(ctx, org.id);
  });

  test("an insert that does not sort first (a created_at in the past, as a direct write could make)", async () => {
    const { ctx, org } = await cachedContacts();
    await expectExact(ctx, org.id);
    const second = openContext({ dataDir: ctx.config.dataDir, env: { DOSSIER_LOG: "off" }, config: { log: "off" } });
    try {
      second.store.sqlite
        .query(
          `INSERT INTO contacts (id, organization_id, full_name, kind, kind_mask, created_at, updated_at)
           VALUES ('00000000-0000-4000-8000-000000000001', ?, 'Ann Oldtimer', '["client"]', 4, '2001-01-01T00:00:00.000Z', '2001-01-01T00:00:00.000Z')`,
        )
        .run(org.id);
      await expectExact(ctx, org.id);
    } finally {
      await second.store.close();
    }
  });

  test("a contact_search id freed by another organization's delete and reused by an insert here", async () => {
    const { ctx, org, other } = await cachedContacts();
    const theirs = await ctx.store.write(() => writeNewContact(ctx, other.id, { full_name: "Their Newest" }));
    await expectExact(ctx, org.id);
    await ctx.store.write(() => writeContactDeletion(ctx, other.id, theirs.id));
    await ctx.store.write(() => writeNewContact(ctx, org.id, { full_name: "Ann Reused", company: "Acme" }));
    await expectExact(ctx, org.id);
  });

  test("the other organization's answers never mix in", async () => {
    const { ctx, other } = await cachedContacts();
    expect((await searched(ctx, other.id, "ann"))).toEqual(expected(ctx, other.id, "ann"));
    expect((await searched(ctx, other.id, "ann"))).toHaveLength(1);
  });
});

describe("kind counts and search answers after random sequences of writes", () => {
  const app = makeApp();
  const ctx = app.dossier;
  const orgs: Org[] = [];
  beforeAll(async () => orgs.push(await makeOrg(app), await makeOrg(app)));
  let seed = 20261123;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const someKinds = () => KINDS.filter(() => random() < 0.3);
  const NAMES = ["Ann", "Anna", "Bob", "Smith", "Acme", "Zz", "Joan"];

  test("200 random creates, kind changes, renames and deletes over two organizations", async () => {
    const live: { org: string; id: string }[] = [];
    for (let step = 0; step < 200; step++) {
      const org = (await pick(orgs)).id;
      const r = random();
      if (r < 0.4 || live.length === 0) {
        const made = await ctx.store.write(() => writeNewContact(ctx, org, { full_name: `${pick(NAMES)} ${pick(NAMES)} ${step}`, kind: someKinds() }));
        live.push({ org, id: made.id });
      } else if (r < 0.65) {
        const c = pick(live);
        await ctx.store.write(() => writeContactPatch(ctx, c.org, c.id, { kind: someKinds() }));
      } else if (r < 0.85) {
        const c = pick(live);
        await ctx.store.write(() => writeContactPatch(ctx, c.org, c.id, { full_name: `${pick(NAMES)} ${step}`, company: random() < 0.5 ? null : pick(NAMES) }));
      } else {
        const k = Math.floor(random() * live.length);
        await ctx.store.write(() => writeContactDeletion(ctx, live[k].org, live[k].id));
        live.splice(k, 1);
      }
      expectKindCounts(ctx);
      if (step % 10 === 0) {
        for (const { id } of orgs) {
          const kinds = someKinds();
          const total = (await listContacts(ctx, id, { kinds, page: 1, perPage: 5 })).total;
          const mask = kindMaskOf(kinds);
          const n = ctx.store.sqlite
            .query<{ n: number }, [string, number, number]>("SELECT count(*) AS n FROM contacts WHERE organization_id = ? AND (? = 0 OR (kind_mask & ?) != 0)")
            .get(id, mask, mask)!.n;
          expect(total).toBe(n);
          const term = pick(["ann", "smith", "zz", "an", "1"]);
          expect((await searched(ctx, id, term, kinds, 4))).toEqual(expected(ctx, id, term, mask));
        }
      }
    }
  });
});

describe("the cache's memory is bounded", () => {
  test("entries and ids stay within the limits; answers stay exact past them", async () => {
    const app = makeApp();
    const ctx = app.dossier;
    const org = await makeOrg(app);
    const saved = { ...CACHE_LIMITS };
    Object.assign(CACHE_LIMITS, { entries: 4, ids: 10, idsPerEntry: 6, pages: 5, pageChars: 5000 });
    try {
      await ctx.store.write(async () => {
        for (let i = 0; i < 20; i++) await writeNewContact(ctx, org.id, { full_name: `Person ${String(i).padStart(2, "0")} ${i % 2 ? "odd" : "even"}` });
      });
      for (const term of ["person", "odd", "even", "per", "son", "erso", "0", "1", "person", "odd"]) {
        expect((await searched(ctx, org.id, term, [], 4))).toEqual(expected(ctx, org.id, term));
        // New contacts after a result was cached: caught up in front, within the same bounds.
        await ctx.store.write(() => writeNewContact(ctx, org.id, { full_name: `Person new ${term}` }));
        expect((await searched(ctx, org.id, term, [], 4))).toEqual(expected(ctx, org.id, term));
        const stats = cacheStats(ctx.store.reader);
        expect(stats.entries).toBeLessThanOrEqual(4);
        expect(stats.ids).toBeLessThanOrEqual(10);
        expect(stats.pages).toBeLessThanOrEqual(5);
        expect(stats.pageChars).toBeLessThanOrEqual(5000);
      }
    } finally {
      Object.assign(CACHE_LIMITS, saved);
    }
  });
});
