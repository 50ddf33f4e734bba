// What an email becomes (C15, C20): the application a message carries, read with postal-mime.
// Everything here is a pure function of the message's bytes, so the same code serves the SMTP
// listener and POST /intake/{token}, and runs on the parsing worker (src/intake/parser.ts).
import { convert } from "html-to-text";
import PostalMime, { type Address, type Attachment, type Email, type Mailbox } from "postal-mime";
import { isEmailAddress } from "../schemas/contacts";

/** C15: a message over 25 MB is refused (552 over SMTP, 413 over HTTP). */
export const MESSAGE_LIMIT = 26_214_400;
/** C5's CV limit: a larger PDF is not taken as the CV. */
export const CV_LIMIT = 10_485_760;
const NAME_LIMIT = 200;
const NOTES_LIMIT = 20_000;

export interface Application {
  /** The From display name, else the From address's local part; at most 200 code points. */
  name: string;
  /** Reply-To, else From; null when that is not an email address (C20). */
  email: string | null;
  /** The From address as sent: who the history names as the actor (C20). */
  from: string;
  /** Subject, a blank line, the plain-text body (HTML turned into text), trimmed and cut (C20). */
  intake_notes: string;
  /** The first PDF attachment of at most 10 MB. */
  cv: Uint8Array | null;
  /** The Message-ID header as sent (angle brackets included), null when there is none. */
  messageId: string | null;
}

/** A message that cannot be made into an application: 554 over SMTP, 400 over HTTP (C20). */
export class UnreadableMessage extends Error {}

/** The application in a raw RFC 5322 message. Throws UnreadableMessage. */
export async function readApplication(raw: Uint8Array): Promise<Application> {
  let email: Email;
  try {
    email = await PostalMime.parse(raw, { attachmentEncoding: "arraybuffer" });
  } catch (error) {
    throw new UnreadableMessage(`the message cannot be parsed: ${(error as Error).message}`);
  }
  if (email.headers.length === 0) throw new UnreadableMessage("the message has no header section");
  const from = firstMailbox(email.from ? [email.from] : []);
  if (!from) throw new UnreadableMessage("the message has no From address");
  const name = cut(clean(from.name) || localPart(from.address), NAME_LIMIT).trim();
  if (name === "") throw new UnreadableMessage("the message's From names nobody");
  const replyTo = firstMailbox(email.replyTo ?? []);
  const address = (replyTo?.address || from.address || "").trim();
  return {
    name,
    email: address !== "" && address.length <= 200 && isEmailAddress(address) ? address : null,
    from: from.address?.trim() ?? "",
    intake_notes: intakeNotes(email.subject ?? "", bodyText(email)),
    cv: firstPdf(email.attachments),
    messageId: email.messageId?.trim() || null,
  };
}

/** C20: line ends become \n, each line's trailing white space and every trailing newline are
 * trimmed, then the text is cut to at most 20,000 code points, with no marker. */
export function intakeNotes(subject: string, body: string): string {
  const text = `${subject}\n\n${body}`
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) => line.replace(/\s+$/u, ""))
    .join("\n")
    .replace(/\n+$/, "");
  return cut(text, NOTES_LIMIT);
}

function bodyText(email: Email): string {
  if (email.text !== undefined && email.text.trim() !== "") return email.text;
  // postal-mime gives no text for a message that is only HTML (round2-notes).
  if (email.html) return convert(email.html, { wordwrap: false, selectors: [{ selector: "img", format: "skip" }] });
  return email.text ?? "";
}

function firstMailbox(addresses: Address[]): Mailbox | undefined {
  for (const address of addresses) {
    if (address.group) {
      if (address.group.length > 0) return address.group[0];
    } else return address;
  }
  return undefined;
}

function firstPdf(attachments: Attachment[]): Uint8Array | null {
  for (const attachment of attachments) {
    const isPdfType = attachment.mimeType.toLowerCase() === "application/pdf" || /\.pdf$/i.test(attachment.filename ?? "");
    if (!isPdfType) continue;
    const content = attachment.content;
    const bytes = typeof content === "string" ? new TextEncoder().encode(content) : new Uint8Array(content as ArrayBuffer);
    // C5's own checks on a CV: at most 10 MB, and the bytes of a PDF.
    if (bytes.byteLength <= CV_LIMIT && startsWithPdf(bytes)) return bytes;
  }
  return null;
}

const startsWithPdf = (bytes: Uint8Array) => new TextDecoder().decode(bytes.subarray(0, 5)) === "%PDF-";
const localPart = (address: string) => (address.includes("@") ? address.slice(0, address.lastIndexOf("@")) : address);
// Control characters in a display name are never meant as part of it.
const clean = (text: string) => text.replace(/[\u0000-\u001f\u007f]/g, " ").trim();

function cut(text: string, limit: number): string {
  let n = 0;
  let end = 0;
  for (const ch of text) {
    if (n === limit) return text.slice(0, end);
    n++;
    end += ch.length;
  }
  return text;
}
