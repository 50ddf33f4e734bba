// Receiving ends for the mail tests, all on 127.0.0.1 and all closed after the test file: a real SMTP
// server (smtp-server) that keeps what it receives and answers each recipient as told, a server
// that accepts connections and never says a word, a port where nothing listens, and a self-signed
// certificate made by openssl.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import PostalMime, { type Email } from "postal-mime";
import { SMTPServer, type SMTPServerSession } from "smtp-server";
import { parseMailSettings, type MailSettings, type MailTimeouts } from "../../src/mail/settings";
import { onCleanup, tempDir } from "../helpers";

export interface Received {
  raw: string;
  mailFrom: string;
  rcptTo: string[];
  /** Whether the conversation was over TLS when the message came. */
  secure: boolean;
  user: string | null;
}

/** A reply the sink gives instead of accepting: `[code, text]`. */
export type Refusal = [number, string];

export interface SinkOptions {
  /** A certificate: STARTTLS is offered with it. Without one STARTTLS is not offered. */
  tls?: { key: string; cert: string };
  /** With `tls`: TLS from the first byte (smtps://, port 465's way) instead of STARTTLS. */
  implicitTls?: boolean;
  /** Required credentials; without them the sink takes mail from anyone. */
  auth?: { user: string; pass: string };
  /** Answers RCPT TO for an address: null accepts. */
  rcpt?: (address: string) => Refusal | null;
  /** Answers the end of DATA: null accepts. */
  data?: (received: Received) => Refusal | null;
}

export interface Sink {
  port: number;
  received: Received[];
  /** Connections opened to it so far. */
  connections: () => number;
  stop(): Promise<void>;
}

const refusal = ([code, text]: Refusal) => Object.assign(new Error(text), { responseCode: code });

/** A real SMTP server on 127.0.0.1 that keeps every message it accepts. */
export async function smtpSink(options: SinkOptions = {}): Promise<Sink> {
  const received: Received[] = [];
  let connections = 0;
  const server = new SMTPServer({
    disableReverseLookup: true,
    onConnect(_session, callback) {
      connections++;
      callback();
    },
    secure: Boolean(options.tls && options.implicitTls),
    ...(options.tls ? { key: options.tls.key, cert: options.tls.cert } : { disabledCommands: ["STARTTLS"] }),
    hideSTARTTLS: !options.tls,
    authOptional: !options.auth,
    allowInsecureAuth: false,
    logger: false,
    onAuth(auth, _session, callback) {
      if (options.auth && auth.username === options.auth.user && auth.password === options.auth.pass) return callback(null, { user: auth.username });
      callback(refusal([535, "5.7.8 Authentication credentials invalid"]));
    },
    onRcptTo(address, _session, callback) {
      const answer = options.rcpt?.(address.address) ?? null;
      callback(answer ? refusal(answer) : null);
    },
    onData(stream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const message: Received = {
          raw: Buffer.concat(chunks).toString("latin1"),
          mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          rcptTo: session.envelope.rcptTo.map((r) => r.address),
          secure: session.secure,
          user: (session.user as string | undefined) ?? null,
        };
        const answer = options.data?.(message) ?? null;
        if (answer) return callback(refusal(answer));
        received.push(message);
        callback(null, "2.0.0 queued as sink");
      });
    },
  });
  server.on("error", () => {});
  const port = await new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.server.address() as { port: number }).port)));
  let stopped = false;
  const stop = () => {
    if (stopped) return Promise.resolve();
    stopped = true;
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
  onCleanup(stop);
  return { port, received, connections: () => connections, stop };
}

/** A TCP server on 127.0.0.1 that accepts connections and never writes: no greeting, ever. */
export async function silentServer(): Promise<{ port: number; connections: () => number }> {
  const sockets = new Set<Socket>();
  let count = 0;
  const server: Server = createServer((socket) => {
    count++;
    sockets.add(socket);
    socket.on("error", () => {});
    socket.on("close", () => sockets.delete(socket));
  });
  const port = await new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port)));
  onCleanup(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return { port, connections: () => count };
}

