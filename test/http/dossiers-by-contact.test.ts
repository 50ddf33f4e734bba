// GET /dossiers?contact_id=: the dossiers linked to one contact, primary or not (the console's
// contact page lists them), right across the list's caches: a link or unlink changes no dossier's
// generation, so such a list is never taken from a remembered answer or page boundary.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { call, makeOrg } from "../helpers";
import { ENGINES, appOn } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

describe.each(ENGINES)("GET /dossiers?contact_id on %s", async (engine) => {
  const app = await appOn(engine);
  const org = await makeOrg(app);
  const other = await makeOrg(app);
  const as = (key: string) => ({
    post: async (path: string, body: unknown) => {
      const answer = await call(app, "POST", path, { key, body });
      expect(answer.status).toBeOneOf([200, 201]);
      return answer.json.data;
    },
    list: async (query: string) => {
      const answer = await call(app, "GET", `/dossiers?${query}`, { key });
      expect(answer.status).toBe(200);
      return { names: (answer.json.data as { name: string }[]).map((d) => d.name).sort(), total: answer.json.meta.total as number };
    },
  });
  const mine = as(org.key);

  test("lists the contact's dossiers, primary or not, and follows links and unlinks at once", async () => {
    const contact = await mine.post("/contacts", { full_name: "Linked Person", email: "linked@example.com", kind: ["candidate"] });
    const primary = await mine.post("/dossiers", { type: "candidate", name: "Primary", contact_id: contact.id });
    const secondary = await mine.post("/dossiers", { type: "candidate", name: "Secondary" });
    await mine.post("/dossiers", { type: "candidate", name: "Unrelated" });
    await mine.post(`/dossiers/${secondary.id}/contacts`, { contact_id: contact.id, role_on_dossier: "other", is_primary: false });
    expect(secondary.contact_id).not.toBe(contact.id);

    expect(await mine.list(`contact_id=${contact.id}`)).toEqual({ names: ["Primary", "Secondary"], total: 2 });
    // Asked twice and paged: whatever the list remembers, the next change shows at once.
    expect(await mine.list(`contact_id=${contact.id}`)).toEqual({ names: ["Primary", "Secondary"], total: 2 });
    expect(await mine.list(`contact_id=${contact.id}&per_page=1&page=2`)).toMatchObject({ total: 2 });

    expect((await call(app, "DELETE", `/dossiers/${secondary.id}/contacts/${contact.id}`, { key: org.key })).status).toBe(200);
    expect(await mine.list(`contact_id=${contact.id}`)).toEqual({ names: ["Primary"], total: 1 });
    expect(await mine.list(`contact_id=${contact.id}&per_page=1&page=2`)).toEqual({ names: [], total: 1 });
    // With another filter, and with the id in capitals.
    expect(await mine.list(`contact_id=${contact.id.toUpperCase()}&status=won`)).toEqual({ names: [], total: 0 });
    expect(await mine.list(`contact_id=${contact.id.toUpperCase()}`)).toEqual({ names: ["Primary"], total: 1 });
    expect(primary.contact_id).toBe(contact.id);
  });

  test("another organization's contact lists nothing of it, and its own dossiers linked to that id stay its own", async () => {
    const contact = await mine.post("/contacts", { full_name: "Private Person", email: "private@example.com", kind: ["candidate"] });
    await mine.post("/dossiers", { type: "candidate", name: "Private", contact_id: contact.id });
    expect(await as(other.key).list(`contact_id=${contact.id}`)).toEqual({ names: [], total: 0 });
  });

  test("a contact_id that is not a uuid is 400 invalid_body naming it", async () => {
    const answer = await call(app, "GET", "/dossiers?contact_id=nobody", { key: org.key });
    expect(answer.status).toBe(400);
    expect(answer.json.error.code).toBe("invalid_body");
    expect(answer.json.error.message).toContain("contact_id");
  });
});
