// C15, C20 over HTTP: the flow's intake address, and POST /intake/{token}.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Store } from "../../src/db/store";
import { intakeAddress } from "../../src/services/intake";
import { updateOrg } from "../../src/services/orgs";
import { call, makeOrg } from "../helpers";
import { refused, scenarios, type World } from "../helpers/scenario";
import { ENGINES, appOn, queryRows, rowCountsOf } from "../helpers/stores";
import { compose, pdf } from "../intake/compose";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

// `AND is_default`: a flag both engines read as a condition (SQLite 1/0, PostgreSQL a boolean).
const flowOf = async (world: World<Store>, orgId = world.org.id) =>
  (await queryRows<{ id: string }>(world.app, "SELECT id FROM flows WHERE organization_id = ? AND type = 'candidate' AND is_default", orgId))[0].id;

async function withAddress(world: World<Store>) {
  const flow = await flowOf(world);
  const address = (await intakeAddress(world.app.dossier, world.org.id, flow))!.address;
  const message = await compose({ from: '"Rosalind Franklin" <rf@example.com>', subject: "Application", text: "CV attached", messageId: "<http-1@example.com>", attachments: [{ filename: "cv.pdf", content: Buffer.from(pdf()) }] });
  return { flow, token: address.slice(0, address.indexOf("@")), message };
}

const rfc822 = (body: Uint8Array | string) => ({ body, contentType: "message/rfc822" });

