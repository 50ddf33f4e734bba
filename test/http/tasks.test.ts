// C22 tasks over the API: the resource, its rules (lengths in code points, date-times, references of
// the organization: 400 naming the field), scopes and roles, tenancy, order and filters, history
// items, ETags and Idempotency-Key (C16). Tasks emit no webhook events (every row checks `events`).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { DossierApp } from "../../src/app";
import type { Store } from "../../src/db/store";
import { createMember, disableMember, operator } from "../../src/services/members";
import { call, makeOrg, type Org } from "../helpers";
import { ENGINES, appOn } from "../helpers/stores";
import { refused, scenarios, signedInMember, type World } from "../helpers/scenario";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const UUID = "0b7c5f9e-8d3a-4e21-9a6b-2f4c1d0e9a87";

async function post(app: DossierApp<Store>, org: Org, path: string, body: unknown) {
  const answer = await call(app, "POST", path, { key: org.key, body });
  expect(answer.status).toBe(201);
  return answer.json.data;
}

let members = 0;
async function member(app: DossierApp<Store>, org: Org, disabled = false): Promise<{ id: string }> {
  const made = await createMember(app.dossier, operator(org.id), { email: `m${++members}-${crypto.randomUUID().slice(0, 6)}@example.com`, name: "Mia", role: "member" }, "http://127.0.0.1:8080");
  if (disabled) await disableMember(app.dossier, operator(org.id), made.id);
  return { id: made.id };
}

/** A dossier, a contact and a member of each organization, a disabled member, and a task of each. */
async function fixtures({ app, org, other }: World) {
  const dossier = await post(app, org, "/dossiers", { type: "candidate", name: "Ana" });
  const contact = await post(app, org, "/contacts", { full_name: "Carl" });
  const mine = await member(app, org);
  const gone = await member(app, org, true);
  const theirDossier = await post(app, other, "/dossiers", { type: "candidate", name: "Theirs" });
  const theirContact = await post(app, other, "/contacts", { full_name: "Their contact" });
  const theirMember = await member(app, other);
  const task = await post(app, org, "/tasks", { title: "Call Ana", dossier_id: dossier.id });
  const theirTask = await post(app, other, "/tasks", { title: "Their task" });
  return { dossier, contact, mine, gone, theirDossier, theirContact, theirMember, task, theirTask };
}

const long = (n: number) => "🙂".repeat(n); // one code point, two UTF-16 units

