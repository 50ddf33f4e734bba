// Serving the console (C14): GET / and /console go to /console/; every client-side route answers
// the page with its Content-Security-Policy (C14, C20 "Viewing a CV in the console"); the hashed
// assets come compressed as the browser accepts, cached for a year, immutable; an unknown asset is
// a plain-text 404 (a route outside /api/v1 answers its own type). The console's API types are
// those of the document the app serves.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { gunzipSync } from "node:zlib";
import { consoleTypes, SCHEMA_FILE, servedDocument } from "../../src/console/api/generate";
import { chooseEncoding, CONSOLE_CSP } from "../../src/http/console";
import { makeApp } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const app = makeApp();
const get = (path: string, headers: Record<string, string> = {}) => app.handle(new Request(`http://localhost${path}`, { headers }));

async function assets(): Promise<string[]> {
  const page = await (await get("/console/")).text();
  return [...page.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map((match) => match[1]);
}

describe("C14: the console's page and assets", () => {
  test.each([["/"], ["/console"]])("C14: GET %s → 302 /console/", async (path) => {
    const answer = await get(path);
    expect([answer.status, answer.headers.get("location")]).toEqual([302, "/console/"]);
  });

  test.each([["/console/"], ["/console/sign-in"], ["/console/setup"], ["/console/board/01a21ce0-9d09-77e2-a370-4f509356a3b7"]])(
    "C14: GET %s → the page, with the console's policy, nosniff and no caching without asking",
    async (path) => {
      const answer = await get(path);
      expect(answer.status).toBe(200);
      expect(answer.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(answer.headers.get("content-security-policy")).toBe("default-src 'self'; frame-ancestors 'none'; frame-src blob:");
      expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
      expect(answer.headers.get("cache-control")).toBe("no-cache");
      const page = await answer.text();
      expect(page).toContain('<div id="root">');
      // No inline script: every script is a file of this origin.
      expect(page).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    },
  );

  test("C14: the page names a script and a stylesheet, both hashed and under /console/assets/", async () => {
    const names = await assets();
    expect(names.some((name) => name.endsWith(".js"))).toBe(true);
    expect(names.some((name) => name.endsWith(".css"))).toBe(true);
  });

  test("C14: a hashed asset is brotli or gzip as accepted, else plain; the same bytes; public, a year, immutable", async () => {
    const script = (await assets()).find((name) => name.endsWith(".js"))!;
    const plain = await get(script, { "accept-encoding": "identity" });
    expect(plain.headers.get("content-encoding")).toBeNull();
    const bytes = new Uint8Array(await plain.arrayBuffer());
    for (const [accept, encoding] of [["gzip, deflate, br", "br"], ["gzip", "gzip"], ["br;q=0, gzip", "gzip"]] as const) {
      const answer = await get(script, { "accept-encoding": accept });
      expect(answer.status).toBe(200);
      expect(answer.headers.get("content-encoding")).toBe(encoding);
      expect(answer.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(answer.headers.get("vary")).toBe("Accept-Encoding");
      expect(answer.headers.get("content-type")).toStartWith("text/javascript");
      expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
      const body = new Uint8Array(await answer.arrayBuffer());
      // Bun's fetch would decode it; app.handle gives the bytes as sent.
      expect(body.byteLength).toBeLessThan(bytes.byteLength / 2);
      if (encoding === "gzip") expect(new Uint8Array(gunzipSync(body))).toEqual(bytes);
    }
  });

  test("C14: an unknown asset → 404 as plain text, not the API's envelope", async () => {
    const answer = await get("/console/assets/nothing-12345678.js");
    expect(answer.status).toBe(404);
    expect(answer.headers.get("content-type")).toBe("text/plain;charset=utf-8");
  });

  test.each([
    ["gzip, deflate, br, zstd", "br"],
    ["gzip", "gzip"],
    ["*", "gzip"],
    ["br;q=0", "identity"],
    ["", "identity"],
  ] as const)("Accept-Encoding %p → %p", (accept, encoding) => {
    expect(chooseEncoding(accept)).toBe(encoding);
  });

  test("C14: the policy is exactly C14's with C20's frame-src blob:", () => {
    expect(CONSOLE_CSP).toBe("default-src 'self'; frame-ancestors 'none'; frame-src blob:");
  });
});

test("C14: the console's API types are those of the served document (else: bun src/console/api/generate.ts)", async () => {
  const current = await consoleTypes(await servedDocument());
  expect(await Bun.file(SCHEMA_FILE).text()).toBe(current);
});