/** A minimal SMTP server on 127.0.0.1 (no PIPELINING, no STARTTLS) that accepts the envelope and
 * then, at the end of the message, does `atEnd`: closes the connection without a reply (a crash
 * after the message arrived) or never answers. `messages` counts the messages whose end it read. */
export async function brokenServer(atEnd: "close" | "silence"): Promise<{ port: number; messages: () => number }> {
  const sockets = new Set<Socket>();
  let messages = 0;
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => {});
    socket.on("close", () => sockets.delete(socket));
    let buffer = "";
    let inData = false;
    socket.write("220 broken ESMTP\r\n");
    socket.on("data", (chunk) => {
      buffer += chunk.toString("latin1");
      for (;;) {
        if (inData) {
          const end = buffer.indexOf("\r\n.\r\n");
          if (end === -1) return;
          buffer = buffer.slice(end + 5);
          inData = false;
          messages++;
          if (atEnd === "close") socket.destroy();
          return; // "silence": no reply, ever
        }
        const end = buffer.indexOf("\r\n");
        if (end === -1) return;
        const line = buffer.slice(0, end).toUpperCase();
        buffer = buffer.slice(end + 2);
        if (line.startsWith("EHLO") || line.startsWith("HELO")) socket.write("250 broken\r\n");
        else if (line.startsWith("MAIL") || line.startsWith("RCPT") || line.startsWith("RSET")) socket.write("250 OK\r\n");
        else if (line === "DATA") {
          socket.write("354 go ahead\r\n");
          inData = true;
          buffer = `\r\n${buffer}`; // a message may end at once with ".\r\n"
        } else if (line === "QUIT") socket.end("221 bye\r\n");
        else socket.write("502 5.5.1 not here\r\n");
      }
    });
  });
  const port = await new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port)));
  onCleanup(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return { port, messages: () => messages };
}

/** A loopback port where nothing listens (bound a moment ago and closed: connections are refused). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  const port = await new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port)));
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let certificate: { key: string; cert: string } | null = null;

/** A self-signed certificate (P-256) for CN=localhost (and 127.0.0.1), made by openssl in a folder
 * removed after the test file; one per test file. */
export function selfSignedCertificate(): { key: string; cert: string } {
  if (certificate) return certificate;
  const dir = tempDir("dossier-mail-cert-");
  const made = spawnSync(
    "openssl",
    ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem")],
    { stdio: "pipe" },
  );
  if (made.status !== 0) throw new Error(`openssl could not make a test certificate: ${made.stderr?.toString() ?? made.error}`);
  certificate = { key: readFileSync(join(dir, "key.pem"), "utf8"), cert: readFileSync(join(dir, "cert.pem"), "utf8") };
  return certificate;
}

/** Short timeouts: the tests of a server that never answers end in about a second. */
export const TEST_TIMEOUTS: MailTimeouts = { connectMs: 3_000, greetingMs: 800, idleMs: 3_000 };

/** Settings for a sink on `port`: smtp://127.0.0.1:<port>, sender "Dossier <dossier@example.com>". */
export function sinkSettings(port: number, overrides: Partial<MailSettings> = {}, url = `smtp://127.0.0.1:${port}`): MailSettings {
  const settings = parseMailSettings({ DOSSIER_SMTP_URL: url, DOSSIER_MAIL_FROM: "Dossier <dossier@example.com>" }, { timeouts: TEST_TIMEOUTS })!;
  return { ...settings, ...overrides };
}

/** A received message read by postal-mime (not by the library that wrote it). */
export function parsed(message: Received): Promise<Email> {
  return PostalMime.parse(Buffer.from(message.raw, "latin1"));
}

/** The value of the first header `name` of a raw message, unfolded. */
export function rawHeader(raw: string, name: string): string | null {
  const head = raw.split("\r\n\r\n")[0].replace(/\r\n[ \t]+/g, " ");
  const line = head.split("\r\n").find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line === undefined ? null : line.slice(name.length + 1).trim();
}