scenarios("POST /tasks: C22's rules", fixtures, [
  {
    name: "C22: a title alone → 201, open, made by the key, no event",
    method: "POST", path: "/tasks", body: { title: "Send the offer" }, status: 201,
    json: ({ org }) => ({
      data: {
        title: "Send the offer", status: "open", done_at: null, due_at: null, remind_at: null, notes: null, assigned_to: null,
        dossier_id: null, contact_id: null, organization_id: org.id, created_by: { kind: "key", id: org.keyId },
      },
    }),
  },
  {
    name: "C22/C3: every field; due_at and remind_at stored in UTC with milliseconds",
    method: "POST", path: "/tasks",
    body: (f) => ({ title: "Prepare", notes: "n", due_at: "2026-12-01T10:00:00+01:00", remind_at: "2026-12-01T08:30Z", assigned_to: f.mine.id, dossier_id: f.dossier.id, contact_id: f.contact.id }),
    status: 201,
    json: (f) => ({ data: { due_at: "2026-12-01T09:00:00.000Z", remind_at: "2026-12-01T08:30:00.000Z", assigned_to: f.mine.id, dossier_id: f.dossier.id, contact_id: f.contact.id } }),
  },
  { name: "C22: a title of 500 code points (1000 UTF-16 units) → 201", method: "POST", path: "/tasks", body: { title: long(500) }, status: 201 },
  { name: "C22: a title of 501 code points → 400 naming title", method: "POST", path: "/tasks", body: { title: long(501) }, status: 400, json: refused("invalid_body", "title") },
  { name: "C22: an empty title → 400 naming title", method: "POST", path: "/tasks", body: { title: "" }, status: 400, json: refused("invalid_body", "title") },
  { name: "C22: a title of spaces → 400 naming title", method: "POST", path: "/tasks", body: { title: "   " }, status: 400, json: refused("invalid_body", "title") },
  { name: "C22: no title → 400 naming title", method: "POST", path: "/tasks", body: { notes: "x" }, status: 400, json: refused("invalid_body", "title") },
  { name: "C22: notes over 20,000 → 400 naming notes", method: "POST", path: "/tasks", body: { title: "t", notes: "x".repeat(20_001) }, status: 400, json: refused("invalid_body", "notes") },
  { name: "C22: due_at that is not a date-time → 400 naming due_at", method: "POST", path: "/tasks", body: { title: "t", due_at: "tomorrow" }, status: 400, json: refused("invalid_body", "due_at") },
  { name: "C22: due_at a date without a time → 400 naming due_at", method: "POST", path: "/tasks", body: { title: "t", due_at: "2026-12-01" }, status: 400, json: refused("invalid_body", "due_at") },
  { name: "C22: due_at on a day that does not exist → 400 naming due_at", method: "POST", path: "/tasks", body: { title: "t", due_at: "2026-02-30T10:00:00Z" }, status: 400, json: refused("invalid_body", "due_at") },
  { name: "C22: due_at a number → 400 naming due_at", method: "POST", path: "/tasks", body: { title: "t", due_at: 1764576000000 }, status: 400, json: refused("invalid_body", "due_at") },
  { name: "C22: remind_at that is not a date-time → 400 naming remind_at", method: "POST", path: "/tasks", body: { title: "t", remind_at: "soon" }, status: 400, json: refused("invalid_body", "remind_at") },
  { name: "C22: a dossier_id of another organization → 400 naming dossier_id", method: "POST", path: "/tasks", body: (f) => ({ title: "t", dossier_id: f.theirDossier.id }), status: 400, json: refused("invalid_body", "dossier_id") },
  { name: "C22: an unknown dossier_id → 400 naming dossier_id", method: "POST", path: "/tasks", body: { title: "t", dossier_id: UUID }, status: 400, json: refused("invalid_body", "dossier_id") },
  { name: "C22: a dossier_id that is not a uuid → 400 naming dossier_id", method: "POST", path: "/tasks", body: { title: "t", dossier_id: "abc" }, status: 400, json: refused("invalid_body", "dossier_id") },
  { name: "C22: a contact_id of another organization → 400 naming contact_id", method: "POST", path: "/tasks", body: (f) => ({ title: "t", contact_id: f.theirContact.id }), status: 400, json: refused("invalid_body", "contact_id") },
  { name: "C22: assigned_to a member of another organization → 400 naming assigned_to", method: "POST", path: "/tasks", body: (f) => ({ title: "t", assigned_to: f.theirMember.id }), status: 400, json: refused("invalid_body", "assigned_to") },
  { name: "C22: assigned_to an unknown member → 400 naming assigned_to", method: "POST", path: "/tasks", body: { title: "t", assigned_to: UUID }, status: 400, json: refused("invalid_body", "assigned_to") },
  { name: "C22: assigned_to a disabled member → 400 naming assigned_to", method: "POST", path: "/tasks", body: (f) => ({ title: "t", assigned_to: f.gone.id }), status: 400, json: refused("invalid_body", "assigned_to") },
  { name: "C3: an unknown field → 400 naming it", method: "POST", path: "/tasks", body: { title: "t", priority: 1 }, status: 400, json: refused("invalid_body", "priority") },
  { name: "C3: a read-only field → 400 naming it", method: "POST", path: "/tasks", body: { title: "t", done_at: null }, status: 400, json: refused("invalid_body", "done_at") },
  { name: "C22: status other than open or done → 400 naming status", method: "POST", path: "/tasks", body: { title: "t", status: "later" }, status: 400, json: refused("invalid_body", "status") },
  { name: "C22: status done on create sets done_at", method: "POST", path: "/tasks", body: { title: "t", status: "done" }, status: 201, json: { data: { status: "done", done_at: expect.any(String) } } },
  { name: "C3: not JSON → 400", method: "POST", path: "/tasks", raw: { body: "{", contentType: "application/json" }, status: 400, json: refused("invalid_body") },
  { name: "C8: no key → 401", as: "no key", method: "POST", path: "/tasks", body: { title: "t" }, status: 401, json: refused("unauthorized") },
  { name: "C22: tasks:read alone cannot create → 403", as: ["tasks:read"], method: "POST", path: "/tasks", body: { title: "t" }, status: 403, json: refused("forbidden") },
  { name: "C22: a viewer cannot create → 403", as: "viewer", method: "POST", path: "/tasks", body: { title: "t" }, status: 403, json: refused("forbidden") },
  {
    name: "C22: a member creates; created_by names the member",
    as: "member", method: "POST", path: "/tasks", body: { title: "t" }, status: 201,
    json: { data: { created_by: { kind: "member", id: expect.any(String) } } },
  },
  { name: "C3: free plan → 402", as: "free plan", method: "POST", path: "/tasks", body: { title: "t" }, status: 402, json: refused("plan_required") },
]);

