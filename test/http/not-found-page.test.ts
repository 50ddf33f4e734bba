// Issue 32 point 9: a page that does not exist, asked for by a browser outside /api/v1, is a small
// HTML page (404, a link to the console, the console's Content-Security-Policy), not the API's JSON
// envelope. Programs (no text/html in Accept) and every path under /api/v1 keep the JSON 404 of
// api-v1 "Errors" and C10 "Unknown paths".
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { CONSOLE_CSP } from "../../src/http/console";
import { makeApp } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";

describe("a page that does not exist", () => {
  const app = makeApp();
  const get = async (path: string, accept?: string, method = "GET") => {
    const response = await app.handle(
      new Request(`http://localhost${path}`, { method, headers: { "x-request-id": "page-1", ...(accept ? { accept } : {}) } }),
    );
    return { status: response.status, headers: response.headers, text: await response.text() };
  };

  test.each(["/no-such-page", "/console-x", "/api/v10/flows", "/docs/nothing"])("%s asked for by a browser: a 404 HTML page", async (path) => {
    const answer = await get(path, BROWSER);
    expect(answer.status).toBe(404);
    expect(answer.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(answer.headers.get("content-security-policy")).toBe(CONSOLE_CSP);
    expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
    expect(answer.headers.get("x-request-id")).toBe("page-1");
    expect(answer.text).toStartWith("<!doctype html>");
    expect(answer.text).toContain('<a href="/">');
    // Nothing the client sent is written into the page.
    expect(answer.text).not.toContain(path);
    // No script and no inline style: the policy allows neither.
    expect(answer.text).not.toMatch(/<script|<style|style=/i);
  });

  test("any Accept that names text/html is a browser's, unless it refuses it (q=0)", async () => {
    expect((await get("/no-such-page", "text/html")).headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect((await get("/no-such-page", "application/json, TEXT/HTML;q=0.5")).headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect((await get("/no-such-page", "text/html;q=0, application/json")).headers.get("content-type")).toBe("application/json;charset=utf-8");
  });

  test.each([
    ["/no-such-page", undefined],
    ["/no-such-page", "application/json"],
    ["/no-such-page", "*/*"],
    ["/api/v1/no-such-page", BROWSER],
    ["/api/v1", BROWSER],
  ])("%s with Accept %p: the JSON 404 not_found", async (path, accept) => {
    const answer = await get(path, accept);
    expect(answer.status).toBe(404);
    expect(answer.headers.get("content-type")).toBe("application/json;charset=utf-8");
    expect(JSON.parse(answer.text).error.code).toBe("not_found");
  });

  test("the console's own pages and redirects are unchanged", async () => {
    expect((await get("/", BROWSER)).status).toBe(302);
    const page = await get("/console/anything", BROWSER);
    expect([page.status, page.headers.get("content-type")]).toEqual([200, "text/html; charset=utf-8"]);
  });
});
