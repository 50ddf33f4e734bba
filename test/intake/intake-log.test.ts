// Issue 32: the intake token was written to the log when an intake request ended in a 500: the
// error line carried the raw path, /api/v1/intake/<token>, and the token is the address's secret
// (docs/security.md: never logged). Every line names the route's pattern instead. The fault is a
// real one: the table intake messages are recorded in is gone, so the write fails.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { intakeAddress } from "../../src/services/intake";
import { call, makeOrg } from "../helpers";
import { ENGINES, appOn, queryRows } from "../helpers/stores";
import { compose } from "./compose";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

/** What is written on stderr while `work` runs (the request's own line comes after its answer). */
async function stderrOf(work: () => Promise<void>): Promise<string> {
  await Bun.sleep(20); // lines of earlier requests are written after their answers: not ours
  const chunks: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string | Uint8Array) => (chunks.push(typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk)), true)) as typeof process.stderr.write;
  try {
    await work();
    await Bun.sleep(20);
  } finally {
    process.stderr.write = write;
  }
  return chunks.join("");
}

describe.each(ENGINES)("issue 32: the intake token is never written to the log, on %s", (engine) => {
  for (const mode of ["json", "pretty"] as const) {
    test(`a 500 on POST /intake/{token} (DOSSIER_LOG=${mode}): its error and request lines name /api/v1/intake/:token, never the token`, async () => {
      const app = await appOn(engine, { config: { log: mode } });
      const org = await makeOrg(app);
      const [{ id: flow }] = await queryRows<{ id: string }>(app, "SELECT id FROM flows WHERE organization_id = ? AND type = 'candidate' AND is_default", org.id);
      const token = (await intakeAddress(app.dossier, org.id, flow))!.address.split("@")[0];
      await queryRows(app, "ALTER TABLE intake_messages RENAME TO intake_messages_gone");
      const message = await compose({ from: "a@example.com", subject: "Hello", text: "x", messageId: "<log-1@example.com>" });
      let status = 0;
      const text = await stderrOf(async () => {
        status = (await call(app, "POST", `/api/v1/intake/${token}`, { raw: message, contentType: "message/rfc822", headers: { "x-request-id": `log-${mode}` } })).status;
      });
      expect(status).toBe(500);
      expect(text).not.toContain(token);
      expect(text.toLowerCase()).not.toContain(token.toLowerCase());
      const lines = text.split("\n").filter((line) => line.includes(`log-${mode}`));
      expect(lines).toHaveLength(2); // the error, then the request
      if (mode === "json") {
        const [failure, request] = lines.map((line) => JSON.parse(line));
        expect(failure).toMatchObject({ level: "error", msg: "unhandled error", request_id: "log-json", method: "POST", route: "/api/v1/intake/:token" });
        expect(failure.path).toBeUndefined();
        expect(request).toMatchObject({ level: "info", msg: "request", route: "/api/v1/intake/:token", status: 500 });
      } else {
        expect(lines[0]).toMatch(/ ERROR unhandled error request_id=log-pretty method=POST route=\/api\/v1\/intake\/:token error=/);
        expect(lines[1]).toMatch(/ INFO request request_id=log-pretty method=POST route=\/api\/v1\/intake\/:token status=500 /);
      }
    });
  }

  test("the other answers of POST /intake/{token} (201, 400, 404, 415) log the pattern too", async () => {
    const app = await appOn(engine, { config: { log: "json" } });
    const org = await makeOrg(app);
    const [{ id: flow }] = await queryRows<{ id: string }>(app, "SELECT id FROM flows WHERE organization_id = ? AND type = 'candidate' AND is_default", org.id);
    const token = (await intakeAddress(app.dossier, org.id, flow))!.address.split("@")[0];
    const unknown = "q".repeat(26);
    const good = await compose({ from: "a@example.com", subject: "Hello", text: "x" });
    const text = await stderrOf(async () => {
      expect((await call(app, "POST", `/api/v1/intake/${token}`, { raw: good, contentType: "message/rfc822" })).status).toBe(201);
      expect((await call(app, "POST", `/api/v1/intake/${token}`, { raw: "Subject: no From\r\n\r\nx", contentType: "message/rfc822" })).status).toBe(400);
      expect((await call(app, "POST", `/api/v1/intake/${token}`, { raw: good, contentType: "text/plain" })).status).toBe(415);
      expect((await call(app, "POST", `/api/v1/intake/${unknown}`, { raw: good, contentType: "message/rfc822" })).status).toBe(404);
    });
    expect(text).not.toContain(token);
    expect(text).not.toContain(unknown);
    const requests = text.split("\n").filter(Boolean).map((line) => JSON.parse(line)).filter((e) => e.msg === "request");
    expect(requests.map((e) => [e.route, e.status])).toEqual([
      ["/api/v1/intake/:token", 201],
      ["/api/v1/intake/:token", 400],
      ["/api/v1/intake/:token", 415],
      ["/api/v1/intake/:token", 404],
    ]);
  });
});