scenarios("GET, PATCH, DELETE /tasks/{id}: C22's rules", fixtures, [
  { name: "C22: GET a task of the organization", method: "GET", path: "/tasks/{task}", status: 200, json: (f) => ({ data: { id: f.task.id, title: "Call Ana" } }) },
  { name: "C22: a viewer reads tasks (tasks:read)", as: "viewer", method: "GET", path: "/tasks/{task}", status: 200 },
  { name: "C22: a key without tasks:read → 403", as: ["dossiers:read"], method: "GET", path: "/tasks/{task}", status: 403, json: refused("forbidden") },
  { name: "C22: another organization's task → 404", method: "GET", path: "/tasks/{theirTask}", status: 404, json: refused("not_found") },
  { name: "C3: a path id that is not a uuid → 404", method: "GET", path: "/tasks/nope", status: 404, json: refused("not_found") },
  { name: "C10: PATCH {} → 200, nothing changes", method: "PATCH", path: "/tasks/{task}", body: {}, status: 200, unchanged: true },
  { name: "C10: PATCH the same title → 200, nothing changes", method: "PATCH", path: "/tasks/{task}", body: { title: "Call Ana" }, status: 200, unchanged: true },
  { name: "C22: PATCH status done → done_at set", method: "PATCH", path: "/tasks/{task}", body: { status: "done" }, status: 200, json: { data: { status: "done", done_at: expect.any(String) } } },
  { name: "C22: PATCH title null → 400 naming title", method: "PATCH", path: "/tasks/{task}", body: { title: null }, status: 400, json: refused("invalid_body", "title") },
  { name: "C22: PATCH status null → 400 naming status", method: "PATCH", path: "/tasks/{task}", body: { status: null }, status: 400, json: refused("invalid_body", "status") },
  { name: "C22: PATCH dossier_id null clears it", method: "PATCH", path: "/tasks/{task}", body: { dossier_id: null }, status: 200, json: { data: { dossier_id: null } } },
  { name: "C22: PATCH due_at not a date-time → 400 naming due_at", method: "PATCH", path: "/tasks/{task}", body: { due_at: "2026-13-01T00:00:00Z" }, status: 400, json: refused("invalid_body", "due_at") },
  { name: "C22: PATCH dossier_id of another organization → 400 naming dossier_id", method: "PATCH", path: "/tasks/{task}", body: (f) => ({ dossier_id: f.theirDossier.id }), status: 400, json: refused("invalid_body", "dossier_id") },
  { name: "C22: PATCH assigned_to of another organization → 400 naming assigned_to", method: "PATCH", path: "/tasks/{task}", body: (f) => ({ assigned_to: f.theirMember.id }), status: 400, json: refused("invalid_body", "assigned_to") },
  { name: "C10: PATCH a read-only field → 400", method: "PATCH", path: "/tasks/{task}", body: { created_at: "2026-01-01T00:00:00.000Z" }, status: 400, json: refused("invalid_body", "created_at") },
  { name: "C22: PATCH another organization's task → 404", method: "PATCH", path: "/tasks/{theirTask}", body: { title: "x" }, status: 404, json: refused("not_found") },
  { name: "C22: a viewer cannot PATCH → 403", as: "viewer", method: "PATCH", path: "/tasks/{task}", body: { title: "x" }, status: 403, json: refused("forbidden") },
  { name: "C22: DELETE → {id, deleted: true}", method: "DELETE", path: "/tasks/{task}", status: 200, json: (f) => ({ data: { id: f.task.id, deleted: true } }) },
  { name: "C22: DELETE another organization's task → 404", method: "DELETE", path: "/tasks/{theirTask}", status: 404, json: refused("not_found") },
  { name: "C22: GET /dossiers/{id}/tasks of another organization's dossier → 404", method: "GET", path: "/dossiers/{theirDossier}/tasks", status: 404, json: refused("not_found") },
  { name: "C22: GET /dossiers/{id}/tasks", method: "GET", path: "/dossiers/{dossier}/tasks", status: 200, json: (f) => ({ data: [{ id: f.task.id }], meta: { total: 1, page: 1, per_page: 25 } }) },
]);

