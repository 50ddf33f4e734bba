// The dossier-contact links' query module (src/db/links.ts, src/db/pg/links.ts) on the store under
// test: the same answers on both engines, one organization's links never another's. Dossiers and
// contacts have no query module on PostgreSQL yet: the tests insert them as rows (insertRows).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { NewLink } from "../../src/db/links";
import { columnOf, ENGINES, insertRows, twoOrgs, type Engine, type EngineStore } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts); PostgreSQL starts once

const T0 = "2026-01-01T00:00:00.000Z";
const T1 = "2026-01-02T00:00:00.000Z";

const link = (dossierId: string, contactId: string, changes: Partial<NewLink> = {}): NewLink => ({
  organizationId: "o1",
  dossierId,
  contactId,
  roleOnDossier: "other",
  isPrimary: false,
  createdAt: T0,
  ...changes,
});

/** o1 with dossiers d1, d2 and contacts c1..c3; o2 with dossier d9 and contact c9. */
async function withRows(engine: Engine): Promise<EngineStore> {
  const s = await twoOrgs(engine);
  const dossier = { type: "sales", status: "active", created_at: T0, updated_at: T0 };
  await insertRows(s, "dossiers", [
    { ...dossier, id: "d1", organization_id: "o1", name: "One" },
    { ...dossier, id: "d2", organization_id: "o1", name: "Two" },
    { ...dossier, id: "d9", organization_id: "o2", name: "Nine" },
  ]);
  const contact = { kind: '["client"]', kind_mask: 2, created_at: T0, updated_at: T0 };
  await insertRows(s, "contacts", [
    { ...contact, id: "c1", organization_id: "o1", full_name: "Ada", email: "ada@x.example", company: "Acme" },
    { ...contact, id: "c2", organization_id: "o1", full_name: "Bob", email: null, company: null },
    { ...contact, id: "c3", organization_id: "o1", full_name: "Cy", email: null, company: "Cyco" },
    { ...contact, id: "c9", organization_id: "o2", full_name: "Nine", email: null, company: null },
  ]);
  return s;
}

const item = (contactId: string, fullName: string, email: string | null, company: string | null, role: NewLink["roleOnDossier"], isPrimary: boolean) => ({
  contact_id: contactId,
  full_name: fullName,
  email,
  company,
  role_on_dossier: role,
  is_primary: isPrimary,
});

