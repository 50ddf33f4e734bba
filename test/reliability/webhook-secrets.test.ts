// Issue 7 item 5 (webhook secrets), C7, docs/security.md: webhook secrets are stored sealed under the
// data folder's master key. A real server process signs with them (both v1= during a rotation, each
// verified here with node:crypto), yet neither secret appears in clear in the database files, the
// server's log or a backup; the sealed value opens only with the folder's master.key.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { Database } from "bun:sqlite";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadMasterKey, unseal } from "../../src/secrets";
import { dossier } from "../cli/helpers";
import { tempDir } from "../helpers";
import { startServerProcess, type ServerProcess } from "../helpers/process";
import { verifySignature } from "../helpers/webhooks";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const running: ServerProcess[] = [];
const receivers: { stop(force?: boolean): unknown }[] = [];
afterAll(() => {
  for (const server of running) if (server.proc.exitCode === null) server.proc.kill(9);
  for (const receiver of receivers) receiver.stop(true);
});

const readAll = (...paths: string[]) =>
  paths
    .map((path) => {
      try {
        return readFileSync(path).toString("latin1");
      } catch {
        return "";
      }
    })
    .join("\n");

test("webhook secrets sign every delivery yet are stored sealed: not in the database, log or backup", async () => {
  const data = tempDir();
  const received: { header: string; body: string }[] = [];
  const receiver = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      received.push({ header: request.headers.get("x-service-signature") ?? "", body: await request.text() });
      return new Response("ok");
    },
  });
  receivers.push(receiver);

  const org = dossier(data, "org", "create", "--name", "Sealed", "--json").json;
  const key = dossier(data, "key", "create", "--org", org.id, "--scopes", "all", "--json").json.key;
  const old = dossier(data, "webhook", "set", "--org", org.id, "--url", `http://127.0.0.1:${receiver.port}/hook`, "--json").json.secret as string;
  const current = dossier(data, "webhook", "rotate-secret", "--org", org.id, "--json").json.secret as string;
  expect(old).toMatch(/^whsec_/);
  expect(current).not.toBe(old);

  const server = await startServerProcess(data, ["--no-bootstrap"], { DOSSIER_LOG: "json", DOSSIER_LOG_LEVEL: "debug" });
  running.push(server);
  const created = await fetch(`${server.url}/api/v1/dossiers`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ type: "candidate", name: "Grace" }),
  });
  expect(created.status).toBe(201);
  for (let i = 0; i < 3000 && received.length === 0; i++) await Bun.sleep(10);
  expect(received.length).toBe(1);
  // Signed with both: the dispatcher unsealed them.
  expect(received[0]!.header.split(",").length).toBe(3);
  expect(verifySignature(received[0]!.header, received[0]!.body, current)).toBe(true);
  expect(verifySignature(received[0]!.header, received[0]!.body, old)).toBe(true);

  const backup = join(tempDir(), "copy.db");
  expect(dossier(data, "backup", backup, "--json").code).toBe(0);
  server.proc.kill("SIGTERM");
  expect(await server.exited).toBe(0);

  const haystack = readAll(join(data, "dossier.db"), join(data, "dossier.db-wal"), backup) + server.stderr();
  for (const secret of [old, current]) {
    expect(haystack.includes(secret), "a webhook secret in clear").toBe(false);
    expect(haystack.includes(secret.slice("whsec_".length)), "a webhook secret's random part in clear").toBe(false);
  }

  // What is stored is sealed, and opens with the data folder's key (the backup carries its own copy).
  const sqlite = new Database(join(data, "dossier.db"), { readonly: true });
  const row = sqlite.query(`SELECT secret, previous_secret FROM webhook_endpoints WHERE organization_id = ?`).get(org.id) as {
    secret: string;
    previous_secret: string;
  };
  sqlite.close();
  expect(unseal(loadMasterKey(join(data, "master.key")), row.secret)).toBe(current);
  expect(unseal(loadMasterKey(join(data, "master.key")), row.previous_secret)).toBe(old);
  expect(() => unseal(loadMasterKey(null), row.secret)).toThrow();
  expect(readFileSync(`${backup}.key`, "utf8")).toBe(readFileSync(join(data, "master.key"), "utf8"));
});
