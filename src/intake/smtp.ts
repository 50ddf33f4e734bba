// The SMTP way in (C15, C20): `dossier serve --smtp-port`, meant to sit behind the organization's
// mail server or to receive directly. Replies: an unknown token 550 5.1.1 and an organization
// without Growth 550 5.7.1 at RCPT TO, each recipient alone; over the token's limit 451 4.7.1;
// over 25 MB 552 (at MAIL FROM for a declared SIZE, else after DATA); a message that cannot be read
// 554; any other failure after DATA 451 so that the sender retries; 250 only once every dossier
// of the message and its CV are durable.
//
// Slots (issue 32): 50 connections at once, 5 from one address, one idle for 60 s closed with 421.
// Idleness alone let a sender hold slots for ever with a NOOP now and then (10 addresses of
// 127.0.0.0/8 took all 50), so a connection is also closed with 421 when it has not completed a
// message for 10 minutes, or after 20 commands without a message (DATA), and the last 10 slots
// are kept for addresses that have no connection open: a new sender always finds one.
import { readFileSync } from "node:fs";
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server";
import type { SmtpSettings } from "../config";
import type { Context } from "../context";
import { ApiError } from "../errors";
import type { Admitted, IntakeDesk } from "./desk";
import { MESSAGE_LIMIT, UnreadableMessage } from "./message";

export interface SmtpLimits {
  /** Connections at once (C15). */
  connections: number;
  /** Connections at once from one address (C20). */
  perAddress: number;
  /** Of `connections`, the slots only an address with no connection open may take. */
  reserved: number;
  /** A connection silent this long is closed with 421 (C20). */
  idleMs: number;
  /** A connection that has not completed a message for this long (since it opened or since its
   * last message) is closed with 421. */
  lifetimeMs: number;
  /** Commands allowed in a row without a message: the next one is answered 421 and the connection
   * closed. An accepted RCPT TO is not counted (a message may have up to `recipients`); a refused
   * one is. */
  commands: number;
  /** Recipients of one message (RFC 5321 4.5.3.1.8: at least 100); more are refused with 452. */
  recipients: number;
}

export const SMTP_LIMITS: SmtpLimits = {
  connections: 50,
  perAddress: 5,
  reserved: 10,
  idleMs: 60_000,
  lifetimeMs: 600_000,
  commands: 20,
  recipients: 100,
};

/** How the listener waits: tests move time forward instead of waiting 10 minutes. */
export interface Timers {
  /** Runs `run` after `ms`; the function returned cancels it. */
  schedule(ms: number, run: () => void): () => void;
}

