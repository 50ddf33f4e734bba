// Any Host header routes the path it names (C3: unknown paths 404, known ones served), including the
// one- to three-character hosts a reverse proxy may send, in-process and through a real socket.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { connect } from "node:net";
import { routable } from "../../src/http/url";
import { startServer } from "../../src/server";
import { makeApp, makeOrg, tempDir } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

describe("C3: the path is routed whatever the Host", async () => {
  const app = makeApp();
  const org = await makeOrg(app);
  const get = (url: string) => app.handle(new Request(url, { headers: { authorization: `Bearer ${org.key}` } }));

  test.each(["localhost", "x", "db", "app", "app:80", "a.b", "127.0.0.1:8080", "[::1]:8080"])("Host %s: GET /api/v1/flows → 200", async (host) => {
    const res = await get(`http://${host}/api/v1/flows`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { meta: { total: number } }).meta.total).toBe(2);
  });

  test.each(["x", "app", "localhost"])("Host %s: a path that only ends like a route → 404", async (host) => {
    const res = await get(`http://${host}/zz/api/v1/flows`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("not_found");
  });

  test("routable: the path and query are kept; long enough hosts are left alone", () => {
    expect(routable(new Request("http://x/api/v1/dossiers?page=2&q=a%20b")).url).toBe("http://localhost/api/v1/dossiers?page=2&q=a%20b");
    const plain = new Request("http://localhost/api/v1/flows");
    expect(routable(plain)).toBe(plain);
    const longer = new Request("http://dossier.example:8080/api/v1/flows");
    expect(routable(longer)).toBe(longer);
  });

  test("a POST body survives the re-basing", async () => {
    const res = await app.handle(
      new Request("http://x/api/v1/contacts", {
        method: "POST",
        headers: { authorization: `Bearer ${org.key}`, "content-type": "application/json" },
        body: JSON.stringify({ full_name: "Short Host" }),
      }),
    );
    expect(res.status).toBe(201);
    expect(((await res.json()) as { data: { full_name: string } }).data.full_name).toBe("Short Host");
  });
});

describe("C3: a real server behind a proxy that sends `Host: app`", async () => {
  const server = await startServer({ dataDir: tempDir(), port: 0, webhooks: false, config: { log: "off" } });
  afterAll(() => server.stop());

  // Written whole, then read until the server closes (each request says Connection: close): a
  // half-closed socket would end a chunked body early.
  const raw = (request: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect(server.port, "127.0.0.1", () => socket.write(request));
      let text = "";
      socket.setTimeout(5000, () => socket.destroy(new Error("no answer within 5 s")));
      socket.on("data", (chunk) => (text += chunk));
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
    });

  // Bun builds the URL from the Host as sent; one whose port is not a port does not parse, and a
  // request copied from it (a chunked body counted, an Idempotency-Key's fingerprint) threw.
  test.each(["h:-1", "abcdefgh:99999", "app:x"])("Host %s: a chunked POST with an Idempotency-Key is created, and replayed", async (host) => {
    const org = await makeOrg(server.app);
    const body = JSON.stringify({ full_name: `Host ${host}` });
    const request = [
      "POST /api/v1/contacts HTTP/1.1",
      `Host: ${host}`,
      `Authorization: Bearer ${org.key}`,
      "Content-Type: application/json",
      `Idempotency-Key: host-${host}`,
      "Transfer-Encoding: chunked",
      "Connection: close",
      "",
      `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`,
    ].join("\r\n");
    const first = await raw(request);
    expect(first.split("\r\n")[0]).toBe("HTTP/1.1 201 Created");
    expect(first).toContain(`"full_name":"Host ${host}"`);
    const again = await raw(request);
    expect(again.split("\r\n")[0]).toBe("HTTP/1.1 201 Created");
    expect(again.toLowerCase()).toContain("idempotent-replayed: true");
  });

  test("GET /healthz with Host: app → 200", async () => {
    const answer = await raw("GET /healthz HTTP/1.1\r\nHost: app\r\nConnection: close\r\n\r\n");
    expect(answer.split("\r\n")[0]).toBe("HTTP/1.1 200 OK");
    expect(answer).toContain('{"status":"ok"}');
  });
});
