// C15 from outside: `dossier flow intake`, `dossier serve --smtp-port`, and kill -9 while mail
// comes in: every message answered 250 is there after a restart.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import nodemailer from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import { onCleanup, tempDir } from "../helpers";
import { bootstrapKey, MAIN, startServerProcess, type ServerProcess } from "../helpers/process";
import { ENGINES, migratedDatabase, type Engine } from "../helpers/stores";
import { checkRestartedDatabase } from "../reliability/load";
import { compose, pdf } from "./compose";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

function cli(data: string, args: string[], env: Record<string, string> = {}) {
  const run = Bun.spawnSync([process.execPath, MAIN, ...args, "--data", data], { env: { ...process.env, DOSSIER_LOG: "off", ...env } });
  return { code: run.exitCode, stdout: run.stdout.toString(), stderr: run.stderr.toString() };
}

const smtpPortOf = (server: ServerProcess) => Number(/"smtp":"127\.0\.0\.1:(\d+)"/.exec(server.stderr())![1]);

async function candidateFlow(server: ServerProcess): Promise<string> {
  const flows = (await (await fetch(`${server.url}/api/v1/flows?type=candidate`, { headers: { authorization: `Bearer ${bootstrapKey(server)}` } })).json()) as { data: { id: string }[] };
  return flows.data[0].id;
}

function client(port: number) {
  const transport = nodemailer.createTransport({ host: "127.0.0.1", port, ignoreTLS: true } as SMTPTransport.Options);
  onCleanup(() => transport.close());
  return transport;
}

/** The environment of a server and its CLI on `engine`: none on SQLite (the data folder's file), a
 * fresh database of the tests' PostgreSQL server otherwise. */
const storeEnv = async (engine: Engine): Promise<Record<string, string>> =>
  engine === "postgres" ? { DOSSIER_DATABASE_URL: await migratedDatabase() } : {};

describe.each(ENGINES)("on %s", (engine) => {
  test("dossier flow intake prints the flow's address, the same each time; --rotate a new one; an unknown flow exits 1", async () => {
    const data = tempDir();
    const env = await storeEnv(engine);
    const server = await startServerProcess(data, [], env);
    const flow = await candidateFlow(server);
    server.proc.kill("SIGTERM");
    await server.exited;
    const domain = { ...env, DOSSIER_INTAKE_DOMAIN: "jobs.example.com" };
    const first = cli(data, ["flow", "intake", "--flow", flow, "--json"], domain);
    expect(first.code).toBe(0);
    const { address } = JSON.parse(first.stdout);
    expect(address).toMatch(/^[a-z0-9]{20,}@jobs\.example\.com$/);
    expect(cli(data, ["flow", "intake", "--flow", flow], domain).stdout.trim()).toBe(address);
    const rotated = cli(data, ["flow", "intake", "--flow", flow, "--rotate"], domain).stdout.trim();
    expect(rotated).not.toBe(address);
    expect(rotated).toEndWith("@jobs.example.com");
    const unknown = cli(data, ["flow", "intake", "--flow", crypto.randomUUID()], env);
    expect(unknown.code).toBe(1);
  });

  test("serve --smtp-port: mail to the flow's address becomes a dossier the API lists", async () => {
    const data = tempDir();
    const env = await storeEnv(engine);
    const server = await startServerProcess(data, ["--smtp-port", "0"], env);
    const flow = await candidateFlow(server);
    const address = JSON.parse(cli(data, ["flow", "intake", "--flow", flow, "--json"], env).stdout).address;
    const info = await client(smtpPortOf(server)).sendMail({ from: '"Alan Turing" <alan@example.com>', to: address, subject: "Hi", text: "CV attached", attachments: [{ filename: "cv.pdf", content: Buffer.from(pdf()) }] });
    expect(info.response).toStartWith("250");
    const list = (await (await fetch(`${server.url}/api/v1/dossiers`, { headers: { authorization: `Bearer ${bootstrapKey(server)}` } })).json()) as { data: Record<string, unknown>[] };
    expect(list.data).toHaveLength(1);
    expect(list.data[0]).toMatchObject({ name: "Alan Turing", email: "alan@example.com", intake_notes: "Hi\n\nCV attached", flow_id: flow });
    expect(list.data[0].cv_url).not.toBeNull();
  });
});

// The data folder's file after kill -9: SQLite's durability (PostgreSQL's is its commit).
test("kill -9 while mail comes in: every message answered 250 is there after a restart, whole, with its CV", async () => {
  const data = tempDir();
  let server = await startServerProcess(data, ["--smtp-port", "0"], { DOSSIER_INTAKE_RATE_LIMIT: "1000000" });
  const flow = await candidateFlow(server);
  const address = JSON.parse(cli(data, ["flow", "intake", "--flow", flow, "--json"]).stdout).address;
  const acknowledged = new Set<string>();
  for (let round = 1; round <= 3; round++) {
    const port = smtpPortOf(server);
    const killAfter = acknowledged.size + 5 + Math.floor(Math.random() * 20);
    let next = 0;
    const senders = Array.from({ length: 4 }, async (_, s) => {
      const transport = client(port);
      for (let i = 0; i < 500 && server.proc.exitCode === null && server.proc.signalCode === null; i++) {
        const messageId = `<r${round}-s${s}-${next++}@example.com>`;
        const raw = await compose({ from: `"${messageId}" <x@example.com>`, to: address, text: "x", messageId, attachments: [{ filename: "cv.pdf", content: Buffer.from(pdf(1500)) }] });
        try {
          const info = await transport.sendMail({ envelope: { from: "x@example.com", to: [address] }, raw: Buffer.from(raw) });
          if (info.response.startsWith("250")) acknowledged.add(messageId);
          if (acknowledged.size >= killAfter && server.proc.signalCode === null) server.proc.kill(9);
        } catch {
          return; // the server is gone
        }
      }
    });
    await Promise.all(senders);
    await server.exited;
    checkRestartedDatabase(data, round, (db, label) => {
      const stored = new Map(
        db.query<{ message_id: string; cv_url: string | null }, []>("SELECT m.message_id, d.cv_url FROM intake_messages m JOIN dossiers d ON d.id = m.dossier_id").all().map((r) => [r.message_id, r.cv_url]),
      );
      for (const id of acknowledged) {
        expect(stored.has(id), label(`acknowledged message ${id}`)).toBe(true);
        expect(stored.get(id), label(`CV of ${id}`)).not.toBeNull();
      }
      const events = db.query<{ n: number }, []>("SELECT count(*) AS n FROM events WHERE type = 'dossier.created'").get()!.n;
      expect(events, label("one dossier.created per dossier")).toBe(db.query<{ n: number }, []>("SELECT count(*) AS n FROM dossiers").get()!.n);
    });
    server = await startServerProcess(data, ["--smtp-port", "0"], { DOSSIER_INTAKE_RATE_LIMIT: "1000000" });
  }
  expect(acknowledged.size).toBeGreaterThan(15);
  server.proc.kill("SIGTERM");
  await server.exited;
});
