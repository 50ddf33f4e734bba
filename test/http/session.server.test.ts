// C12, C20 against a real server: the base of setup links is the server's own address (or
// DOSSIER_PUBLIC_URL), the first start prints the owner's link, the throttle counts the socket's
// address.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { startServer } from "../../src/server";
import { makeOrg, onCleanup, tempDir } from "../helpers";
import { startServerProcess } from "../helpers/process";
import { ENGINES, migratedDatabase } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

describe.each(ENGINES)("on %s", async (engine) => {
  const PASSWORD = "a long enough password";

  /** The environment of a server on the engine: a fresh database of the tests' PostgreSQL server, or none (the data folder's file). */
  const store = async (): Promise<Record<string, string>> => (engine === "postgres" ? { DOSSIER_DATABASE_URL: await migratedDatabase() } : {});

  async function serve(env: Record<string, string> = {}) {
    const server = await startServer({ host: "127.0.0.1", port: 0, dataDir: tempDir(), webhooks: false, env: { ...(await store()), ...env }, config: { log: "off" } });
    onCleanup(() => server.stop());
    return server;
  }

  const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });

  describe("C20: <base> of setup links", () => {
    test("C20: the running server's http://host:port, whatever Host the request names", async () => {
      const server = await serve();
      const org = await makeOrg(server.app);
      const answer = await post(`${server.url}/api/v1/members`, { email: "base@example.com", name: "Base", role: "viewer" }, { authorization: `Bearer ${org.key}`, host: "evil.example" });
      expect(answer.status).toBe(201);
      const { data } = (await answer.json()) as { data: { setup_url: string } };
      expect(data.setup_url).toStartWith(`${server.url}/console/setup#token=`);
    });

    test("C20: DOSSIER_PUBLIC_URL when set", async () => {
      const server = await serve({ DOSSIER_PUBLIC_URL: "https://dossier.example.com/" });
      const org = await makeOrg(server.app);
      const answer = await post(`${server.url}/api/v1/members`, { email: "public@example.com", name: "Public", role: "viewer" }, { authorization: `Bearer ${org.key}` });
      const { data } = (await answer.json()) as { data: { setup_url: string } };
      expect(data.setup_url).toStartWith("https://dossier.example.com/console/setup#token=");
    });
  });

  test("C12: the throttle counts the socket's address: 5 failures, then 429 even with the right password", async () => {
    const server = await serve();
    const org = await makeOrg(server.app);
    const made = await post(`${server.url}/api/v1/members`, { email: "sock@example.com", name: "Sock", role: "viewer" }, { authorization: `Bearer ${org.key}` });
    const token = ((await made.json()) as { data: { setup_url: string } }).data.setup_url.split("#token=")[1];
    expect((await post(`${server.url}/api/v1/session/setup`, { token, password: PASSWORD })).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await post(`${server.url}/api/v1/session`, { email: "sock@example.com", password: "wrong password!" })).status).toBe(401);
    const refused = await post(`${server.url}/api/v1/session`, { email: "sock@example.com", password: PASSWORD });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });

  test("C12: the first start prints the owner's setup link beside the key; it asks for email and name, and works once", async () => {
    const server = await startServerProcess(tempDir(), [], await store());
    const link = /Console: (\S+)\n/.exec(server.stderr())?.[1];
    expect(link).toStartWith(`${server.url}/console/setup#token=`);
    const token = link!.split("#token=")[1];
    const missing = await post(`${server.url}/api/v1/session/setup`, { token, password: PASSWORD });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe("invalid_body");
    const owner = await post(`${server.url}/api/v1/session/setup`, { token, password: PASSWORD, email: "owner@example.com", name: "The Owner" });
    expect(owner.status).toBe(200);
    const cookie = owner.headers.get("set-cookie")!.split(";")[0];
    const members = await fetch(`${server.url}/api/v1/members`, { headers: { cookie } });
    expect(((await members.json()) as { data: { role: string; email: string }[] }).data).toEqual([expect.objectContaining({ role: "owner", email: "owner@example.com" })]);
    const again = await post(`${server.url}/api/v1/session/setup`, { token, password: PASSWORD, email: "second@example.com", name: "Second" });
    expect(again.status).toBe(400);
    server.proc.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  });
});