describe.each(ENGINES)("intake over HTTP on %s", (engine) => {
  scenarios("C15, C20: the flow's intake address over the API", async (world) => ({ flow: await flowOf(world), otherFlow: await flowOf(world, world.other.id) }), [
    { name: "C15: GET /flows/{id}/intake → 200 {address} (token of 20+ characters @ DOSSIER_INTAKE_DOMAIN); every flow has one from its creation, so reading it changes nothing", method: "GET", path: "/flows/{flow}/intake", status: 200, json: { data: { address: expect.stringMatching(/^[a-z0-9]{20,}@localhost$/) } }, unchanged: true },
    { name: "C20: GET /flows/{id}/intake needs flows:write (flows:read alone → 403)", as: ["flows:read"], method: "GET", path: "/flows/{flow}/intake", status: 403, json: refused("forbidden") },
    { name: "C15: another organization's flow → 404", method: "GET", path: "/flows/{otherFlow}/intake", status: 404, json: refused("not_found") },
    { name: "C15: POST /flows/{id}/intake/rotate → 200 {address}", method: "POST", path: "/flows/{flow}/intake/rotate", status: 200, json: { data: { address: expect.stringMatching(/^[a-z0-9]{20,}@localhost$/) } } },
    { name: "C20: rotation needs flows:write", as: ["flows:read", "dossiers:write"], method: "POST", path: "/flows/{flow}/intake/rotate", status: 403, json: refused("forbidden") },
    { name: "C15: rotation of an unknown flow → 404", method: "POST", path: `/flows/${crypto.randomUUID()}/intake/rotate`, status: 404, json: refused("not_found") },
  ], { engine });

  scenarios("C15, C20: POST /intake/{token}", withAddress, [
    { name: "C15: a raw message → 201 {data: {id}}, dossier.created", as: "no key", method: "POST", path: "/intake/{token}", raw: ({ message }) => rfc822(message), status: 201, json: { data: { id: expect.any(String) } }, events: ["dossier.created"] },
    { name: "C20: an unknown token → 404 before the body is read (a wrong type too)", as: "no key", method: "POST", path: `/intake/${"q".repeat(26)}`, raw: { body: "x", contentType: "text/plain" }, status: 404, json: refused("not_found") },
    { name: "C20: a token that is no token → 404", as: "no key", method: "POST", path: "/intake/..%2F..", raw: rfc822("x"), status: 404, json: refused("not_found") },
    { name: "C20: another Content-Type → 415 unsupported_media_type", as: "no key", method: "POST", path: "/intake/{token}", raw: ({ message }) => ({ body: message, contentType: "text/plain" }), status: 415, json: refused("unsupported_media_type") },
    { name: "C20: a message that cannot be parsed (no From) → 400 invalid_body, nothing stored", as: "no key", method: "POST", path: "/intake/{token}", raw: rfc822("Subject: nobody\r\n\r\nno sender\r\n"), status: 400, json: refused("invalid_body") },
    { name: "C15: over 25 MB → 413, nothing stored", as: "no key", method: "POST", path: "/intake/{token}", raw: rfc822(new Uint8Array(26_214_401)), status: 413, json: refused("payload_too_large") },
  ], { engine });

  describe("C15, C20: POST /intake/{token} in sequence", async () => {
    test("the same Message-ID again → 200 with the first id, nothing new; the dossier is the message's", async () => {
      const app = await appOn(engine);
      const org = await makeOrg(app);
      const { token, message } = await withAddress({ app, org, other: org });
      const first = await call(app, "POST", `/api/v1/intake/${token}`, { raw: message, contentType: "message/rfc822" });
      expect(first.status).toBe(201);
      const counts = await rowCountsOf(app);
      const again = await call(app, "POST", `/api/v1/intake/${token}`, { raw: message, contentType: "message/rfc822" });
      expect(again.status).toBe(200);
      expect(again.json).toEqual(first.json);
      expect(await rowCountsOf(app)).toEqual(counts);
      const dossier = await call(app, "GET", `/api/v1/dossiers/${first.json.data.id}`, { key: org.key });
      expect(dossier.json.data).toMatchObject({ name: "Rosalind Franklin", email: "rf@example.com", intake_notes: "Application\n\nCV attached" });
      expect(dossier.json.data.cv_url).not.toBeNull();
    });

    test("after a rotation the old token is unknown (404)", async () => {
      const app = await appOn(engine);
      const org = await makeOrg(app);
      const { flow, token, message } = await withAddress({ app, org, other: org });
      expect((await call(app, "POST", `/api/v1/flows/${flow}/intake/rotate`, { key: org.key })).status).toBe(200);
      expect((await call(app, "POST", `/api/v1/intake/${token}`, { raw: message, contentType: "message/rfc822" })).status).toBe(404);
    });

    test("C20: the plan (402) comes before the limit and is not counted; the token's own limit → 429 with Retry-After and no X-RateLimit headers", async () => {
      const app = await appOn(engine, { config: { intakeRateLimit: 2 } });
      const org = await makeOrg(app);
      const { token } = await withAddress({ app, org, other: org });
      const send = (i: number) => compose({ from: "x@example.com", text: `m${i}`, messageId: `<limit-${i}@example.com>` }).then((m) => call(app, "POST", `/api/v1/intake/${token}`, { raw: m, contentType: "message/rfc822" }));
      await updateOrg(app.dossier, org.id, { plan: "pro" });
      for (let i = 0; i < 3; i++) expect((await send(i)).json).toEqual({ error: { code: "plan_required", message: expect.any(String), request_id: expect.any(String) } });
      await updateOrg(app.dossier, org.id, { plan: "growth" });
      expect((await send(10)).status).toBe(201);
      expect((await send(11)).status).toBe(201);
      const over = await send(12);
      expect(over.status).toBe(429);
      expect(over.json.error.code).toBe("rate_limited");
      expect(Number(over.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(over.headers.get("x-ratelimit-limit")).toBeNull();
    });

    test("C20: intake spends none of the organization's API budget", async () => {
      const app = await appOn(engine);
      const org = await makeOrg(app, { rateLimit: 2 });
      const { token, message } = await withAddress({ app, org, other: org });
      for (let i = 0; i < 3; i++) await call(app, "POST", `/api/v1/intake/${token}`, { raw: message, contentType: "message/rfc822" });
      expect((await call(app, "GET", "/api/v1/flows", { key: org.key })).status).toBe(200);
    });
  });
});
