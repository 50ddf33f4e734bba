// C2: `dossier serve` as a real process: first-start bootstrap, operator changes while it runs
// (C10), and the graceful stop on SIGTERM and SIGINT. On both engines (C19): SQLite in the data
// folder, PostgreSQL through DOSSIER_DATABASE_URL (each test a fresh database: cliOn).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { startServerProcess, type ServerProcess } from "../helpers/process";
import { ENGINES } from "../helpers/stores";
import { cliOn } from "./helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const BOOTSTRAP_KEY = /API key \(shown once, store it now\): (svc_live_[A-Za-z0-9]{32})/;

/** POSTs a contact whose JSON body arrives in two halves; `signal` is sent to the server between
 * them, while the request is in flight. Resolves with the answer once the rest has been sent. */
async function postAcrossSignal(server: ServerProcess, key: string, fullName: string, signal: "SIGTERM" | "SIGINT") {
  const body = JSON.stringify({ full_name: fullName });
  let sendRest!: () => void;
  const restSent = new Promise<void>((resolve) => (sendRest = resolve));
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(new TextEncoder().encode(body.slice(0, 10)));
      await restSent;
      controller.enqueue(new TextEncoder().encode(body.slice(10)));
      controller.close();
    },
  });
  const pending = fetch(`${server.url}/api/v1/contacts`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: stream,
    duplex: "half",
  } as RequestInit);
  await Bun.sleep(300);
  server.proc.kill(signal);
  await Bun.sleep(300);
  expect(server.proc.exitCode).toBeNull();
  sendRest();
  return pending;
}

describe.each(ENGINES)("dossier serve on %s", (engine) => {
  describe("first start", () => {
    test("creates Default on Growth with a key of every scope, printed once on stderr", async () => {
      const { data, env, run: dossier } = await cliOn(engine);
      const first = await startServerProcess(data, [], env);
      const key = BOOTSTRAP_KEY.exec(first.stderr())?.[1];
      expect(key).toBeDefined();
      expect(first.stderr()).toContain(`${first.url}/api/v1`);
      const flows = await fetch(`${first.url}/api/v1/flows`, { headers: { authorization: `Bearer ${key}` } });
      expect(flows.status).toBe(200);
      first.proc.kill("SIGTERM");
      expect(await first.exited).toBe(0);

      const orgs = dossier("org", "list", "--json").json.data;
      expect(orgs).toEqual([{ id: expect.any(String), name: "Default", plan: "growth", rate_limit: 600 }]);
      expect(dossier("key", "list", "--org", orgs[0].id, "--json").json.data[0].scopes).toHaveLength(15); // C22 adds tasks:read, tasks:write, mail:read
      expect(first.stderr()).toMatch(new RegExp(`Console: ${first.url}/console/setup#token=[A-Za-z0-9_-]{43}\n`));

      const second = await startServerProcess(data, [], env);
      expect(second.stderr()).not.toMatch(BOOTSTRAP_KEY);
      second.proc.kill("SIGTERM");
      expect(await second.exited).toBe(0);
      expect(dossier("org", "list", "--json").json.data).toHaveLength(1);
    });

    test("--no-bootstrap creates nothing", async () => {
      const { data, env, run: dossier } = await cliOn(engine);
      const server = await startServerProcess(data, ["--no-bootstrap"], env);
      expect(server.stderr()).not.toMatch(BOOTSTRAP_KEY);
      server.proc.kill("SIGTERM");
      expect(await server.exited).toBe(0);
      expect(dossier("org", "list", "--json").json.data).toEqual([]);
    });
  });

  describe("C10: operator changes take effect on the next request while a server runs", () => {
    test("key revoke → 401; org update --plan pro → 402; --rate-limit → new limit", async () => {
      const { data, env, run: dossier } = await cliOn(engine);
      const org = dossier("org", "create", "--name", "Live", "--json").json;
      const key = dossier("key", "create", "--org", org.id, "--scopes", "flows:read", "--json").json;
      const other = dossier("key", "create", "--org", org.id, "--scopes", "flows:read", "--json").json;
      const server = await startServerProcess(data, ["--no-bootstrap"], env);
      try {
        const get = (k: string) => fetch(`${server.url}/api/v1/flows`, { headers: { authorization: `Bearer ${k}` } });
        expect((await get(key.key)).status).toBe(200);
        expect(dossier("key", "revoke", key.id).code).toBe(0);
        expect((await get(key.key)).status).toBe(401);
        expect(dossier("org", "update", org.id, "--plan", "pro").code).toBe(0);
        expect((await get(other.key)).status).toBe(402);
        expect(dossier("org", "update", org.id, "--plan", "growth", "--rate-limit", "42").code).toBe(0);
        const answer = await get(other.key);
        expect(answer.status).toBe(200);
        expect(answer.headers.get("x-ratelimit-limit")).toBe("42");
      } finally {
        server.proc.kill("SIGTERM");
        await server.exited;
      }
    });
  });

  describe("C2: SIGTERM", () => {
    test("a request in flight completes, then the process exits 0", async () => {
      const { data, env, run: dossier } = await cliOn(engine);
      const org = dossier("org", "create", "--name", "Stop", "--json").json;
      const key = dossier("key", "create", "--org", org.id, "--scopes", "all", "--json").json.key;
      const server = await startServerProcess(data, ["--no-bootstrap"], env);
      const answer = await postAcrossSignal(server, key, "Slow Upload", "SIGTERM");
      expect(answer.status).toBe(201);
      expect(((await answer.json()) as any).data.full_name).toBe("Slow Upload");
      expect(await server.exited).toBe(0);
      // The write it acknowledged is there after the stop.
      const after = await startServerProcess(data, ["--no-bootstrap"], env);
      const list = await fetch(`${after.url}/api/v1/contacts`, { headers: { authorization: `Bearer ${key}` } });
      expect(((await list.json()) as any).meta.total).toBe(1);
      after.proc.kill("SIGTERM");
      expect(await after.exited).toBe(0);
    });
  });

  describe("C2: SIGINT", () => {
    test("Ctrl-C: a request in flight completes, the stop is logged, the database is closed, exit 0", async () => {
      const { data, env, run: dossier } = await cliOn(engine);
      const org = dossier("org", "create", "--name", "Interrupt", "--json").json;
      const key = dossier("key", "create", "--org", org.id, "--scopes", "all", "--json").json.key;
      const server = await startServerProcess(data, ["--no-bootstrap"], env);
      expect((await postAcrossSignal(server, key, "Interrupted Upload", "SIGINT")).status).toBe(201);
      expect(await server.exited).toBe(0);
      expect(server.stderr()).toMatch(/"msg":"stopping".*"signal":"SIGINT"/);
      // The last connection closed cleanly: SQLite folded the WAL back into the database file (on
      // PostgreSQL, the database's own business).
      if (engine === "sqlite") expect(existsSync(join(data, "dossier.db-wal"))).toBe(false);
      expect(dossier("org", "list", "--json").code).toBe(0);
    });
  });
});
