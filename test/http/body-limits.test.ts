// C8 body limits through a real server on 127.0.0.1: bodies far over the limits (13 MB, 50 MB,
// declared or streamed) answer our 413 envelope with X-Request-Id (C3), and are refused after
// reading at most the limit: the answer comes while most of the body is still unsent.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { connect, type Socket } from "node:net";
import { readFileSync } from "node:fs";
import { startServer } from "../../src/server";
import { makeOrg, tempDir } from "../helpers";
import { startServerProcess } from "../helpers/process";
import { dossier } from "../cli/helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const MB = 1_048_576;

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Body bytes written before the answer arrived. */
  sent: number;
}

interface RawRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** The body's full length: sent as Content-Length, or (with `chunked`) streamed until answered. */
  length: number;
  chunked?: boolean;
  /** Stop writing after this many bytes and wait for the answer (default: the whole length). */
  sendAtMost?: number;
  /** The first bytes of the body (e.g. a multipart preamble); the rest is filler. */
  prefix?: string;
  /** Go on writing the whole body after the answer (a client that does not listen). */
  keepSending?: boolean;
}

/** Parses one HTTP/1.1 answer once its head and Content-Length bytes have arrived. */
function parseAnswer(buffer: Buffer): Omit<RawAnswer, "sent"> | undefined {
  const end = buffer.indexOf("\r\n\r\n");
  if (end < 0) return undefined;
  const [statusLine, ...lines] = buffer.subarray(0, end).toString("latin1").split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers["content-length"] ?? 0);
  if (buffer.length < end + 4 + length) return undefined;
  return { status: Number(statusLine.split(" ")[1]), headers, body: buffer.subarray(end + 4, end + 4 + length).toString("utf8") };
}

/** One request on a raw socket, so the body can be declared larger than what is ever sent and
 * streamed in small pieces from one reused buffer (the test itself never holds the body). */
function rawRequest(base: string, request: RawRequest): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  const limit = request.sendAtMost ?? request.length;
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    let sent = 0;
    let answered = false;
    let pending: RawAnswer | undefined;
    const socket: Socket = connect(Number(port), hostname);
    const timer = setTimeout(() => finish(new Error(`no answer after ${sent} bytes`)), 20_000);
    const finish = (error?: Error, answer?: RawAnswer) => {
      if (answered) return;
      answered = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(answer!);
    };
    socket.on("error", (error) => finish(error));
    socket.on("data", (data) => {
      received = Buffer.concat([received, data]);
      const answer = parseAnswer(received);
      if (answer && !request.keepSending) finish(undefined, { ...answer, sent });
      else if (answer) pending = { ...answer, sent };
    });
    socket.on("close", () => finish(new Error(`connection closed without an answer: ${JSON.stringify(received.toString("latin1"))}`)));
    socket.on("connect", async () => {
      const head = [`${request.method} ${request.path} HTTP/1.1`, `Host: ${hostname}:${port}`];
      for (const [name, value] of Object.entries(request.headers)) head.push(`${name}: ${value}`);
      head.push(request.chunked ? "Transfer-Encoding: chunked" : `Content-Length: ${request.length}`);
      socket.write(head.join("\r\n") + "\r\n\r\n");
      const piece = Buffer.alloc(64 * 1024, "x");
      const prefix = Buffer.from(request.prefix ?? "");
      while (!answered && sent < limit) {
        const size = Math.min(piece.length, limit - sent);
        const bytes = sent === 0 && prefix.length > 0 ? Buffer.concat([prefix, piece]).subarray(0, size) : piece.subarray(0, size);
        const flushed = socket.write(request.chunked ? Buffer.concat([Buffer.from(`${size.toString(16)}\r\n`), bytes, Buffer.from("\r\n")]) : bytes);
        sent += size;
        if (!flushed) await new Promise((resume) => socket.once("drain", resume));
      }
      if (request.keepSending) {
        // The answer came early; wait (bounded) until the whole body is written and then read.
        for (let i = 0; i < 200 && !pending; i++) await Bun.sleep(50);
        await new Promise<void>((resume) => socket.end(() => resume()));
        finish(pending ? undefined : new Error("no answer"), pending);
      }
    });
  });
}

