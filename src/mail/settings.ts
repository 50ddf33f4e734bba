// Outgoing mail's settings (C22): DOSSIER_SMTP_URL and DOSSIER_MAIL_FROM, parsed and checked once at
// start. The values come in as arguments (src/config.ts reads the environment, nothing here does).
//
//   smtp://user:pass@host:587   plain connection upgraded with STARTTLS; on 587 (the default port
//                               of smtp://) STARTTLS is required: a server that does not offer it,
//                               or a handshake that fails, gets no message and no password
//   smtp://host:25              another port, no credentials: STARTTLS used whenever the server
//                               offers it (a relay on the local network); with credentials it is
//                               required as on 587: a password never goes over a plain connection
//   smtps://user:pass@host:465  TLS from the first byte (465 is the default port of smtps://)
//
// User and password are percent-decoded (a password with `@` or `:` is written %40, %3A). A URL
// with a path, a query or a fragment is refused rather than half-read. Certificates are checked
// against the system's authorities; `tls.ca` (not an environment setting: tests, embedding
// programs) adds one.
import addressparser from "nodemailer/lib/addressparser";

export interface MailAddress {
  /** The display name, or null. Any text: it is encoded (RFC 2047) when the message is written. */
  name: string | null;
  address: string;
}

export interface MailTimeouts {
  /** To open the TCP (or TLS) connection. */
  connectMs: number;
  /** From the connection to the server's greeting. */
  greetingMs: number;
  /** Longest silence of the server once the conversation has begun. */
  idleMs: number;
}

export const DEFAULT_MAIL_TIMEOUTS: MailTimeouts = { connectMs: 10_000, greetingMs: 15_000, idleMs: 30_000 };

export interface MailSettings {
  host: string;
  port: number;
  /** smtps://: TLS from the first byte. */
  secure: boolean;
  /** smtp:// only: "required" refuses to go on without STARTTLS (port 587, or any port with
   * credentials); "opportunistic" uses it when offered. Always "implicit" for smtps://. */
  starttls: "required" | "opportunistic" | "implicit";
  /** Null when the URL names no user. */
  auth: { user: string; pass: string } | null;
  from: MailAddress;
  timeouts: MailTimeouts;
  /** Extra trust for the server's certificate (PEM); null: the system's authorities only. */
  tls: { ca: string | null; servername: string | null };
}

export interface MailEnv {
  DOSSIER_SMTP_URL?: string;
  DOSSIER_MAIL_FROM?: string;
}

export class MailSettingsError extends Error {
  override name = "MailSettingsError";
}

/** The settings of outgoing mail, or null when DOSSIER_SMTP_URL is unset or empty (C22: nothing is
 * queued then, and `serve` says reminders go to the console only). Throws MailSettingsError, with a
 * message fit for an operator, on a bad URL or sender, or when DOSSIER_MAIL_FROM is missing. */
export function parseMailSettings(
  env: MailEnv,
  options: { timeouts?: Partial<MailTimeouts>; ca?: string | null } = {},
): MailSettings | null {
  const text = env.DOSSIER_SMTP_URL?.trim();
  if (!text) return null;
  const server = parseSmtpUrl(text);
  const fromText = env.DOSSIER_MAIL_FROM?.trim();
  if (!fromText) throw new MailSettingsError("DOSSIER_MAIL_FROM is required with DOSSIER_SMTP_URL: the sender of reminders and digests, e.g. Dossier <dossier@example.com>");
  const from = parseMailFrom(fromText);
  return {
    ...server,
    from,
    timeouts: { ...DEFAULT_MAIL_TIMEOUTS, ...options.timeouts },
    tls: { ca: options.ca ?? null, servername: null },
  };
}

