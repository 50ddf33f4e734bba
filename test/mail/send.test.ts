// C22: the sender against real SMTP servers on loopback. Accepted (2xx) is sent; a 5xx is failed with
// the server's reply; a 4xx, a server that never answers (ended by the sender's own timeout), a
// refused connection are retried; on 587 STARTTLS is required, and the certificate is checked.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { OutgoingMail } from "../../src/mail/message";
import { classifySendError, createMailSender, type SenderOptions } from "../../src/mail/send";
import type { MailSettings } from "../../src/mail/settings";
import { onCleanup } from "../helpers";
import { brokenServer, closedPort, parsed, rawHeader, selfSignedCertificate, silentServer, sinkSettings, smtpSink } from "./sink";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const mail = (overrides: Partial<OutgoingMail> = {}): OutgoingMail => ({
  id: "mail_0001",
  to: { name: "Ana Pérez", address: "ana@example.org" },
  subject: "Reminder: Call Zoë back",
  text: "Call Zoë back about the offer.\n",
  unsubscribeUrl: "https://dossier.example.com/unsubscribe/abc",
  createdAt: "2026-11-29T08:00:00.000Z",
  kind: "reminder",
  ...overrides,
});

const MODES: { name: string; options: SenderOptions }[] = [
  { name: "one connection a message", options: {} },
  { name: "pooled", options: { pool: { connections: 2 } } },
];