describe("C8 bodies over the limits, over real HTTP: 413 with the error envelope and X-Request-Id", async () => {
  const server = await startServer({ dataDir: tempDir(), port: 0, webhooks: false, config: { log: "off" } });
  afterAll(() => server.stop());
  const org = await makeOrg(server.app);
  const auth = { authorization: `Bearer ${org.key}` };
  let dossierId = "";

  // A dossier to upload to, made before any test of the file, whatever their order.
  beforeAll(async () => {
    const created = await fetch(`${server.url}/api/v1/dossiers`, {
      method: "POST", headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify({ type: "candidate", name: "Limits" }),
    });
    expect(created.status).toBe(201);
    dossierId = ((await created.json()) as any).data.id;
  });

  const boundary = "----dossier-limit-test";
  const multipart = { "content-type": `multipart/form-data; boundary=${boundary}` };
  const preamble = `--${boundary}\r\nContent-Disposition: form-data; name="cv"; filename="cv.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\n`;
  const json = { "content-type": "application/json" };

  const cases: [string, string, () => string, Record<string, string>, number, string][] = [
    ["C8: JSON of 13 MB on POST /contacts", "POST", () => "/api/v1/contacts", json, 13 * MB, "payload_too_large"],
    ["C8: JSON of 50 MB on POST /contacts", "POST", () => "/api/v1/contacts", json, 50 * MB, "payload_too_large"],
    ["C8: multipart of 13 MB on POST /dossiers/{id}/cv", "POST", () => `/api/v1/dossiers/${dossierId}/cv`, multipart, 13 * MB, "file_too_large"],
    ["C8: multipart of 50 MB on POST /dossiers/{id}/cv", "POST", () => `/api/v1/dossiers/${dossierId}/cv`, multipart, 50 * MB, "file_too_large"],
    ["C5: a raw PDF of 13 MB on POST /dossiers/{id}/cv", "POST", () => `/api/v1/dossiers/${dossierId}/cv`, { "content-type": "application/pdf" }, 13 * MB, "file_too_large"],
    ["C10: multipart of 13 MB on POST /dossiers", "POST", () => "/api/v1/dossiers", multipart, 13 * MB, "file_too_large"],
  ];

  test.each(cases)("%s, declared by Content-Length: 413 before the body is read", async (_name, method, path, type, length, code) => {
    const answer = await rawRequest(server.url, {
      method, path: path(), headers: { ...auth, ...type, "x-request-id": "limit-test-1" }, length, sendAtMost: 256 * 1024, prefix: preamble,
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ error: { code, message: expect.any(String), request_id: expect.any(String) } });
    expect(answer.headers["x-request-id"]).toBe("limit-test-1");
    expect(answer.headers["x-ratelimit-limit"]).toBe("600");
  });

  test.each(cases)("%s, streamed without a length: 413 once the limit is passed, the rest never read", async (_name, method, path, type, length, code) => {
    const answer = await rawRequest(server.url, { method, path: path(), headers: { ...auth, ...type }, length, chunked: true, prefix: preamble });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).error.code).toBe(code);
    expect(answer.headers["x-request-id"]).toMatch(/^[A-Za-z0-9._:-]{1,100}$/);
    // The server answered after reading about the limit (11 MB at most, plus what the socket
    // buffers hold and what the sender wrote before it saw the answer: 21 MB once on a loaded
    // machine), not after the whole body: of 50 MB, 20 were never sent.
    expect(answer.sent).toBeLessThan(30 * MB);
  });

  test("C8: nothing was stored, and the server still answers", async () => {
    const after = await fetch(`${server.url}/api/v1/dossiers/${dossierId}`, { headers: auth });
    expect(((await after.json()) as any).data.cv_url).toBeNull();
    const contacts = await fetch(`${server.url}/api/v1/contacts`, { headers: auth });
    expect(((await contacts.json()) as any).meta.total).toBe(1); // the dossier's own contact only
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});

/** The resident memory of a process, from /proc (Linux). */
const residentBytes = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) * 1024;

describe("C8: a server's memory stays bounded when clients send huge bodies anyway", () => {
  test("200 MB bodies sent whole (refused, or to a route that reads none) leave the server's memory flat", async () => {
    const data = tempDir();
    const org = dossier(data, "org", "create", "--name", "Big bodies", "--json").json;
    const key = dossier(data, "key", "create", "--org", org.id, "--scopes", "all", "--json").json.key;
    const server = await startServerProcess(data, ["--no-bootstrap"]);
    try {
      const auth = { authorization: `Bearer ${key}` };
      const warm = await fetch(`${server.url}/api/v1/flows`, { headers: auth });
      expect(warm.status).toBe(200);
      const before = residentBytes(server.proc.pid);
      const requests: RawRequest[] = [
        { method: "POST", path: "/api/v1/contacts", headers: { ...auth, "content-type": "application/json" }, length: 200 * MB, keepSending: true },
        { method: "POST", path: "/api/v1/dossiers", headers: { ...auth, "content-type": "multipart/form-data; boundary=x" }, length: 200 * MB, keepSending: true },
        { method: "GET", path: "/api/v1/flows", headers: auth, length: 200 * MB, keepSending: true },
      ];
      const statuses: number[] = [];
      for (const request of requests) statuses.push((await rawRequest(server.url, request)).status);
      expect(statuses).toEqual([413, 413, 200]);
      const grown = residentBytes(server.proc.pid) - before;
      expect(grown).toBeLessThan(64 * MB);
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      server.proc.kill("SIGTERM");
      await server.exited;
    }
  });
});