const realTimers: Timers = {
  schedule(ms, run) {
    const timer = setTimeout(run, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

export interface SmtpOptions {
  limits?: Partial<SmtpLimits>;
  timers?: Timers;
}

export interface RunningSmtp {
  port: number;
  stop(): Promise<void>;
}

const reply = (code: number, text: string) => Object.assign(new Error(text), { responseCode: code });

/** The local part of a recipient: the intake token (the domain is not checked, C15). */
function tokenOf(address: string): string {
  const at = address.lastIndexOf("@");
  return at === -1 ? address : address.slice(0, at);
}

/** What the listener keeps of a connection it took. */
interface Slot {
  address: string;
  /** Commands since the connection opened or since its last DATA. */
  commands: number;
  /** Ends the wait for the connection's lifetime. */
  cancel: () => void;
  /** "receiving": the message's bytes are arriving; "storing": they are in and the reply waits. */
  message: "none" | "receiving" | "storing";
  /** Answers 421 and closes the connection. */
  close: (text: string) => void;
}

export function startSmtp(ctx: Context, desk: IntakeDesk, settings: SmtpSettings, options: SmtpOptions = {}): Promise<RunningSmtp> {
  const limits = { ...SMTP_LIMITS, ...options.limits };
  const timers = options.timers ?? realTimers;
  const perAddress = new Map<string, number>();
  /** The connections taken, by session id; refused ones are never here. */
  const slots = new Map<string, Slot>();
  const admitted = new Map<string, Admitted[]>();

  /** Waits out the connection's lifetime again (from now). */
  const startLifetime = (id: string, slot: Slot) => {
    slot.cancel();
    slot.cancel = timers.schedule(limits.lifetimeMs, () => {
      // A message whose bytes are in is being stored: its reply comes first, and starts a new lifetime.
      if (slots.get(id) === slot && slot.message !== "storing") slot.close("4.4.2 no message completed in time, closing connection");
    });
  };

  const server = new SMTPServer({
    name: ctx.config.intakeDomain,
    banner: "Dossier intake",
    authOptional: true,
    disabledCommands: settings.tls ? ["AUTH"] : ["AUTH", "STARTTLS"],
    ...(settings.tls ? { key: readFileSync(settings.tls.key), cert: readFileSync(settings.tls.cert) } : {}),
    size: MESSAGE_LIMIT,
    maxClients: limits.connections,
    maxRecipients: limits.recipients,
    socketTimeout: limits.idleMs,
    logger: false,
    // A reverse DNS lookup of every client would wait on a resolver for nothing: the address is enough.
    disableReverseLookup: true,
    onConnect(session, callback) {
      const from = session.remoteAddress;
      const open = perAddress.get(from) ?? 0;
      if (open >= limits.perAddress) return callback(reply(421, `4.7.0 too many connections from ${from}, try again later`));
      // The last `reserved` slots are for addresses with none open, so new senders always get in.
      const room = open === 0 ? limits.connections : limits.connections - limits.reserved;
      if (slots.size >= room) return callback(reply(421, "4.7.0 too many connections, try again later"));
      const connection = [...server.connections].find((c) => c.id === session.id);
      if (!connection) return callback(reply(421, "4.3.0 temporary failure, try again later"));
      const slot: Slot = {
        address: from,
        commands: 0,
        cancel: () => {},
        message: "none",
        close: (text) => connection.send(421, text),
      };
      countCommands(connection, slot, limits.commands);
      slots.set(session.id, slot);
      perAddress.set(from, open + 1);
      startLifetime(session.id, slot);
      callback();
    },
    onClose(session) {
      admitted.delete(session.id);
      const slot = slots.get(session.id);
      // A connection refused at onConnect took no slot: it gives none back.
      if (!slot) return;
      slots.delete(session.id);
      slot.cancel();
      const left = (perAddress.get(slot.address) ?? 1) - 1;
      if (left > 0) perAddress.set(slot.address, left);
      else perAddress.delete(slot.address);
    },
    onMailFrom(_address, session, callback) {
      admitted.set(session.id, []);
      callback();
    },
    // unawaited: smtp-server takes a callback, and every outcome (a refusal included) goes to it
    async onRcptTo(address, session, callback) {
      try {
        const entry = await desk.admit(tokenOf(address.address));
        const list = admitted.get(session.id) ?? [];
        list.push(entry);
        admitted.set(session.id, list);
        callback();
      } catch (error) {
        // Only an accepted recipient is left out of the commands counted.
        const slot = slots.get(session.id);
        if (slot && ++slot.commands > limits.commands) return callback(tooManyCommands(limits.commands));
        callback(rcptRefusal(error));
      }
    },
    onData(stream, session, callback) {
      const slot = slots.get(session.id);
      if (slot) {
        slot.commands = 0;
        slot.message = "receiving";
      }
      receive(stream, session, slot).then(
        () => callback(null, "2.0.0 message accepted"),
        (error) => callback(dataRefusal(ctx, error)),
      ).finally(() => {
        // A message completed, whatever its answer: the connection's lifetime starts again.
        if (slot && slots.get(session.id) === slot) {
          slot.message = "none";
          startLifetime(session.id, slot);
        }
      });
    },
  });

  async function receive(stream: SMTPServerDataStream, session: SMTPServerSession, slot: Slot | undefined) {
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      // Past the limit the rest is read and dropped; smtp-server then answers 552 itself.
      if (size <= MESSAGE_LIMIT) chunks.push(chunk);
    }
    if (slot) slot.message = "storing";
    if (stream.sizeExceeded) throw reply(552, "5.3.4 message exceeds the 26214400-byte limit");
    const targets = (admitted.get(session.id) ?? []).map((entry) => entry.target);
    admitted.set(session.id, []);
    await desk.receive(targets, Buffer.concat(chunks, Math.min(size, MESSAGE_LIMIT)));
  }

  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(settings.port, settings.host, () => {
      server.off("error", reject);
      server.on("error", (error) => ctx.logger.log("warn", "SMTP listener error", { error: error.message }));
      const address = server.server.address();
      resolve({
        port: typeof address === "object" && address ? address.port : settings.port,
        stop: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}

/** Counts the connection's commands (an accepted RCPT TO is counted by onRcptTo's refusal instead):
 * past `max` without a DATA, the command is answered 421 and the connection closed. smtp-server
 * calls no hook for NOOP, RSET, HELP, VRFY or EHLO, so the count is taken where each command line
 * arrives, the connection's _onCommand (smtp-server 3.21; test/intake/smtp-slots.test.ts fails
 * should that change). */
function countCommands(connection: { _onCommand(command: Buffer, callback?: () => void): void; send(code: number, text: string): void }, slot: Slot, max: number) {
  const handle = connection._onCommand;
  connection._onCommand = function (command, callback) {
    const name = (command ?? "").toString().trimStart().split(/[ :]/, 1)[0].toUpperCase();
    if (name !== "RCPT" && ++slot.commands > max) return connection.send(421, tooManyCommands(max).message);
    return handle.call(this, command, callback);
  };
}

const tooManyCommands = (max: number) => reply(421, `4.7.0 more than ${max} commands without a message, closing connection`);

function rcptRefusal(error: unknown): Error {
  if (error instanceof ApiError) {
    if (error.code === "not_found") return reply(550, "5.1.1 no such intake address");
    if (error.code === "plan_required") return reply(550, "5.7.1 email intake requires the Growth plan");
    if (error.code === "rate_limited") return reply(451, "4.7.1 too many messages for this address, try again later");
  }
  return reply(451, "4.3.0 temporary failure, try again later");
}

function dataRefusal(ctx: Context, error: unknown): Error {
  if ((error as { responseCode?: number }).responseCode === 552) return error as Error;
  // The connection went before the message was in (closed by its sender, or for its lifetime):
  // nothing was stored and nobody is left to answer.
  if ((error as { code?: string }).code === "ECONNECTION") return reply(451, "4.4.2 the connection closed before the message was received");
  if (error instanceof UnreadableMessage) {
    ctx.logger.log("warn", "an email could not be read and was refused", { error: error.message });
    return reply(554, "5.6.0 the message cannot be parsed");
  }
  ctx.logger.log("error", "an email could not be stored: the sender will retry", { error: (error as Error).message });
  return reply(451, "4.3.0 the message could not be stored, try again later");
}