/** DOSSIER_SMTP_URL alone: host, port, TLS mode and credentials. */
export function parseSmtpUrl(text: string): Pick<MailSettings, "host" | "port" | "secure" | "starttls" | "auth"> {
  const shown = redact(text);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new MailSettingsError(`invalid DOSSIER_SMTP_URL "${shown}": expected smtp://user:pass@host:587 or smtps://user:pass@host:465`);
  }
  const scheme = url.protocol.slice(0, -1).toLowerCase();
  if (scheme !== "smtp" && scheme !== "smtps") {
    throw new MailSettingsError(`invalid DOSSIER_SMTP_URL "${shown}": the scheme must be smtp:// (STARTTLS) or smtps:// (TLS), not ${scheme}://`);
  }
  // "smtp:" is not a special scheme for WHATWG URLs: the host is kept as written, brackets of an
  // IPv6 address included.
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (!host) throw new MailSettingsError(`invalid DOSSIER_SMTP_URL "${shown}": no host`);
  if ((url.pathname !== "" && url.pathname !== "/") || url.search !== "" || url.hash !== "") {
    throw new MailSettingsError(`invalid DOSSIER_SMTP_URL "${shown}": only smtp(s)://user:pass@host:port is read; remove the path, query or fragment`);
  }
  const secure = scheme === "smtps";
  const port = url.port === "" ? (secure ? 465 : 587) : Number(url.port);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new MailSettingsError(`invalid DOSSIER_SMTP_URL "${shown}": bad port`);
  let auth: MailSettings["auth"] = null;
  if (url.username !== "" || url.password !== "") {
    try {
      auth = { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) };
    } catch {
      throw new MailSettingsError(`invalid DOSSIER_SMTP_URL "${shown}": user or password is not valid percent-encoding`);
    }
    if (auth.user === "") throw new MailSettingsError(`invalid DOSSIER_SMTP_URL "${shown}": a password without a user`);
  }
  const starttls = secure ? "implicit" : port === 587 || auth !== null ? "required" : "opportunistic";
  return { host, port, secure, starttls, auth };
}

/** DOSSIER_MAIL_FROM: one address, with or without a display name (`Dossier <d@example.com>`). */
export function parseMailFrom(text: string): MailAddress {
  const parsed = addressparser(text);
  const one = parsed.length === 1 && "address" in parsed[0] ? parsed[0] : null; // not a group
  if (!one || !looksLikeEmail(one.address)) {
    throw new MailSettingsError(`invalid DOSSIER_MAIL_FROM "${text}": expected one address, e.g. Dossier <dossier@example.com>`);
  }
  return { name: one.name.trim() || null, address: one.address };
}

/** C3's rule for an email address: one `@`, a dot in the domain; and no white space or angle
 * brackets, which cannot stand in an SMTP envelope. */
export function looksLikeEmail(address: string): boolean {
  const at = address.indexOf("@");
  return (
    at > 0 &&
    at === address.lastIndexOf("@") &&
    address.slice(at + 1).includes(".") &&
    !address.endsWith(".") &&
    !/[\s<>()\[\],;:"\\]/.test(address)
  );
}

/** The URL with its password replaced by `***`, for messages and logs. */
export function redact(text: string): string {
  return text.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:@/]*):[^@/]*@/i, "$1:***@");
}

/** The domain of the sender's address: the right-hand side of Message-IDs. */
export function senderDomain(settings: Pick<MailSettings, "from">): string {
  return settings.from.address.slice(settings.from.address.lastIndexOf("@") + 1).toLowerCase();
}

/** What `serve` says at start about outgoing mail (C22), the password left out. */
export function mailStartupNotice(settings: MailSettings | null): string {
  if (!settings) return "outgoing mail is off (DOSSIER_SMTP_URL is not set): reminders go to the console only";
  const tls = settings.secure ? "TLS" : settings.starttls === "required" ? "STARTTLS required" : "STARTTLS when offered";
  const host = settings.host.includes(":") ? `[${settings.host}]` : settings.host;
  const user = settings.auth ? `${encodeURIComponent(settings.auth.user)}:***@` : "";
  const from = settings.from.name ? `${settings.from.name} <${settings.from.address}>` : settings.from.address;
  return `outgoing mail via ${settings.secure ? "smtps" : "smtp"}://${user}${host}:${settings.port} (${tls}) from ${from}`;
}