for (const mode of MODES) {
describe(mode.name, () => {
  const sender = (settings: MailSettings) => {
    const made = createMailSender(settings, mode.options);
    onCleanup(() => made.close());
    return made;
  };

  describe("a server that accepts", () => {
    test("2xx: sent with the server's reply; the sink holds the message as written", async () => {
      const sink = await smtpSink();
      const outcome = await sender(sinkSettings(sink.port)).send(mail());
      expect(outcome).toEqual({ outcome: "sent", reply: expect.stringMatching(/^250 /) });
      expect(sink.received.length).toBe(1);
      const [got] = sink.received;
      expect(got.mailFrom).toBe("dossier@example.com");
      expect(got.rcptTo).toEqual(["ana@example.org"]);
      expect(got.secure).toBe(false); // no STARTTLS offered, not on 587: plain is allowed
      const email = await parsed(got);
      expect(email.subject).toBe("Reminder: Call Zoë back");
      expect(email.from).toEqual({ name: "Dossier", address: "dossier@example.com" });
      expect(email.to).toEqual([{ name: "Ana Pérez", address: "ana@example.org" }]);
      expect(email.text).toBe("Call Zoë back about the offer.\n");
      expect(email.messageId).toBe("<mail_0001@example.com>");
      expect(rawHeader(got.raw, "List-Unsubscribe")).toBe("<https://dossier.example.com/unsubscribe/abc>");
      expect(rawHeader(got.raw, "Date")).toBe("Sun, 29 Nov 2026 08:00:00 +0000");
    });

    test("with credentials from the URL, over STARTTLS with a certificate the settings trust", async () => {
      const cert = selfSignedCertificate();
      const sink = await smtpSink({ tls: cert, auth: { user: "mailer@example.com", pass: "p@ss:word" } });
      const settings = sinkSettings(sink.port, { tls: { ca: cert.cert, servername: "localhost" } }, `smtp://mailer%40example.com:p%40ss%3Aword@127.0.0.1:${sink.port}`);
      expect(settings.auth).toEqual({ user: "mailer@example.com", pass: "p@ss:word" });
      const outcome = await sender(settings).send(mail());
      expect(outcome.outcome).toBe("sent");
      expect(sink.received.map((r) => [r.secure, r.user])).toEqual([[true, "mailer@example.com"]]);
    });

    test("the same message sent twice carries the same Message-ID (C22's one allowed duplicate can be recognised)", async () => {
      const sink = await smtpSink();
      const client = sender(sinkSettings(sink.port));
      await client.send(mail());
      await client.send(mail());
      expect(sink.received.map((r) => rawHeader(r.raw, "Message-ID"))).toEqual(["<mail_0001@example.com>", "<mail_0001@example.com>"]);
    });

    test("many messages concurrently: every one arrives once", async () => {
      const sink = await smtpSink();
      const client = sender(sinkSettings(sink.port));
      const outcomes = await Promise.all(Array.from({ length: 20 }, (_, i) => client.send(mail({ id: `mail_${i}`, to: { name: null, address: `m${i}@example.org` } }))));
      expect(outcomes.every((o) => o.outcome === "sent")).toBe(true);
      expect(sink.received.map((r) => r.rcptTo[0]).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `m${i}@example.org`).sort());
    });
  });

  describe("refusals", () => {
    test("5xx at RCPT TO: failed, with the server's reply", async () => {
      const sink = await smtpSink({ rcpt: () => [550, "5.1.1 No such user here"] });
      const outcome = await sender(sinkSettings(sink.port)).send(mail());
      expect(outcome).toEqual({ outcome: "failed", reply: "550 5.1.1 No such user here" });
      expect(sink.received).toEqual([]);
    });

    test("5xx at the end of DATA: failed, with the server's reply", async () => {
      const sink = await smtpSink({ data: () => [554, "5.7.1 Message rejected as spam"] });
      const outcome = await sender(sinkSettings(sink.port)).send(mail());
      expect(outcome).toEqual({ outcome: "failed", reply: "554 5.7.1 Message rejected as spam" });
    });

    test("5xx to AUTH (wrong password): failed, with the server's reply", async () => {
      const cert = selfSignedCertificate();
      const sink = await smtpSink({ tls: cert, auth: { user: "u", pass: "right" } });
      const settings = sinkSettings(sink.port, { tls: { ca: cert.cert, servername: "localhost" } }, `smtp://u:wrong@127.0.0.1:${sink.port}`);
      const outcome = await sender(settings).send(mail());
      expect(outcome).toEqual({ outcome: "failed", reply: expect.stringMatching(/^535 /) });
    });

    test("4xx at RCPT TO (greylisting): retried, with the server's reply", async () => {
      const sink = await smtpSink({ rcpt: () => [451, "4.7.1 Greylisted, try again later"] });
      const outcome = await sender(sinkSettings(sink.port)).send(mail());
      expect(outcome).toEqual({ outcome: "retry", reply: "451 4.7.1 Greylisted, try again later" });
    });

    test("4xx at the end of DATA: retried", async () => {
      const sink = await smtpSink({ data: () => [452, "4.3.1 Insufficient system storage"] });
      const outcome = await sender(sinkSettings(sink.port)).send(mail());
      expect(outcome).toEqual({ outcome: "retry", reply: "452 4.3.1 Insufficient system storage" });
    });
  });

  describe("servers that cannot be reached", () => {
    test("a server that accepts the connection and never answers: retried once the greeting timeout passes", async () => {
      const silent = await silentServer();
      const outcome = await sender(sinkSettings(silent.port)).send(mail());
      expect(outcome.outcome).toBe("retry");
      expect(outcome.reply).toMatch(/ETIMEDOUT/);
      expect(silent.connections()).toBe(1);
    });

    test("connection refused: retried", async () => {
      const outcome = await sender(sinkSettings(await closedPort())).send(mail());
      expect(outcome.outcome).toBe("retry");
      expect(outcome.reply).toMatch(/ECONNREFUSED|ECONNECTION|ESOCKET/);
    });
  });

  describe("TLS", () => {
    test("STARTTLS required (587's rule) and offered: the message goes over TLS", async () => {
      const cert = selfSignedCertificate();
      const sink = await smtpSink({ tls: cert });
      const settings = sinkSettings(sink.port, { starttls: "required", tls: { ca: cert.cert, servername: "localhost" } });
      expect(await sender(settings).send(mail())).toEqual({ outcome: "sent", reply: expect.stringMatching(/^250 /) });
      expect(sink.received.map((r) => r.secure)).toEqual([true]);
    });

    test("STARTTLS required and not offered: nothing is sent in the clear; the server's refusal of STARTTLS fails the message", async () => {
      const sink = await smtpSink(); // no certificate: STARTTLS is neither offered nor accepted
      const outcome = await sender(sinkSettings(sink.port, { starttls: "required" })).send(mail());
      expect(outcome.outcome).toBe("failed");
      expect(outcome.reply).toMatch(/^5\d\d /);
      expect(sink.received).toEqual([]);
    });

    test("a certificate nobody vouches for: no message, no password; retried (the operator may fix the server)", async () => {
      const cert = selfSignedCertificate();
      const sink = await smtpSink({ tls: cert, auth: { user: "u", pass: "secret" } });
      const settings = sinkSettings(sink.port, { starttls: "required" }, `smtp://u:secret@127.0.0.1:${sink.port}`);
      const outcome = await sender(settings).send(mail());
      expect(outcome.outcome).toBe("retry");
      expect(outcome.reply).toMatch(/ETLS|certificate/i);
      expect(sink.received).toEqual([]);
    });

    test("credentials on a port other than 587 and no STARTTLS offered: the password is never sent in the clear", async () => {
      const sink = await smtpSink({ auth: { user: "u", pass: "secret" } });
      const settings = sinkSettings(sink.port, {}, `smtp://u:secret@127.0.0.1:${sink.port}`);
      expect(settings.starttls).toBe("required");
      const outcome = await sender(settings).send(mail());
      expect(outcome.outcome).toBe("failed");
      expect(outcome.reply).toMatch(/^5\d\d /); // the server's refusal of STARTTLS
      expect(sink.received).toEqual([]);
    });

    test("smtps://: TLS from the first byte, credentials and message inside it", async () => {
      const cert = selfSignedCertificate();
      const sink = await smtpSink({ tls: cert, implicitTls: true, auth: { user: "u", pass: "secret" } });
      const settings = sinkSettings(sink.port, { tls: { ca: cert.cert, servername: "localhost" } }, `smtps://u:secret@127.0.0.1:${sink.port}`);
      expect([settings.secure, settings.starttls]).toEqual([true, "implicit"]);
      expect((await sender(settings).send(mail())).outcome).toBe("sent");
      expect(sink.received.map((r) => [r.secure, r.user])).toEqual([[true, "u"]]);
    });

    test("opportunistic (another port): STARTTLS is used when the server offers it", async () => {
      const cert = selfSignedCertificate();
      const sink = await smtpSink({ tls: cert });
      const settings = sinkSettings(sink.port, { tls: { ca: cert.cert, servername: "localhost" } });
      expect(settings.starttls).toBe("opportunistic");
      expect((await sender(settings).send(mail())).outcome).toBe("sent");
      expect(sink.received.map((r) => r.secure)).toEqual([true]);
    });
  });

  describe("a message's connection breaks after its end was sent: retried, and never sent again by the sender itself", () => {
    test("closed without a reply (as a server that crashed after taking it)", async () => {
      const broken = await brokenServer("close");
      const outcome = await sender(sinkSettings(broken.port)).send(mail());
      expect(outcome.outcome).toBe("retry");
      expect(broken.messages()).toBe(1);
    });

    test("no reply ever: the idle timeout ends it", async () => {
      const broken = await brokenServer("silence");
      const outcome = await sender(sinkSettings(broken.port, { timeouts: { connectMs: 3_000, greetingMs: 3_000, idleMs: 500 } })).send(mail());
      expect(outcome.outcome).toBe("retry");
      expect(outcome.reply).toMatch(/ETIMEDOUT|timeout/i);
      expect(broken.messages()).toBe(1);
    });
  });
});
}

