// Issue 38: what integrators asked for. `error.param` names the field or query parameter at fault;
// `request_id` is the answer's X-Request-Id. Every 201 carries Location, every 401
// WWW-Authenticate: Bearer. Unknown query parameters stay ignored, as C3 settles.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { intakeAddress } from "../../src/services/intake";
import type { DossierApp } from "../../src/app";
import type { Store } from "../../src/db/store";
import { call, makeOrg } from "../helpers";
import { ENGINES, queryRows, sharedApp } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

describe.each(ENGINES)("on %s", async (engine) => {
  const flowOf = async (app: DossierApp<Store>, orgId: string) =>
    (await queryRows<{ id: string }>(app, "SELECT id FROM flows WHERE organization_id = ? AND type = 'candidate' AND is_default", orgId))[0].id;

  describe("C3: unknown query parameters are ignored (issue 38 asked for 400; the contract decides)", async () => {
    const app = await sharedApp(engine);
    const org = await makeOrg(app);

    test("a list with an unknown parameter answers as without it; a route with no query ignores one too", async () => {
      const plain = await call(app, "GET", "/dossiers?status=won", { key: org.key });
      const typo = await call(app, "GET", "/dossiers?status=won&sort=&stauts=lost", { key: org.key });
      expect(typo.status).toBe(200);
      expect(typo.json).toEqual(plain.json);
      expect((await call(app, "GET", "/keys?verbose=1", { key: org.key })).status).toBe(200);
      expect((await call(app, "POST", "/dossiers?dry_run=true", { key: org.key, body: { type: "candidate", name: "Ada" } })).status).toBe(201);
    });

    test("declared parameters still work; array parameters may repeat; page and per_page keep their rules", async () => {
      expect((await call(app, "GET", "/dossiers?status=won&type=sales&page=2&per_page=5", { key: org.key })).status).toBe(200);
      expect((await call(app, "GET", "/contacts?kind=client&kind=partner", { key: org.key })).status).toBe(200);
      expect((await call(app, "GET", "/dossiers", { key: org.key })).json.meta).toEqual({ total: expect.any(Number), page: 1, per_page: 25, next_after: null });
      const tooMany = await call(app, "GET", "/dossiers?per_page=101", { key: org.key });
      expect(tooMany.status).toBe(400);
      expect(tooMany.json.error.message).toBe("per_page must be an integer from 1 to 100");
      expect((await call(app, "GET", "/dossiers?page=0", { key: org.key })).status).toBe(400);
    });

    test("C3's order: 401, 403 and the path's 404 come before the query's 400", async () => {
      expect((await call(app, "GET", "/dossiers?per_page=0", { key: null })).status).toBe(401);
      const reader = await makeOrg(app, { scopes: ["contacts:read"] });
      expect((await call(app, "GET", "/dossiers?per_page=0", { key: reader.key })).status).toBe(403);
      expect((await call(app, "GET", `/dossiers/${crypto.randomUUID()}/notes?per_page=0`, { key: org.key })).status).toBe(404);
    });
  });

  describe("issue 38: error.param names the field or query parameter at fault", async () => {
    const app = await sharedApp(engine);
    const org = await makeOrg(app);
    const ada = { type: "candidate", name: "Ada" };

    test.each([
      ["a query parameter out of bounds", "GET", "/dossiers?per_page=0", undefined, 400, "per_page"],
      ["per_page out of range", "GET", "/dossiers?per_page=101", undefined, 400, "per_page"],
      ["an enum query value", "GET", "/dossiers?status=done", undefined, 400, "status"],
      ["a query uuid", "GET", "/dossiers?stage_id=x", undefined, 400, "stage_id"],
      ["a query timestamp", "GET", "/dossiers?updated_since=yesterday", undefined, 400, "updated_since"],
      ["an unknown body field", "POST", "/dossiers", { ...ada, colour: "red" }, 400, "colour"],
      ["a required field", "POST", "/dossiers", { type: "candidate" }, 400, "name"],
      ["an enum field", "POST", "/dossiers", { type: "boss", name: "Ada" }, 400, "type"],
      ["a service's length check", "POST", "/dossiers", { ...ada, intake_notes: "x".repeat(20_001) }, 400, "intake_notes"],
      ["a sales-only field on a candidate", "POST", "/dossiers", { ...ada, deal_size: 3 }, 400, "deal_size"],
      ["a stage's unknown field", "POST", "/flows", { type: "sales", name: "P", stages: [{ name: "A", colour: "#fff" }] }, 400, "stages[0].colour"],
      ["a stage's bad colour", "POST", "/flows", { type: "sales", name: "P", stages: [{ name: "A" }, { name: "B", color: "red" }] }, 400, "stages[1].color"],
      ["an id in the body that names nothing", "POST", "/dossiers", { ...ada, flow_id: crypto.randomUUID() }, 404, "flow_id"],
    ] as const)("%s → %s %s: param %s", async (_what, method, path, body, status, param) => {
      const answer = await call(app, method, path, { key: org.key, body });
      expect(answer.status).toBe(status);
      expect(answer.json.error.param).toBe(param);
    });

    test("a duplicate email: 409 duplicate_contact with param email", async () => {
      expect((await call(app, "POST", "/contacts", { key: org.key, body: { full_name: "Grace", email: "grace@example.com" } })).status).toBe(201);
      const again = await call(app, "POST", "/contacts", { key: org.key, body: { full_name: "Grace", email: "GRACE@example.com" } });
      expect(again.status).toBe(409);
      expect(again.json.error).toMatchObject({ code: "duplicate_contact", param: "email" });
    });

    test("code and message stay as they were; no param where no field is at fault", async () => {
      const bad = await call(app, "GET", "/dossiers?per_page=101", { key: org.key });
      expect(bad.json.error).toMatchObject({ code: "invalid_body", message: "per_page must be an integer from 1 to 100", param: "per_page" });
      const notJson = await call(app, "POST", "/dossiers", { key: org.key, raw: "{", contentType: "application/json" });
      expect(notJson.status).toBe(400);
      expect(notJson.json.error.param).toBeUndefined();
      const missing = await call(app, "GET", `/dossiers/${crypto.randomUUID()}`, { key: org.key });
      expect(missing.status).toBe(404);
      expect(missing.json.error.param).toBeUndefined();
      expect((await call(app, "GET", "/dossiers", { key: null })).json.error.param).toBeUndefined();
    });

    test("a replayed refusal (Idempotency-Key) keeps its param", async () => {
      const headers = { "idempotency-key": "param-replay" };
      const first = await call(app, "POST", "/dossiers", { key: org.key, body: { ...ada, colour: "red" }, headers });
      const again = await call(app, "POST", "/dossiers", { key: org.key, body: { ...ada, colour: "red" }, headers });
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect([first.json.error.param, again.json.error.param]).toEqual(["colour", "colour"]);
    });
  });

  describe("issue 38: request_id in every error body", async () => {
    const app = await sharedApp(engine);
    const org = await makeOrg(app);
    const pro = await makeOrg(app, { plan: "pro" });

    test.each([
      ["400", "GET", "/dossiers?per_page=0", org.key, 400],
      ["401", "GET", "/dossiers", null, 401],
      ["402", "GET", "/dossiers", pro.key, 402],
      ["404 of a path", "GET", `/dossiers/${crypto.randomUUID()}`, org.key, 404],
      ["404 of an unknown route", "GET", "/nowhere", org.key, 404],
    ] as const)("%s: error.request_id is the X-Request-Id header", async (_what, method, path, key, status) => {
      const answer = await call(app, method, path, { key });
      expect(answer.status).toBe(status);
      expect(answer.json.error.request_id).toBeString();
      expect(answer.json.error.request_id).toBe(answer.headers.get("x-request-id")!);
    });

    test("the client's own X-Request-Id is the one quoted; a replayed refusal quotes its own request's", async () => {
      const mine = await call(app, "GET", "/dossiers?per_page=0", { key: org.key, headers: { "x-request-id": "trace-38" } });
      expect(mine.json.error).toMatchObject({ code: "invalid_body", param: "per_page", request_id: "trace-38" });
      const body = { type: "candidate", name: "Ada", colour: "red" };
      const headers = { "idempotency-key": "rid-replay" };
      await call(app, "POST", "/dossiers", { key: org.key, body, headers: { ...headers, "x-request-id": "first" } });
      const again = await call(app, "POST", "/dossiers", { key: org.key, body, headers: { ...headers, "x-request-id": "second" } });
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(again.json.error.request_id).toBe("second");
    });
  });

  describe("issue 38: Location on a 201, WWW-Authenticate on a 401", async () => {
    const app = await sharedApp(engine);
    const org = await makeOrg(app);
    const json = { key: org.key };

    test("each create answers 201 with the created resource's URL under /api/v1", async () => {
      const dossier = await call(app, "POST", "/dossiers", { ...json, body: { type: "candidate", name: "Ada" } });
      expect([dossier.status, dossier.headers.get("location")]).toEqual([201, `/api/v1/dossiers/${dossier.json.data.id}`]);
      // The URL answers the record.
      expect((await call(app, "GET", dossier.headers.get("location")!, json)).json.data.id).toBe(dossier.json.data.id);
      const form = new FormData();
      form.append("type", "candidate");
      form.append("name", "Grace");
      const multipart = await call(app, "POST", "/dossiers", { ...json, raw: form });
      expect([multipart.status, multipart.headers.get("location")]).toEqual([201, `/api/v1/dossiers/${multipart.json.data.id}`]);
      const contact = await call(app, "POST", "/contacts", { ...json, body: { full_name: "Bob" } });
      expect([contact.status, contact.headers.get("location")]).toEqual([201, `/api/v1/contacts/${contact.json.data.id}`]);
      const flow = await call(app, "POST", "/flows", { ...json, body: { type: "sales", name: "Partners", stages: [{ name: "Intro" }] } });
      expect([flow.status, flow.headers.get("location")]).toEqual([201, `/api/v1/flows/${flow.json.data.id}`]);
      const stage = await call(app, "POST", `/flows/${flow.json.data.id}/stages`, { ...json, body: { name: "Extra" } });
      expect([stage.status, stage.headers.get("location")]).toEqual([201, `/api/v1/stages/${stage.json.data.id}`]);
      const key = await call(app, "POST", "/keys", { ...json, body: { scopes: ["dossiers:read"] } });
      expect([key.status, key.headers.get("location")]).toEqual([201, `/api/v1/keys/${key.json.data.id}`]);
      const member = await call(app, "POST", "/members", { ...json, body: { email: "m@example.com", name: "M", role: "viewer" } });
      expect([member.status, member.headers.get("location")]).toEqual([201, `/api/v1/members/${member.json.data.id}`]);
      const link = await call(app, "POST", `/dossiers/${dossier.json.data.id}/contacts`, { ...json, body: { contact_id: contact.json.data.id, role_on_dossier: "other" } });
      expect([link.status, link.headers.get("location")]).toEqual([201, `/api/v1/dossiers/${dossier.json.data.id}/contacts/${contact.json.data.id}`]);
      // A re-link is 200: nothing created, no Location.
      const relink = await call(app, "POST", `/dossiers/${dossier.json.data.id}/contacts`, { ...json, body: { contact_id: contact.json.data.id, role_on_dossier: "champion" } });
      expect([relink.status, relink.headers.get("location")]).toEqual([200, null]);
      // Other answers carry none.
      expect((await call(app, "GET", "/dossiers", json)).headers.get("location")).toBeNull();
    });

    test("a replayed 201 (Idempotency-Key) carries the same Location", async () => {
      const headers = { "idempotency-key": "location-replay" };
      const first = await call(app, "POST", "/contacts", { ...json, body: { full_name: "Carol" }, headers });
      const again = await call(app, "POST", "/contacts", { ...json, body: { full_name: "Carol" }, headers });
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(first.headers.get("location")).toBe(`/api/v1/contacts/${first.json.data.id}`);
      expect(again.headers.get("location")).toBe(first.headers.get("location"));
      const [stored] = await queryRows<{ location: string | null }>(app, "SELECT location FROM idempotency_keys WHERE key = 'location-replay'");
      expect(stored?.location).toBe(first.headers.get("location"));
    });

    test("a message taken in by intake: 201 with the new dossier's Location, replayed too", async () => {
      const address = (await intakeAddress(app.dossier, org.id, await flowOf(app, org.id)))!.address;
      const token = address.slice(0, address.indexOf("@"));
      const raw = "From: Jane Doe <jane@example.com>\r\nSubject: CV\r\nMessage-ID: <loc-38@example.com>\r\n\r\nHello.\r\n";
      const headers = { "idempotency-key": "intake-location" };
      const taken = await call(app, "POST", `/intake/${token}`, { key: null, raw, contentType: "message/rfc822", headers });
      expect([taken.status, taken.headers.get("location")]).toEqual([201, `/api/v1/dossiers/${taken.json.data.id}`]);
      const again = await call(app, "POST", `/intake/${token}`, { key: null, raw, contentType: "message/rfc822", headers });
      expect([again.headers.get("idempotent-replayed"), again.headers.get("location")]).toEqual(["true", taken.headers.get("location")]);
    });

    test.each([
      ["no key", "GET", "/dossiers", null],
      ["an unknown key", "GET", "/dossiers", "svc_live_" + "0".repeat(32)],
      ["a key on a session call", "GET", "/session", "KEY"],
    ])("401 with %s carries WWW-Authenticate: Bearer", async (_what, method, path, key) => {
      const answer = await call(app, method, path, { key: key === "KEY" ? org.key : key });
      expect(answer.status).toBe(401);
      expect(answer.headers.get("www-authenticate")).toBe("Bearer");
    });

    test("a wrong password at sign-in (401 invalid_credentials) carries it too; other answers do not", async () => {
      const wrong = await call(app, "POST", "/session", { key: null, body: { email: "nobody@example.com", password: "a long enough password" } });
      expect([wrong.status, wrong.headers.get("www-authenticate")]).toEqual([401, "Bearer"]);
      expect((await call(app, "GET", "/dossiers", json)).headers.get("www-authenticate")).toBeNull();
      expect((await call(app, "GET", "/dossiers?x=1", json)).headers.get("www-authenticate")).toBeNull();
    });
  });
});
