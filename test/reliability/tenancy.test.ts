// Issue 7 item 2, api-v1 "Conventions" (Tenancy), C3: the test is generated from the app's own
// route table. Every /api/v1 route that takes a path id is called with organization A's key and
// organization B's ids (every combination of A's and B's ids for two-id paths, and every method
// on that path): 404 `not_found`, nothing changes (fingerprint), nothing of B is in the answer.
// List routes never show B's rows, even when filtered by B's ids; create routes refuse B's ids.
// A route in the table without a rule here fails the test: a new route forces an update.
import { isConsole } from "./fuzz-routes";
import { beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { DossierApp } from "../../src/app";
import type { Store } from "../../src/db/store";
import { createMember, operator } from "../../src/services/members";
import { call, filesUnder, until, type CallOptions } from "../helpers";
import { engineFingerprint, fingerprintDiff } from "../helpers/fingerprint";
import { ENGINES, appOn, queryRows, type Engine } from "../helpers/stores";
import { pdf, seedOrg, type Seeded } from "./fixtures";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

/** The app of the engine under test, made and seeded before its tests (`seed`). */
let app: DossierApp<Store>;
let A: Seeded;
let B: Seeded;
/** Each organization's CSV import (C21), by organization id. */
const IMPORTS = new Map<string, string>();
/** POST /imports' form: a CSV file and its mapping (the file's own headers). */
function importForm(_org: Seeded, resource: "contacts" | "dossiers", csv: string, fields: Record<string, string> = {}) {
  const form = new FormData();
  form.set("file", new File([csv], "import.csv", { type: "text/csv" }));
  form.set("resource", resource);
  const headers = csv.split("\n")[0].split(",");
  form.set("mapping", JSON.stringify(Object.fromEntries(headers.map((h) => [h, h]))));
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return form;
}
/** Each organization's event ids (its seeding's events), by organization id. */
const EVENTS = new Map<string, string[]>();
/** Each organization's task (C22), by organization id. */
const TASKS = new Map<string, string>();
/** Each organization's first member (C12), by organization id. */
const MEMBERS = new Map<string, string>();
/** Each organization's latest event when seeded, by organization id. */
const LAST_EVENTS = new Map<string, string>();
/** The import job removes its uploaded file just after it records the import's end: a test waits
 * for that too, or a later fingerprint sees the file go. */
const importFilesGone = () => until(() => !filesUnder(app.dossier.filesDir).some((file) => file.includes("/imports/")), 30_000, "the imports' files removed");

async function seed(engine: Engine) {
  app = await appOn(engine);
  for (const map of [IMPORTS, EVENTS, TASKS, MEMBERS, LAST_EVENTS]) map.clear();
  // seedOrg goes through the API alone, whatever the engine (its parameter is typed as SQLite's app).
  A = await seedOrg(app as DossierApp, "Alpha");
  B = await seedOrg(app as DossierApp, "Bravo");
  for (const org of [A, B]) {
    const log = await call(app, "GET", "/webhook-deliveries?per_page=2", { key: org.key });
    EVENTS.set(org.id, log.json.data.map((d: { event_id: string }) => d.event_id));
  }
  // One finished CSV import each (C21): the import routes take its id.
  for (const org of [A, B]) {
    const queued = await call(app, "POST", "/imports", { key: org.key, raw: importForm(org, "contacts", `full_name,email\n${org.name} imported,imported@${org.name.toLowerCase()}.example\n`) });
    expect(queued.status, queued.text).toBe(202);
    IMPORTS.set(org.id, queued.json.data.id);
    await until(async () => (await call(app, "GET", `/imports/${queued.json.data.id}`, { key: org.key })).json.data.status === "succeeded", 30_000, "the import");
  }
  await importFilesGone();
  // One member each (C12), made by the operator: member routes take its id.
  for (const org of [A, B]) {
    await createMember(app.dossier, operator(org.id), { email: `member@${org.name.toLowerCase()}.example`, name: `${org.name} member`, role: "member" }, "http://127.0.0.1:8080");
  }
  // Each organization's first member (member routes take its id).
  for (const org of [A, B]) {
    MEMBERS.set(org.id, (await queryRows<{ id: string }>(app, "SELECT id FROM members WHERE organization_id = ? ORDER BY created_at LIMIT 1", org.id))[0].id);
  }
  // One task each (C22), on its dossier and contact, assigned to its member.
  for (const org of [A, B]) {
    const made = await call(app, "POST", "/tasks", { key: org.key, body: { title: `${org.name} task`, dossier_id: org.dossier, contact_id: org.contact, assigned_to: idFor(org, "members")[0] } });
    expect(made.status, made.text).toBe(201);
    TASKS.set(org.id, made.json.data.id);
  }
  // Each organization's latest event (event routes take its id; B writes nothing after this).
  for (const org of [A, B]) {
    LAST_EVENTS.set(org.id, (await queryRows<{ id: string }>(app, "SELECT id FROM events WHERE organization_id = ? ORDER BY seq DESC LIMIT 1", org.id))[0].id);
  }
}

/** C22's calendar feed and unsubscribe links are opened by their own tokens, outside /api/v1. */
const OUTSIDE = (path: string) =>
  path === "/healthz" || path === "/openapi.json" || path.startsWith("/docs") || isConsole(path) || path.startsWith("/calendar/") || path.startsWith("/unsubscribe/");
const routes = () => app.routes.filter((r) => !OUTSIDE(r.path)).map((r) => ({ method: r.method.toUpperCase(), path: r.path }));
/** Routes whose path parameter is a secret token, not an organization's id (C15). */
const byToken = (path: string) => path.includes(":token");

const cvForm = () => {
  const form = new FormData();
  form.set("cv", new File([pdf(300, 7)], "cv.pdf", { type: "application/pdf" }));
  return form;
};

/** Bodies that A could send successfully to its own resource: with B's ids they must still be 404. */
interface Rule {
  bodies?: (a: Seeded, b: Seeded) => CallOptions[];
  /** Checks beyond the path ids: lists, creates and bodies that carry B's ids. */
  extra?: (a: Seeded, b: Seeded) => Promise<void>;
}

/** Asserts a call changes nothing and answers `status`/`code`, with none of B's ids or names in it. */
async function refused(method: string, path: string, options: CallOptions, status = 404, code = "not_found") {
  const before = await engineFingerprint(app);
  const answer = await call(app, method, path, { key: A.key, ...options });
  const label = `${method} ${path}`;
  expect(answer.status, `${label}: ${answer.text}`).toBe(status);
  expect(answer.json?.error?.code, label).toBe(code);
  expect(fingerprintDiff(before, await engineFingerprint(app)), label).toEqual([]);
  leaksNothing(label, answer.text);
}

function leaksNothing(label: string, text: string) {
  for (const [field, value] of Object.entries(B)) {
    if (field !== "name" && typeof value === "string") expect(text.includes(value), `${label} shows B's ${field}`).toBe(false);
  }
  for (const name of ["candidate", "deal", "manager", "loose", "note"]) {
    expect(text.includes(`${B.name} ${name}`), `${label} shows B's ${name}`).toBe(false);
  }
}

/** What B sees of its own data: compared before and after A's successful writes. */
async function bView() {
  const get = async (path: string) => (await call(app, "GET", path, { key: B.key })).text;
  return Promise.all([
    get(`/dossiers/${B.dossier}`),
    get(`/dossiers/${B.dossier}/contacts`),
    get(`/contacts?per_page=100`),
    get(`/dossiers?per_page=100&status=active`),
  ]);
}

/** Every id of B's dossiers (all statuses), contacts and flows, as B's own key lists them. */
async function bIds(): Promise<Set<string>> {
  const ids = new Set<string>();
  for (const path of ["/dossiers?per_page=100&status=active", "/dossiers?per_page=100&status=archived", "/contacts?per_page=100", "/flows"]) {
    for (const row of (await call(app, "GET", path, { key: B.key })).json.data) ids.add(row.id);
  }
  return ids;
}

async function listed(path: string) {
  const answer = await call(app, "GET", path, { key: A.key });
  expect(answer.status, `GET ${path}: ${answer.text}`).toBe(200);
  leaksNothing(`GET ${path}`, answer.text);
  const theirs = await bIds();
  for (const row of answer.json.data) expect(theirs.has(row.id), `GET ${path} lists B's ${row.id}`).toBe(false);
  return answer.json;
}

const RULES: Record<string, Rule> = {
  "GET /api/v1/dossiers": {
    extra: async (a, b) => {
      const mine = await listed("/dossiers?per_page=100");
      for (const id of [a.dossier, a.sales]) expect(mine.data.map((d: any) => d.id)).toContain(id);
      for (const query of [
        `status=archived`, `flow_id=${b.flow}`, `stage_id=${b.stage}`, `q=Bravo`, `q=bravo.example`, `type=sales`,
        `assigned_to=${b.id}`, `overdue=false`, `overdue=true`, `page=2&per_page=1`,
      ]) {
        const list = await listed(`/dossiers?${query}`);
        for (const d of list.data) expect(d.organization_id).toBe(a.id);
      }
      expect((await listed(`/dossiers?flow_id=${b.flow}`)).meta.total).toBe(0);
      expect((await listed(`/dossiers?stage_id=${b.stage}`)).meta.total).toBe(0);
    },
  },
  "POST /api/v1/dossiers": {
    extra: async (a, b) => {
      await refused("POST", "/dossiers", { body: { type: "candidate", name: "X", flow_id: b.flow } });
      await refused("POST", "/dossiers", { body: { type: "candidate", name: "X", contact_id: b.contact } });
      await refused("POST", "/dossiers", { body: { type: "sales", name: "X", flow_id: b.salesFlow } });
      const form = cvForm();
      form.set("type", "candidate");
      form.set("name", "X");
      form.set("flow_id", b.flow);
      await refused("POST", "/dossiers", { raw: form });
      // B's contact email is not A's: A gets a new contact of its own, B's is untouched.
      const view = await bView();
      const created = await call(app, "POST", "/dossiers", { key: a.key, body: { type: "candidate", name: "Same email", email: "Candidate@Bravo.example" } });
      expect(created.status).toBe(201);
      expect(created.json.data.contact_id).not.toBe(b.contact);
      leaksNothing("POST /dossiers", created.text);
      expect(await bView()).toEqual(view);
    },
  },
  "GET /api/v1/dossiers/:id": {},
  "PATCH /api/v1/dossiers/:id": {
    bodies: () => [{ body: { name: "Hijacked", status: "won" } }, { body: {} }],
    extra: async (a, b) => {
      // A stage of B's flow on A's own dossier: not in the dossier's flow (C5).
      await refused("PATCH", `/dossiers/${a.dossier}`, { body: { current_stage_id: b.stage } }, 400, "invalid_body");
    },
  },
  "DELETE /api/v1/dossiers/:id": {},
  "POST /api/v1/dossiers/:id/cv": {
    bodies: () => [{ raw: pdf(200, 3), contentType: "application/pdf" }, { raw: cvForm() }],
  },
  "GET /api/v1/dossiers/:id/cv": {},
  "GET /api/v1/dossiers/:id/notes": {},
  "GET /api/v1/dossiers/:id/history": {},
  "POST /api/v1/dossiers/:id/notes": { bodies: () => [{ body: { content: "Hijack" } }] },
  "GET /api/v1/dossiers/:id/contacts": {},
  "POST /api/v1/dossiers/:id/contacts": {
    bodies: (a) => [{ body: { contact_id: a.loose, role_on_dossier: "champion", is_primary: true } }],
    extra: async (a, b) => {
      for (const contact of [b.loose, b.contact, b.linked]) {
        await refused("POST", `/dossiers/${a.dossier}/contacts`, { body: { contact_id: contact, role_on_dossier: "other" } });
        await refused("POST", `/dossiers/${b.dossier}/contacts`, { body: { contact_id: contact, role_on_dossier: "other" } });
      }
    },
  },
  "DELETE /api/v1/dossiers/:id/contacts/:contact_id": {},
  "GET /api/v1/contacts": {
    extra: async (a) => {
      const mine = await listed("/contacts?per_page=100");
      for (const id of [a.contact, a.linked, a.loose]) expect(mine.data.map((c: any) => c.id)).toContain(id);
      for (const query of ["search=bravo", "search=Bravo", "kind=partner&kind=client", "pool=in_pool", "pool=expired", "search=%40"]) {
        await listed(`/contacts?${query}`);
      }
    },
  },
  "POST /api/v1/contacts": {
    extra: async (a, b) => {
      const view = await bView();
      // Email uniqueness is per organization: B's email is free in A, and says nothing about B.
      const created = await call(app, "POST", "/contacts", { key: a.key, body: { full_name: "Twin", email: b.email.toUpperCase() } });
      expect(created.status, created.text).toBe(201);
      leaksNothing("POST /contacts", created.text);
      expect(await bView()).toEqual(view);
    },
  },
  "GET /api/v1/contacts/:id": {},
  "PATCH /api/v1/contacts/:id": {
    bodies: () => [{ body: { full_name: "Hijacked", kind: ["client"] } }, { body: {} }],
    extra: async (a, b) => {
      const view = await bView();
      const patched = await call(app, "PATCH", `/contacts/${a.loose}`, { key: a.key, body: { email: `manager@bravo.example` } });
      expect(patched.status, patched.text).toBe(200);
      expect(await bView()).toEqual(view);
    },
  },
  "DELETE /api/v1/contacts/:id": {},
  "GET /api/v1/flows": {
    extra: async (a) => {
      const flows = await listed("/flows?per_page=100");
      expect(flows.data.map((f: any) => f.id).sort()).toEqual([a.flow, a.salesFlow].sort());
      for (const f of flows.data) expect(f.organization_id).toBe(a.id);
    },
  },
  "GET /api/v1/flows/:id/stages": {},
  "GET /api/v1/flows/:id/stats": {},
  "GET /api/v1/flows/:id/intake": {},
  "POST /api/v1/flows/:id/intake/rotate": {},
  // The token in the path is the principal (C15): no key is read, so "A's key with B's ids" does not
  // apply; what must hold is that mail to A's address lands in A's flow alone.
  "POST /api/v1/intake/:token": {
    extra: async (a) => {
      const address = (await call(app, "GET", `/flows/${a.flow}/intake`, { key: a.key })).json.data.address as string;
      const mail = `From: Intake Tenancy <tenancy@example.com>\r\nMessage-ID: <tenancy@example.com>\r\n\r\nHello\r\n`;
      const taken = await call(app, "POST", `/intake/${address.slice(0, address.indexOf("@"))}`, { raw: mail, contentType: "message/rfc822" });
      expect(taken.status).toBe(201);
      const dossier = await call(app, "GET", `/dossiers/${taken.json.data.id}`, { key: a.key });
      expect(dossier.json.data).toMatchObject({ organization_id: a.id, flow_id: a.flow });
      expect(await bIds()).not.toContain(taken.json.data.id);
    },
  },
  "GET /api/v1/events": {
    extra: async (a) => {
      const feed = await listed("/events?limit=100");
      expect(feed.data.length).toBeGreaterThan(0);
      for (const event of feed.data) expect(event.organization_id).toBe(a.id);
    },
  },
  "GET /api/v1/events/:id": {},
  // The settings calls (C13).
  "POST /api/v1/flows": {
    extra: async (a, b) => {
      const before = (await call(app, "GET", "/flows", { key: b.key })).text;
      const created = await call(app, "POST", "/flows", { key: a.key, body: { type: "candidate", name: "Alpha extra", is_default: true, stages: [{ name: "One" }] } });
      expect(created.status, created.text).toBe(201);
      expect(created.json.data.organization_id).toBe(a.id);
      expect((await call(app, "GET", "/flows", { key: b.key })).text, "B's flows, its default included").toBe(before);
      // Back to A's seeded default, which other rules expect.
      expect((await call(app, "PATCH", `/flows/${a.flow}`, { key: a.key, body: { is_default: true } })).status).toBe(200);
    },
  },
  "PATCH /api/v1/flows/:id": { bodies: () => [{ body: { name: "Hijacked" } }, { body: { is_default: true } }, { body: {} }] },
  "POST /api/v1/flows/:id/stages": { bodies: () => [{ body: { name: "Hijack", position: 1 } }] },
  "PATCH /api/v1/stages/:id": { bodies: () => [{ body: { name: "Hijacked", position: 1 } }, { body: {} }] },
  "DELETE /api/v1/stages/:id": {},
  "GET /api/v1/keys": {
    extra: async (a) => {
      const keys = await listed("/keys");
      expect(keys.data.map((k: any) => k.id)).toContain(a.keyId);
    },
  },
  "POST /api/v1/keys": {
    extra: async (a, b) => {
      const made = await call(app, "POST", "/keys", { key: a.key, body: { scopes: ["dossiers:read", "keys:manage"] } });
      expect(made.status, made.text).toBe(201);
      leaksNothing("POST /keys", made.text);
      expect((await call(app, "GET", `/dossiers/${b.dossier}`, { key: made.json.data.key })).status).toBe(404);
      expect((await call(app, "GET", "/keys", { key: made.json.data.key })).text.includes(b.keyId)).toBe(false);
    },
  },
  "DELETE /api/v1/keys/:id": {},
  "GET /api/v1/webhook-endpoint": {
    extra: async (_, b) => {
      expect((await call(app, "PUT", "/webhook-endpoint", { key: b.key, body: { url: "http://127.0.0.1:9/bravo" } })).status).toBe(200);
      await refused("GET", "/webhook-endpoint", {});
      await refused("POST", "/webhook-endpoint/rotate-secret", {});
      expect((await call(app, "GET", "/webhook-endpoint", { key: b.key })).json.data.url).toBe("http://127.0.0.1:9/bravo");
    },
  },
  "PUT /api/v1/webhook-endpoint": {
    extra: async (a, b) => {
      const view = (await call(app, "GET", "/webhook-endpoint", { key: b.key })).text;
      const set = await call(app, "PUT", "/webhook-endpoint", { key: a.key, body: { url: "http://127.0.0.1:9/alpha" } });
      expect(set.status, set.text).toBe(200);
      leaksNothing("PUT /webhook-endpoint", set.text);
      expect((await call(app, "GET", "/webhook-endpoint", { key: b.key })).text).toBe(view);
    },
  },
  "POST /api/v1/webhook-endpoint/rotate-secret": {
    extra: async (a, b) => {
      const view = (await call(app, "GET", "/webhook-endpoint", { key: b.key })).text;
      await call(app, "PUT", "/webhook-endpoint", { key: a.key, body: { url: "http://127.0.0.1:9/alpha" } });
      expect((await call(app, "POST", "/webhook-endpoint/rotate-secret", { key: a.key })).status).toBe(200);
      expect((await call(app, "GET", "/webhook-endpoint", { key: b.key })).text).toBe(view);
    },
  },
  "DELETE /api/v1/webhook-endpoint": {
    extra: async (a, b) => {
      const view = (await call(app, "GET", "/webhook-endpoint", { key: b.key })).text;
      expect((await call(app, "DELETE", "/webhook-endpoint", { key: a.key })).status).toBe(200);
      expect((await call(app, "GET", "/webhook-endpoint", { key: b.key })).text).toBe(view);
    },
  },
  "GET /api/v1/webhook-deliveries": {
    extra: async (a, b) => {
      const log = await listed("/webhook-deliveries?per_page=100");
      const ids = log.data.map((d: any) => d.event_id);
      expect(ids).toEqual(expect.arrayContaining(EVENTS.get(a.id)!));
      for (const id of EVENTS.get(b.id)!) expect(ids, "A's log shows B's event").not.toContain(id);
    },
  },
  "GET /api/v1/webhook-deliveries/:event_id": {},
  "POST /api/v1/webhook-deliveries/:event_id/retry": {},
  "GET /api/v1/tasks": {
    extra: async (a, b) => {
      const mine = await listed("/tasks?per_page=100");
      expect(mine.data.map((t: any) => t.id)).toContain(TASKS.get(a.id));
      for (const query of [`dossier_id=${b.dossier}`, `contact_id=${b.contact}`, `assigned_to=${idFor(b, "members")[0]}`]) {
        expect((await listed(`/tasks?${query}`)).meta.total, query).toBe(0);
      }
      for (const query of ["overdue=false", "status=open", "due_after=2000-01-01T00:00:00Z"]) for (const t of (await listed(`/tasks?${query}`)).data) expect(t.organization_id).toBe(a.id);
    },
  },
  "POST /api/v1/tasks": {
    extra: async (_a, b) => {
      // C22: ids of another organization in the body are 400 invalid_body naming the field.
      await refused("POST", "/tasks", { body: { title: "X", dossier_id: b.dossier } }, 400, "invalid_body");
      await refused("POST", "/tasks", { body: { title: "X", contact_id: b.contact } }, 400, "invalid_body");
      await refused("POST", "/tasks", { body: { title: "X", assigned_to: idFor(b, "members")[0] } }, 400, "invalid_body");
    },
  },
  "GET /api/v1/tasks/:id": {},
  "PATCH /api/v1/tasks/:id": {
    bodies: () => [{ body: { title: "Hijacked", status: "done" } }, { body: {} }],
    extra: async (a, b) => {
      await refused("PATCH", `/tasks/${TASKS.get(a.id)}`, { body: { dossier_id: b.dossier } }, 400, "invalid_body");
      await refused("PATCH", `/tasks/${TASKS.get(a.id)}`, { body: { assigned_to: idFor(b, "members")[0] } }, 400, "invalid_body");
    },
  },
  "DELETE /api/v1/tasks/:id": {},
  "GET /api/v1/dossiers/:id/tasks": {},
  "GET /api/v1/mail-log": {
    extra: async () => {
      for (const entry of (await listed("/mail-log?per_page=100")).data) expect(entry.member_id).not.toBe(idFor(B, "members")[0]);
    },
  },
  // The member's own settings: a key has no member (401), whatever its organization.
  "GET /api/v1/session/member": { extra: async () => refused("GET", "/session/member", {}, 401, "unauthorized") },
  "PATCH /api/v1/session/member": { extra: async () => refused("PATCH", "/session/member", { body: { digest: false } }, 401, "unauthorized") },
  "POST /api/v1/session/calendar-link": { extra: async () => refused("POST", "/session/calendar-link", {}, 401, "unauthorized") },
  "GET /api/v1/members": {
    extra: async (a, b) => {
      const members = await listed("/members");
      expect(members.data.length).toBeGreaterThan(0);
      for (const member of members.data) expect(member.organization_id).toBe(a.id);
      expect(members.data.map((m: any) => m.id)).not.toContain(idFor(b, "members")[0]);
    },
  },
  "POST /api/v1/members": {
    extra: async () => {
      // Member emails are unique in the installation (C12): B's is refused, and nothing of B is told.
      await refused("POST", "/members", { body: { email: "Member@Bravo.example", name: "Twin", role: "viewer" } }, 409, "duplicate_member");
    },
  },
  "PATCH /api/v1/members/:id": { bodies: () => [{ body: { name: "Hijacked", role: "viewer" } }, { body: {} }] },
  "DELETE /api/v1/members/:id": {},
  "POST /api/v1/members/:id/setup-link": {},
  // CSV export and import (C21): the lists' rows only, B's ids refused, B's email free in A.
  "GET /api/v1/dossiers/export": {
    extra: async (a, b) => {
      for (const query of ["", `?flow_id=${b.flow}`, `?stage_id=${b.stage}`, "?q=Bravo", "?status=archived", `?contact_id=${b.contact}`]) {
        const answer = await call(app, "GET", `/dossiers/export${query}`, { key: a.key });
        expect(answer.status, answer.text).toBe(200);
        leaksNothing(`GET /dossiers/export${query}`, answer.text);
      }
      expect((await call(app, "GET", "/dossiers/export", { key: a.key })).text).toContain(a.dossier);
    },
  },
  "GET /api/v1/contacts/export": {
    extra: async (a) => {
      for (const query of ["", "?search=bravo", "?kind=partner&kind=client", "?pool=in_pool"]) {
        const answer = await call(app, "GET", `/contacts/export${query}`, { key: a.key });
        expect(answer.status, answer.text).toBe(200);
        leaksNothing(`GET /contacts/export${query}`, answer.text);
      }
      expect((await call(app, "GET", "/contacts/export", { key: a.key })).text).toContain(a.contact);
    },
  },
  "POST /api/v1/imports": {
    extra: async (a, b) => {
      await refused("POST", "/imports", { raw: importForm(a, "dossiers", "name\nX\n", { type: "candidate", flow_id: b.flow }) });
      // B's email is free in A: an upsert on it creates A's own contact and leaves B's alone.
      const view = await bView();
      const queued = await call(app, "POST", "/imports", { key: a.key, raw: importForm(a, "contacts", `full_name,email\nTwin,${b.email.toUpperCase()}\n`, { mode: "upsert" }) });
      expect(queued.status, queued.text).toBe(202);
      const done = await until(async () => {
        const now = (await call(app, "GET", `/imports/${queued.json.data.id}`, { key: a.key })).json.data;
        return now.status === "succeeded" && now;
      }, 30_000, "A's import");
      await importFilesGone();
      // (POST /contacts above made A's own contact with that email: matched, unchanged.)
      expect(done).toMatchObject({ processed: 1, updated: 0, failed: 0 });
      leaksNothing("POST /imports", JSON.stringify(done));
      expect(await bView()).toEqual(view);
    },
  },
  "GET /api/v1/imports": {
    extra: async (a, b) => {
      const answer = await call(app, "GET", "/imports?per_page=100", { key: a.key });
      expect(answer.status).toBe(200);
      leaksNothing("GET /imports", answer.text);
      expect(answer.json.data.map((i: { id: string }) => i.id)).toContain(IMPORTS.get(a.id));
      expect(answer.json.data.map((i: { id: string }) => i.id)).not.toContain(IMPORTS.get(b.id));
    },
  },
  "GET /api/v1/imports/:id": {},
  "POST /api/v1/imports/:id/revert": {},
  // About the cookie's session: a key has none (C20), so A's key reaches nothing of B's here.
  "GET /api/v1/session": { extra: async () => void (await refused("GET", "/session", {}, 401, "unauthorized")) },
  "DELETE /api/v1/session": { extra: async () => void (await refused("DELETE", "/session", {}, 401, "unauthorized")) },
  // Signing in names no organization: a wrong password for B's member tells nothing of B.
  "POST /api/v1/session": {
    extra: async () => void (await refused("POST", "/session", { key: undefined, body: { email: "member@bravo.example", password: "not the password" } }, 401, "invalid_credentials")),
  },
  "POST /api/v1/session/setup": {
    extra: async () => void (await refused("POST", "/session/setup", { key: undefined, body: { token: "A".repeat(43), password: "a long enough password" } }, 400, "invalid_setup_link")),
  },
};

/** The id of `owner` for a path parameter, by the collection named just before it. */
function idFor(owner: Seeded, collection: string): string[] {
  switch (collection) {
    case "dossiers":
      return [owner.dossier, owner.sales];
    case "contacts":
      return [owner.contact, owner.linked];
    case "flows":
      return [owner.flow];
    case "members":
      return [MEMBERS.get(owner.id)!];
    case "events":
      return [LAST_EVENTS.get(owner.id)!];
    case "stages":
      return [owner.stage];
    case "keys":
      return [owner.keyId];
    case "webhook-deliveries":
      return EVENTS.get(owner.id)!;
    case "imports":
      return [IMPORTS.get(owner.id)!];
    case "tasks":
      return [TASKS.get(owner.id)!];
    default:
      throw new Error(`tenancy test: no ids for a path parameter after "/${collection}/": add them to idFor`);
  }
}

/** Every way to fill the path's parameters with A's and B's ids, at least one of them B's. */
function fillings(path: string): string[] {
  const segments = path.split("/");
  let paths = [{ path: [] as string[], hasB: false }];
  segments.forEach((segment, i) => {
    if (!segment.startsWith(":")) {
      paths = paths.map((p) => ({ ...p, path: [...p.path, segment] }));
      return;
    }
    const collection = segments[i - 1];
    const next: typeof paths = [];
    for (const p of paths) {
      for (const id of idFor(A, collection)) next.push({ path: [...p.path, id], hasB: p.hasB });
      for (const id of idFor(B, collection)) next.push({ path: [...p.path, id], hasB: true });
    }
    paths = next;
  });
  return paths.filter((p) => p.hasB).map((p) => p.path.join("/").replace(/^\/api\/v1/, ""));
}

describe.each(ENGINES)("tenancy on %s", (engine) => {
  beforeAll(() => seed(engine));

  describe("tenancy, generated from the route table (api-v1 Tenancy, C3)", () => {
    test("the route table is what this test knows: every /api/v1 route has a rule, every rule a route", () => {
      const table = routes().map((r) => `${r.method} ${r.path}`);
      expect(table.length).toBeGreaterThan(10);
      const missing = table.filter((key) => !(key in RULES));
      expect(missing, `routes without a tenancy rule (add one to RULES in ${import.meta.file})`).toEqual([]);
      expect(Object.keys(RULES).filter((key) => !table.includes(key)), "rules for routes that no longer exist").toEqual([]);
      for (const r of routes()) expect(r.path.startsWith("/api/v1/"), `${r.method} ${r.path} is outside /api/v1`).toBe(true);
    });

    test("every route with a path id: A's key with B's ids answers 404 not_found and changes nothing", async () => {
      let calls = 0;
      for (const route of routes()) {
        if (!route.path.includes(":") || byToken(route.path)) continue;
        const rule = RULES[`${route.method} ${route.path}`] ?? {};
        const bodies = rule.bodies?.(A, B) ?? [{}];
        for (const path of fillings(route.path)) {
          for (const options of bodies) {
            await refused(route.method, path, typeof options.raw === "object" && options.raw instanceof FormData ? { raw: cvForm() } : options);
            calls++;
          }
        }
      }
      expect(calls).toBeGreaterThan(40);
    });

    test("every method on every path with an id (served or not): 404 not_found with B's ids, no change", async () => {
      const paths = [...new Set(routes().filter((r) => r.path.includes(":") && !byToken(r.path)).map((r) => r.path))];
      for (const template of paths) {
        for (const path of fillings(template)) {
          for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
            await refused(method, path, method === "GET" || method === "DELETE" ? {} : { body: { name: "Hijack", content: "x" } });
          }
        }
      }
    });

    test("list and create routes never show or take B's rows", async () => {
      for (const route of routes()) {
        const rule = RULES[`${route.method} ${route.path}`];
        if (!route.path.includes(":") || byToken(route.path)) expect(rule?.extra, `${route.method} ${route.path} needs an extra check`).toBeDefined();
        await rule?.extra?.(A, B);
      }
    });

    test("B's own key still sees all of B's data afterwards", async () => {
      const dossier = await call(app, "GET", `/dossiers/${B.dossier}`, { key: B.key });
      expect(dossier.status).toBe(200);
      expect(dossier.json.data.name).toBe("Bravo candidate");
      expect(dossier.json.data.status).toBe("active");
      const links = await call(app, "GET", `/dossiers/${B.dossier}/contacts`, { key: B.key });
      expect(links.json.data.map((l: any) => l.contact_id).sort()).toEqual([B.contact, B.linked].sort());
      const notes = await call(app, "GET", `/dossiers/${B.dossier}/notes`, { key: B.key });
      expect(notes.json.data.map((n: any) => n.id)).toEqual([B.note]);
      const cv = await call(app, "GET", `/dossiers/${B.dossier}/cv`, { key: B.key });
      expect(cv.status).toBe(200);
    });
  });
});