test("pooled: many messages share a connection", async () => {
  const sink = await smtpSink();
  const pooled = createMailSender(sinkSettings(sink.port), { pool: { connections: 1, messagesPerConnection: 100 } });
  onCleanup(() => pooled.close());
  const outcomes = await Promise.all(Array.from({ length: 30 }, (_, i) => pooled.send(mail({ id: `p${i}` }))));
  expect(outcomes.every((o) => o.outcome === "sent")).toBe(true);
  expect(sink.received.length).toBe(30);
  expect(sink.connections()).toBe(1);
});

test("one connection a message: as many connections as messages", async () => {
  const sink = await smtpSink();
  const single = createMailSender(sinkSettings(sink.port));
  await Promise.all(Array.from({ length: 5 }, (_, i) => single.send(mail({ id: `s${i}` }))));
  expect(sink.connections()).toBe(5);
});

describe("classifySendError: nodemailer's errors, as a table", () => {
  const rows: [string, Parameters<typeof classifySendError>[0], "failed" | "retry"][] = [
    ["550 at RCPT", { code: "EENVELOPE", response: "550 5.1.1 unknown", responseCode: 550, command: "RCPT TO" }, "failed"],
    ["552 at DATA", { code: "EMESSAGE", response: "552 5.3.4 too big", responseCode: 552, command: "DATA" }, "failed"],
    ["535 at AUTH", { code: "EAUTH", response: "535 5.7.8 bad", responseCode: 535, command: "AUTH PLAIN" }, "failed"],
    ["554 greeting", { code: "EPROTOCOL", response: "554 no service", command: "CONN" }, "failed"],
    ["421 at EHLO", { code: "ECONNECTION", response: "421 4.3.2 shutting down", responseCode: 421, command: "EHLO" }, "retry"],
    ["451 at RCPT", { code: "EENVELOPE", response: "451 4.7.1 greylisted", responseCode: 451, command: "RCPT TO" }, "retry"],
    ["greeting timeout", { code: "ETIMEDOUT", message: "Greeting never received", command: "CONN" }, "retry"],
    ["connection timeout", { code: "ETIMEDOUT", message: "Connection timeout" }, "retry"],
    ["refused", { code: "ESOCKET", message: "connect ECONNREFUSED 127.0.0.1:1", command: "CONN" }, "retry"],
    ["reset", { code: "ECONNRESET", message: "socket hang up" }, "retry"],
    ["closed", { code: "ECONNECTION", message: "Connection closed unexpectedly" }, "retry"],
    ["TLS handshake", { code: "ETLS", message: "self-signed certificate", command: "STARTTLS" }, "retry"],
    ["no recipients (our bug, not the server's)", { code: "EENVELOPE", message: "No recipients defined", command: "API" }, "failed"],
    ["larger than the server's SIZE", { code: "EMESSAGE", message: "Message size larger than allowed 100", command: "MAIL FROM" }, "failed"],
    ["unknown", {}, "retry"],
  ];
  for (const [name, error, outcome] of rows) {
    test(`${name}: ${outcome}`, () => {
      const result = classifySendError(error);
      expect(result.outcome).toBe(outcome);
      if (error.response) expect(result.reply).toBe(error.response);
      else expect(result.reply.length).toBeGreaterThan(0);
    });
  }

  test("a long reply is kept to 1,000 characters", () => {
    expect(classifySendError({ response: `550 ${"x".repeat(5000)}`, responseCode: 550 }).reply.length).toBe(1000);
  });
});
