// Issue 32 point 3: request bodies held at once are capped (DOSSIER_BODY_MEMORY, default 256MB), so
// that many uploads at a time get 503 server_busy with Retry-After instead of the server growing
// until the kernel kills it (40 uploads of 10.4 MB took it from 71 to 686 MB). A body is counted
// by its Content-Length from its arrival, a chunked one as its chunks arrive, and given back when
// its request ends, whether it ended well, was refused or was cut off by its client.
// The attack, over real sockets on 127.0.0.1: with a cap of 3 MB, two uploads of 2 MB held open at
// once (one of them must be refused), a chunked upload beside a held one, and one cut off mid-body.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { connect, type Socket } from "node:net";
import { startServer } from "../../src/server";
import { call, makeOrg, tempDir } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const MB = 1_048_576;
const UPLOAD = 2 * MB;

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** An upload over a raw connection: the head and the first bytes of a body of `length` bytes are
 * sent, the rest only on `finish()`, or never (`cut()` closes the connection mid-body). */
interface Upload {
  socket: Socket;
  /** The server's answer, once it is whole; null if the connection closed without one. */
  answer: Promise<Answer | null>;
  finish(): void;
  cut(): void;
}

function pdfBytes(length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  bytes.set(new TextEncoder().encode("%PDF-1.7\n"));
  for (let i = 9; i < length; i += 4096) bytes[i] = i % 251;
  return bytes;
}

function parseAnswer(raw: Buffer): Answer | null {
  const end = raw.indexOf("\r\n\r\n");
  if (end < 0) return null;
  const [statusLine, ...lines] = raw.subarray(0, end).toString("latin1").split("\r\n");
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]));
  const length = Number(headers["content-length"] ?? NaN);
  const body = raw.subarray(end + 4);
  if (!(body.length >= length)) return null;
  return { status: Number(statusLine.split(" ")[1]), headers, body: body.subarray(0, length).toString("utf8") };
}

