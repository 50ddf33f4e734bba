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

  const raw = (request: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect(server.port, "127.0.0.1", () => socket.end(request));
      let text = "";
      socket.setTimeout(5000, () => socket.destroy(new Error("no answer within 5 s")));
      socket.on("data", (chunk) => (text += chunk));
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
    });

  test("GET /healthz with Host: app → 200", async () => {
    const answer = await raw("GET /healthz HTTP/1.1\r\nHost: app\r\nConnection: close\r\n\r\n");
    expect(answer.split("\r\n")[0]).toBe("HTTP/1.1 200 OK");
    expect(answer).toContain('{"status":"ok"}');
  });
});
