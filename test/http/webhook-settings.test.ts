// C13, C20: the webhook endpoint (GET/PUT/DELETE /webhook-endpoint, POST .../rotate-secret) and the
// delivery log (GET /webhook-deliveries, GET .../{event_id}, POST .../{event_id}/retry), with
// `webhooks:manage`; C20 "Webhook URLs" at PUT and at each connection.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { DossierApp } from "../../src/app";
import type { Store } from "../../src/db/store";
import { getDelivery } from "../../src/services/deliveries";
import { recordEvent, type EventType } from "../../src/services/outbox";
import { setEndpoint } from "../../src/services/webhooks";
import { sendAttempt } from "../../src/webhooks/send";
import { call, makeOrg, setUp, until } from "../helpers";
import { refused, scenarios, type World } from "../helpers/scenario";
import { ENGINES, appOn, queryRows } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const HOOK = "http://127.0.0.1:9/hook";

async function emit(app: DossierApp<Store>, organizationId: string, type: EventType = "dossier.created"): Promise<string> {
  return app.dossier.store.write(() => recordEvent(app.dossier, organizationId, type, { id: crypto.randomUUID() }));
}

/** Sets what the dispatcher would have: a delivery's status and attempts. */
async function markDelivery(app: DossierApp<Store>, eventId: string, status: string, attempts: number) {
  await setUp(app.dossier, () =>
    queryRows(app, `UPDATE events SET status = ?, attempts = ?, next_attempt_at = NULL, last_status_code = 500, last_error = 'HTTP 500' WHERE id = ?`, status, attempts, eventId),
  );
}

const noEndpoint = async (_: World<Store>) => ({});
async function withEndpoint({ app, org }: World<Store>) {
  await setEndpoint(app.dossier, org.id, HOOK);
  return {};
}

