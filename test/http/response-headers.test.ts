// Headers that keep browsers and caches honest: `X-Content-Type-Options: nosniff` on every answer
// (errors, 404s, /docs and /healthz included), and `Cache-Control: private, no-store` on a CV, which
// is a candidate's personal data (docs/security.md).
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startServer } from "../../src/server";
import { call, makeApp, makeOrg, tempDir } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const PDF = new TextEncoder().encode("%PDF-1.4\n%%EOF\n");

describe("response headers", async () => {
  const app = makeApp();
  const org = await makeOrg(app);
  const ready = await (async () => {
    const dossier = (await call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "Headers" } })).json.data;
    await call(app, "POST", `/dossiers/${dossier.id}/cv`, { key: org.key, raw: PDF, contentType: "application/pdf" });
    return dossier.id as string;
  })();

  const rows: [string, string, string, { key?: boolean; body?: unknown }, number][] = [
    ["/healthz", "GET", "/healthz", {}, 200],
    ["/docs", "GET", "/docs", {}, 200],
    ["/openapi.json", "GET", "/openapi.json", {}, 200],
    ["an unknown path", "GET", "/nothing-here", {}, 404],
    ["an unknown API path", "GET", "/api/v1/nothing-here", { key: true }, 404],
    ["a 401", "GET", "/api/v1/flows", {}, 401],
    ["a list", "GET", "/api/v1/flows", { key: true }, 200],
    ["a 400", "POST", "/api/v1/contacts", { key: true, body: { nickname: "x" } }, 400],
    ["a 404 of a resource", "GET", "/api/v1/dossiers/00000000-0000-4000-8000-000000000000", { key: true }, 404],
    ["a CV", "GET", "/api/v1/dossiers/DOSSIER/cv", { key: true }, 200],
  ];
  test.each(rows)("nosniff on %s", async (_name, method, path, options, status) => {
    const id = await ready;
    const answer = await call(app, method, path.replace("DOSSIER", id), { key: options.key ? org.key : null, body: options.body });
    expect(answer.status).toBe(status);
    expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
  });

  test("a CV download is not to be stored by any cache", async () => {
    const answer = await call(app, "GET", `/dossiers/${await ready}/cv`, { key: org.key });
    expect(answer.headers.get("content-type")).toBe("application/pdf");
    expect(answer.headers.get("cache-control")).toBe("private, no-store");
  });
});

describe("response headers over a real server", async () => {
  const server = await startServer({ dataDir: tempDir(), port: 0, webhooks: false, config: { log: "off" } });
  afterAll(() => server.stop());

  test("nosniff reaches the client, on a success and on an error", async () => {
    for (const path of ["/healthz", "/api/v1/flows", "/nothing"]) {
      const answer = await fetch(`${server.url}${path}`);
      await answer.arrayBuffer();
      expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });
});
