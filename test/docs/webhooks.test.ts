// Issue 8 item 4: docs/webhooks.md runs as written. Its operator blocks run with `dossier` on PATH
// (set/rotate/unset; the delivery log and the manual retry, against a real data folder whose server
// process failed a delivery to a receiver on 127.0.0.1 and then sends it again after the retry);
// its TypeScript verifier (copied out of the document, not imported from our code) and its openssl
// line check the signatures of real deliveries from a real server process to a receiver on
// 127.0.0.1, during a secret rotation (two v1= values), and refuse a tampered body. On both stores:
// a data folder's SQLite file, or a PostgreSQL database (DOSSIER_DATABASE_URL for every command).
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { dossierRun } from "../cli/helpers";
import { tempDir } from "../helpers";
import { startServerProcess, type ServerProcess } from "../helpers/process";
import { ENGINES, migratedDatabase, type Engine } from "../helpers/stores";
import { runBlock } from "./run-blocks";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const doc = readFileSync(join(import.meta.dir, "../../docs/webhooks.md"), "utf8");
const blocks = (lang: string, section: string) => {
  const part = doc.split(/^## /m).find((s) => s.startsWith(section)) ?? "";
  return [...part.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1]!);
};

const running: ServerProcess[] = [];
const receivers: { stop(force?: boolean): unknown }[] = [];
afterAll(() => {
  for (const server of running) if (server.proc.exitCode === null) server.proc.kill(9);
  for (const receiver of receivers) receiver.stop(true);
});

/** A data folder and, on PostgreSQL, a database of its own: `dossier` runs on them. */
async function storeOn(engine: Engine) {
  const data = tempDir();
  const database: Record<string, string> = engine === "postgres" ? { DOSSIER_DATABASE_URL: await migratedDatabase() } : {};
  const dossier = (...args: string[]) => dossierRun([...args, "--data", data], database);
  return { data, database, dossier };
}

