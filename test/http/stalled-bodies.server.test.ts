// Stalled request bodies over real sockets on 127.0.0.1 (C20 "A request body that stalls", C3's
// order of checks): a body that stops coming is answered 408 or closed within the body timeout, one
// that trickles slower than 10 KB/s too, and a request refused before its body (401) is answered
// and closed at once. The servers here use a 2 s body timeout (DOSSIER_BODY_TIMEOUT) so that the
// test is short; the default is checked apart.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { connect, type Socket } from "node:net";
import { loadConfig } from "../../src/config";
import { startServer, type RunningServer } from "../../src/server";
import { makeOrg, tempDir, until, type Org } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const BODY_TIMEOUT_S = 2;
const GRACE_MS = 5_000; // the brief's bound: closed within the timeout + 5 s

interface Held {
  /** Everything the server sent. */
  received(): string;
  /** Resolves with the ms from the connection to its close, or null past `limitMs` (then destroyed). */
  closed: Promise<number | null>;
  socket: Socket;
}

/** A raw connection that sends `head` (request line, headers, and the start of a body) and then
 * nothing more; bounded: destroyed after `limitMs`. */
function hold(port: number, head: string, limitMs: number): Promise<Held> {
  return new Promise((resolve, reject) => {
    let text = "";
    const started = performance.now();
    const socket = connect(port, "127.0.0.1");
    const closed = new Promise<number | null>((done) => {
      const limit = setTimeout(() => (socket.destroy(), done(null)), limitMs);
      socket.on("close", () => (clearTimeout(limit), done(performance.now() - started)));
    });
    socket.on("data", (chunk) => (text += chunk));
    socket.on("error", () => {});
    socket.once("connect", () => socket.write(head, () => resolve({ received: () => text, closed, socket })));
    socket.once("error", reject);
  });
}

const head = (method: string, path: string, headers: Record<string, string>, length: number, start: string) =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
  Object.entries({ ...headers, "Content-Length": String(length) }).map(([k, v]) => `${k}: ${v}\r\n`).join("") +
  `\r\n${start}`;

async function healthzAnswers(server: RunningServer) {
  const answer = await fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(2_000) });
  expect(answer.status).toBe(200);
}

/** Every POST (and PATCH) route that reads a body, the CV routes included. */
async function bodyRoutes(server: RunningServer, org: Org) {
  const auth = { authorization: `Bearer ${org.key}` };
  const made = await fetch(`${server.url}/api/v1/dossiers`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ type: "candidate", name: "Held" }),
  });
  const dossier = ((await made.json()) as any).data.id as string;
  const contact = ((await (await fetch(`${server.url}/api/v1/contacts`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ full_name: "Held" }),
  })).json()) as any).data.id as string;
  const json = { ...auth, "Content-Type": "application/json" };
  return [
    ["POST", "/api/v1/dossiers", json],
    ["POST", "/api/v1/dossiers", { ...auth, "Content-Type": "multipart/form-data; boundary=x" }],
    ["PATCH", `/api/v1/dossiers/${dossier}`, json],
    ["POST", `/api/v1/dossiers/${dossier}/cv`, { ...auth, "Content-Type": "application/pdf" }],
    ["POST", `/api/v1/dossiers/${dossier}/cv`, { ...auth, "Content-Type": "multipart/form-data; boundary=x" }],
    ["POST", `/api/v1/dossiers/${dossier}/notes`, json],
    ["POST", `/api/v1/dossiers/${dossier}/contacts`, json],
    ["POST", "/api/v1/contacts", json],
    ["PATCH", `/api/v1/contacts/${contact}`, json],
  ] as [string, string, Record<string, string>][];
}

