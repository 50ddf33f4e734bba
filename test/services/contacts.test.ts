// The building blocks other services call inside their own transaction (POST /dossiers uses them,
// C5): findContactByEmail, insertContact, linkContact; and migration 0001 (contact search, C6).
import { Database } from "bun:sqlite";
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { openStore } from "../../src/db/client";
import { embeddedMigrations, migrate } from "../../src/db/migrate";
import { ApiError } from "../../src/errors";
import { newId } from "../../src/ids";
import { findContactByEmail, insertContact, listContacts } from "../../src/services/contacts";
import { linkContact, unlinkContact, writeLink, writeUnlink } from "../../src/services/links";
import { makeOrg, tempDir } from "../helpers";
import { ENGINES, appOn, queryRows, rowCountsOf, sharedApp } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

describe.each(ENGINES)("findContactByEmail / insertContact (C5, C6, C10) on %s", (engine) => {
  /** Each test's own two organizations, and in the first one contact "Émile Zola" <Emile@Zola.FR>. */
  async function withZola() {
    const app = await sharedApp(engine);
    const ctx = app.dossier;
    const org = await makeOrg(app);
    const other = await makeOrg(app);
    const zola = await ctx.store.write(() => insertContact(ctx, org.id, { full_name: "  Émile Zola ", email: "Emile@Zola.FR", kind: ["prospect", "prospect", "candidate"] }));
    return { app, ctx, org, other, zola };
  }

  test("insertContact stores trimmed full_name, de-duplicated kind and its mask, the folded email", async () => {
    const { zola: row } = await withZola();
    expect(row).toMatchObject({ fullName: "Émile Zola", email: "Emile@Zola.FR", emailFolded: "emile@zola.fr", kind: '["prospect","candidate"]', kindMask: 3 });
    expect(row.createdAt).toBe(row.updatedAt);
  });

  test("findContactByEmail is case-insensitive (Unicode) and scoped to the organization", async () => {
    const { ctx, org, other } = await withZola();
    expect((await findContactByEmail(ctx, org.id, "EMILE@zola.fr"))?.fullName).toBe("Émile Zola");
    expect((await findContactByEmail(ctx, org.id, "nobody@zola.fr"))).toBeNull();
    expect((await findContactByEmail(ctx, other.id, "emile@zola.fr"))).toBeNull();
    await ctx.store.write(() => insertContact(ctx, org.id, { full_name: "Ölaf", email: "ÖLAF@example.com" }));
    expect((await findContactByEmail(ctx, org.id, "ölaf@EXAMPLE.com"))?.fullName).toBe("Ölaf");
  });

  test("C10: an email clash throws duplicate_contact (409), and the caller's whole transaction rolls back", async () => {
    const { app, ctx, org } = await withZola();
    const before = await rowCountsOf(app);
    let thrown: unknown;
    try {
      await ctx.store.write(async () => {
        await insertContact(ctx, org.id, { full_name: "Written first" });
        await insertContact(ctx, org.id, { full_name: "Clash", email: "emile@ZOLA.fr" });
      });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect((thrown as ApiError).code).toBe("duplicate_contact");
    expect((thrown as ApiError).status).toBe(409);
    expect(await rowCountsOf(app)).toEqual(before);
  });

  test("the search index follows insertContact, with non-ASCII text folded as toLowerCase()", async () => {
    const { ctx, org } = await withZola();
    await ctx.store.write(() => insertContact(ctx, org.id, { full_name: "ÅSA ÖBERG", company: "ÆRØ Shipping", role: "CEO" }));
    const found = async (q: string) => (await listContacts(ctx, org.id, { search: q, page: 1, perPage: 10 })).data.map((c) => c.full_name);
    expect((await found("åsa öb"))).toEqual(["ÅSA ÖBERG"]);
    expect((await found("ærø"))).toEqual(["ÅSA ÖBERG"]);
    expect((await found("Æ"))).toEqual(["ÅSA ÖBERG"]);
  });
});

describe.each(ENGINES)("linkContact / unlinkContact (C6, C10) on %s", async (engine) => {
  let now = Date.parse("2026-06-01T00:00:00.000Z");
  const app = await appOn(engine, { now: () => new Date(now) });
  const ctx = app.dossier;
  const org = await makeOrg(app);
  const other = await makeOrg(app);
  const dossier = async (organizationId = org.id) => {
    const id = newId();
    const at = ctx.now().toISOString();
    await queryRows(app, "INSERT INTO dossiers (id, organization_id, type, name, status, created_at, updated_at) VALUES (?, ?, 'candidate', 'D', 'active', ?, ?)", id, organizationId, at, at);
    return id;
  };
  const row = async (id: string) => (await queryRows<{ contact_id: string | null; updated_at: string }>(app, "SELECT contact_id, updated_at FROM dossiers WHERE id = ?", id))[0];
  // is_primary as 1 or 0 on both engines (PostgreSQL's column is a boolean); null when there is no link.
  const linkRow = async (d: string, c: string) => {
    const [link] = await queryRows<{ created_at: string; is_primary: number | boolean; role_on_dossier: string }>(
      app,
      "SELECT created_at, is_primary, role_on_dossier FROM dossier_contacts WHERE dossier_id = ? AND contact_id = ?",
      d,
      c,
    );
    return link ? { ...link, is_primary: Number(link.is_primary) } : null;
  };

  test("C5 use: insert a dossier, a contact and a primary link in one transaction", async () => {
    const before = await rowCountsOf(app);
    const d = await dossier();
    const result = await ctx.store.write(async () => {
      const c = await insertContact(ctx, org.id, { full_name: "Primary person", kind: ["candidate"] });
      return writeLink(ctx, org.id, d, c.id, "primary", true);
    });
    expect(result.created).toBe(true);
    expect(result.link).toMatchObject({ dossier_id: d, role_on_dossier: "primary", is_primary: true });
    expect((await row(d)).contact_id).toBe(result.link.contact_id);
    expect((await rowCountsOf(app)).events).toBe(before.events);
  });

  test("C10: re-link keeps created_at and, without isPrimary, is_primary; never bumps dossiers.updated_at", async () => {
    const d = await dossier();
    const { updated_at } = await row(d);
    const [a, b] = await ctx.store.write(async () => [await insertContact(ctx, org.id, { full_name: "A" }), await insertContact(ctx, org.id, { full_name: "B" })]);
    now += 1000;
    await ctx.store.write(() => writeLink(ctx, org.id, d, a.id, "other", true));
    const created = (await linkRow(d, a.id))!.created_at;
    now += 1000;
    const again = await ctx.store.write(() => writeLink(ctx, org.id, d, a.id, "champion"));
    expect(again).toEqual({ created: false, link: { dossier_id: d, contact_id: a.id, role_on_dossier: "champion", is_primary: true } });
    expect(await linkRow(d, a.id)).toEqual({ created_at: created, is_primary: 1, role_on_dossier: "champion" });
    await ctx.store.write(() => writeLink(ctx, org.id, d, b.id, "other", true));
    expect((await linkRow(d, a.id))!.is_primary).toBe(0);
    expect(await row(d)).toEqual({ contact_id: b.id, updated_at });
    await ctx.store.write(() => writeLink(ctx, org.id, d, b.id, "other", false));
    expect(await row(d)).toEqual({ contact_id: null, updated_at });
    await ctx.store.write(() => writeLink(ctx, org.id, d, a.id, "other", true));
    await ctx.store.write(() => writeUnlink(ctx, org.id, d, a.id));
    expect(await row(d)).toEqual({ contact_id: null, updated_at });
  });

  test("tenancy: a dossier or contact of another organization → not_found, naming contact_id for the contact", async () => {
    const mine = await dossier();
    const theirs = await dossier(other.id);
    const c = await ctx.store.write(() => insertContact(ctx, org.id, { full_name: "Tenant" }));
    const theirContact = await ctx.store.write(() => insertContact(ctx, other.id, { full_name: "Other tenant" }));
    await expect(ctx.store.write(() => writeLink(ctx, org.id, theirs, c.id, "other"))).rejects.toThrow(ApiError);
    let thrown: ApiError | undefined;
    try {
      await ctx.store.write(() => writeLink(ctx, org.id, mine, theirContact.id, "other"));
    } catch (error) {
      thrown = error as ApiError;
    }
    expect(thrown?.code).toBe("not_found");
    expect(thrown?.message).toContain("contact_id");
    expect(await linkRow(mine, theirContact.id)).toBeNull();
  });
});

describe("migration 0001_contacts_search (C6 search index)", () => {
  test("contacts written before the migration are indexed by it (ASCII folding), and the index is consistent", async () => {
    const path = join(tempDir(), "older.db");
    const older = new Database(path);
    older.run("PRAGMA foreign_keys = ON");
    migrate(older, embeddedMigrations.slice(0, 1));
    older.run("INSERT INTO organizations (id, name, plan, rate_limit, created_at) VALUES ('o1', 'Kept', 'growth', 600, '2026-01-01T00:00:00.000Z')");
    older.run(
      `INSERT INTO contacts (id, organization_id, full_name, email, email_folded, company, role, kind, kind_mask, created_at, updated_at)
       VALUES ('c1', 'o1', 'Old Timer', 'Old@Example.com', 'old@example.com', 'Legacy Inc', 'Keeper', '[]', 0, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`,
    );
    older.close();
    const store = openStore(path);
    const hits = (q: string) =>
      store.sqlite.query<{ contact_id: string }, [string]>("SELECT s.contact_id FROM contacts_fts f JOIN contact_search s ON s.id = f.rowid WHERE contacts_fts MATCH ?").all(`"${q}"`);
    expect(hits("old timer")).toEqual([{ contact_id: "c1" }]);
    expect(hits("legacy")).toEqual([{ contact_id: "c1" }]);
    expect(hits("old@example")).toEqual([{ contact_id: "c1" }]);
    expect(() => store.sqlite.run("INSERT INTO contacts_fts(contacts_fts, rank) VALUES('integrity-check', 1)")).not.toThrow();
    store.sqlite.run("DELETE FROM contacts WHERE id = 'c1'");
    expect(hits("legacy")).toEqual([]);
    expect(store.sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM contact_search").get()!.n).toBe(0);
    await store.close();
  });
});
