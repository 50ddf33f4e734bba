// The SMTP way in (C15, C20): `dossier serve --smtp-port`, meant to sit behind the organization's
// mail server or to receive directly. Replies: an unknown token 550 5.1.1 and an organization
// without Growth 550 5.7.1 at RCPT TO, each recipient alone; over the token's limit 451 4.7.1;
// over 25 MB 552 (at MAIL FROM for a declared SIZE, else after DATA); a message that cannot be read
// 554; any other failure after DATA 451 so that the sender retries; 250 only once every dossier
// of the message and its CV are durable.
import { readFileSync } from "node:fs";
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server";
import type { SmtpSettings } from "../config";
import type { Context } from "../context";
import { ApiError } from "../errors";
import type { Admitted, IntakeDesk } from "./desk";
import { MESSAGE_LIMIT, UnreadableMessage } from "./message";

const MAX_CONNECTIONS = 50;
const MAX_PER_ADDRESS = 5;
const IDLE_MS = 60_000;

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

export function startSmtp(ctx: Context, desk: IntakeDesk, settings: SmtpSettings): Promise<RunningSmtp> {
  const perAddress = new Map<string, number>();
  const admitted = new Map<string, Admitted[]>();
  const server = new SMTPServer({
    name: ctx.config.intakeDomain,
    banner: "Dossier intake",
    authOptional: true,
    disabledCommands: settings.tls ? ["AUTH"] : ["AUTH", "STARTTLS"],
    ...(settings.tls ? { key: readFileSync(settings.tls.key), cert: readFileSync(settings.tls.cert) } : {}),
    size: MESSAGE_LIMIT,
    maxClients: MAX_CONNECTIONS,
    socketTimeout: IDLE_MS,
    logger: false,
    // A reverse DNS lookup of every client would wait on a resolver for nothing: the address is enough.
    disableReverseLookup: true,
    onConnect(session, callback) {
      const from = session.remoteAddress;
      const open = perAddress.get(from) ?? 0;
      if (open >= MAX_PER_ADDRESS) return callback(reply(421, `4.7.0 too many connections from ${from}, try again later`));
      perAddress.set(from, open + 1);
      callback();
    },
    onClose(session) {
      const left = (perAddress.get(session.remoteAddress) ?? 1) - 1;
      if (left > 0) perAddress.set(session.remoteAddress, left);
      else perAddress.delete(session.remoteAddress);
      admitted.delete(session.id);
    },
    onMailFrom(_address, session, callback) {
      admitted.set(session.id, []);
      callback();
    },
    onRcptTo(address, session, callback) {
      try {
        const entry = desk.admit(tokenOf(address.address));
        const list = admitted.get(session.id) ?? [];
        list.push(entry);
        admitted.set(session.id, list);
        callback();
      } catch (error) {
        callback(rcptRefusal(error));
      }
    },
    onData(stream, session, callback) {
      receive(stream, session).then(
        () => callback(null, "2.0.0 message accepted"),
        (error) => callback(dataRefusal(ctx, error)),
      );
    },
  });

  async function receive(stream: SMTPServerDataStream, session: SMTPServerSession) {
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      // Past the limit the rest is read and dropped; smtp-server then answers 552 itself.
      if (size <= MESSAGE_LIMIT) chunks.push(chunk);
    }
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
  if (error instanceof UnreadableMessage) {
    ctx.logger.log("warn", "an email could not be read and was refused", { error: error.message });
    return reply(554, "5.6.0 the message cannot be parsed");
  }
  ctx.logger.log("error", "an email could not be stored: the sender will retry", { error: (error as Error).message });
  return reply(451, "4.3.0 the message could not be stored, try again later");
}
