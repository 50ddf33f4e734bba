// C2: GET /openapi.json is a valid OpenAPI 3.1 document generated from the route schemas, and it
// types well: named component schemas referenced by the operations, `servers`, `license`, a
// top-level `security`. GET /docs works offline (its scripts are served by us, not a CDN), under a
// Content-Security-Policy, and takes no document address from its query string (C20 "Origins").
import SwaggerParser from "@apidevtools/swagger-parser";
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import openapiTS, { astToString } from "openapi-typescript";
import { SCALAR_CONFIGURATION } from "../../src/http/docs";
import { call, makeApp } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

type Json = Record<string, any>;

const app = makeApp();
const served = async (): Promise<Json> => (await call(app, "GET", "/openapi.json")).json;
const apiOperations = (document: Json) =>
  Object.entries(document.paths as Record<string, Record<string, Json>>)
    .filter(([path]) => path.startsWith("/api/v1/"))
    .flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ where: `${method.toUpperCase()} ${path}`, op })));

describe("the OpenAPI document", () => {
  test("validates with a third-party OpenAPI validator", async () => {
    const document = await served();
    expect(document.openapi).toMatch(/^3\.1\./);
    await SwaggerParser.validate(structuredClone(document) as never);
  });

  test("has servers, a license and the bearer scheme as its top-level security; /healthz needs none", async () => {
    const document = await served();
    expect(document.servers.length).toBeGreaterThan(0);
    expect(document.info.license.name.length).toBeGreaterThan(0);
    expect(document.security).toEqual([{ bearerAuth: [] }]);
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(document.paths["/healthz"].get.security).toEqual([]);
  });

  test("every /api/v1 operation names its scopes, the bearer and cookie schemes and answers errors with the named Error; signing in needs neither", async () => {
    const document = await served();
    const operations = apiOperations(document);
    expect(operations.length).toBe(26 + 15 + 9 + 10 + 2 + 4); // + the settings calls of C13, the member and session calls of C12, the task, mail-log and my-settings calls of C22, the exports and imports of C21
    // Signing in (C12) and POST /intake/{token} (C15: the token is the principal) take neither a key nor the cookie.
    const open = operations.filter(({ op }) => op.security.length === 0).map(({ op }) => op.operationId);
    expect(open.sort()).toEqual(["receiveIntakeMessage", "setUpPassword", "signIn"]);
    for (const { where, op } of operations.filter(({ op }) => op.security.length > 0)) {
      expect(op.security, where).toEqual([{ bearerAuth: [] }, { cookieAuth: [] }]);
      expect(Array.isArray(op["x-scopes"]), where).toBe(true);
      for (const status of ["401", "402", "403", "429", "500"]) {
        const answer = op.responses[status].$ref ? document.components.responses[op.responses[status].$ref.split("/").pop()] : op.responses[status];
        const schema = answer.content["application/json"].schema;
        expect(schema.allOf[0], `${where} ${status}`).toEqual({ $ref: "#/components/schemas/Error" });
      }
    }
  });

  test("the records and envelopes are named components, and the operations refer to them", async () => {
    const document = await served();
    const schemas = document.components.schemas;
    for (const name of ["Dossier", "Contact", "Note", "Flow", "Stage", "Link", "Error", "Meta", "DossierEnvelope", "DossierList", "FlowList", "StageList"]) {
      expect(schemas[name], name).toBeDefined();
    }
    const json = (path: string, method: string, status: string) => document.paths[path][method].responses[status].content["application/json"].schema;
    expect(json("/api/v1/dossiers", "get", "200")).toEqual({ $ref: "#/components/schemas/DossierList" });
    expect(json("/api/v1/dossiers/{id}", "get", "200")).toEqual({ $ref: "#/components/schemas/DossierEnvelope" });
    expect(json("/api/v1/contacts/{id}", "get", "200")).toEqual({ $ref: "#/components/schemas/ContactEnvelope" });
    expect(json("/api/v1/dossiers/{id}/notes", "post", "201")).toEqual({ $ref: "#/components/schemas/NoteEnvelope" });
    expect(json("/api/v1/dossiers/{id}/contacts", "post", "201")).toEqual({ $ref: "#/components/schemas/LinkEnvelope" });
    expect(json("/api/v1/flows", "get", "200")).toEqual({ $ref: "#/components/schemas/FlowList" });
    expect(schemas.DossierList.properties).toEqual({ data: { type: "array", items: { $ref: "#/components/schemas/Dossier" } }, meta: { $ref: "#/components/schemas/PageMeta" } });
    expect(schemas.Flow.properties.stages.items).toEqual({ $ref: "#/components/schemas/Stage" });
    expect(document.paths["/api/v1/dossiers/{id}"].patch.requestBody.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/PatchDossier" });
    // Every named schema is used somewhere else in the document.
    const text = JSON.stringify({ ...document, components: { ...document.components, schemas: undefined } }) + JSON.stringify(schemas);
    for (const name of Object.keys(schemas)) expect(text, name).toContain(`"#/components/schemas/${name}"`);
  });

  test("a client generated with openapi-typescript has one named type per record, not the shape inline in each operation", async () => {
    const types = astToString(await openapiTS(structuredClone(await served()) as never, { silent: true }));
    for (const name of ["Dossier", "Contact", "Note", "Flow", "Stage", "Link", "Error", "DossierEnvelope", "DossierList"]) {
      expect(types, name).toContain(`\n        ${name}: {`);
    }
    // cv_url is declared once in Dossier (and once in the webhook's PreviousAttributes), not in
    // each of the operations that answer a dossier.
    expect(types.match(/^\s+cv_url\??: /gm)!.length).toBe(2);
    expect(types).toContain('"application/json": components["schemas"]["DossierEnvelope"]');
  });

  test("GET /flows documents its query parameters and its list envelope", async () => {
    const document = await SwaggerParser.dereference(structuredClone(await served()) as never);
    const op = (document as Json).paths["/api/v1/flows"].get;
    expect(op.parameters.map((p: { name: string }) => p.name)).toEqual(["type", "page", "per_page"]);
    const schema = op.responses["200"].content["application/json"].schema;
    expect(schema.required).toEqual(["data", "meta"]);
    expect(schema.properties.data.items.properties.stages.items.required).toContain("win_probability");
  });
});

describe("GET /docs", () => {
  test("the page loads its scripts from this server, not from a CDN, under a Content-Security-Policy (C2, C20)", async () => {
    const page = await call(app, "GET", "/docs");
    expect(page.status).toBe(200);
    expect(page.text).toContain('<html lang="en">');
    const scripts = [...page.text.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts).toEqual(["/docs/assets/scalar.js", "/docs/assets/docs.js"]);
    expect(page.text).not.toMatch(/<script(?![^>]*src=)/); // no inline script: the policy allows none
    expect(page.text).not.toMatch(/https?:\/\//);
    const policy = page.headers.get("content-security-policy")!;
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("connect-src 'self'");
    expect(policy).not.toMatch(/script-src[^;]*unsafe/);
    const script = await app.handle(new Request("http://localhost/docs/assets/scalar.js"));
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toContain("javascript");
    expect((await script.text()).length).toBeGreaterThan(1_000_000);
  });

  test("the document and the scripts go gzip-compressed to a browser that accepts it, tagged, and 304 while it holds them; the page preloads the document", async () => {
    for (const path of ["/openapi.json", "/docs/assets/scalar.js", "/docs/assets/docs.js"]) {
      const plain = await app.handle(new Request(`http://localhost${path}`));
      const identity = new Uint8Array(await plain.arrayBuffer());
      const etag = plain.headers.get("etag")!;
      expect(etag, path).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
      expect(plain.headers.get("content-encoding"), path).toBeNull();
      const compressed = await app.handle(new Request(`http://localhost${path}`, { headers: { "accept-encoding": "gzip, br" } }));
      expect(compressed.headers.get("content-encoding"), path).toBe("gzip");
      expect(compressed.headers.get("vary"), path).toBe("Accept-Encoding");
      expect(compressed.headers.get("etag"), path).toBe(etag);
      const gzipped = new Uint8Array(await compressed.arrayBuffer());
      expect(gzipped.byteLength, path).toBeLessThan(identity.byteLength / 2);
      expect(Bun.gunzipSync(gzipped), path).toEqual(identity);
      const held = await app.handle(new Request(`http://localhost${path}`, { headers: { "if-none-match": etag, "accept-encoding": "gzip" } }));
      expect(held.status, path).toBe(304);
      expect(await held.text(), path).toBe("");
      const other = await app.handle(new Request(`http://localhost${path}`, { headers: { "if-none-match": 'W/"another"' } }));
      expect(other.status, path).toBe(200);
    }
    // Asked for again each time (the document changes with the server's version), for a 304.
    expect((await app.handle(new Request("http://localhost/openapi.json"))).headers.get("cache-control")).toBe("no-cache");
    const page = await call(app, "GET", "/docs");
    expect(page.text).toContain('<link rel="preload" href="/openapi.json" as="fetch" crossorigin />');
  });

  test("the page takes no document address from its query string (C20)", async () => {
    const plain = await call(app, "GET", "/docs");
    for (const query of ["?url=https://attacker.example/spec.json", "?spec-url=//attacker.example/x", "?api=x&configuration=%7B%7D"]) {
      const page = await call(app, "GET", `/docs${query}`);
      expect(page.status).toBe(200);
      expect(page.text).toBe(plain.text);
    }
    const init = await (await app.handle(new Request("http://localhost/docs/assets/docs.js?url=https://attacker.example/"))).text();
    expect(init).toContain(JSON.stringify(SCALAR_CONFIGURATION));
    expect(init).not.toMatch(/location\.(search|hash|href)|URLSearchParams|document\.URL/);
    expect(SCALAR_CONFIGURATION).toMatchObject({
      url: "/openapi.json",
      withDefaultFonts: false,
      proxyUrl: "",
      agent: { disabled: true },
      showDeveloperTools: "never",
      hideClientButton: true,
      telemetry: false,
    });
  });
});