describe.each(ENGINES)("docs/webhooks.md on %s", (engine) => {
  test("the operator block runs: set prints a secret, rotate-secret, unset", async () => {
    const [block] = blocks("sh", "# Webhooks");
    expect(block).toContain("dossier webhook set");
    const { data, database, dossier } = await storeOn(engine);
    const org = dossier("org", "create", "--name", "Doc", "--json").json;
    expect(block).not.toMatch(/ORG_ID|\[--/); // paste-runnable: $ORG, no placeholders
    const run = runBlock(block!, { ...database, DOSSIER_DATA: data, ORG: org.id });
    expect(run.exitCode).toBe(0);
    expect(run.stdout.toString()).toMatch(/secret whsec_[A-Za-z0-9]{32}[\s\S]*secret whsec_[A-Za-z0-9]{32}[\s\S]*webhook endpoint removed/);
  });

  test("the documented TypeScript verifier and openssl line accept real deliveries and refuse a tampered one", async () => {
    const [source] = blocks("ts", "Checking the signature");
    const [shell] = blocks("sh", "Checking the signature");
    expect(source).toContain("export function verifyDossierSignature");
    const dir = tempDir();
    writeFileSync(join(dir, "verify.ts"), source!);
    const { verifyDossierSignature } = (await import(join(dir, "verify.ts"))) as {
      verifyDossierSignature(header: string, rawBody: string, secret: string, toleranceS?: number): boolean;
    };

    const received: { signature: string; body: string }[] = [];
    const receiver = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch(request) {
        received.push({ signature: request.headers.get("x-service-signature") ?? "", body: await request.text() });
        return new Response("ok");
      },
    });
    receivers.push(receiver);
    const { data, database, dossier } = await storeOn(engine);
    const org = dossier("org", "create", "--name", "Doc", "--json").json;
    const key = dossier("key", "create", "--org", org.id, "--scopes", "all", "--json").json.key;
    const old = dossier("webhook", "set", "--org", org.id, "--url", `http://127.0.0.1:${receiver.port}/hook`, "--json").json.secret;
    const current = dossier("webhook", "rotate-secret", "--org", org.id, "--json").json.secret;
    const server = await startServerProcess(data, ["--no-bootstrap"], database);
    running.push(server);
    const answer = await fetch(`${server.url}/api/v1/dossiers`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ type: "candidate", name: "Zoë Ødegård" }), // non-ASCII: the raw UTF-8 bytes are signed
    });
    expect(answer.status).toBe(201);
    for (let i = 0; i < 200 && received.length === 0; i++) await Bun.sleep(10);
    server.proc.kill("SIGTERM");
    await server.exited;
    expect(received).toHaveLength(1);
    const { signature, body } = received[0]!;

    expect(verifyDossierSignature(signature, body, current)).toBe(true);
    expect(verifyDossierSignature(signature, body, old)).toBe(true);
    expect(verifyDossierSignature(signature, body.replace("Zoë", "Zoe"), current)).toBe(false);
    expect(verifyDossierSignature(signature, body, "whsec_" + "x".repeat(32))).toBe(false);
    expect(verifyDossierSignature(signature, body, current, -1)).toBe(false); // too old

    // openssl in a shell, with body.json exactly as received and T from the header.
    const t = signature.split(",")[0]!.slice(2);
    const v1 = signature.split(",").slice(1).map((part) => part.slice(3));
    for (const secret of [current, old]) {
      const run = runBlock(`printf '%s' "$BODY" > body.json\n${shell}`, { T: t, SECRET: secret, BODY: body });
      expect(run.exitCode).toBe(0);
      const hex = run.stdout.toString().trim().split(/\s+/).pop() ?? "";
      expect(v1).toContain(hex);
    }
  });

  test("the delivery log and manual retry blocks run as written on a real folder, and a running server resends", async () => {
    const [list] = blocks("sh", "The delivery log");
    const [retry] = blocks("sh", "Manual retry");
    const [documented] = blocks("json", "The delivery log");
    for (const block of [list, retry]) expect(block!.replace(/#.*$/gm, "")).not.toMatch(/ORG_ID|evt_…|\[--/); // no placeholders left

    let status = 500;
    const hits: number[] = [];
    const receiver = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch(request) {
        await request.text();
        hits.push(status);
        return new Response(status === 200 ? "ok" : "boom", { status });
      },
    });
    receivers.push(receiver);
    const { data, database, dossier } = await storeOn(engine);
    const org = dossier("org", "create", "--name", "Doc", "--json").json;
    const key = dossier("key", "create", "--org", org.id, "--scopes", "all", "--json").json.key;
    dossier("webhook", "set", "--org", org.id, "--url", `http://127.0.0.1:${receiver.port}/hook`, "--json");
    // Two quick attempts (the first and one retry), both answered 500: the delivery fails for good.
    const server = await startServerProcess(data, ["--no-bootstrap"], { ...database, DOSSIER_WEBHOOK_RETRY_SCHEDULE: "10ms" });
    running.push(server);
    const created = await fetch(`${server.url}/api/v1/dossiers`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ type: "candidate", name: "Ada" }),
    });
    expect(created.status).toBe(201);
    let failed: { event_id: string } | undefined;
    for (let i = 0; i < 300 && !failed; i++) {
      failed = dossier("webhook", "deliveries", "--org", org.id, "--status", "failed", "--json").json?.data[0];
      if (!failed) await Bun.sleep(20);
    }
    expect(failed).toBeDefined();
    expect(hits).toEqual([500, 500]);

    // The reader pastes the two blocks into one shell: EVENT from the first serves the second.
    status = 200;
    const run = runBlock(`${list}\n${retry}`, { ...database, DOSSIER_DATA: data, ORG: org.id });
    if (run.exitCode !== 0) throw new Error(`blocks failed (${run.exitCode}):\n${list}\n${retry}\n${run.stderr}`);
    const lines = run.stdout.toString().trim().split("\n");
    expect(lines[0]).toMatch(new RegExp(`^${failed!.event_id} {2}dossier\\.created {2}failed {2}2 attempts {2}HTTP 500$`));
    const [byStatus, byEvent, retried] = lines.slice(-3).map((line) => JSON.parse(line));
    expect(byStatus.data.map((d: { event_id: string }) => d.event_id)).toEqual([failed!.event_id]);
    expect(byEvent.data[0].event_id).toBe(failed!.event_id);
    expect(byEvent.data[0].attempt_log.map((a: { status_code: number }) => a.status_code)).toEqual([500, 500]);
    expect(retried).toEqual({ event_id: failed!.event_id, status: "pending" });

    // The documented JSON names exactly the fields the command prints.
    const example = JSON.parse(documented!).data[0];
    expect(Object.keys(example).sort()).toEqual(Object.keys(byEvent.data[0]).sort());
    expect(Object.keys(example.attempt_log[0]).sort()).toEqual(Object.keys(byEvent.data[0].attempt_log[0]).sort());

    // "A running server picks it up within 5 s."
    let after: { status: string } | undefined;
    for (let i = 0; i < 140 && after?.status !== "succeeded"; i++) {
      after = dossier("webhook", "deliveries", "--org", org.id, "--event", failed!.event_id, "--json").json.data[0];
      if (after?.status !== "succeeded") await Bun.sleep(50);
    }
    expect(after?.status).toBe("succeeded");
    expect(hits).toEqual([500, 500, 200]);
    server.proc.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  });

  test("the delivery log and retry blocks also run when no delivery has failed: EVENT stays empty", async () => {
    const [list] = blocks("sh", "The delivery log");
    const [retry] = blocks("sh", "Manual retry");
    const { data, database, dossier } = await storeOn(engine);
    const org = dossier("org", "create", "--name", "Nothing failed", "--json").json;
    const run = runBlock(`${list}\n${retry}\necho "EVENT=[$EVENT]"`, { ...database, DOSSIER_DATA: data, ORG: org.id });
    if (run.exitCode !== 0) throw new Error(`blocks failed (${run.exitCode}):\n${list}\n${retry}\n${run.stderr}`);
    const lines = run.stdout.toString().trim().split("\n");
    expect(lines).toEqual(["no deliveries", '{"data":[]}', "no failed delivery", "EVENT=[]"]);
    expect(run.stderr.toString()).toBe("");
  });

  test("C17: the catching-up block runs as written: it reads every event once, goes on from its cursor, and starts over after 410", async () => {
    const [block] = blocks("sh", "Catching up after downtime");
    expect(block).toContain("/api/v1/events");
    const { data, database, dossier } = await storeOn(engine);
    const org = dossier("org", "create", "--name", "Doc", "--json").json;
    const key = dossier("key", "create", "--org", org.id, "--scopes", "events:read,dossiers:write", "--json").json.key;
    const server = await startServerProcess(data, ["--no-bootstrap"], database);
    running.push(server);
    const create = async (name: string) => {
      const answer = await fetch(`${server.url}/api/v1/dossiers`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ type: "candidate", name }),
      });
      expect(answer.status).toBe(201);
    };
    // More than one page of 100, recorded while no endpoint is set.
    for (let i = 0; i < 130; i++) await create(`Ada ${i}`);
    const cwd = tempDir("dossier-walk-");
    const env = { BASE: server.url, KEY: key };
    const read = () => {
      const run = runBlock(block!, env, { cwd });
      if (run.exitCode !== 0) throw new Error(`block failed (${run.exitCode}):\n${run.stderr}`);
      return { lines: run.stdout.toString().trim().split("\n").filter(Boolean), stderr: run.stderr.toString() };
    };

    const first = read();
    expect(first.lines).toHaveLength(130);
    expect(new Set(first.lines).size).toBe(130);
    for (const line of first.lines) expect(line).toMatch(/^evt_\d{26} dossier\.created$/);
    expect([...first.lines].sort()).toEqual(first.lines);

    await create("Grace");
    const second = read();
    expect(second.lines).toHaveLength(1);
    expect(second.lines[0]! > first.lines.at(-1)!).toBe(true);
    expect(read().lines).toEqual([]); // nothing new: the cursor stays

    writeFileSync(join(cwd, "dossier-cursor"), "evt_99999999999999999999999999\n");
    const again = read();
    expect(again.stderr).toContain("cursor expired");
    expect(again.lines).toEqual([...first.lines, ...second.lines]);
    server.proc.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  });
});
