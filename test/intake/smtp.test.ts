// C15, C20: the SMTP listener, spoken to by a real SMTP client (nodemailer) over loopback, in front
// of an app on each engine (C19: SQLite, and a fresh PostgreSQL database per test).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { DossierApp } from "../../src/app";
import type { SqliteStore } from "../../src/db/client";
import type { Store } from "../../src/db/store";
import { onCleanup, tempDir } from "../helpers";
import { ENGINES, queryRows, rowCountsOf } from "../helpers/stores";
import { compose, pdf } from "./compose";
import { converse, listenerOn, smtpClient, type ListenerOptions } from "./listen";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const dossiersOf = (app: DossierApp<Store>) =>
  queryRows<{ id: string; name: string; email: string | null; cv_url: string | null }>(app, "SELECT id, name, email, cv_url FROM dossiers ORDER BY created_at");

/** Makes the app's database refuse the next write, as a full disk does: SQLite's file may not grow
 * past its pages; PostgreSQL raises disk_full on an insert into dossiers. */
async function refuseWrites(app: DossierApp<Store>) {
  if (app.dossier.store.engine === "sqlite") {
    const { sqlite } = app.dossier.store as SqliteStore;
    sqlite.run(`PRAGMA max_page_count = ${sqlite.query<{ page_count: number }, []>("PRAGMA page_count").get()!.page_count}`);
    return;
  }
  await queryRows(app, "CREATE FUNCTION refuse_write() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'could not extend file' USING ERRCODE = 'disk_full'; END $$");
  await queryRows(app, "CREATE TRIGGER refuse_write BEFORE INSERT ON dossiers FOR EACH ROW EXECUTE FUNCTION refuse_write()");
}

