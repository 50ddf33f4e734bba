// Issue 7 item 5 (API keys), C8: a known API key never appears in the server's log (DOSSIER_LOG=json,
// after requests with valid, invalid and revoked keys and error answers), in any answer (error
// messages never echo it), or in the database in clear (dossier.db and its -wal, or every row of a
// PostgreSQL database): only its SHA-256 hash. And bodies over the limits are refused before they
// are buffered whole: a chunked JSON body over 1 MB gets 413 payload_too_large while the client is
// still sending, and a Content-Length over a limit is refused at once, before any byte of the body
// is sent (the HTTP layer's limits, before any store: on SQLite only).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { connect } from "node:net";
import { join } from "node:path";
import { openConfiguredContext } from "../../src/context";
import { createKey, SCOPES } from "../../src/services/keys";
import { dossierRun } from "../cli/helpers";
import { tempDir, until } from "../helpers";
import { startServerProcess, type ServerProcess } from "../helpers/process";
import { ENGINES, migratedDatabase } from "../helpers/stores";
import { checkEnvelope } from "./fixtures";
import { databaseText, filesText } from "./stored-text";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

let port: number; // the body limits' server

describe.each(ENGINES)("on %s", async (engine) => {
  const data = tempDir();
  const url = engine === "postgres" ? await migratedDatabase() : null;
  const database: Record<string, string> = url ? { DOSSIER_DATABASE_URL: url } : {};
  const dossier = (...args: string[]) => dossierRun([...args, "--data", data], database);
  let server: ServerProcess;
  let key: string; // valid, every scope
  let revoked: string;
  let expired: string;

  beforeAll(async () => {
    const org = dossier("org", "create", "--name", "Secrets", "--rate-limit", "1000000", "--json").json;
    key = dossier("key", "create", "--org", org.id, "--scopes", "all", "--json").json.key;
    const other = dossier("key", "create", "--org", org.id, "--scopes", "dossiers:read", "--json").json;
    revoked = other.key;
    expect(dossier("key", "revoke", other.id, "--json").code).toBe(0);
    // The CLI refuses an expiry in the past (exit 2), so the expired key is made through the service.
    const ctx = await openConfiguredContext({ dataDir: data, env: { ...database, DOSSIER_LOG: "off" } });
    expired = (await createKey(ctx, { organizationId: org.id, scopes: [...SCOPES], expiresAt: "2001-01-01T00:00:00.000Z" })).key;
    await ctx.store.close();
    server = await startServerProcess(data, ["--no-bootstrap"], { ...database, DOSSIER_LOG: "json", DOSSIER_LOG_LEVEL: "debug" });
  });
  afterAll(() => {
    if (server?.proc.exitCode === null) server.proc.kill(9);
  });

  const secrets = () => [key, revoked, expired].filter(Boolean) as string[];
  /** The part of a key that is secret (the displayed prefix is `svc_live_` and 3 characters). */
  const secretPart = (k: string) => k.slice(12);

  function expectNoKey(where: string, text: string) {
    for (const k of secrets()) {
      expect(text.includes(secretPart(k)), `${where} contains an API key`).toBe(false);
    }
  }

  describe("secrets: API keys (C8)", () => {
    test("no answer, log line or database byte holds a key in clear; the database holds its hash", async () => {
      const base = `${server.url}/api/v1`;
      const answers: string[] = [];
      const send = async (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) => {
        const response = await fetch(base + path, init);
        const text = await response.text();
        answers.push(`${response.status} ${[...response.headers].map(([k, v]) => `${k}: ${v}`).join("\n")}\n${text}`);
        if (response.status >= 300) checkEnvelope(response.status, text);
        return response.status;
      };
      const auth = (k: string) => ({ authorization: `Bearer ${k}` });
      const json = (k: string) => ({ ...auth(k), "content-type": "application/json" });

      expect(await send("/flows", { headers: auth(key) })).toBe(200);
      expect(await send("/dossiers", { method: "POST", headers: json(key), body: JSON.stringify({ type: "candidate", name: "Ada" }) })).toBe(201);
      expect(await send("/flows", { headers: auth(revoked) })).toBe(401);
      expect(await send("/flows", { headers: auth(expired) })).toBe(401);
      // Invalid keys built from the real one: one character off, too long, other schemes and cases.
      const flipped = key.slice(0, -1) + (key.endsWith("a") ? "b" : "a");
      for (const header of [`Bearer ${flipped}`, `Bearer ${key}x`, `Basic ${key}`, `bearer ${key}`, `Bearer  ${key}`, key, `Bearer ${key.toLowerCase()}`]) {
        expect(await send("/flows", { headers: { authorization: header } })).toBe(401);
      }
      // Error answers with a valid key, the key also in the URL and in the body.
      expect(await send(`/dossiers/${key}`, { headers: auth(key) })).toBe(404);
      expect(await send(`/nope/${key}`, { headers: auth(key) })).toBe(404);
      expect(await send(`/dossiers?stage_id=${key}&q=${key}`, { headers: auth(key) })).toBe(400);
      expect(await send("/dossiers", { method: "POST", headers: json(key), body: JSON.stringify({ type: key, name: "x" }) })).toBe(400);
      expect(await send("/dossiers", { method: "POST", headers: json(key), body: JSON.stringify({ type: "sales", name: "x", deal_currency: key }) })).toBe(400);
      expect(await send("/dossiers", { method: "POST", headers: json(key), body: JSON.stringify({ type: "candidate", name: "x", email: key, flow_id: key }) })).toBe(400);
      expect(await send("/dossiers", { method: "POST", headers: json(key), body: JSON.stringify({ type: "candidate", name: "x", [key]: 1 }) })).toBe(400);
      expect(await send("/contacts", { method: "POST", headers: json(key), body: `{"full_name": "${key}` })).toBe(400);
      expect(await send("/contacts", { method: "POST", headers: json(key), body: JSON.stringify({ full_name: "x", linkedin_url: key, kind: [key] }) })).toBe(400);
      expect(await send("/dossiers", { method: "POST", headers: { ...auth(key), "content-type": key }, body: key })).toBe(400);
      expect(await send(`/dossiers/${key}/cv`, { method: "POST", headers: { ...auth(key), "content-type": "text/plain" }, body: key })).toBe(404);

      for (const answer of answers) expectNoKey(`the answer ${answer.slice(0, 400)}`, answer);

      // The log: one line per request at least, none with a key (the body of a request is never logged).
      const requestLines = () => server.stderr().split("\n").filter((line) => line.includes('"msg":"request"')).length;
      await until(() => requestLines() >= answers.length, 30_000, "a log line for every request"); // written after each answer
      const log = server.stderr();
      expectNoKey("the server log", log);
      expect(log.includes(key), "the server log contains the key").toBe(false);

      // The database, while the server runs (SQLite's WAL holds the recent writes) and after it
      // stops: its files, or every row of PostgreSQL's.
      const haystack = () => (url ? databaseText(url) : filesText(join(data, "dossier.db"), join(data, "dossier.db-wal")));
      const hash = new Bun.CryptoHasher("sha256").update(key).digest("hex");
      expectNoKey("the database", await haystack());
      expect((await haystack()).includes(hash), "the key's hash is stored").toBe(true);
      server.proc.kill("SIGTERM");
      expect(await server.exited).toBe(0);
      expectNoKey("the database after stop", await haystack());
      expect((await haystack()).includes(hash)).toBe(true);

      // The CLI never shows a key again (key list: the prefix only).
      const list = dossier("key", "list", "--org", dossier("org", "list", "--json").json.data[0].id, "--json");
      expect(list.code).toBe(0);
      expectNoKey("key list", list.stdout + list.stderr);
    });
  });
});

