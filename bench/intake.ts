// Email intake benchmark (issue 21): not a test. Run: node_modules/.bin/bun bench/intake.ts
//   1. SMTP: 5 clients (nodemailer; C20 takes at most 5 connections from one address), each on one
//      kept connection, send N messages (a 40 KB PDF CV each) to one flow's address,
//      each waiting for its 250 (the dossier and its CV on disk) before the next: messages/s;
//   2. HTTP: the same through POST /api/v1/intake/{token}: messages/s;
// and the server's RSS, before and at the end. The server runs in this process on a fresh data
// folder with synchronous=FULL (the default). Only 127.0.0.1; every wait is bounded.
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, release, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import nodemailer from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import type { Context } from "../src/context";
import type { SqliteStore } from "../src/db/client";
import { startSmtp } from "../src/intake/smtp";
import { startServer } from "../src/server";
import { intakeAddress } from "../src/services/intake";
import { createOrg } from "../src/services/orgs";
import { compose } from "../test/intake/compose";

const N = Number(process.argv.find((a) => a.startsWith("--n="))?.slice(4) ?? 1000);
/** C20: the listener takes at most 5 connections from one address. */
const SMTP_CLIENTS = 5;
const CLIENTS = 10;
const DEADLINE_MS = 10 * 60_000;
setTimeout(() => {
  console.error("bench: intake took longer than 10 minutes, stopping");
  process.exit(1);
}, DEADLINE_MS).unref();

const mb = (bytes: number) => Math.round(bytes / 1048576);
const pdf = (size: number) => {
  const bytes = new Uint8Array(size).fill(0x20);
  bytes.set(new TextEncoder().encode("%PDF-1.7\n"));
  return bytes;
};

const dir = mkdtempSync(join(tmpdir(), "dossier-bench-intake-"));
const server = await startServer({ host: "127.0.0.1", port: 0, dataDir: dir, webhooks: false, config: { log: "off", intakeRateLimit: 1_000_000 } });
try {
  // This bench runs on SQLite (no DOSSIER_DATABASE_URL) and counts in its file.
  const ctx = server.app.dossier as Context<SqliteStore>;
  const org = await createOrg(ctx, { name: "Bench", plan: "growth" });
  const flowOf = (type: string) =>
    ctx.store.sqlite.query<{ id: string }, [string, string]>("SELECT id FROM flows WHERE organization_id = ? AND type = ? AND is_default = 1").get(org.id, type)!.id;
  const smtpAddress = (await intakeAddress(ctx, org.id, flowOf("candidate")))!.address;
  const httpToken = (await intakeAddress(ctx, org.id, flowOf("sales")))!.address.split("@")[0];
  const smtp = await startSmtp(ctx, server.app.intake, { host: "127.0.0.1", port: 0, tls: null });
  const cv = pdf(40_000);
  const messages = await Promise.all(
    Array.from({ length: N }, (_, i) =>
      compose({ from: `"Applicant ${i}" <a${i}@example.com>`, subject: `Application ${i}`, text: "Please find my CV attached.", messageId: `<bench-${i}@example.com>`, attachments: [{ filename: "cv.pdf", content: Buffer.from(cv) }] }),
    ),
  );
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 50);

  // Each client keeps its connection for its messages, as a relaying mail server does (Postfix's
  // connection cache): smtp-server waits 100 ms before its greeting, to catch clients that talk too
  // soon, so a connection per message would measure that wait.
  const clients = Array.from({ length: SMTP_CLIENTS }, () =>
    nodemailer.createTransport({ host: "127.0.0.1", port: smtp.port, ignoreTLS: true, pool: true, maxConnections: 1, maxMessages: Infinity } as SMTPTransport.Options),
  );
  let started = performance.now();
  await Promise.all(
    clients.map(async (client, c) => {
      for (let i = c; i < N; i += SMTP_CLIENTS) {
        const info = await client.sendMail({ envelope: { from: "a@example.com", to: [smtpAddress] }, raw: Buffer.from(messages[i]) });
        if (!info.response.startsWith("250")) throw new Error(`message ${i}: ${info.response}`);
      }
    }),
  );
  const smtpSeconds = (performance.now() - started) / 1000;
  clients.forEach((c) => c.close());

  started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, c) => {
      for (let i = c; i < N; i += CLIENTS) {
        const response = await fetch(`${server.url}/api/v1/intake/${httpToken}`, { method: "POST", headers: { "content-type": "message/rfc822" }, body: messages[i] });
        if (response.status !== 201) throw new Error(`message ${i}: ${response.status} ${await response.text()}`);
      }
    }),
  );
  const httpSeconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const stored = ctx.store.sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM dossiers WHERE cv_url IS NOT NULL").get()!.n;
  if (stored !== 2 * N) throw new Error(`expected ${2 * N} dossiers with a CV, found ${stored}`);
  await smtp.stop();

  console.log(`machine: ${cpus()[0]?.model ?? "?"}, ${cpus().length} cores, ${mb(totalmem())} MB, Linux ${release()}, load ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  console.log(`intake, ${N} messages of ${Math.round(messages[0].byteLength / 1000)} KB (a 40 KB PDF CV each), synchronous=FULL:`);
  console.log(`  SMTP, ${SMTP_CLIENTS} clients: ${(N / smtpSeconds).toFixed(0)} messages/s (${smtpSeconds.toFixed(1)} s)`);
  console.log(`  HTTP POST /intake/{token}, ${CLIENTS} clients: ${(N / httpSeconds).toFixed(0)} messages/s (${httpSeconds.toFixed(1)} s)`);
  console.log(`  RSS: ${mb(rssBefore)} MB before (the ${N} messages composed in memory), peak ${mb(rssPeak)} MB`);
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