function upload(port: number, path: string, key: string, length: number): Promise<Upload> {
  const bytes = pdfBytes(length);
  const first = 65_536;
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let received = Buffer.alloc(0);
    const answer = new Promise<Answer | null>((done) => {
      socket.on("data", (chunk) => {
        received = Buffer.concat([received, chunk]);
        const parsed = parseAnswer(received);
        if (parsed) done(parsed);
      });
      socket.on("close", () => done(parseAnswer(received)));
    });
    socket.on("error", () => {}); // a refused body may be cut by the server: the answer is what counts
    socket.once("connect", () => {
      const head =
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n` +
        `Content-Type: application/pdf\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n`;
      socket.write(Buffer.concat([Buffer.from(head), bytes.subarray(0, first)]), () =>
        resolve({
          socket,
          answer,
          finish: () => void socket.write(bytes.subarray(first)),
          cut: () => socket.destroy(),
        }),
      );
    });
    socket.once("error", reject);
  });
}

/** `promise`'s value, or undefined when it has not settled within `ms` (a bound, not a measure). */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([promise, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

const busy = (answer: Answer | null | undefined) =>
  answer?.status === 503 && answer.headers["retry-after"] === "1" && answer.headers["x-request-id"] !== undefined &&
  JSON.parse(answer.body).error.code === "server_busy";

describe("request bodies in flight are capped (DOSSIER_BODY_MEMORY)", async () => {
  const server = await startServer({ dataDir: tempDir(), port: 0, webhooks: false, env: { DOSSIER_BODY_MEMORY: "3MB" }, config: { log: "off" } });
  afterAll(() => server.stop());
  const org = await makeOrg(server.app);
  const dossier = async (name: string) =>
    (await call(server.app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name } })).json.data.id as string;
  const cvPath = (id: string) => `/api/v1/dossiers/${id}/cv`;

  /** A plain upload through fetch (Content-Length known), as a client would send it. */
  const send = async (id: string) => {
    const answer = await fetch(`${server.url}${cvPath(id)}`, {
      method: "POST", headers: { authorization: `Bearer ${org.key}`, "content-type": "application/pdf" }, body: pdfBytes(UPLOAD),
    });
    return { status: answer.status, json: (await answer.json()) as any, retryAfter: answer.headers.get("retry-after") };
  };

  test("two uploads of 2 MB held at once under a 3 MB cap: one is 503 server_busy with Retry-After, the other goes through", async () => {
    const [a, b] = [await dossier("A"), await dossier("B")];
    const first = await upload(server.port, cvPath(a), org.key, UPLOAD);
    const second = await upload(server.port, cvPath(b), org.key, UPLOAD);
    // Neither body is whole, so neither request can have ended: the one that came second is over
    // the cap, and is refused without waiting for its body.
    const refused = await within(Promise.race([first.answer.then(() => first), second.answer.then(() => second)]), 10_000);
    expect(refused, "an answer while both bodies were held (none: the bodies are not capped)").toBeDefined();
    expect(busy(await refused!.answer)).toBe(true);
    const held = refused === first ? second : first;
    held.finish();
    expect((await held.answer)?.status).toBe(200);
    // Both requests have ended: their 4 MB are given back, and the next upload is taken.
    expect((await send(a)).status).toBe(200);
  });

  test("an import's form (up to 51 MB, C21) is counted too: one declared beside a held upload is 503", async () => {
    const a = await dossier("Beside an import");
    const held = await upload(server.port, cvPath(a), org.key, UPLOAD);
    // Declared 30 MB: over the 25 MB of an intake message, which once was the largest body counted,
    // so the import went uncounted (and, sent as a PDF, was answered 415 by its route).
    const form = await upload(server.port, "/api/v1/imports", org.key, 30 * MB);
    expect(busy(await within(form.answer, 10_000))).toBe(true);
    form.cut();
    held.finish();
    expect((await held.answer)?.status).toBe(200);
  });

  test("a chunked body is counted as it arrives: refused once it passes what is left", async () => {
    const [a, b] = [await dossier("Held"), await dossier("Chunked")];
    const held = await upload(server.port, cvPath(a), org.key, UPLOAD);
    const chunk = pdfBytes(256 * 1024);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= UPLOAD) return controller.close();
        controller.enqueue(chunk);
        sent += chunk.length;
      },
    });
    // No Content-Length: fetch sends a stream chunked.
    const chunked = await fetch(`${server.url}${cvPath(b)}`, {
      method: "POST", headers: { authorization: `Bearer ${org.key}`, "content-type": "application/pdf" }, body, duplex: "half",
    } as RequestInit);
    expect([chunked.status, chunked.headers.get("retry-after"), ((await chunked.json()) as any).error.code]).toEqual([503, "1", "server_busy"]);
    held.finish();
    expect((await held.answer)?.status).toBe(200);
    expect((await send(b)).status).toBe(200);
  });

  test("an upload cut off by its client gives its bytes back", async () => {
    const id = await dossier("Cut");
    const cut = await upload(server.port, cvPath(id), org.key, UPLOAD);
    // Held: 2 MB more are over the cap while it is.
    const over = await upload(server.port, cvPath(id), org.key, UPLOAD);
    expect(busy(await over.answer)).toBe(true);
    cut.cut();
    // The server learns of the close on its own time: bounded tries until the 2 MB are free again
    // (while they are held, 2 more MB are over the cap: 503).
    let answer = await send(id);
    for (let tries = 0; tries < 100 && answer.status === 503; tries++) {
      expect([answer.json.error.code, answer.retryAfter]).toEqual(["server_busy", "1"]);
      await Bun.sleep(50);
      answer = await send(id);
    }
    expect(answer.status).toBe(200);
  });

  test("a body larger than the whole cap is taken alone rather than never", async () => {
    const id = await dossier("Large");
    const large = await fetch(`${server.url}${cvPath(id)}`, {
      method: "POST", headers: { authorization: `Bearer ${org.key}`, "content-type": "application/pdf" }, body: pdfBytes(4 * MB),
    });
    expect(large.status).toBe(200);
  });
});

describe("the cap's setting", () => {
  test("DOSSIER_BODY_MEMORY takes a size with its unit; the default is 256MB", async () => {
    const { loadConfig } = await import("../../src/config");
    expect(loadConfig({}).bodyMemoryBytes).toBe(256 * MB);
    expect(loadConfig({ DOSSIER_BODY_MEMORY: "" }).bodyMemoryBytes).toBe(256 * MB);
    expect(loadConfig({ DOSSIER_BODY_MEMORY: "512KB" }).bodyMemoryBytes).toBe(512 * 1024);
    expect(loadConfig({ DOSSIER_BODY_MEMORY: "1GB" }).bodyMemoryBytes).toBe(1024 * MB);
    expect(loadConfig({ DOSSIER_BODY_MEMORY: "3000000B" }).bodyMemoryBytes).toBe(3_000_000);
    for (const bad of ["256", "0MB", "-1MB", "1 TB", "lots"]) expect(() => loadConfig({ DOSSIER_BODY_MEMORY: bad })).toThrow(/DOSSIER_BODY_MEMORY/);
  });
});
