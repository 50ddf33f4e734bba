// Find-or-create of a contact by email under concurrency (C5, C6, C19): what SQLite's one writer
// gives, PostgreSQL's concurrent transactions give too. Creates that link a contact by email
// (POST /dossiers without contact_id, a CSV import's dossier rows, a contacts import in upsert mode)
// all succeed and share ONE contact when they race on a new email; an explicit POST /contacts of an
// email that exists is still 409 duplicate_contact (api-v1), so of racing ones exactly one wins.
// On PostgreSQL the requests go through two apps (two nodes' pools) on one database; an import
// beside them must neither deadlock nor make a second contact.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { call, makeOrg, until, type Org } from "../helpers";
import { ENGINES, nodesOn, queryRows } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const RACERS = 20;

describe.each(ENGINES)("on %s", async (engine) => {
  const apps = await nodesOn(engine);
  const [first] = apps;
  const node = (i: number) => apps[i % apps.length];

  const contactsWith = (org: Org, email: string) =>
    queryRows<{ id: string }>(first, "SELECT id FROM contacts WHERE organization_id = ? AND email_folded = ?", org.id, email.toLowerCase());
  const primaryLinks = (org: Org, contactId: string) =>
    queryRows<{ dossier_id: string }>(
      first,
      "SELECT dossier_id FROM dossier_contacts WHERE organization_id = ? AND contact_id = ? AND role_on_dossier = 'primary' ORDER BY dossier_id",
      org.id,
      contactId,
    );

  /** POST /imports of `csv` and its end (bounded wait). */
  async function imported(org: Org, csv: string, fields: Record<string, string>) {
    const form = new FormData();
    form.append("file", new File([csv], "rows.csv", { type: "text/csv" }));
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    const queued = await call(first, "POST", "/imports", { key: org.key, raw: form });
    expect(queued.status, queued.text).toBe(202);
    return until(
      async () => {
        const { json } = await call(first, "GET", `/imports/${queued.json.data.id}`, { key: org.key });
        return json.data.status !== "queued" && json.data.status !== "running" && json.data;
      },
      60_000,
      "the import to finish",
    );
  }

  test(`${RACERS} POST /dossiers at once with one new email: all 201, one contact, every dossier linked to it`, async () => {
    const org = await makeOrg(first);
    const email = "Race.Winner@Example.com";
    const answers = await Promise.all(
      Array.from({ length: RACERS }, (_, i) =>
        call(node(i), "POST", "/dossiers", {
          key: org.key,
          body: { type: i % 2 ? "sales" : "candidate", name: `Racer ${i}`, email: i % 3 ? email : email.toLowerCase() },
        }),
      ),
    );
    for (const answer of answers) expect(answer.status, answer.text).toBe(201);
    const contacts = await contactsWith(org, email);
    expect(contacts.length).toBe(1);
    const contactId = contacts[0].id;
    expect(new Set(answers.map((a) => a.json.data.contact_id))).toEqual(new Set([contactId]));
    expect((await primaryLinks(org, contactId)).map((l) => l.dossier_id)).toEqual(answers.map((a) => a.json.data.id).sort());
    const shown = await call(node(1), "GET", `/contacts/${contactId}`, { key: org.key });
    expect(shown.json.data.dossier_count).toBe(RACERS);
  });

  test(`${RACERS} POST /contacts at once with one new email: one 201, the others 409 duplicate_contact, one contact`, async () => {
    const org = await makeOrg(first);
    const email = "only.one@example.com";
    const answers = await Promise.all(
      Array.from({ length: RACERS }, (_, i) => call(node(i), "POST", "/contacts", { key: org.key, body: { full_name: `Twin ${i}`, email } })),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, ...Array<number>(RACERS - 1).fill(409)]);
    for (const answer of answers.filter((a) => a.status === 409)) expect(answer.json.error.code).toBe("duplicate_contact");
    expect((await contactsWith(org, email)).map((c) => c.id)).toEqual([answers.find((a) => a.status === 201)!.json.data.id]);
  });

  test("a dossiers import beside POST /dossiers with the same new emails: no deadlock, one contact per email, every row in", async () => {
    const org = await makeOrg(first);
    const emails = Array.from({ length: 12 }, (_, i) => `shared${i}@example.com`);
    // Rows in one order, requests in the other: each side holds some emails when it reaches the others'.
    const csv = `name,email,type\r\n${emails.map((e, i) => `Imported ${i},${e},candidate`).join("\r\n")}\r\n`;
    const [result, ...answers] = await Promise.all([
      imported(org, csv, { resource: "dossiers", mapping: JSON.stringify({ name: "name", email: "email", type: "type" }) }),
      ...emails
        .toReversed()
        .map((email, i) => call(node(i), "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: `Posted ${i}`, email } })),
    ]);
    for (const answer of answers) expect(answer.status, answer.text).toBe(201);
    expect(result.status, JSON.stringify(result.errors)).toBe("succeeded");
    expect([result.created, result.failed]).toEqual([emails.length, 0]);
    for (const email of emails) {
      const contacts = await contactsWith(org, email);
      expect(contacts.length).toBe(1);
      expect((await primaryLinks(org, contacts[0].id)).length).toBe(2);
    }
  });

  test("a contacts import in upsert mode beside POST /dossiers with the same new emails: each row created or updated, one contact per email", async () => {
    const org = await makeOrg(first);
    const emails = Array.from({ length: 12 }, (_, i) => `upsert${i}@example.com`);
    const csv = `full_name,email,city\r\n${emails.map((e, i) => `Upserted ${i},${e},Lyon`).join("\r\n")}\r\n`;
    const [result, ...answers] = await Promise.all([
      imported(org, csv, { resource: "contacts", mode: "upsert", match_on: "email", mapping: JSON.stringify({ full_name: "full_name", email: "email", city: "city" }) }),
      ...emails
        .toReversed()
        .map((email, i) => call(node(i), "POST", "/dossiers", { key: org.key, body: { type: "sales", name: `Posted ${i}`, email } })),
    ]);
    for (const answer of answers) expect(answer.status, answer.text).toBe(201);
    expect(result.status, JSON.stringify(result.errors)).toBe("succeeded");
    expect([result.created + result.updated, result.failed]).toEqual([emails.length, 0]);
    for (const email of emails) {
      const contacts = await queryRows<{ city: string | null }>(first, "SELECT city FROM contacts WHERE organization_id = ? AND email_folded = ?", org.id, email);
      expect(contacts).toEqual([{ city: "Lyon" }]);
    }
  });

  test("a dossiers import beside other writes of the organization (a dossier of an existing contact, a PATCH, a link): no deadlock", async () => {
    const org = await makeOrg(first);
    const contact = await call(first, "POST", "/contacts", { key: org.key, body: { full_name: "Known", email: "known@example.com" } });
    const dossiers = await Promise.all(
      Array.from({ length: 4 }, (_, i) => call(first, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: `Old ${i}` } })),
    );
    const csv = `name,email\r\n${Array.from({ length: 40 }, (_, i) => `Imported ${i},row${i}@example.com`).join("\r\n")}\r\n`;
    const writes = Array.from({ length: 12 }, (_, i) => {
      const dossier = dossiers[i % dossiers.length].json.data;
      if (i % 3 === 0) return call(node(i), "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: `Linked ${i}`, contact_id: contact.json.data.id } });
      if (i % 3 === 1) return call(node(i), "PATCH", `/dossiers/${dossier.id}`, { key: org.key, body: { name: `Renamed ${i}` } });
      return call(node(i), "POST", `/dossiers/${dossier.id}/contacts`, { key: org.key, body: { contact_id: contact.json.data.id, role_on_dossier: "other" } });
    });
    const [result, ...answers] = await Promise.all([
      imported(org, csv, { resource: "dossiers", type: "candidate", mapping: JSON.stringify({ name: "name", email: "email" }) }),
      ...writes,
    ]);
    for (const answer of answers) expect([200, 201], answer.text).toContain(answer.status);
    expect(result.status, JSON.stringify(result.errors)).toBe("succeeded");
    expect([result.created, result.failed]).toEqual([40, 0]);
  });

  test("a contact deleted while dossiers link it (by email and by contact_id): each create 201 or 404, never a 500, no link to a deleted contact", async () => {
    const org = await makeOrg(first);
    const email = "leaving@example.com";
    const contact = (await call(first, "POST", "/contacts", { key: org.key, body: { full_name: "Leaving", email } })).json.data;
    const [deleted, ...answers] = await Promise.all([
      call(node(1), "DELETE", `/contacts/${contact.id}`, { key: org.key }),
      ...Array.from({ length: 12 }, (_, i) =>
        call(node(i), "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: `Linker ${i}`, ...(i % 2 ? { email } : { contact_id: contact.id }) } }),
      ),
    ]);
    expect(deleted.status, deleted.text).toBe(200);
    for (const [i, answer] of answers.entries()) expect(i % 2 ? [201] : [201, 404], answer.text).toContain(answer.status);
    const dangling = await queryRows(
      first,
      "SELECT d.id FROM dossiers d WHERE d.organization_id = ? AND d.contact_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM contacts c WHERE c.id = d.contact_id)",
      org.id,
    );
    expect(dangling).toEqual([]);
  });
});
