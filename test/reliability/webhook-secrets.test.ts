// Issue 7 item 5 (webhook secrets), C7, docs/security.md: webhook secrets are stored sealed under the
// data folder's master key. A real server process signs with them (both v1= during a rotation, each
// verified here with node:crypto), yet neither secret appears in clear in the database files, the
// server's log or a backup (SQLite; PostgreSQL's is pg_dump's); the sealed value opens only with the
// folder's master.key. On both stores: the data folder's SQLite file, or a PostgreSQL database.
import { SQL } from "bun";
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { Database } from "bun:sqlite";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadMasterKey, unseal } from "../../src/secrets";
import { dossierRun } from "../cli/helpers";
import { tempDir } from "../helpers";
import { startServerProcess, type ServerProcess } from "../helpers/process";
import { ENGINES, migratedDatabase } from "../helpers/stores";
import { verifySignature } from "../helpers/webhooks";
import { databaseText, filesText } from "./stored-text";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const running: ServerProcess[] = [];
const receivers: { stop(force?: boolean): unknown }[] = [];
afterAll(() => {
  for (const server of running) if (server.proc.exitCode === null) server.proc.kill(9);
  for (const receiver of receivers) receiver.stop(true);
});

/** The stored (sealed) secrets of the organization's endpoint, read beneath the app. */
async function endpointRow(url: string | null, data: string, organizationId: string): Promise<{ secret: string; previous_secret: string }> {
  const text = `SELECT secret, previous_secret FROM webhook_endpoints WHERE organization_id = `;
  if (url) {
    const sql = new SQL(url, { max: 1 });
    try {
      return (await sql.unsafe(`${text}$1`, [organizationId]))[0];
    } finally {
      await sql.close();
    }
  }
  const sqlite = new Database(join(data, "dossier.db"), { readonly: true });
  try {
    return sqlite.query(`${text}?`).get(organizationId) as { secret: string; previous_secret: string };
  } finally {
    sqlite.close();
  }
}

describe.each(ENGINES)("on %s", (engine) => {
  test("webhook secrets sign every delivery yet are stored sealed: not in the database, log or backup", async () => {
    const data = tempDir();
    const url = engine === "postgres" ? await migratedDatabase() : null;
    const database: Record<string, string> = url ? { DOSSIER_DATABASE_URL: url } : {};
    const dossier = (...args: string[]) => dossierRun([...args, "--data", data], database);
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

    const org = dossier("org", "create", "--name", "Sealed", "--json").json;
    const key = dossier("key", "create", "--org", org.id, "--scopes", "all", "--json").json.key;
    const old = dossier("webhook", "set", "--org", org.id, "--url", `http://127.0.0.1:${receiver.port}/hook`, "--json").json.secret as string;
    const current = dossier("webhook", "rotate-secret", "--org", org.id, "--json").json.secret as string;
    expect(old).toMatch(/^whsec_/);
    expect(current).not.toBe(old);

    const server = await startServerProcess(data, ["--no-bootstrap"], { ...database, DOSSIER_LOG: "json", DOSSIER_LOG_LEVEL: "debug" });
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

    // A backup is SQLite's (on PostgreSQL, `backup` points to pg_dump).
    const backup = url ? null : join(tempDir(), "copy.db");
    if (backup) expect(dossier("backup", backup, "--json").code).toBe(0);
    server.proc.kill("SIGTERM");
    expect(await server.exited).toBe(0);

    const stored = url ? await databaseText(url) : filesText(join(data, "dossier.db"), join(data, "dossier.db-wal"), backup!);
    const haystack = stored + server.stderr();
    for (const secret of [old, current]) {
      expect(haystack.includes(secret), "a webhook secret in clear").toBe(false);
      expect(haystack.includes(secret.slice("whsec_".length)), "a webhook secret's random part in clear").toBe(false);
    }

    // What is stored is sealed, and opens with the data folder's key (the backup carries its own copy).
    const row = await endpointRow(url, data, org.id);
    expect(stored).toContain(row.secret); // what was searched holds what is stored
    expect(unseal(loadMasterKey(join(data, "master.key")), row.secret)).toBe(current);
    expect(unseal(loadMasterKey(join(data, "master.key")), row.previous_secret)).toBe(old);
    expect(() => unseal(loadMasterKey(null), row.secret)).toThrow();
    if (backup) expect(readFileSync(`${backup}.key`, "utf8")).toBe(readFileSync(join(data, "master.key"), "utf8"));
  });
});