scenarios("GET /tasks: filters that are refused", fixtures, [
  { name: "C22: assigned_to=me with an API key → 400 naming assigned_to", method: "GET", path: "/tasks?assigned_to=me", status: 400, json: refused("invalid_body", "assigned_to") },
  { name: "C10: assigned_to not a uuid → 400", method: "GET", path: "/tasks?assigned_to=bob", status: 400, json: refused("invalid_body", "assigned_to") },
  { name: "C10: dossier_id not a uuid → 400", method: "GET", path: "/tasks?dossier_id=1", status: 400, json: refused("invalid_body", "dossier_id") },
  { name: "C10: a repeated dossier_id not a uuid → 400", method: "GET", path: `/tasks?dossier_id=${UUID}&dossier_id=1`, status: 400, json: refused("invalid_body", "dossier_id") },
  {
    name: "C22: dossier_id repeated more than 100 times → 400 naming dossier_id",
    method: "GET",
    path: `/tasks?${Array.from({ length: 101 }, (_, i) => `dossier_id=${UUID.slice(0, -3)}${String(i).padStart(3, "0")}`).join("&")}`,
    status: 400,
    json: refused("invalid_body", "dossier_id"),
  },
  { name: "C10: contact_id not a uuid → 400", method: "GET", path: "/tasks?contact_id=1", status: 400, json: refused("invalid_body", "contact_id") },
  { name: "C22: due_before not a date-time → 400", method: "GET", path: "/tasks?due_before=monday", status: 400, json: refused("invalid_body", "due_before") },
  { name: "C22: due_after not a date-time → 400", method: "GET", path: "/tasks?due_after=2026", status: 400, json: refused("invalid_body", "due_after") },
  { name: "C10: overdue other than true/false → 400", method: "GET", path: "/tasks?overdue=yes", status: 400, json: refused("invalid_body", "overdue") },
  { name: "C22: status other than open/done → 400", method: "GET", path: "/tasks?status=all", status: 400, json: refused("invalid_body", "status") },
  { name: "C3: per_page 101 → 400", method: "GET", path: "/tasks?per_page=101", status: 400, json: refused("invalid_body", "per_page") },
  { name: "C22: another organization sees none of ours", as: "another org", method: "GET", path: "/tasks", status: 200, json: (f) => ({ data: [{ id: f.theirTask.id }], meta: { total: 1 } }) },
]);