describe("stalled request bodies (C20)", async () => {
  const server = await startServer({
    dataDir: tempDir(), port: 0, webhooks: false, env: { DOSSIER_BODY_TIMEOUT: `${BODY_TIMEOUT_S}s` }, config: { log: "off" },
  });
  afterAll(() => server.stop());
  const org = await makeOrg(server.app);

  test("C20: the body timeout is 30 s unless DOSSIER_BODY_TIMEOUT says otherwise", () => {
    expect(loadConfig({}).bodyTimeoutMs).toBe(30_000);
    expect(loadConfig({ DOSSIER_BODY_TIMEOUT: "2s" }).bodyTimeoutMs).toBe(2_000);
    expect(() => loadConfig({ DOSSIER_BODY_TIMEOUT: "0s" })).toThrow(/DOSSIER_BODY_TIMEOUT/);
  });

  test("C20: 50 authenticated requests that send headers and one byte are each answered 408 or closed within the timeout + 5 s; /healthz answers meanwhile", async () => {
    const routes = await bodyRoutes(server, org);
    const limit = BODY_TIMEOUT_S * 1000 + GRACE_MS;
    const held = await Promise.all(
      Array.from({ length: 50 }, (_, i) => {
        const [method, path, headers] = routes[i % routes.length];
        return hold(server.port, head(method, path, headers, 1_000, "{"), limit);
      }),
    );
    try {
      await healthzAnswers(server);
      const times = await Promise.all(held.map((h) => h.closed));
      for (const [i, ms] of times.entries()) {
        expect({ connection: i, closed: ms !== null }).toEqual({ connection: i, closed: true });
        const answer = held[i].received();
        if (answer !== "") {
          expect(answer).toStartWith("HTTP/1.1 408");
          expect(answer).toContain('"code":"request_timeout"');
        }
      }
      await healthzAnswers(server);
    } finally {
      for (const h of held) h.socket.destroy();
    }
  }, 30_000);

  test("C20: a body that keeps trickling, slower than 10 KB/s, is answered 408 after the first period", async () => {
    const [method, path, headers] = (await bodyRoutes(server, org))[3]; // the raw CV upload
    const limit = BODY_TIMEOUT_S * 1000 + GRACE_MS;
    const held = await hold(server.port, head(method, path, headers, 100_000, "%PDF-"), limit);
    // One byte every 200 ms: never a stall of the body timeout, but far below 10 KB/s. Bounded by the close.
    const drip = setInterval(() => held.socket.write("x"), 200);
    try {
      expect(await held.closed).not.toBeNull();
      expect(held.received()).toStartWith("HTTP/1.1 408");
    } finally {
      clearInterval(drip);
      held.socket.destroy();
    }
  }, 30_000);

  test("C20: a steady upload faster than 10 KB/s is read to its end, however long it takes past the first period", async () => {
    const [method, path, headers] = (await bodyRoutes(server, org))[3]; // the raw CV upload
    const chunk = "x".repeat(4_096);
    const chunks = 20; // 4 KB every 200 ms: 20 KB/s for 4 s, twice the body timeout
    const length = 5 + chunk.length * chunks;
    const held = await hold(server.port, head(method, path, { ...headers, Connection: "close" }, length, "%PDF-"), 4 * BODY_TIMEOUT_S * 1000 + GRACE_MS);
    try {
      for (let i = 0; i < chunks; i++) {
        held.socket.write(chunk);
        await Bun.sleep(200);
      }
      expect(await held.closed).not.toBeNull();
      expect(held.received()).toStartWith("HTTP/1.1 200");
    } finally {
      held.socket.destroy();
    }
  }, 30_000);

  test("C20: a body that pauses for less than the timeout is read and answered as usual", async () => {
    const body = JSON.stringify({ type: "candidate", name: "Paused" });
    const held = await hold(
      server.port,
      head("POST", "/api/v1/dossiers", { authorization: `Bearer ${org.key}`, "Content-Type": "application/json", Connection: "close" }, body.length, body.slice(0, 5)),
      BODY_TIMEOUT_S * 1000 + GRACE_MS,
    );
    try {
      await Bun.sleep(BODY_TIMEOUT_S * 500);
      held.socket.write(body.slice(5));
      expect(await held.closed).not.toBeNull();
      expect(held.received()).toStartWith("HTTP/1.1 201");
    } finally {
      held.socket.destroy();
    }
  }, 30_000);
});

describe("requests refused before their body (C3, C20)", async () => {
  // The default body timeout: these must not wait for it.
  const server = await startServer({ dataDir: tempDir(), port: 0, webhooks: false, config: { log: "off" } });
  afterAll(() => server.stop());
  const stallServer = await startServer({ dataDir: tempDir(), port: 0, webhooks: false, config: { log: "off", bodyTimeoutMs: BODY_TIMEOUT_S * 1000 } });
  afterAll(() => stallServer.stop());
  const stallOrg = await makeOrg(stallServer.app, { plan: "pro" });

  test("C20: 50 unauthenticated requests with a body are answered 401 and closed at once, without waiting for the body", async () => {
    const id = "00000000-0000-4000-8000-000000000000";
    const paths: [string, string][] = [
      ["POST", "/api/v1/dossiers"], ["POST", `/api/v1/dossiers/${id}/cv`], ["PATCH", `/api/v1/dossiers/${id}`],
      ["POST", `/api/v1/dossiers/${id}/notes`], ["POST", "/api/v1/contacts"], ["DELETE", `/api/v1/contacts/${id}`],
    ];
    const held = await Promise.all(
      Array.from({ length: 50 }, (_, i) => {
        const [method, path] = paths[i % paths.length];
        return hold(server.port, head(method, path, { "Content-Type": "application/json" }, 1_000, "{"), GRACE_MS);
      }),
    );
    try {
      await healthzAnswers(server);
      const times = await Promise.all(held.map((h) => h.closed));
      for (const [i, ms] of times.entries()) {
        expect({ connection: i, closed: ms !== null }).toEqual({ connection: i, closed: true });
        expect(held[i].received()).toStartWith("HTTP/1.1 401");
        expect(held[i].received().toLowerCase()).toContain("connection: close");
      }
    } finally {
      for (const h of held) h.socket.destroy();
    }
  }, 30_000);

  test("a stranger's small body that has arrived whole is dropped, not reset: 401 on a connection that stays open, twice over", async () => {
    const body = JSON.stringify({ type: "candidate", name: "Nobody" });
    const request = head("POST", "/api/v1/dossiers", { "Content-Type": "application/json" }, Buffer.byteLength(body), body);
    // Two requests back to back on one connection, each whole in one write: both answered.
    const held = await hold(server.port, request, GRACE_MS);
    try {
      await until(() => held.received().includes("HTTP/1.1 401"), GRACE_MS, "the first 401");
      expect(held.received().toLowerCase()).not.toContain("connection: close");
      held.socket.write(request);
      await until(() => held.received().split("HTTP/1.1 401").length === 3, GRACE_MS, "the second 401 on the same connection");
    } finally {
      held.socket.destroy();
    }
  });

  test("C20: a 402 (a known key, the wrong plan) is answered before the body, and a body that then stalls is closed within the timeout", async () => {
    const held = await hold(
      stallServer.port,
      head("POST", "/api/v1/dossiers", { authorization: `Bearer ${stallOrg.key}`, "Content-Type": "application/json" }, 1_000, "{"),
      BODY_TIMEOUT_S * 1000 + GRACE_MS,
    );
    try {
      await until(() => held.received().startsWith("HTTP/1.1 402"), GRACE_MS, "the 402");
      expect(await held.closed).not.toBeNull();
    } finally {
      held.socket.destroy();
    }
  }, 30_000);
});
