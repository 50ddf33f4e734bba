// Issue 8 logs: one JSON line per request, never a key, a secret or a body.
import { describe, expect, test } from "bun:test";
import { call, makeApp, makeOrg } from "../helpers";

async function captureStderr(work: () => Promise<void>): Promise<string[]> {
  const lines: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string) => (lines.push(String(chunk)), true)) as typeof process.stderr.write;
  try {
    await work();
    await Bun.sleep(20); // the line is written after the response
  } finally {
    process.stderr.write = write;
  }
  return lines;
}

describe("request log", () => {
  test("one JSON line per request with the route pattern, status, duration and organization", async () => {
    const app = makeApp({ config: { log: "json" } });
    const org = makeOrg(app);
    const wrongKey = org.key.slice(0, -1) + (org.key.endsWith("Z") ? "Y" : "Z"); // one character off
    const lines = await captureStderr(async () => {
      await call(app, "GET", "/flows/00000000-0000-4000-8000-000000000000/stages", { key: org.key, headers: { "x-request-id": "req-1" } });
      await call(app, "GET", "/flows?per_page=0", { key: org.key, headers: { "x-request-id": "req-2" } });
      await call(app, "GET", "/flows", { headers: { authorization: `Bearer ${wrongKey}`, "x-request-id": "req-3" } });
    });
    const entries = lines.map((line) => JSON.parse(line)).filter((e) => e.msg === "request");
    expect(entries.map((e) => [e.request_id, e.method, e.route, e.status, e.organization_id])).toEqual([
      ["req-1", "GET", "/api/v1/flows/:id/stages", 404, org.id],
      ["req-2", "GET", "/api/v1/flows", 400, org.id],
      ["req-3", "GET", "/api/v1/flows", 401, null],
    ]);
    for (const entry of entries) {
      expect(typeof entry.duration_ms).toBe("number");
      expect(entry.time).toMatch(/Z$/);
    }
    expect(lines.join("")).not.toContain(org.key.slice(9));
    expect(lines.join("")).not.toContain(org.key.slice(9, -1));
  });

  test("DOSSIER_LOG_LEVEL=warn silences request lines", async () => {
    const app = makeApp({ config: { log: "json", logLevel: "warn" } });
    const lines = await captureStderr(async () => {
      await call(app, "GET", "/healthz");
    });
    expect(lines).toEqual([]);
  });
});
