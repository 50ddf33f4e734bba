// api-v1 "Errors", C3 (unknown paths, request id), C8 (500 internal), C10 (unknown paths).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { call, makeApp, makeOrg } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

describe("the error envelope", async () => {
  const app = makeApp();
  const org = await makeOrg(app);

  test.each([
    ["GET", "/api/v1/nothing-here"],
    ["GET", "/api/v1/flows/"],
    ["DELETE", "/api/v1/flows"],
    ["PUT", "/api/v1/flows"],
    ["GET", "/nothing"],
  ])("C10: %s %s → 404 not_found before authentication, with no rate-limit headers", async (method, path) => {
    for (const key of [null, org.key]) {
      const answer = await call(app, method, path, { key });
      expect(answer.status).toBe(404);
      expect(answer.json).toEqual({ error: { code: "not_found", message: expect.any(String), request_id: answer.headers.get("x-request-id") } });
      expect(answer.headers.get("x-ratelimit-limit")).toBeNull();
    }
  });

  test("C8: a thrown error is 500 internal with a generic message; details go to the log", async () => {
    const broken = makeApp({ config: { log: "json" } });
    const brokenOrg = await makeOrg(broken);
    const lines: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string) => (lines.push(String(chunk)), true)) as typeof process.stderr.write;
    try {
      broken.dossier.store.sqlite.run("DROP TABLE stages");
      const answer = await call(broken, "GET", "/flows", { key: brokenOrg.key, headers: { "x-request-id": "trace-500" } });
      expect(answer.status).toBe(500);
      expect(answer.json).toEqual({ error: { code: "internal", message: "an unexpected error occurred; it is safe to retry", request_id: expect.any(String) } });
      expect(answer.text).not.toContain("stages");
    } finally {
      process.stderr.write = write;
    }
    const logged = lines.map((line) => JSON.parse(line)).find((entry) => entry.msg === "unhandled error");
    expect(logged).toMatchObject({ level: "error", request_id: "trace-500", route: "/api/v1/flows" });
    expect(logged.error).toContain("no such table: stages");
  });
});

describe("C3: X-Request-Id on every response", () => {
  const app = makeApp();
  test.each([
    ["a safe id is echoed", "abc-123_x.y:z", "abc-123_x.y:z"],
    ["an unsafe id is replaced", "bad id with spaces", null],
    ["an id over 100 characters is replaced", "a".repeat(101), null],
  ])("%s", async (_name, sent, echoed) => {
    for (const path of ["/healthz", "/api/v1/flows", "/api/v1/unknown"]) {
      const answer = await call(app, "GET", path, { headers: { "x-request-id": sent } });
      const id = answer.headers.get("x-request-id");
      if (echoed) expect(id).toBe(echoed);
      else expect(id).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
  test("generated when absent", async () => {
    const a = (await call(app, "GET", "/healthz")).headers.get("x-request-id");
    const b = (await call(app, "GET", "/healthz")).headers.get("x-request-id");
    expect(a).toMatch(/^[0-9a-f-]{36}$/);
    expect(a).not.toBe(b);
  });
});

describe("C2: GET /healthz", () => {
  test("200 {status: ok} when the database answers, 503 when it does not", async () => {
    const app = makeApp();
    expect((await call(app, "GET", "/healthz")).json).toEqual({ status: "ok" });
    // The database stops answering: its connections (the writer's and the reads') are gone.
    app.dossier.store.reader.close();
    app.dossier.store.sqlite.close();
    expect((await call(app, "GET", "/healthz")).status).toBe(503);
  });
});