describe.each(ENGINES)("C15: SMTP intake on %s", (engine) => {
  const listener = (options: ListenerOptions = {}) => listenerOn(engine, options);

  test("a message with a PDF becomes a dossier with its CV; 250 comes after it is stored", async () => {
    const { app, address, transport } = await listener();
    const cv = pdf(4_000);
    const info = await transport.sendMail({
      from: '"Grace Hopper" <grace@example.com>',
      to: address,
      subject: "Application",
      text: "Hello",
      attachments: [{ filename: "cv.pdf", content: Buffer.from(cv), contentType: "application/pdf" }],
    });
    expect(info.response).toStartWith("250");
    const [dossier] = await dossiersOf(app);
    expect(dossier).toMatchObject({ name: "Grace Hopper", email: "grace@example.com" });
    expect(readFileSync(join(app.dossier.filesDir, dossier.cv_url!))).toEqual(Buffer.from(cv));
  });

  test("an unknown token: 550 5.1.1 at RCPT TO; with a known recipient beside it, only the unknown one is refused", async () => {
    const { app, address, transport } = await listener();
    const unknown = `${"z".repeat(26)}@localhost`;
    const alone = await transport.sendMail({ from: "a@example.com", to: unknown, text: "x" }).catch((e) => e);
    expect(alone.responseCode).toBe(550);
    expect(alone.response).toContain("550 5.1.1");
    const info = await transport.sendMail({ from: "a@example.com", to: [address, unknown], text: "x" });
    expect(info.accepted).toEqual([address]);
    expect(info.rejected).toEqual([unknown]);
    expect((await dossiersOf(app)).length).toBe(1);
  });

  test("an organization without Growth: 550 5.7.1 at RCPT TO, nothing stored", async () => {
    const { app, address, transport } = await listener({ plan: "free" });
    const before = await rowCountsOf(app);
    const error = await transport.sendMail({ from: "a@example.com", to: address, text: "x" }).catch((e) => e);
    expect(error.response).toContain("550 5.7.1");
    expect(await rowCountsOf(app)).toEqual(before);
  });

  test("a duplicate Message-ID: 250 again, nothing new", async () => {
    const { app, address, transport } = await listener();
    const mail = { from: "a@example.com", to: address, text: "x", messageId: "<dup@example.com>" };
    expect((await transport.sendMail(mail)).response).toStartWith("250");
    expect((await transport.sendMail(mail)).response).toStartWith("250");
    expect((await dossiersOf(app)).length).toBe(1);
  });

  test("a message that cannot be parsed: 554, nothing stored", async () => {
    const { app, address, transport } = await listener();
    const before = await rowCountsOf(app);
    const error = await transport.sendMail({ envelope: { from: "a@example.com", to: [address] }, raw: "Subject: from nobody\r\n\r\nno From header\r\n" }).catch((e) => e);
    expect(error.responseCode).toBe(554);
    expect(await rowCountsOf(app)).toEqual(before);
  });

  test("a 12 MB PDF (over the CV's 10 MB) gives a dossier without a CV; 250", async () => {
    const { app, address, transport } = await listener();
    const info = await transport.sendMail({ from: "big@example.com", to: address, text: "big CV", attachments: [{ filename: "cv.pdf", content: Buffer.from(pdf(12 * 1024 * 1024)), contentType: "application/pdf" }] });
    expect(info.response).toStartWith("250");
    expect(await dossiersOf(app)).toEqual([expect.objectContaining({ email: "big@example.com", cv_url: null })]);
  });

  test("a failure after DATA (the database refuses the write) answers 451 so the sender retries; nothing is stored", async () => {
    const { app, address, transport } = await listener();
    const before = await rowCountsOf(app);
    await refuseWrites(app);
    const error = await transport.sendMail({ from: "a@example.com", to: address, text: "x".repeat(200_000) }).catch((e) => e);
    expect(error.responseCode).toBe(451);
    expect(await rowCountsOf(app)).toEqual(before);
  });

  test("over the token's intake limit: 451 4.7.1 at RCPT TO", async () => {
    const { app, address, transport } = await listener({ config: { intakeRateLimit: 2 } });
    for (let i = 0; i < 2; i++) await transport.sendMail({ from: "a@example.com", to: address, text: `m${i}` });
    const error = await transport.sendMail({ from: "a@example.com", to: address, text: "third" }).catch((e) => e);
    expect(error.response).toContain("451 4.7.1");
    expect((await dossiersOf(app)).length).toBe(2);
  });

  test("SIZE is advertised; a declared size over 25 MB is refused with 552 at MAIL FROM", async () => {
    const { port, address } = await listener();
    const replies = await converse(port, ["EHLO client.example", "MAIL FROM:<a@example.com> SIZE=26214401", "MAIL FROM:<a@example.com> SIZE=26214400", `RCPT TO:<${address}>`, "QUIT"]);
    expect(replies[1]).toContain("SIZE 26214400");
    expect(replies[2]).toStartWith("552");
    expect(replies[3]).toStartWith("250");
    expect(replies[4]).toStartWith("250");
    expect(replies[5]).toStartWith("221");
  });

  test("a message over 25 MB without a declared size: 552 after DATA, nothing stored", async () => {
    const { app, address, transport } = await listener();
    const before = await rowCountsOf(app);
    const raw = `From: a@example.com\r\nSubject: big\r\n\r\n${"x".repeat(76).concat("\r\n").repeat(26_214_400 / 78 + 10)}`;
    const error = await transport.sendMail({ envelope: { from: "a@example.com", to: [address] }, raw }).catch((e) => e);
    expect(error.responseCode).toBe(552);
    expect(await rowCountsOf(app)).toEqual(before);
  });

  test("C20: a sixth connection from one address is refused with 421", async () => {
    const { port } = await listener();
    const greetings = await Promise.all(Array.from({ length: 5 }, () => converse(port, [])));
    expect(greetings.every((r) => r[0].startsWith("220"))).toBe(true);
    const sixth = await converse(port, []);
    expect(sixth[0]).toStartWith("421");
  });

  test("STARTTLS with the given certificate: the message arrives over TLS", async () => {
    const dir = tempDir();
    const made = spawnSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost", "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem")]);
    if (made.status !== 0) {
      console.warn("skipped: openssl could not make a test certificate");
      return;
    }
    const { app, address, transport, port } = await listener({ tls: { cert: join(dir, "cert.pem"), key: join(dir, "key.pem") } });
    const info = await transport.sendMail({ from: "tls@example.com", to: address, text: "over TLS" });
    expect(info.response).toStartWith("250");
    expect((await dossiersOf(app)).length).toBe(1);
    const replies = await converse(port, ["EHLO client.example", "QUIT"]);
    expect(replies[1]).toContain("STARTTLS");
  });

  test("without a certificate STARTTLS is not offered", async () => {
    const { port } = await listener();
    const replies = await converse(port, ["EHLO client.example", "QUIT"]);
    expect(replies[1]).not.toContain("STARTTLS");
  });

  test("200 messages sent at once by 10 clients become exactly 200 dossiers with their CVs", async () => {
    const { app, address, port } = await listener({ config: { intakeRateLimit: 1000 } });
    const clients = Array.from({ length: 10 }, () => smtpClient({ host: "127.0.0.1", port, ignoreTLS: true }));
    onCleanup(() => clients.forEach((c) => c.close()));
    const messages = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        compose({ from: `"P${i}" <p${i}@example.com>`, to: address, subject: `m${i}`, text: "x", messageId: `<bulk${i}@example.com>`, attachments: [{ filename: "cv.pdf", content: Buffer.from(pdf(2_000 + i)), contentType: "application/pdf" }] }),
      ),
    );
    // 10 clients, each sending its 20 messages one after the other (5 connections per address at
    // most: each client waits for a free one).
    await Promise.all(
      clients.map(async (client, c) => {
        for (let i = c; i < 200; i += 10) {
          for (let attempt = 0; ; attempt++) {
            try {
              await client.sendMail({ envelope: { from: "p@example.com", to: [address] }, raw: Buffer.from(messages[i]) });
              break;
            } catch (error) {
              if ((error as { responseCode?: number }).responseCode !== 421 || attempt >= 50) throw error;
              await Bun.sleep(20);
            }
          }
        }
      }),
    );
    const stored = await dossiersOf(app);
    expect(stored.length).toBe(200);
    expect(new Set(stored.map((d) => d.name)).size).toBe(200);
    expect(stored.every((d) => d.cv_url !== null)).toBe(true);
    const sizes = stored.map((d) => readFileSync(join(app.dossier.filesDir, d.cv_url!)).length).sort((a, b) => a - b);
    expect(sizes).toEqual(Array.from({ length: 200 }, (_, i) => 2_000 + i));
  });
});
