// The document's `webhooks` (OpenAPI 3.1) say what the service really sends (api-v1 "Events", C7):
// the five events are provoked through the API, delivered by the real dispatcher to a receiver on
// 127.0.0.1, and each delivery's body and headers are checked against the document with ajv.
import SwaggerParser from "@apidevtools/swagger-parser";
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { setEndpoint } from "../../src/services/webhooks";
import { call, makeApp, makeOrg, until } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

type Json = Record<string, any>;

const EVENT_TYPES = ["dossier.created", "dossier.updated", "dossier.stage_changed", "dossier.deleted", "note.created"];

const received: { headers: Headers; body: string }[] = [];
const receiver = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(request) {
    received.push({ headers: request.headers, body: await request.text() });
    return new Response(null, { status: 204 });
  },
});
afterAll(() => receiver.stop(true));

const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormats(ajv);
ajv.addKeyword({ keyword: "example" });

describe("the OpenAPI document's webhooks (api-v1 Events, C7)", () => {
  test("list the five events, each a POST whose body is a named schema", async () => {
    const app = makeApp();
    const document = (await call(app, "GET", "/openapi.json")).json;
    expect(Object.keys(document.webhooks).sort()).toEqual([...EVENT_TYPES].sort());
    for (const type of EVENT_TYPES) {
      const body = document.webhooks[type].post.requestBody.content["application/json"].schema;
      expect(body.$ref, type).toMatch(/^#\/components\/schemas\/\w+Event$/);
    }
  });

  test("every delivery of the five events matches its documented body and headers", async () => {
    const app = makeApp({ webhooks: true, config: { webhookRetrySchedule: [50, 100], webhookTimeoutMs: 1000 } });
    const org = await makeOrg(app);
    await setEndpoint(app.dossier, org.id, `http://127.0.0.1:${receiver.port}/hook`);
    const document = (await SwaggerParser.dereference((await call(app, "GET", "/openapi.json")).json)) as Json;

    const sales = (await call(app, "GET", "/flows?type=sales", { key: org.key })).json.data[0];
    const dossier = (await call(app, "POST", "/dossiers", { key: org.key, body: { type: "sales", name: "Acme renewal", deal_size: 100, deal_currency: "EUR" } })).json.data;
    expect((await call(app, "PATCH", `/dossiers/${dossier.id}`, { key: org.key, body: { current_stage_id: sales.stages[1].id, deal_size: 250 } })).status).toBe(200);
    expect((await call(app, "POST", `/dossiers/${dossier.id}/cv`, { key: org.key, raw: "%PDF-1.4\n%%EOF\n", contentType: "application/pdf" })).status).toBe(200);
    expect((await call(app, "POST", `/dossiers/${dossier.id}/notes`, { key: org.key, body: { content: "Called back" } })).status).toBe(201);
    expect((await call(app, "DELETE", `/dossiers/${dossier.id}`, { key: org.key })).status).toBe(200);
    // created, stage_changed, updated (PATCH), updated (CV), note.created, deleted
    await until(() => received.length >= 6, 60_000, "six deliveries");

    const seen = new Set<string>();
    for (const delivery of received) {
      const body = JSON.parse(delivery.body) as Json;
      const webhook = document.webhooks[body.type]?.post;
      expect(webhook, body.type).toBeDefined();
      const validate = ajv.compile(webhook.requestBody.content["application/json"].schema);
      const problems = validate(body) ? null : ajv.errorsText(validate.errors);
      if (problems) throw new Error(`${problems}: ${delivery.body}`);
      for (const header of webhook.parameters.filter((p: Json) => p.in === "header")) {
        const value = delivery.headers.get(header.name);
        expect(value, `${body.type} ${header.name}`).not.toBeNull();
        const check = ajv.compile(header.schema);
        if (!check(value)) throw new Error(`${body.type} header ${header.name}: ${JSON.stringify(value)}: ${ajv.errorsText(check.errors)}`);
      }
      seen.add(body.type);
    }
    expect([...seen].sort()).toEqual([...EVENT_TYPES].sort());
  }, 30_000);
});