describe.each(ENGINES)("dossier-contact links on %s", (engine) => {
  test("dossierExists and isPrimary answer for the organization's rows only", async () => {
    const s = await withRows(engine);
    await s.write(async () => {
      await s.links.insert(link("d1", "c1", { isPrimary: true, roleOnDossier: "primary" }));
      await s.links.insert(link("d1", "c2"));
      await s.links.insert(link("d9", "c9", { organizationId: "o2" }));
    });
    expect(await s.read(() => s.links.dossierExists("o1", "d1"))).toBe(true);
    expect(await s.links.dossierExists("o2", "d1")).toBe(false);
    expect(await s.links.dossierExists("o1", "nope")).toBe(false);
    expect(await s.read(() => s.links.isPrimary("o1", "d1", "c1"))).toBe(true);
    expect(await s.links.isPrimary("o1", "d1", "c2")).toBe(false);
    expect(await s.links.isPrimary("o1", "d1", "c3")).toBeNull();
    expect(await s.links.isPrimary("o2", "d1", "c1")).toBeNull();
  });

  test("ofDossier: the primary first, then oldest first, links of one millisecond by contact id (not by the order written)", async () => {
    const s = await withRows(engine);
    await s.write(async () => {
      await s.links.insert(link("d1", "c3", { roleOnDossier: "champion" }));
      await s.links.insert(link("d1", "c1", { createdAt: T1, isPrimary: true, roleOnDossier: "primary" }));
      await s.links.insert(link("d1", "c2", { roleOnDossier: "gatekeeper" }));
      await s.links.insert(link("d2", "c1"));
      await s.links.insert(link("d9", "c9", { organizationId: "o2" }));
    });
    const items = await s.read(() => s.links.ofDossier("o1", "d1"));
    expect(items).toEqual([
      item("c1", "Ada", "ada@x.example", "Acme", "primary", true),
      item("c2", "Bob", null, null, "gatekeeper", false),
      item("c3", "Cy", null, "Cyco", "champion", false),
    ]);
    expect(JSON.stringify(items[0])).toBe(JSON.stringify(item("c1", "Ada", "ada@x.example", "Acme", "primary", true)));
    expect(await s.links.ofDossier("o2", "d1")).toEqual([]);
    expect(await s.links.ofDossier("o2", "d9")).toEqual([item("c9", "Nine", null, null, "other", false)]);
  });

  test("demotePrimary, update and the dossier's contact_id kept in step, in the organization only", async () => {
    const s = await withRows(engine);
    await s.write(async () => {
      await s.links.insert(link("d1", "c1", { isPrimary: true, roleOnDossier: "primary" }));
      await s.links.insert(link("d1", "c2"));
      await s.links.insert(link("d9", "c9", { organizationId: "o2", isPrimary: true }));
      await s.links.syncDossierContact("o1", "d1");
      await s.links.syncDossierContact("o2", "d9");
    });
    expect(await columnOf(s, "dossiers", "contact_id", "d1")).toBe("c1");
    expect(await columnOf(s, "dossiers", "contact_id", "d9")).toBe("c9");
    await s.write(async () => {
      await s.links.demotePrimary("o2", "d1", "c2"); // another organization's: nothing
      expect(await s.links.isPrimary("o1", "d1", "c1")).toBe(true);
      await s.links.demotePrimary("o1", "d1", "c1"); // the kept one: nothing
      expect(await s.links.isPrimary("o1", "d1", "c1")).toBe(true);
      await s.links.demotePrimary("o1", "d1", "c2");
      await s.links.update("o1", "d1", "c2", "decision_maker", true);
      await s.links.update("o2", "d1", "c1", "champion", true); // another organization's: nothing
      await s.links.syncDossierContact("o1", "d1");
    });
    expect(await s.links.isPrimary("o1", "d1", "c1")).toBe(false);
    expect(await s.links.ofDossier("o1", "d1")).toEqual([
      item("c2", "Bob", null, null, "decision_maker", true),
      item("c1", "Ada", "ada@x.example", "Acme", "primary", false),
    ]);
    expect(await columnOf(s, "dossiers", "contact_id", "d1")).toBe("c2");
    expect(await columnOf(s, "dossiers", "contact_id", "d9")).toBe("c9");
    await s.write(() => s.links.syncDossierContact("o2", "d1")); // another organization's: nothing
    expect(await columnOf(s, "dossiers", "contact_id", "d1")).toBe("c2");
  });

  test("delete, deleteAllOfContact and clearDossierContact, in the organization only", async () => {
    const s = await withRows(engine);
    await s.write(async () => {
      await s.links.insert(link("d1", "c1", { isPrimary: true }));
      await s.links.insert(link("d2", "c1", { isPrimary: true }));
      await s.links.insert(link("d2", "c2"));
      await s.links.insert(link("d9", "c9", { organizationId: "o2", isPrimary: true }));
      await s.links.syncDossierContact("o1", "d1");
      await s.links.syncDossierContact("o1", "d2");
      await s.links.syncDossierContact("o2", "d9");
    });
    expect(await s.write(() => s.links.delete("o2", "d2", "c2"))).toBe(false);
    expect(await s.write(() => s.links.delete("o1", "d2", "c2"))).toBe(true);
    expect(await s.write(() => s.links.delete("o1", "d2", "c2"))).toBe(false);
    await s.write(async () => {
      await s.links.deleteAllOfContact("o2", "c1"); // another organization's: nothing
      await s.links.clearDossierContact("o2", "c1");
    });
    expect((await s.links.ofDossier("o1", "d2")).map((l) => l.contact_id)).toEqual(["c1"]);
    expect(await columnOf(s, "dossiers", "contact_id", "d2")).toBe("c1");
    await s.write(async () => {
      await s.links.deleteAllOfContact("o1", "c1");
      await s.links.clearDossierContact("o1", "c1");
    });
    expect(await s.links.ofDossier("o1", "d1")).toEqual([]);
    expect(await s.links.ofDossier("o1", "d2")).toEqual([]);
    expect(await s.links.ofDossier("o2", "d9")).toEqual([item("c9", "Nine", null, null, "other", true)]);
    expect(await columnOf(s, "dossiers", "contact_id", "d1")).toBeNull();
    expect(await columnOf(s, "dossiers", "contact_id", "d2")).toBeNull();
    expect(await columnOf(s, "dossiers", "contact_id", "d9")).toBe("c9");
    // With no primary left, syncDossierContact sets it to null too.
    await insertRows(s, "dossier_contacts", [
      { dossier_id: "d1", contact_id: "c2", organization_id: "o1", role_on_dossier: "other", is_primary: false, created_at: T0 },
    ]);
    await s.write(async () => {
      await s.links.update("o1", "d1", "c2", "other", true);
      await s.links.syncDossierContact("o1", "d1");
    });
    expect(await columnOf(s, "dossiers", "contact_id", "d1")).toBe("c2");
    await s.write(async () => {
      await s.links.update("o1", "d1", "c2", "other", false);
      await s.links.syncDossierContact("o1", "d1");
    });
    expect(await columnOf(s, "dossiers", "contact_id", "d1")).toBeNull();
  });
});
