// An SMTP listener on loopback for the intake tests, and raw SMTP conversations with it.
import { connect, type Socket } from "node:net";
import nodemailer from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import type { Config } from "../../src/config";
import { IntakeDesk } from "../../src/intake/desk";
import { startSmtp, type SmtpOptions } from "../../src/intake/smtp";
import type { DossierApp } from "../../src/app";
import type { Store } from "../../src/db/store";
import { intakeAddress } from "../../src/services/intake";
import { makeApp, makeOrg, onCleanup } from "../helpers";
import { appOn, queryRows, type Engine } from "../helpers/stores";

export interface ListenerOptions {
  config?: Partial<Config>;
  plan?: "free" | "growth";
  tls?: { cert: string; key: string };
  /** The listener's limits and timers (src/intake/smtp.ts). */
  smtp?: SmtpOptions;
}

/** An app on SQLite with a Growth organization, its candidate flow's intake address, and an SMTP
 * listener on 127.0.0.1 with a nodemailer client for it. */
export function listener(options: ListenerOptions = {}) {
  return listenerFor(makeApp({ config: options.config }), options);
}

/** As listener, the app on `engine` (C19): SQLite, or a fresh database of the tests' PostgreSQL. */
export async function listenerOn(engine: Engine, options: ListenerOptions = {}) {
  return listenerFor(await appOn(engine, { config: options.config }), options);
}

async function listenerFor<A extends DossierApp<Store>>(app: A, options: ListenerOptions) {
  const org = await makeOrg(app, { plan: options.plan ?? "growth" });
  // `AND is_default`: a flag both engines read as a condition (SQLite 1/0, PostgreSQL a boolean).
  const [{ id: flow }] = await queryRows<{ id: string }>(app, "SELECT id FROM flows WHERE organization_id = ? AND type = 'candidate' AND is_default", org.id);
  const address = (await intakeAddress(app.dossier, org.id, flow))!.address;
  const desk = new IntakeDesk(app.dossier);
  const smtp = await startSmtp(app.dossier, desk, { host: "127.0.0.1", port: 0, tls: options.tls ?? null }, options.smtp);
  onCleanup(async () => {
    await smtp.stop();
    desk.close();
  });
  const transport = smtpClient({
    host: "127.0.0.1",
    port: smtp.port,
    secure: false,
    ignoreTLS: !options.tls,
    requireTLS: Boolean(options.tls),
    tls: { rejectUnauthorized: false },
  });
  onCleanup(() => transport.close());
  return { app, org, flow, address, port: smtp.port, transport };
}

export const smtpClient = (options: SMTPTransport.Options) => nodemailer.createTransport(options);

/** The replies of a raw SMTP conversation: each line sent after the previous reply. The connection
 * stays open until the test file's cleanup (or until the server closes it). */
export async function converse(port: number, commands: string[]): Promise<string[]> {
  const session = await SmtpSession.open(port);
  for (const line of commands) await session.send(line);
  return session.replies;
}

/** A raw SMTP connection: the greeting, then one reply per command sent. A reply is its lines up to
 * the one whose code is followed by a space (RFC 5321 4.2.1). */
export class SmtpSession {
  readonly replies: string[] = [];
  closed = false;
  private lines: string[] = [];
  private buffer = "";
  private wake: (() => void) | null = null;

  private constructor(private readonly socket: Socket) {
    socket.on("data", (data) => {
      this.buffer += data.toString();
      for (let end = this.buffer.indexOf("\r\n"); end !== -1; end = this.buffer.indexOf("\r\n")) {
        const line = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        this.lines.push(line);
        if (/^\d{3}( |$)/.test(line)) {
          this.replies.push(this.lines.join("\n"));
          this.lines = [];
        }
      }
      this.wake?.();
    });
    socket.on("close", () => {
      this.closed = true;
      this.wake?.();
    });
    socket.on("error", () => {});
  }

  /** Connects from `localAddress` (any of 127.0.0.0/8 reaches loopback on Linux) and waits for the
   * greeting. */
  static async open(port: number, localAddress?: string): Promise<SmtpSession> {
    const socket = connect({ port, host: "127.0.0.1", ...(localAddress ? { localAddress } : {}) });
    const session = new SmtpSession(socket);
    onCleanup(() => session.destroy());
    await session.until(() => session.replies.length >= 1 || session.closed);
    return session;
  }

  get greeting(): string {
    return this.replies[0] ?? "";
  }

  /** Sends `line` and resolves with its reply ("" when the connection closed without one). */
  async send(line: string): Promise<string> {
    const count = this.replies.length;
    if (!this.closed) this.socket.write(`${line}\r\n`);
    await this.until(() => this.replies.length > count || this.closed);
    return this.replies[count] ?? "";
  }

  /** Writes without waiting for a reply (a message's lines after DATA). */
  write(text: string) {
    if (!this.closed) this.socket.write(text);
  }

  /** Resolves once the server has closed the connection (bounded: 20 s). */
  async whenClosed(): Promise<boolean> {
    await this.until(() => this.closed, 20_000);
    return this.closed;
  }

  /** Waits for the next reply after those already read (bounded: 20 s). */
  async nextReply(after: number): Promise<string> {
    await this.until(() => this.replies.length > after || this.closed, 20_000);
    return this.replies[after] ?? "";
  }

  destroy() {
    this.socket.destroy();
  }

  private async until(done: () => boolean, timeoutMs = 20_000) {
    for (let waited = 0; !done() && waited < timeoutMs; waited += 50) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
  }
}
