// Issue 38 point 5, the document as generators and reference pages read it: every answer's body is
// a named component (a generator names its types after them, never `ListKeys200DataItem`), every
// operation's tag is declared with what it groups, every date-time says `format: date-time`, a
// union of literals is an `enum` (a page shows its choices), and the introduction covers keys,
// scopes, pagination, errors, idempotency and webhooks. The document is the one the app serves.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { call, makeApp } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

type Json = Record<string, any>;

const app = makeApp();
const served = async (): Promise<Json> => (await call(app, "GET", "/openapi.json")).json;
const operations = (document: Json) =>
  Object.entries(document.paths as Record<string, Record<string, Json>>).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ where: `${method.toUpperCase()} ${path}`, op })),
  );
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
/** An answer, or the component a `$ref` names (an error answer is one of components.responses). */
const resolved = (document: Json, answer: Json): Json => (typeof answer.$ref === "string" ? document.components.responses[answer.$ref.split("/").pop()!] : answer);

/** Every schema object in `value`, with where it is and the property name it stands for. Data
 * members (examples, enum, const, default) are not schemas. */
function* schemasIn(value: unknown, where: string, name?: string): Generator<{ schema: Json; where: string; name?: string }> {
  if (Array.isArray(value)) {
    for (const item of value) yield* schemasIn(item, where, name);
    return;
  }
  if (!value || typeof value !== "object") return;
  const schema = value as Json;
  yield { schema, where, name };
  for (const [key, member] of Object.entries(schema)) {
    if (["examples", "example", "enum", "const", "default"].includes(key)) continue;
    if (key === "properties") for (const [property, sub] of Object.entries(member as Json)) yield* schemasIn(sub, `${where}.${property}`, property);
    else yield* schemasIn(member, `${where}/${key}`, ["anyOf", "oneOf", "allOf", "items"].includes(key) ? name : undefined);
  }
}

/** Every schema of the document: the components', the webhooks', and each operation's parameters,
 * bodies and answers. */
function* allSchemas(document: Json) {
  yield* schemasIn(document.components.schemas, "components.schemas");
  yield* schemasIn(document.webhooks, "webhooks");
  for (const { where, op } of operations(document)) {
    for (const parameter of op.parameters ?? []) yield* schemasIn(parameter.schema, `${where} ${parameter.name}`, parameter.name);
    for (const [type, media] of Object.entries((op.requestBody?.content ?? {}) as Json)) yield* schemasIn(media.schema, `${where} ${type}`);
    for (const [status, answer] of Object.entries(op.responses as Json)) {
      for (const [type, media] of Object.entries((resolved(document, answer).content ?? {}) as Json)) yield* schemasIn(media.schema, `${where} ${status} ${type}`);
    }
  }
}

