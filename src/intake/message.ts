// What an email becomes (C15, C20): the application a message carries, read with postal-mime.
// Everything here is a pure function of the message's bytes, so the same code serves the SMTP
// listener and POST /intake/{token}, and runs on the parsing worker (src/intake/parser.ts).
import PostalMime, { type Address, type Attachment, type Email, type Mailbox } from "postal-mime";
import { isEmailAddress } from "../schemas/contacts";
import { HtmlConverter } from "./html-text";
import { decodeText, plainText, slim, type TextPart } from "./mime";

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

/** The application in a raw RFC 5322 message. Throws UnreadableMessage, and nothing else: whatever
 * goes wrong in reading a message (the MIME parser, the HTML's conversion, a stack or a string too
 * deep or too long for the runtime) is a property of the message's bytes, so it is answered as an
 * unreadable message (400, 554), never as a failure worth retrying (500, 451). */
export async function readApplication(raw: Uint8Array): Promise<Application> {
  try {
    return await read(raw);
  } catch (error) {
    if (error instanceof UnreadableMessage) throw error;
    throw new UnreadableMessage(`the message cannot be parsed: ${(error as Error)?.message ?? String(error)}`);
  }
}

async function read(raw: Uint8Array): Promise<Application> {
  // postal-mime reads the message without its large bodies: the large text parts are read here,
  // as far as the notes need (src/intake/mime.ts).
  const slimmed = slim(raw);
  const whole = slimmed.raw.byteOffset === 0 && slimmed.raw.byteLength === slimmed.raw.buffer.byteLength;
  // Given a view, postal-mime copies it; given its whole buffer, it reads it in place.
  const email = await PostalMime.parse(whole ? (slimmed.raw.buffer as ArrayBuffer) : slimmed.raw, { attachmentEncoding: "arraybuffer" });
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
    intake_notes: notesOf(email, slimmed.texts),
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

/** What the notes say when the HTML was longer than HTML_LIMIT and its end was not read. */
export const HTML_CUT_NOTICE = "[Only the first 2 MB (2,097,152 characters) of this message's HTML were read; the rest was ignored.]";

/** Subject, a blank line and the body: the plain text of the message (postal-mime's, then that of
 * its large text/plain parts), else its HTML turned into text (postal-mime's, then its large
 * text/html parts', read as they are decoded). No more text is made than the notes can hold
 * (twice the limit in UTF-16 units is at least the limit in code points), and no more than 2 MB of
 * HTML is read: past it, the notes say so. */
function notesOf(email: Email, texts: TextPart[]): string {
  const subject = email.subject ?? "";
  const plain = [email.text ?? "", ...texts.filter((t) => !t.html).map((t) => plainText(t, 2 * NOTES_LIMIT))].filter((t) => t.trim() !== "");
  if (plain.length > 0) return intakeNotes(subject, plain.join("\n"));
  const htmlParts = texts.filter((t) => t.html);
  // postal-mime gives no text for a message that is only HTML (round2-notes).
  if (!email.html && htmlParts.length === 0) return intakeNotes(subject, email.text ?? "");
  const converter = new HtmlConverter(2 * NOTES_LIMIT);
  let reading = converter.write(email.html ?? "");
  for (const [i, part] of htmlParts.entries()) {
    if (reading && (i > 0 || email.html)) reading = converter.write("\n");
    if (reading) decodeText(part, (text) => (reading = converter.write(text)));
  }
  const html = converter.end();
  if (!html.truncated) return intakeNotes(subject, html.text);
  // The notice stays whole: the text before it is cut to leave room for it.
  const text = cut(intakeNotes(subject, html.text), NOTES_LIMIT - HTML_CUT_NOTICE.length - 2).replace(/\s+$/u, "");
  return `${text}\n\n${HTML_CUT_NOTICE}`;
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