describe.each(ENGINES)("GET /tasks: order and filters (C22) on %s", async (engine) => {
  const clock = new Date("2026-11-29T12:00:00.000Z");
  const app = await appOn(engine, { now: () => clock });
  const org = await makeOrg(app, { rateLimit: 1_000_000 });
  const dossier = await post(app, org, "/dossiers", { type: "candidate", name: "Ana" });
  const other = await post(app, org, "/dossiers", { type: "candidate", name: "Ben" });
  const contact = await post(app, org, "/contacts", { full_name: "Carl" });
  const signed = await signedInMember(app, org.id, "member");
  const make = (title: string, extra: Record<string, unknown> = {}) => post(app, org, "/tasks", { title, ...extra });
  // Made in this order (created_at ties are broken by id, so each is made at its own instant).
  const tick = () => (clock.setTime(clock.getTime() + 1));
  const none1 = await make("no date 1"); tick();
  const late = await make("late", { due_at: "2026-11-28T09:00:00.000Z", assigned_to: signed.id }); tick();
  const today = await make("today", { due_at: "2026-11-29T18:00:00.000Z", dossier_id: dossier.id }); tick();
  const none2 = await make("no date 2", { contact_id: contact.id }); tick();
  const doneLate = await make("done late", { due_at: "2026-11-27T09:00:00.000Z", status: "done" }); tick();
  const next = await make("next week", { due_at: "2026-12-06T09:00:00.000Z", assigned_to: signed.id, dossier_id: other.id }); tick();
  const titles = async (query: string, headers?: Record<string, string>) => {
    const answer = await call(app, "GET", `/tasks${query}`, headers ? { headers } : { key: org.key });
    expect(answer.status).toBe(200);
    return answer.json.data.map((task: { title: string }) => task.title);
  };

  test("C22: due_at ascending, no due date last, then created_at", async () => {
    expect(await titles("")).toEqual([doneLate, late, today, next, none1, none2].map((t) => t.title));
  });
  test("C22: each filter", async () => {
    expect(await titles("?status=open")).toEqual(["late", "today", "next week", "no date 1", "no date 2"]);
    expect(await titles("?status=done")).toEqual(["done late"]);
    expect(await titles(`?assigned_to=${signed.id}`)).toEqual(["late", "next week"]);
    expect(await titles("?assigned_to=me", signed.headers)).toEqual(["late", "next week"]);
    expect(await titles(`?dossier_id=${dossier.id}`)).toEqual(["today"]);
    // Repeated: the tasks of any of them (the board's task marks, one request per column page).
    expect(await titles(`?dossier_id=${dossier.id}&dossier_id=${other.id.toUpperCase()}&dossier_id=${UUID}`)).toEqual(["today", "next week"]);
    expect(await titles(`?dossier_id=${dossier.id}&dossier_id=${dossier.id}&status=open&overdue=false`)).toEqual(["today"]);
    expect(await titles(`?contact_id=${contact.id}`)).toEqual(["no date 2"]);
    expect(await titles("?due_before=2026-11-29T18:00:00.000Z")).toEqual(["done late", "late"]);
    expect(await titles("?due_after=2026-11-29T18:00:00.000Z")).toEqual(["today", "next week"]);
    expect(await titles("?due_after=2026-11-29T00:00:00%2B01:00&due_before=2026-11-30T00:00:00Z")).toEqual(["today"]);
    expect(await titles("?overdue=true")).toEqual(["late"]);
    expect(await titles("?overdue=false")).toEqual(["done late", "today", "next week", "no date 1", "no date 2"]);
    expect(await titles(`?overdue=true&assigned_to=${UUID}`)).toEqual([]);
  });
  test("C3: paging keeps the order and the total", async () => {
    const first = await call(app, "GET", "/tasks?per_page=4&page=2", { key: org.key });
    expect(first.json.meta).toEqual({ total: 6, page: 2, per_page: 4, next_after: null });
    expect(first.json.data.map((t: { id: string }) => t.id)).toEqual([none1.id, none2.id]);
    const past = await call(app, "GET", "/tasks?page=9", { key: org.key });
    expect(past.json).toEqual({ data: [], meta: { total: 6, page: 9, per_page: 25, next_after: null } });
  });
});

