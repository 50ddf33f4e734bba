// Unique keys under concurrency (C19: a difference between engines is a bug): what SQLite's one
// writer answers to requests that race on one key, PostgreSQL's concurrent transactions answer
// too, through two apps (two nodes' pools) on one database. A link of one contact to one dossier
// (its primary key), a flow made the default of its type (one default per type), stages added to
// one flow (their positions), members of one email (unique across the installation).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { call, makeOrg } from "../helpers";
import { ENGINES, nodesOn, queryRows } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const RACERS = 10;

describe.each(ENGINES)("on %s", async (engine) => {
  const apps = await nodesOn(engine);
  const [first] = apps;
  const node = (i: number) => apps[i % apps.length];
  const racing = (send: (i: number) => ReturnType<typeof call>) => Promise.all(Array.from({ length: RACERS }, (_, i) => send(i)));

  test(`${RACERS} POST /dossiers/{id}/contacts at once of one contact: one 201, the others 200, one link`, async () => {
    const org = await makeOrg(first);
    const dossier = (await call(first, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "Linked" } })).json.data;
    const contact = (await call(first, "POST", "/contacts", { key: org.key, body: { full_name: "Linker" } })).json.data;
    const answers = await racing((i) =>
      call(node(i), "POST", `/dossiers/${dossier.id}/contacts`, { key: org.key, body: { contact_id: contact.id, role_on_dossier: i % 2 ? "other" : "champion" } }),
    );
    expect(answers.map((a) => a.status).sort(), answers.map((a) => a.text).join("\n")).toEqual([...Array<number>(RACERS - 1).fill(200), 201]);
    const links = await queryRows(first, "SELECT role_on_dossier FROM dossier_contacts WHERE dossier_id = ? AND contact_id = ?", dossier.id, contact.id);
    expect(links.length).toBe(1);
  });

  test(`${RACERS} POST /flows at once, each the default of its type: all 201, one default`, async () => {
    const org = await makeOrg(first);
    const answers = await racing((i) =>
      call(node(i), "POST", "/flows", { key: org.key, body: { type: "sales", name: `Flow ${i}`, is_default: true, stages: [{ name: "Only" }] } }),
    );
    for (const answer of answers) expect(answer.status, answer.text).toBe(201);
    const defaults = await queryRows(first, "SELECT id FROM flows WHERE organization_id = ? AND type = 'sales' AND is_default", org.id);
    expect(defaults.length).toBe(1);
  });

  test(`${RACERS} POST /flows/{id}/stages at once: all 201, positions 1..n`, async () => {
    const org = await makeOrg(first);
    const flow = (await call(first, "POST", "/flows", { key: org.key, body: { type: "candidate", name: "Growing", stages: [{ name: "First" }] } })).json.data;
    const answers = await racing((i) => call(node(i), "POST", `/flows/${flow.id}/stages`, { key: org.key, body: { name: `Stage ${i}`, ...(i % 2 ? { position: 1 } : {}) } }));
    for (const answer of answers) expect(answer.status, answer.text).toBe(201);
    const positions = await queryRows<{ position: number }>(first, "SELECT position FROM stages WHERE flow_id = ? ORDER BY position", flow.id);
    expect(positions.map((s) => Number(s.position))).toEqual(Array.from({ length: RACERS + 1 }, (_, i) => i + 1));
  });

  test(`${RACERS} POST /members at once of one email: one 201, the others 409 duplicate_member`, async () => {
    const org = await makeOrg(first);
    const answers = await racing((i) => call(node(i), "POST", "/members", { key: org.key, body: { email: `Twin.${engine}@example.com`, name: `Twin ${i}`, role: "member" } }));
    expect(answers.map((a) => a.status).sort(), answers.map((a) => a.text).join("\n")).toEqual([201, ...Array<number>(RACERS - 1).fill(409)]);
    for (const answer of answers.filter((a) => a.status === 409)) expect(answer.json.error.code).toBe("duplicate_member");
  });

  test(`${RACERS} contacts PATCHed to one email at once: one 200, the others 409 duplicate_contact`, async () => {
    const org = await makeOrg(first);
    const contacts = await Promise.all(Array.from({ length: RACERS }, (_, i) => call(first, "POST", "/contacts", { key: org.key, body: { full_name: `Renamed ${i}` } })));
    const answers = await racing((i) => call(node(i), "PATCH", `/contacts/${contacts[i].json.data.id}`, { key: org.key, body: { email: "Same@example.com" } }));
    expect(answers.map((a) => a.status).sort(), answers.map((a) => a.text).join("\n")).toEqual([200, ...Array<number>(RACERS - 1).fill(409)]);
    const holders = await queryRows(first, "SELECT id FROM contacts WHERE organization_id = ? AND email_folded = 'same@example.com'", org.id);
    expect(holders.length).toBe(1);
  });

  test(`${RACERS} contacts linked as the primary of one dossier at once: all 201, one primary, the dossier's contact_id its contact`, async () => {
    const org = await makeOrg(first);
    const dossier = (await call(first, "POST", "/dossiers", { key: org.key, body: { type: "sales", name: "Contested" } })).json.data;
    const contacts = await Promise.all(Array.from({ length: RACERS }, (_, i) => call(first, "POST", "/contacts", { key: org.key, body: { full_name: `Primary ${i}` } })));
    const answers = await racing((i) =>
      call(node(i), "POST", `/dossiers/${dossier.id}/contacts`, { key: org.key, body: { contact_id: contacts[i].json.data.id, role_on_dossier: "champion", is_primary: true } }),
    );
    for (const answer of answers) expect(answer.status, answer.text).toBe(201);
    const primaries = await queryRows<{ contact_id: string }>(first, "SELECT contact_id FROM dossier_contacts WHERE dossier_id = ? AND is_primary", dossier.id);
    expect(primaries.length).toBe(1);
    expect((await call(node(1), "GET", `/dossiers/${dossier.id}`, { key: org.key })).json.data.contact_id).toBe(primaries[0].contact_id);
  });
});