// ---- body limits (C8, C10): refused before they are buffered whole ---------------------------------

interface RawAnswer {
  status: number;
  text: string;
  /** Body bytes the client had sent when the answer arrived. */
  sentBeforeAnswer: number;
  /** ms from the request's headers to the answer. */
  ms: number;
}

/** A raw HTTP/1.1 request on a socket, so that the test controls how (and whether) the body is sent. */
function rawRequest(head: string, feed?: { chunk: Uint8Array; chunks: number; chunked: boolean; everyMs: number }): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let sent = 0;
    let sentBeforeAnswer = -1;
    let received = Buffer.alloc(0);
    let start = 0;
    let answeredAt = 0;
    let done = false;
    const timer = setTimeout(() => finish(new Error("no answer within 10 s")), 10_000);
    const finish = (error?: Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) return reject(error);
      const text = received.toString("utf8");
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, text: text.slice(text.indexOf("\r\n\r\n") + 4), sentBeforeAnswer, ms: answeredAt - start });
    };
    socket.on("data", (data) => {
      if (sentBeforeAnswer < 0) {
        sentBeforeAnswer = sent;
        answeredAt = performance.now();
      }
      received = Buffer.concat([received, data]);
      const text = received.toString("latin1");
      const end = text.indexOf("\r\n\r\n");
      if (end < 0) return;
      const length = /content-length: (\d+)/i.exec(text.slice(0, end));
      if (length && received.length >= end + 4 + Number(length[1])) finish();
      if (!length && /transfer-encoding: chunked/i.test(text.slice(0, end)) && text.endsWith("0\r\n\r\n")) finish();
    });
    socket.on("close", () => finish());
    socket.on("error", (error) => (sentBeforeAnswer >= 0 ? finish() : finish(error)));
    socket.on("connect", async () => {
      start = performance.now();
      socket.write(head);
      if (!feed) return;
      for (let i = 0; i < feed.chunks && sentBeforeAnswer < 0 && !done; i++) {
        const ok = feed.chunked
          ? socket.write(`${feed.chunk.length.toString(16)}\r\n`) && socket.write(feed.chunk) && socket.write("\r\n")
          : socket.write(feed.chunk);
        sent += feed.chunk.length;
        if (!ok) await new Promise((r) => socket.once("drain", r));
        await Bun.sleep(feed.everyMs);
      }
      if (!done && sentBeforeAnswer < 0 && feed.chunked) socket.write("0\r\n\r\n");
    });
  });
}

