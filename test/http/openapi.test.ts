// C2: GET /openapi.json is a valid OpenAPI 3.x document generated from the route schemas;
// GET /docs works offline (its script is served by us, not a CDN).
import SwaggerParser from "@apidevtools/swagger-parser";
import { describe, expect, test } from "bun:test";
import { call, makeApp } from "../helpers";

describe("the OpenAPI document", () => {
  const app = makeApp();

  test("validates with a third-party OpenAPI validator", async () => {
    const document = (await call(app, "GET", "/openapi.json")).json;
    expect(document.openapi).toMatch(/^3\./);
    await SwaggerParser.validate(structuredClone(document));
  });

  test("every /api/v1 operation names its scopes, the bearer scheme and the error envelope", async () => {
    const document = (await call(app, "GET", "/openapi.json")).json;
    const operations = Object.entries(document.paths as Record<string, Record<string, any>>)
      .filter(([path]) => path.startsWith("/api/v1/"))
      .flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })));
    expect(operations.length).toBeGreaterThan(0);
    for (const { op } of operations) {
      expect(op.security).toEqual([{ bearerAuth: [] }]);
      expect(op["x-scopes"].length).toBeGreaterThan(0);
      for (const status of ["401", "402", "403", "429", "500"]) {
        expect(op.responses[status].content["application/json"].schema.properties.error).toBeDefined();
      }
    }
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
  });

  test("GET /flows documents its query parameters and its list envelope", async () => {
    const op = (await call(app, "GET", "/openapi.json")).json.paths["/api/v1/flows"].get;
    expect(op.parameters.map((p: { name: string }) => p.name)).toEqual(["type", "page", "per_page"]);
    const schema = op.responses["200"].content["application/json"].schema;
    expect(schema.required).toEqual(["data", "meta"]);
    expect(schema.properties.data.items.properties.stages.items.required).toContain("win_probability");
  });
});

describe("GET /docs", () => {
  const app = makeApp();
  test("the page loads its script from this server, not from a CDN", async () => {
    const page = await call(app, "GET", "/docs");
    expect(page.status).toBe(200);
    const scripts = [...page.text.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts).toEqual(["/docs/assets/scalar.js"]);
    expect(page.text).not.toMatch(/https?:\/\/(cdn|unpkg|fonts)/);
    const script = await app.handle(new Request("http://localhost/docs/assets/scalar.js"));
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toContain("javascript");
    expect((await script.text()).length).toBeGreaterThan(1_000_000);
  });
});
