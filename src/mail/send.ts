// Sending one message over SMTP (C22) with nodemailer, and what its outcome means:
//   a 2xx at the end of DATA      sent
//   any 5xx reply                 failed for good, with the server's reply
//   a 4xx reply, a timeout, a refused or broken connection, a TLS handshake that fails
//                                 tried again on the schedule (./schedule.ts)
// The classification is a pure function of nodemailer's error (classifySendError), tested with a
// table as well as against a real server. One connection per message: each outcome is that
// message's own, and a server that hangs holds one send, bounded by the timeouts of the settings.
import nodemailer from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import { mailOptions, type OutgoingMail } from "./message";
import { senderDomain, type MailSettings } from "./settings";

export type SendOutcome =
  /** The server took the message: its reply (`250 ...`). */
  | { outcome: "sent"; reply: string }
  /** Refused for good (5xx), or a message that no server could take: the reply or the reason. */
  | { outcome: "failed"; reply: string }
  /** Worth another attempt later: the reply (4xx) or what went wrong (timeout, refused, ...). */
  | { outcome: "retry"; reply: string };

/** What nodemailer's errors carry (src: nodemailer/lib/smtp-connection). */
export interface SmtpErrorLike {
  message?: string;
  /** nodemailer's kind (ETIMEDOUT, ESOCKET, ECONNECTION, ETLS, EAUTH, EENVELOPE, EMESSAGE,
   * EPROTOCOL, ...) or the system's (ECONNREFUSED, ECONNRESET, ...). */
  code?: string;
  /** The server's reply to the command that failed, when there was one. */
  response?: string;
  responseCode?: number;
  /** The SMTP command that failed (`CONN`, `EHLO`, `STARTTLS`, `MAIL FROM`, `RCPT TO`, `DATA`, ...). */
  command?: string;
}

/** Longest reply kept: a server may send pages of text. */
const MAX_REPLY = 1000;

/** A failed send's outcome: by the server's reply code when it replied (5xx failed, 4xx retried),
 * else by what happened (no reply: retried, but a message that cannot be sent at all fails). */
export function classifySendError(error: SmtpErrorLike): Exclude<SendOutcome, { outcome: "sent" }> {
  const code = error.responseCode ?? replyCode(error.response);
  const detail = describe(error);
  if (code !== null && code >= 500 && code <= 599) return { outcome: "failed", reply: detail };
  if (code !== null && code >= 400 && code <= 499) return { outcome: "retry", reply: detail };
  // No reply code. The message itself cannot be sent (no valid recipient, too large for the server's
  // declared SIZE): trying again will not help.
  if ((error.code === "EENVELOPE" || error.code === "EMESSAGE") && error.command === "API") return { outcome: "failed", reply: detail };
  if (error.code === "EMESSAGE" && error.command === "MAIL FROM") return { outcome: "failed", reply: detail };
  return { outcome: "retry", reply: detail };
}

function replyCode(response: string | undefined): number | null {
  const match = response ? /^([2-5]\d\d)[ -]/.exec(response) ?? /^([2-5]\d\d)$/.exec(response) : null;
  return match ? Number(match[1]) : null;
}

/** The server's reply when it gave one (what C22's mail log shows), else what went wrong. */
function describe(error: SmtpErrorLike): string {
  const reply = error.response?.trim();
  const text = reply
    ? reply
    : [error.code, error.command && error.command !== "API" && error.command !== "CONN" ? `at ${error.command}` : null, error.message]
        .filter(Boolean)
        .join(" ");
  return (text || "unknown error").slice(0, MAX_REPLY);
}

export interface MailSender {
  /** Sends one message; never throws for what the server or the network did. */
  send(mail: OutgoingMail): Promise<SendOutcome>;
  /** Closes the pool's connections (nothing to close without a pool). Sends after it fail. */
  close(): void;
}

export interface SenderOptions {
  /** Keep up to `connections` connections open and send up to `messagesPerConnection` messages on
   * each (RSET between them): the morning's digests go out without a new connection, EHLO,
   * STARTTLS and AUTH per message. A message whose connection breaks is not sent again by the pool
   * (its outcome is "retry"), so duplicates stay C22's one. Without it: one connection a message. */
  pool?: { connections?: number; messagesPerConnection?: number };
}

/** nodemailer's transport options for `settings`. */
export function transportOptions(settings: MailSettings, options: SenderOptions = {}): SMTPTransport.Options {
  return {
    host: settings.host,
    port: settings.port,
    secure: settings.secure,
    requireTLS: settings.starttls === "required",
    ignoreTLS: false,
    opportunisticTLS: settings.starttls === "opportunistic",
    auth: settings.auth ? { user: settings.auth.user, pass: settings.auth.pass } : undefined,
    connectionTimeout: settings.timeouts.connectMs,
    greetingTimeout: settings.timeouts.greetingMs,
    socketTimeout: settings.timeouts.idleMs,
    dnsTimeout: settings.timeouts.connectMs,
    tls: {
      rejectUnauthorized: true,
      minVersion: "TLSv1.2",
      ...(settings.tls.ca ? { ca: settings.tls.ca } : {}),
      ...(settings.tls.servername ? { servername: settings.tls.servername } : {}),
    },
    ...(options.pool
      ? {
          pool: true,
          maxConnections: Math.max(1, options.pool.connections ?? 4),
          maxMessages: Math.max(1, options.pool.messagesPerConnection ?? 100),
          maxRequeues: 0, // never send a message again on its own: the queue decides
        }
      : {}),
    logger: false,
    debug: false,
  } as SMTPTransport.Options;
}

/** A sender for `settings`: one SMTP connection per message, or a pool (SenderOptions.pool). A job
 * runner sends several at once by calling `send` concurrently. */
export function createMailSender(settings: MailSettings, options: SenderOptions = {}): MailSender {
  const transport = nodemailer.createTransport(transportOptions(settings, options));
  const domain = senderDomain(settings);
  return {
    async send(mail) {
      try {
        const info = await transport.sendMail(mailOptions(mail, settings.from, domain));
        const reply = String(info.response ?? "250").slice(0, MAX_REPLY);
        // One recipient: a refused one fails the whole send, so this is only a safeguard.
        if (info.rejected.length > 0) return classifySendError({ response: reply, code: "EENVELOPE" });
        return { outcome: "sent", reply };
      } catch (error) {
        return classifySendError(error as SmtpErrorLike);
      }
    },
    close() {
      transport.close();
    },
  };
}
