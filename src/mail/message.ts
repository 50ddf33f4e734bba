// One outgoing message as the queue keeps it (plain data, JSON-safe), and the MIME message written
// from it at send time by nodemailer's composer. C22: every email has a plain-text part and a
// `List-Unsubscribe` link that turns the digest off. The Message-ID comes from the queue's id, so
// the one duplicate C22 allows (a crash after the server's 250, before the record) carries the
// same Message-ID as the first copy, and a receiving system can drop it.
import MailComposer from "nodemailer/lib/mail-composer";
import type Mail from "nodemailer/lib/mailer";
import type { MailAddress } from "./settings";

export interface OutgoingMail {
  /** The queue's id for this message: stable across attempts. */
  id: string;
  to: MailAddress;
  /** One line: line breaks and other control characters are replaced by spaces when written. */
  subject: string;
  /** The plain-text part (C22: every email has one). Lines end with \n. */
  text: string;
  /** An HTML alternative, when there is one (none of C22's messages needs it). */
  html?: string | null;
  /** The page that turns the digest off (C22): `List-Unsubscribe`, and RFC 8058's one-click POST. */
  unsubscribeUrl: string;
  /** The Date header: when the message was made (queued), ISO 8601. Never the sending clock. */
  createdAt: string;
  /** What kind of message it is, for the mail log: `reminder`, `digest`, ... */
  kind: string;
}

/** The Message-ID of a queued message: `<id@domain>`, the same on every attempt. */
export function messageId(mail: Pick<OutgoingMail, "id">, domain: string): string {
  return `<${mail.id.replace(/[^A-Za-z0-9._-]/g, "-")}@${domain}>`;
}

/** One line of header text: control characters (CR and LF included: no header injection) become
 * spaces, runs of spaces one, ends trimmed. */
export function headerText(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, " ").replace(/ {2,}/g, " ").trim();
}

const mailAddress = (address: MailAddress): Mail.Address | string =>
  address.name ? { name: headerText(address.name), address: address.address } : address.address;

/** An http(s) URL fit for `List-Unsubscribe`'s angle brackets; throws on anything else. */
export function unsubscribeLink(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`not a URL for List-Unsubscribe: ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") throw new Error(`List-Unsubscribe needs an http(s) URL: ${JSON.stringify(url)}`);
  return parsed.href; // percent-encoded: no space, no angle bracket, no line break
}

/** nodemailer's options for `mail` sent as `from`. `domain` is the Message-ID's right-hand side. */
export function mailOptions(mail: OutgoingMail, from: MailAddress, domain: string): Mail.Options {
  return {
    from: mailAddress(from),
    to: mailAddress(mail.to),
    envelope: { from: from.address, to: [mail.to.address] },
    subject: headerText(mail.subject),
    text: mail.text.replace(/\r\n?/g, "\n"),
    ...(mail.html ? { html: mail.html } : {}),
    messageId: messageId(mail, domain),
    date: new Date(mail.createdAt),
    headers: {
      // RFC 2369 and RFC 8058: mail programs show an "unsubscribe" button that posts to the link.
      "List-Unsubscribe": `<${unsubscribeLink(mail.unsubscribeUrl)}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      "Auto-Submitted": "auto-generated", // RFC 3834: no auto-replies to reminders
      "X-Dossier-Kind": headerText(mail.kind),
    },
    // Text parts as quoted-printable, or base64 when mostly non-ASCII: 7-bit safe for any relay.
    textEncoding: "quoted-printable",
  };
}

/** The whole message as it goes over the wire (CRLF line ends), written without a network: for
 * tests, a preview, or a mail log that keeps what was sent. */
export function renderMail(mail: OutgoingMail, from: MailAddress, domain: string): Promise<Buffer> {
  const composer = new MailComposer(mailOptions(mail, from, domain));
  return new Promise((resolve, reject) => composer.compile().build((error, message) => (error ? reject(error) : resolve(message))));
}