describe("body limits: refused before buffered whole (C8, C10)", () => {
  let limitServer: ServerProcess;
  let limitKey: string;
  let dossierId: string;
  beforeAll(async () => {
    const dir = tempDir();
    const dossier = (...args: string[]) => dossierRun([...args, "--data", dir]);
    const org = dossier("org", "create", "--name", "Limits", "--rate-limit", "1000000", "--json").json;
    limitKey = dossier("key", "create", "--org", org.id, "--scopes", "all", "--json").json.key;
    limitServer = await startServerProcess(dir, ["--no-bootstrap"]);
    port = Number(new URL(limitServer.url).port);
    const created = await fetch(`${limitServer.url}/api/v1/dossiers`, {
      method: "POST",
      headers: { authorization: `Bearer ${limitKey}`, "content-type": "application/json" },
      body: JSON.stringify({ type: "candidate", name: "Limits" }),
    });
    dossierId = ((await created.json()) as any).data.id;
  });
  afterAll(() => {
    if (limitServer?.proc.exitCode === null) limitServer.proc.kill(9);
  });

  const head = (method: string, path: string, headers: Record<string, string | number>) =>
    `${method} /api/v1${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${limitKey}\r\n` +
    Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join("") + "\r\n";

  test("a chunked JSON body over 1 MB: 413 payload_too_large while the client is still sending", async () => {
    const chunk = new TextEncoder().encode("a".repeat(64 * 1024));
    const total = 160; // 10 MB if the server read it all
    const answer = await rawRequest(
      head("POST", "/contacts", { "Content-Type": "application/json", "Transfer-Encoding": "chunked" }),
      { chunk, chunks: total, chunked: true, everyMs: 2 },
    );
    expect(answer.status, answer.text).toBe(413);
    expect(checkEnvelope(413, answer.text).code).toBe("payload_too_large");
    expect(answer.sentBeforeAnswer, "bytes sent before the answer").toBeGreaterThan(1_048_576);
    expect(answer.sentBeforeAnswer, "the answer came long before the body's end").toBeLessThan(4 * 1_048_576);
  });

  const atOnce = [
    { name: "JSON, Content-Length 5 MB", method: "POST", path: "/contacts", type: "application/json", length: 5_000_000, code: "payload_too_large" },
    { name: "JSON PATCH, Content-Length 2 MB", method: "PATCH", path: "/dossiers/:id", type: "application/json", length: 2_000_000, code: "payload_too_large" },
    { name: "raw PDF CV, Content-Length 10 MB + 1", method: "POST", path: "/dossiers/:id/cv", type: "application/pdf", length: 10_485_761, code: "file_too_large" },
    { name: "multipart CV, Content-Length 11 MB + 1", method: "POST", path: "/dossiers/:id/cv", type: "multipart/form-data; boundary=x", length: 11_534_337, code: "file_too_large" },
    { name: "multipart create, Content-Length 11 MB + 1", method: "POST", path: "/dossiers", type: "multipart/form-data; boundary=x", length: 11_534_337, code: "file_too_large" },
    { name: "any body, Content-Length 100 MB (over the server's own cap)", method: "POST", path: "/contacts", type: "application/json", length: 100_000_000, code: null },
  ];
  for (const scenario of atOnce) {
    test(`${scenario.name}: 413 at once, before any body byte is sent`, async () => {
      const path = scenario.path.replace(":id", dossierId);
      const answer = await rawRequest(head(scenario.method, path, { "Content-Type": scenario.type, "Content-Length": scenario.length }));
      expect(answer.status, answer.text).toBe(413);
      expect(answer.sentBeforeAnswer).toBe(0);
      expect(answer.ms).toBeLessThan(2_000);
      if (scenario.code) expect(checkEnvelope(413, answer.text).code).toBe(scenario.code);
    });
  }

  test("the server still answers normally afterwards", async () => {
    const response = await fetch(`${limitServer.url}/api/v1/dossiers/${dossierId}`, { headers: { authorization: `Bearer ${limitKey}` } });
    expect(response.status).toBe(200);
  });
});