describe("issue 38: the document names, tags and formats everything", () => {
  test("every answer's body is a named component: a success's is a $ref, an error's the named Error narrowed, in a named answer", async () => {
    const document = await served();
    const inline: string[] = [];
    let answers = 0;
    for (const { where, op } of operations(document)) {
      for (const [status, answer] of Object.entries(op.responses as Json)) {
        // An error answer is written once, in components.responses, and referred to.
        if (status >= "400" && where !== "GET /healthz") expect(answer.$ref, `${where} ${status}`).toStartWith("#/components/responses/");
        for (const [type, media] of Object.entries((resolved(document, answer).content ?? {}) as Json)) {
          answers++;
          const schema = media.schema as Json;
          const named = typeof schema.$ref === "string" || (status >= "400" && JSON.stringify(schema.allOf?.[0]) === JSON.stringify(ref("Error")));
          if (!named) inline.push(`${where} ${status} ${type}`);
          if (typeof schema.$ref === "string") expect(document.components.schemas[schema.$ref.split("/").pop()!], `${where} ${status}`).toBeDefined();
        }
      }
    }
    expect(inline).toEqual([]);
    expect(answers).toBeGreaterThan(400);
    // The records the issue found inline, each answered by its name.
    const answerOf = (path: string, method: string, status = "200") => document.paths[path][method].responses[status].content["application/json"].schema;
    expect(answerOf("/api/v1/keys", "get")).toEqual(ref("ApiKeyList"));
    expect(answerOf("/api/v1/keys", "post", "201")).toEqual(ref("CreatedKeyEnvelope"));
    expect(answerOf("/api/v1/events", "get")).toEqual(ref("EventFeed"));
    expect(answerOf("/api/v1/events/{id}", "get")).toEqual(ref("EventEnvelope"));
    expect(answerOf("/api/v1/webhook-deliveries", "get")).toEqual(ref("WebhookDeliveryList"));
    expect(answerOf("/api/v1/webhook-deliveries/{event_id}", "get")).toEqual(ref("WebhookDeliveryWithAttemptsEnvelope"));
    expect(answerOf("/api/v1/flows/{id}/stats", "get")).toEqual(ref("FlowStatsEnvelope"));
    expect(answerOf("/healthz", "get")).toEqual(ref("Health"));
    const schemas = document.components.schemas;
    expect(schemas.ApiKeyList.properties.data.items).toEqual(ref("ApiKey"));
    expect(schemas.EventFeed.properties.data.items).toEqual(ref("Event"));
    expect(schemas.WebhookDeliveryWithAttempts.properties.attempt_log.items).toEqual(ref("WebhookDeliveryAttempt"));
    expect(schemas.FlowStatsEnvelope.properties.data).toEqual(ref("FlowStats"));
    expect(schemas.FlowStats.properties.stages.items).toEqual(ref("StageStats"));
    expect(schemas.DossierHistory.properties.data.items).toEqual(ref("HistoryItem"));
  });

  test("every operation's tag is declared at the top level, once, with a description, and every declared tag is used", async () => {
    const document = await served();
    const declared = (document.tags as { name: string; description: string }[]).map((tag) => tag.name);
    expect(new Set(declared).size).toBe(declared.length);
    for (const tag of document.tags) expect(tag.description.length, tag.name).toBeGreaterThan(10);
    const used = new Set<string>();
    for (const { where, op } of operations(document)) {
      expect(op.tags.length, where).toBe(1);
      expect(declared, where).toContain(op.tags[0]);
      used.add(op.tags[0]);
    }
    for (const hook of Object.values(document.webhooks as Json)) for (const tag of hook.post.tags) used.add(tag);
    expect([...used].sort()).toEqual([...declared].sort());
  });

  test("every date-time says format: date-time: a member named *_at, from, to or *_since, or one whose examples are timestamps", async () => {
    const document = await served();
    const missing: string[] = [];
    let dates = 0;
    const timestamp = /^\d{4}-\d\d-\d\dT\d\d:\d\d/;
    for (const { schema, where, name } of allSchemas(document)) {
      // A string, or one that may be null (`type: ["string", "null"]`).
      if (![schema.type].flat().includes("string")) continue;
      const byName = name !== undefined && (/_at$|_since$/.test(name) || name === "from" || name === "to");
      const byExample = [...(schema.examples ?? []), ...(schema.example === undefined ? [] : [schema.example])].some((e: unknown) => typeof e === "string" && timestamp.test(e));
      if (!byName && !byExample) continue;
      dates++;
      if (schema.format !== "date-time") missing.push(where);
    }
    expect(missing).toEqual([]);
    expect(dates).toBeGreaterThan(30);
    // The stats period, the example, both ways.
    const stats = document.paths["/api/v1/flows/{id}/stats"].get;
    for (const name of ["from", "to"]) expect(stats.parameters.find((p: Json) => p.name === name).schema.format, name).toBe("date-time");
    expect(document.components.schemas.FlowStats.properties.from.format).toBe("date-time");
  });

  test("a choice among values is an enum, never a list of const (a reference page shows it as choices)", async () => {
    const document = await served();
    const constLists: string[] = [];
    for (const { schema, where } of allSchemas(document)) {
      if (Array.isArray(schema.anyOf) && schema.anyOf.length > 1 && schema.anyOf.every((m: Json) => "const" in m)) constLists.push(where);
    }
    expect(constLists).toEqual([]);
    const schemas = document.components.schemas;
    expect(schemas.DossierStatus).toEqual({ type: "string", enum: ["active", "won", "lost", "archived"] });
    expect(schemas.Scope.enum).toContain("dossiers:read");
    const status = document.paths["/api/v1/dossiers"].get.parameters.find((p: Json) => p.name === "status");
    expect(status.schema).toMatchObject({ type: "string", enum: ["active", "won", "lost", "archived"] });
  });

  test("the introduction covers keys, scopes, pagination, errors, idempotency and webhooks; the info has a contact", async () => {
    const { info } = await served();
    const headings = [...(info.description as string).matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(headings).toEqual(["Keys and scopes", "Pagination", "Errors", "Idempotency and concurrent changes", "Webhooks"]);
    for (const words of ["Authorization: Bearer", "dossiers:read", "per_page", "next_after", "request_id", "Idempotency-Key", "If-Match", "X-Service-Signature"]) {
      expect(info.description, words).toContain(words);
    }
    expect(info.summary.length).toBeGreaterThan(20);
    expect(info.contact.name.length).toBeGreaterThan(0);
  });

  test("the document stays small enough for a reference page: under 300 KB, each error answer written once", async () => {
    const text = (await call(app, "GET", "/openapi.json")).text;
    expect(text.length).toBeLessThan(300_000);
    const document = JSON.parse(text) as Json;
    const answers = Object.values(document.components.responses) as Json[];
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(answers.length);
    // Every one is used.
    const paths = JSON.stringify(document.paths);
    for (const name of Object.keys(document.components.responses)) expect(paths, name).toContain(`"#/components/responses/${name}"`);
  });

  test("the document is written once and served as the same bytes", async () => {
    const first = await call(app, "GET", "/openapi.json");
    const second = await call(app, "GET", "/openapi.json");
    expect(second.text).toBe(first.text);
    expect(first.headers.get("content-type")).toBe("application/json;charset=utf-8");
  });
});