describe.each(ENGINES)("webhook settings on %s", (engine) => {
  scenarios("/webhook-endpoint when none is set (C13, C20)", noEndpoint, [
    { name: "C13: GET is 404 when none is set", method: "GET", path: "/webhook-endpoint", status: 404, json: refused("not_found") },
    {
      name: "C20: PUT sets it: 200 {url, enabled, secret}, the secret shown once",
      method: "PUT",
      path: "/webhook-endpoint",
      body: { url: HOOK },
      status: 200,
      json: { data: { url: HOOK, enabled: true, secret: expect.stringMatching(/^whsec_[A-Za-z0-9]{32}$/) } },
    },
    { name: "C20: a link-local address (cloud metadata) is refused at PUT", method: "PUT", path: "/webhook-endpoint", body: { url: "http://169.254.169.254/latest/meta-data" }, status: 400, json: refused("invalid_body", "link-local") },
    { name: "C20: a link-local address written as a number is refused", method: "PUT", path: "/webhook-endpoint", body: { url: "http://2852039166/" }, status: 400, json: refused("invalid_body", "link-local") },
    { name: "C20: an IPv6 link-local address is refused", method: "PUT", path: "/webhook-endpoint", body: { url: "http://[fe80::1]:8080/hook" }, status: 400, json: refused("invalid_body", "link-local") },
    { name: "C20: an IPv4-mapped link-local address is refused", method: "PUT", path: "/webhook-endpoint", body: { url: "http://[::ffff:169.254.169.254]/" }, status: 400, json: refused("invalid_body", "link-local") },
    { name: "C20: http or https only", method: "PUT", path: "/webhook-endpoint", body: { url: "ftp://127.0.0.1/hook" }, status: 400, json: refused("invalid_body", "url") },
    { name: "C20: not a URL", method: "PUT", path: "/webhook-endpoint", body: { url: "hooks" }, status: 400, json: refused("invalid_body", "url") },
    { name: "C3: url is required", method: "PUT", path: "/webhook-endpoint", body: {}, status: 400, json: refused("invalid_body", "url") },
    { name: "C3: unknown fields are refused", method: "PUT", path: "/webhook-endpoint", body: { url: HOOK, secret: "whsec_mine" }, status: 400, json: refused("invalid_body", "secret") },
    { name: "C20: rotation with no endpoint is 404", method: "POST", path: "/webhook-endpoint/rotate-secret", status: 404, json: refused("not_found") },
    { name: "C20: DELETE answers the final state", method: "DELETE", path: "/webhook-endpoint", status: 200, json: { data: { url: null, enabled: false } } },
    { name: "C13: webhooks:manage is required", as: ["flows:write", "keys:manage"], method: "PUT", path: "/webhook-endpoint", body: { url: HOOK }, status: 403, json: refused("forbidden", "webhooks:manage") },
  ], { engine });

  scenarios("/webhook-endpoint when one is set (C13, C20)", withEndpoint, [
    { name: "C13: GET shows {url, enabled} and never the secret", method: "GET", path: "/webhook-endpoint", status: 200, json: { data: { url: HOOK, enabled: true } } },
    { name: "C20: rotation: 200 {secret}", method: "POST", path: "/webhook-endpoint/rotate-secret", status: 200, json: { data: { secret: expect.stringMatching(/^whsec_/) } } },
    { name: "C20: PUT replaces it", method: "PUT", path: "/webhook-endpoint", body: { url: "https://127.0.0.1:9443/other" }, status: 200, json: { data: { url: "https://127.0.0.1:9443/other", enabled: true } } },
    { name: "C20: DELETE removes it", method: "DELETE", path: "/webhook-endpoint", status: 200, json: { data: { url: null, enabled: false } } },
    { name: "C13: another organization's endpoint is not this one's", as: "another org", method: "GET", path: "/webhook-endpoint", status: 404 },
    { name: "C13: webhooks:manage is required", as: ["dossiers:read"], method: "GET", path: "/webhook-endpoint", status: 403, json: refused("forbidden") },
  ], { engine });

  describe("C13: the endpoint over the API", async () => {
    test("GET answers exactly {url, enabled}; after DELETE, 404 and new events are skipped", async () => {
      const app = await appOn(engine);
      const org = await makeOrg(app);
      await call(app, "PUT", "/webhook-endpoint", { key: org.key, body: { url: HOOK } });
      expect((await call(app, "GET", "/webhook-endpoint", { key: org.key })).json).toEqual({ data: { url: HOOK, enabled: true } });
      const pending = await emit(app, org.id);
      await call(app, "DELETE", "/webhook-endpoint", { key: org.key });
      expect((await call(app, "GET", "/webhook-endpoint", { key: org.key })).status).toBe(404);
      expect((await call(app, "GET", `/webhook-deliveries/${pending}`, { key: org.key })).json.data.status).toBe("skipped");
    });
  });

  describe("C20: DOSSIER_WEBHOOK_ALLOW_PRIVATE=0 refuses loopback and private addresses too", async () => {
    const app = await appOn(engine, { env: { DOSSIER_WEBHOOK_ALLOW_PRIVATE: "0" } });
    const org = await makeOrg(app);
    for (const url of ["http://127.0.0.1:8080/hook", "http://localhost:8080/hook", "http://10.1.2.3/hook", "http://192.168.0.10/hook", "http://[::1]/hook", "http://0.0.0.0/hook"]) {
      test(`PUT ${url} is 400`, async () => {
        const answer = await call(app, "PUT", "/webhook-endpoint", { key: org.key, body: { url } });
        expect(answer.status).toBe(400);
        expect(answer.json.error.message).toContain("private");
      });
    }
    test("a public address is taken", async () => {
      expect((await call(app, "PUT", "/webhook-endpoint", { key: org.key, body: { url: "https://93.184.215.14/hook" } })).status).toBe(200);
    });
  });

  describe("C20: the address is checked again when connecting (DNS may change)", async () => {
    const received: string[] = [];
    const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: async (request) => (received.push(await request.text()), new Response("ok")) });
    afterAll(() => server.stop(true));
    const now = () => new Date();

    test("a link-local address fails as a network error, with no request sent", async () => {
      const result = await sendAttempt("http://169.254.169.254/latest", "{}", {}, 2000, now);
      expect(result).toMatchObject({ statusCode: null, error: expect.stringContaining("link-local") });
    });

    test("a name that resolves to loopback fails when private addresses are refused, and is sent when they are allowed", async () => {
      const url = `http://localhost:${server.port}/hook`;
      const refusedAttempt = await sendAttempt(url, "refused", {}, 2000, now, false);
      expect(refusedAttempt).toMatchObject({ statusCode: null, error: expect.stringContaining("private") });
      expect(received).toEqual([]);
      const allowed = await sendAttempt(url, "allowed", {}, 2000, now, true);
      expect(allowed.statusCode).toBe(200);
      expect(received).toEqual(["allowed"]);
    });
  });

  describe("C20: an endpoint that points at cloud metadata gets nothing, however it was set", async () => {
    test("set by the operator (no check at set), each attempt fails as a network error naming the link-local address", async () => {
      const app = await appOn(engine, { webhooks: true, config: { webhookRetrySchedule: [], webhookTimeoutMs: 2000 } });
      const org = await makeOrg(app);
      await setEndpoint(app.dossier, org.id, "http://169.254.169.254/latest/meta-data/iam/security-credentials/");
      const eventId = await emit(app, org.id);
      await until(async () => (await getDelivery(app.dossier, org.id, eventId)).status === "failed", 60_000, "the delivery to fail");
      const [attempt] = (await getDelivery(app.dossier, org.id, eventId)).attempt_log;
      expect(attempt).toMatchObject({ status_code: null, error: expect.stringContaining("link-local"), response_snippet: null });
    });
  });

  /** Three events of the organization: created (failed), updated (succeeded), note.created (pending),
   * oldest first; and another organization's event. */
  async function deliveries({ app, org, other }: World<Store>) {
    await setEndpoint(app.dossier, org.id, HOOK);
    const failed = await emit(app, org.id, "dossier.created");
    const succeeded = await emit(app, org.id, "dossier.updated");
    const pending = await emit(app, org.id, "note.created");
    await markDelivery(app, failed, "failed", 10);
    await markDelivery(app, succeeded, "succeeded", 1);
    const theirs = await emit(app, other.id);
    return { failed, succeeded, pending, theirs };
  }

  scenarios("GET /webhook-deliveries (C13, C20)", deliveries, [
    {
      name: "C13: the log, newest first, C3's paging",
      method: "GET",
      path: "/webhook-deliveries",
      status: 200,
      json: (f) => ({
        data: [
          { event_id: f.pending, type: "note.created", status: "pending" },
          { event_id: f.succeeded, type: "dossier.updated", status: "succeeded", attempts: 1, last_status_code: 500 },
          { event_id: f.failed, type: "dossier.created", status: "failed", attempts: 10, next_attempt_at: null, last_error: "HTTP 500" },
        ],
        meta: { total: 3, page: 1, per_page: 25 },
      }),
    },
    { name: "C13: status filter", method: "GET", path: "/webhook-deliveries?status=failed", status: 200, json: (f) => ({ data: [{ event_id: f.failed }], meta: { total: 1 } }) },
    { name: "C13: type filter", method: "GET", path: "/webhook-deliveries?type=dossier.updated", status: 200, json: (f) => ({ data: [{ event_id: f.succeeded }], meta: { total: 1 } }) },
    { name: "C13: both filters", method: "GET", path: "/webhook-deliveries?type=dossier.updated&status=failed", status: 200, json: { data: [], meta: { total: 0 } } },
    { name: "C3: page 2 of 2 per page", method: "GET", path: "/webhook-deliveries?per_page=2&page=2", status: 200, json: (f) => ({ data: [{ event_id: f.failed }], meta: { total: 3, page: 2, per_page: 2 } }) },
    { name: "C3: a page past the end is empty with the right total", method: "GET", path: "/webhook-deliveries?page=9", status: 200, json: { data: [], meta: { total: 3, page: 9 } } },
    { name: "C3: per_page over 100 is 400", method: "GET", path: "/webhook-deliveries?per_page=101", status: 400, json: refused("invalid_body", "per_page") },
    { name: "C13: an unknown status is 400", method: "GET", path: "/webhook-deliveries?status=lost", status: 400, json: refused("invalid_body", "status") },
    { name: "C13: an unknown type is 400", method: "GET", path: "/webhook-deliveries?type=contact.created", status: 400, json: refused("invalid_body", "type") },
    { name: "C13: webhooks:manage is required", as: ["dossiers:read"], method: "GET", path: "/webhook-deliveries", status: 403, json: refused("forbidden") },
  ], { engine });

  scenarios("GET /webhook-deliveries/{event_id} (C13)", deliveries, [
    { name: "C13: one delivery with its attempt log", method: "GET", path: "/webhook-deliveries/{failed}", status: 200, json: (f) => ({ data: { event_id: f.failed, status: "failed", attempt_log: [] } }) },
    { name: "C3: another organization's event is 404", method: "GET", path: "/webhook-deliveries/{theirs}", status: 404, json: refused("not_found") },
    { name: "C3: an id that is no event id is 404", method: "GET", path: "/webhook-deliveries/12345", status: 404, json: refused("not_found") },
  ], { engine });

  scenarios("POST /webhook-deliveries/{event_id}/retry (C13, C20)", deliveries, [
    { name: "C20: a failed delivery is queued again: 200 with the delivery, pending, its schedule from the start", method: "POST", path: "/webhook-deliveries/{failed}/retry", status: 200, json: (f) => ({ data: { event_id: f.failed, status: "pending", attempts: 0, next_attempt_at: expect.any(String) } }) },
    { name: "C20: a succeeded delivery is 409 delivery_not_failed", method: "POST", path: "/webhook-deliveries/{succeeded}/retry", status: 409, json: refused("delivery_not_failed") },
    { name: "C20: a pending delivery is 409 delivery_not_failed", method: "POST", path: "/webhook-deliveries/{pending}/retry", status: 409, json: refused("delivery_not_failed") },
    { name: "C3: another organization's event is 404", method: "POST", path: "/webhook-deliveries/{theirs}/retry", status: 404, json: refused("not_found") },
    { name: "C13: webhooks:manage is required", as: ["dossiers:write"], method: "POST", path: "/webhook-deliveries/{failed}/retry", status: 403, json: refused("forbidden") },
  ], { engine });

  describe("C13: a retry with no endpoint to send to", async () => {
    test("is 404 and changes nothing", async () => {
      const app = await appOn(engine);
      const org = await makeOrg(app);
      await setEndpoint(app.dossier, org.id, HOOK);
      const failed = await emit(app, org.id);
      await markDelivery(app, failed, "failed", 3);
      await call(app, "DELETE", "/webhook-endpoint", { key: org.key });
      const answer = await call(app, "POST", `/webhook-deliveries/${failed}/retry`, { key: org.key });
      expect(answer.status).toBe(404);
      expect((await call(app, "GET", `/webhook-deliveries/${failed}`, { key: org.key })).json.data.status).toBe("failed");
    });
  });

  describe("C13, C20: a retried delivery is delivered", async () => {
    test("failed → retry over the API → the receiver gets it, and the log shows the attempt", async () => {
      const received: string[] = [];
      let answer = 500;
      const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: async (request) => (received.push(await request.text()), new Response("ok", { status: answer })) });
      try {
        const app = await appOn(engine, { webhooks: true, config: { webhookRetrySchedule: [], webhookTimeoutMs: 2000 } });
        const org = await makeOrg(app);
        await call(app, "PUT", "/webhook-endpoint", { key: org.key, body: { url: `http://127.0.0.1:${server.port}/hook` } });
        const created = await call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "Ada" } });
        expect(created.status).toBe(201);
        const [first] = (await call(app, "GET", "/webhook-deliveries", { key: org.key })).json.data;
        const status = (wanted: string) => async () => (await getDelivery(app.dossier, org.id, first.event_id)).status === wanted;
        await until(status("failed"), 60_000, "the delivery to fail");
        expect((await call(app, "GET", `/webhook-deliveries/${first.event_id}`, { key: org.key })).json.data.attempt_log).toHaveLength(1);

        answer = 200;
        expect((await call(app, "POST", `/webhook-deliveries/${first.event_id}/retry`, { key: org.key })).json.data.status).toBe("pending");
        await until(status("succeeded"), 60_000, "the retried delivery to succeed");
        const delivered = (await call(app, "GET", `/webhook-deliveries/${first.event_id}`, { key: org.key })).json.data;
        expect(delivered.attempt_log.map((a: { status_code: number }) => a.status_code)).toEqual([500, 200]);
        expect(received).toHaveLength(2);
        expect(JSON.parse(received[1]).id).toBe(first.event_id);
      } finally {
        server.stop(true);
      }
    });
  });
});
