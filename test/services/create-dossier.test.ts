// POST /dossiers writes the contact first, the dossier with its contact_id in one INSERT ... RETURNING,
// and the primary link without linkContact's look-ups (issue 6). What it answers and records must be
// what the database then holds (C5, C7), for each way of finding the contact.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { createDossier, getDossier, type Dossier } from "../../src/services/dossiers";
import { listDossierContacts } from "../../src/services/links";
import { makeOrg } from "../helpers";
import { ENGINES, appOn, queryRows } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

describe.each(ENGINES)("createDossier on %s", async (engine) => {
  const app = await appOn(engine);
  const ctx = app.dossier;
  const org = await makeOrg(app);
  const lastEvent = async () => JSON.parse((await queryRows<{ body: string }>(app, `SELECT body FROM events ORDER BY seq DESC LIMIT 1`))[0].body);
  // PostgreSQL answers a sum of bigints as a string.
  const counts = async () => Number((await queryRows<{ n: number }>(app, `SELECT coalesce(sum(n), 0) AS n FROM dossier_counts WHERE organization_id = ?`, org.id))[0].n);

  /** The answer is the stored row, the event carries it, and the one link is the primary. */
  async function checkStored(dossier: Dossier, contactId: string) {
    const stored = (await getDossier(ctx, org.id, dossier.id))!;
    expect(JSON.stringify(dossier)).toBe(JSON.stringify(stored));
    expect(dossier.contact_id).toBe(contactId);
    const event = await lastEvent();
    expect(event.type).toBe("dossier.created");
    expect(JSON.stringify(event.data)).toBe(JSON.stringify(stored));
    expect((await listDossierContacts(ctx, org.id, dossier.id))).toEqual([
      expect.objectContaining({ contact_id: contactId, role_on_dossier: "primary", is_primary: true }),
    ]);
  }

  test("a new contact, the same-email contact, and a given contact_id", async () => {
    const before = await counts();
    const first = await createDossier(ctx, org.id, {
      type: "sales", name: "  Acme deal ", email: "Buyer@Example.com", company: "Acme", deal_size: 1234.5, deal_currency: "EUR",
      contact_person: "Ann", assigned_to: "0B7C5F9E-8D3A-4E21-9A6B-2F4C1D0E9A87", intake_notes: "n",
    });
    expect(first.name).toBe("Acme deal");
    expect(first.assigned_to).toBe("0b7c5f9e-8d3a-4e21-9a6b-2f4c1d0e9a87");
    expect(first.deal_size).toBe(1234.5);
    const [contact] = await queryRows<{ id: string; kind: string }>(app, `SELECT id, kind FROM contacts WHERE id = ?`, first.contact_id!);
    expect(contact.kind).toBe('["prospect"]');
    await checkStored(first, contact.id);

    const second = await createDossier(ctx, org.id, { type: "candidate", name: "Same email", email: "buyer@example.COM", deal_size: null });
    await checkStored(second, contact.id);

    const third = await createDossier(ctx, org.id, { type: "sales", name: "Given", contact_id: contact.id.toUpperCase(), deal_size: 10 });
    expect(third.deal_size).toBe(10);
    await checkStored(third, contact.id);

    const fourth = await createDossier(ctx, org.id, { type: "candidate", name: "No email" });
    expect(fourth.contact_id).not.toBe(contact.id);
    await checkStored(fourth, fourth.contact_id!);
    expect(await counts()).toBe(before + 4);
  });
});
