// The API's error envelope is the API's (api-v1 "Errors", C3): a route outside /api/v1 (/healthz,
// /docs, the console's pages, C14) that fails answers in its own type, here plain text, never in
// `{error: {code, message}}`; under /api/v1 every failure still does. A path that no route serves
// is 404 `not_found` in the envelope wherever it is (C10 "Unknown paths"), before authentication.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { Elysia } from "elysia";
import type { Context } from "../../src/context";
import { notFound } from "../../src/errors";
import { errors } from "../../src/http/errors";
import { requestId } from "../../src/http/request-id";
import type { Logger } from "../../src/log";
import { call, makeApp, makeOrg } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const INTERNAL = "an unexpected error occurred; it is safe to retry";

/** The app's error handling (request ids, then the errors plugin, as createApp mounts them) around
 * routes that fail, inside and outside /api/v1; what it logs is kept in `logged`. */
function failingApp() {
  const ctx = makeApp().dossier;
  const logged: Record<string, unknown>[] = [];
  const logger: Logger = { enabled: () => true, log: (level, msg, fields) => void logged.push({ level, msg, ...fields }) };
  const app = new Elysia({ strictPath: true }).use(requestId).use(errors({ ...ctx, logger } as Context));
  for (const prefix of ["/api/v1", "/console", "/api/v10"]) {
    app
      .get(`${prefix}/crash`, () => {
        throw new Error(`database file ${prefix} is broken`);
      })
      .get(`${prefix}/gone`, () => {
        throw notFound("no such page");
      })
      .get(`${prefix}/typed`, ({ set }) => {
        set.headers["content-type"] = "text/html; charset=utf-8";
        throw new Error("failed after choosing its type");
      });
  }
  const get = async (path: string) => {
    const response = await app.handle(new Request(`http://localhost${path}`, { headers: { "x-request-id": "trace-1" } }));
    return { status: response.status, type: response.headers.get("content-type"), id: response.headers.get("x-request-id"), text: await response.text() };
  };
  return { get, logged };
}

describe("failures of routes outside /api/v1 keep their own type of answer", () => {
  const { get, logged } = failingApp();

  test.each([
    ["/console/crash", 500, INTERNAL],
    ["/console/gone", 404, "no such page"],
    ["/console/typed", 500, INTERNAL],
    // Only /api/v1 and what is below it is the API.
    ["/api/v10/crash", 500, INTERNAL],
  ])("%s → %p as plain text, not the envelope", async (path, status, message) => {
    const answer = await get(path);
    expect(answer).toEqual({ status, type: "text/plain;charset=utf-8", id: "trace-1", text: message });
  });

  test.each([
    ["/api/v1/crash", 500, "internal", INTERNAL],
    ["/api/v1/gone", 404, "not_found", "no such page"],
    ["/api/v1/typed", 500, "internal", INTERNAL],
  ])("%s → %p in the envelope, as JSON whatever type the route had set", async (path, status, code, message) => {
    const answer = await get(path);
    expect(answer).toEqual({ status, type: "application/json;charset=utf-8", id: "trace-1", text: JSON.stringify({ error: { code, message, request_id: "trace-1" } }) });
  });

  test("an unexpected failure's details go to the log only, inside the API and outside it", async () => {
    for (const path of ["/console/crash", "/api/v1/crash"]) {
      logged.length = 0;
      const answer = await get(path);
      expect(answer.text).not.toContain("broken");
      expect(logged).toEqual([expect.objectContaining({ level: "error", msg: "unhandled error", request_id: "trace-1", method: "GET", route: path })]);
      expect(logged[0].error).toContain("is broken");
    }
  });

  test("C10: a path no route serves is 404 not_found in the envelope, outside /api/v1 too", async () => {
    for (const path of ["/console/nothing", "/api/v1/nothing", "/nothing"]) {
      const answer = await get(path);
      expect([answer.status, answer.type, JSON.parse(answer.text).error.code]).toEqual([404, "application/json;charset=utf-8", "not_found"]);
    }
  });
});

describe("the real app: the answers outside /api/v1 stay as they were", async () => {
  const app = makeApp();
  const org = await makeOrg(app);

  test("C2: /healthz and /openapi.json answer JSON, /docs HTML", async () => {
    const health = await call(app, "GET", "/healthz");
    expect([health.status, health.json]).toEqual([200, { status: "ok" }]);
    const spec = await call(app, "GET", "/openapi.json");
    expect([spec.status, spec.headers.get("content-type")]).toEqual([200, "application/json;charset=utf-8"]);
    expect(spec.json.paths).toHaveProperty(["/api/v1/flows"]);
    const page = await call(app, "GET", "/docs");
    expect([page.status, page.headers.get("content-type")]).toEqual([200, "text/html; charset=utf-8"]);
  });

  test.each([
    ["GET", "/index.html"],
    ["POST", "/console/"],
    ["GET", "/docs/"],
    ["POST", "/healthz"],
    ["DELETE", "/openapi.json"],
    ["GET", "/api/v10/flows"],
  ])("C10: %s %s → 404 not_found in the envelope, before authentication", async (method, path) => {
    for (const key of [null, org.key]) {
      const answer = await app.handle(
        new Request(`http://localhost${path}`, { method, headers: key ? { authorization: `Bearer ${key}` } : {} }),
      );
      expect(answer.status).toBe(404);
      expect(answer.headers.get("content-type")).toBe("application/json;charset=utf-8");
      expect(((await answer.json()) as { error: { code: string } }).error.code).toBe("not_found");
      expect(answer.headers.get("x-ratelimit-limit")).toBeNull();
    }
  });
});