describe.each(ENGINES)("tasks in the dossier's history (C18, C22), ETags and idempotency (C16) on %s", async (engine) => {
  const app = await appOn(engine);
  const org = await makeOrg(app, { rateLimit: 1_000_000 });
  const dossier = await post(app, org, "/dossiers", { type: "candidate", name: "Ana" });

  test("C22: task_created and task_done, one each; reopening and a task without a dossier add none", async () => {
    const task = await post(app, org, "/tasks", { title: "Call Ana", dossier_id: dossier.id });
    await post(app, org, "/tasks", { title: "Elsewhere" });
    expect((await call(app, "PATCH", `/tasks/${task.id}`, { key: org.key, body: { status: "done" } })).status).toBe(200);
    expect((await call(app, "PATCH", `/tasks/${task.id}`, { key: org.key, body: { status: "done" } })).status).toBe(200);
    const reopened = await call(app, "PATCH", `/tasks/${task.id}`, { key: org.key, body: { status: "open" } });
    expect(reopened.json.data).toMatchObject({ status: "open", done_at: null });
    const history = await call(app, "GET", `/dossiers/${dossier.id}/history`, { key: org.key });
    const items = history.json.data.filter((item: { kind: string }) => item.kind.startsWith("task_"));
    expect(items).toEqual([
      expect.objectContaining({ kind: "task_created", actor: expect.objectContaining({ type: "key", id: org.keyId }), changes: { task_id: [null, task.id], title: [null, "Call Ana"] } }),
      expect.objectContaining({ kind: "task_done", changes: { task_id: [task.id, task.id], status: ["open", "done"] } }),
    ]);
  });

  test("C16: ETag on GET and PATCH; If-None-Match 304; a stale If-Match 412 changes nothing", async () => {
    const task = await post(app, org, "/tasks", { title: "Tagged" });
    const got = await call(app, "GET", `/tasks/${task.id}`, { key: org.key });
    const etag = got.headers.get("etag")!;
    expect(etag).toMatch(/^"/);
    expect((await call(app, "GET", `/tasks/${task.id}`, { key: org.key, headers: { "if-none-match": etag } })).status).toBe(304);
    const patched = await call(app, "PATCH", `/tasks/${task.id}`, { key: org.key, body: { title: "Tagged 2" }, headers: { "if-match": etag } });
    expect(patched.status).toBe(200);
    expect(patched.headers.get("etag")).not.toBe(etag);
    const stale = await call(app, "PATCH", `/tasks/${task.id}`, { key: org.key, body: { title: "Tagged 3" }, headers: { "if-match": etag } });
    expect(stale.status).toBe(412);
    expect(stale.json.error.code).toBe("precondition_failed");
    expect((await call(app, "DELETE", `/tasks/${task.id}`, { key: org.key, headers: { "if-match": etag } })).status).toBe(412);
    expect((await call(app, "GET", `/tasks/${task.id}`, { key: org.key })).json.data.title).toBe("Tagged 2");
  });

  test("C16: a POST repeated with its Idempotency-Key answers the first answer and makes one task", async () => {
    const send = () => call(app, "POST", "/tasks", { key: org.key, body: { title: "Once" }, headers: { "idempotency-key": "task-once-1" } });
    const first = await send();
    const again = await send();
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.json).toEqual(first.json);
    expect(first.headers.get("location")).toBe(`/api/v1/tasks/${first.json.data.id}`);
    const listed = await call(app, "GET", "/tasks?per_page=100", { key: org.key });
    expect(listed.json.data.filter((t: { title: string }) => t.title === "Once")).toHaveLength(1);
  });
});
