// What postal-mime is given to read (src/intake/message.ts), so that a message costs about its own
// size in memory. postal-mime holds a part's body several times while it decodes it (a text part of
// 20 MB raised the peak RSS by about 160 MB), and what the application takes of a text part is at
// most 20,000 characters (2 MB of HTML), of the other parts the first PDF only. So before postal-mime
// reads the message, this walk over its MIME structure (no recursion: a stack of byte ranges) takes
// out the body of every large part:
// - an inline text part (text/plain or text/html, not an attachment) of more than SMALL_PART bytes
//   is kept aside and decoded here as it is read (quoted-printable or base64, then its charset),
//   only as far as the notes need;
// - any other large part whose headers do not say "pdf" (a picture, an archive) is dropped: only a
//   PDF can become the CV.
// postal-mime then reads the headers, the small parts and the PDFs, as before.

/** Parts up to this size (as sent) are left to postal-mime. */
export const SMALL_PART = 65_536;
const CHUNK = 65_536;
/** postal-mime's own limit on a message's header bytes: past it, it refuses the message. */
const HEADERS_LIMIT = 2_097_152;
const LF = 0x0a;
const CR = 0x0d;

export interface TextPart {
  html: boolean;
  charset: string;
  /** Content-Transfer-Encoding, lower case. */
  encoding: string;
  /** format=flowed (RFC 3676), and its delsp=yes. */
  flowed: boolean;
  delsp: boolean;
  /** The body as sent (a view of the message, not a copy). */
  body: Uint8Array;
}

export interface Slimmed {
  /** The message without the bodies taken out; `raw` itself when none was. */
  raw: Uint8Array;
  /** The inline text parts taken out, in the order they appear. */
  texts: TextPart[];
}

interface Headers {
  type: string;
  params: Record<string, string>;
  encoding: string;
  attachment: boolean;
  pdf: boolean;
}

/** Reads the headers of the part at `start`; null when they do not end (or are too long to look at). */
function headersAt(raw: Uint8Array, start: number, end: number): { headers: Headers; bodyStart: number } | null {
  // The header section ends at the first empty line (none at all when the part starts with one).
  let bodyStart = -1;
  let headerEnd = -1;
  if (raw[start] === LF) [headerEnd, bodyStart] = [start, start + 1];
  else if (raw[start] === CR && raw[start + 1] === LF) [headerEnd, bodyStart] = [start, start + 2];
  for (let i = start; bodyStart === -1 && i < end && i - start <= HEADERS_LIMIT; i++) {
    if (raw[i] !== LF) continue;
    if (raw[i + 1] === LF) [headerEnd, bodyStart] = [i, i + 2];
    else if (raw[i + 1] === CR && raw[i + 2] === LF) [headerEnd, bodyStart] = [i, i + 3];
  }
  if (bodyStart === -1 || bodyStart > end) return null;
  const text = new TextDecoder("latin1").decode(raw.subarray(start, headerEnd)).replace(/\r?\n[ \t]+/g, " ");
  const field = (name: string) => new RegExp(`^${name}[ \\t]*:(.*)$`, "im").exec(text)?.[1].trim() ?? "";
  const contentType = field("content-type");
  const [type, ...rest] = contentType.split(";");
  const params: Record<string, string> = {};
  for (const match of (";" + rest.join(";")).matchAll(/;\s*([\w*.-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;\s]*)/g)) {
    params[match[1].toLowerCase()] = match[2].startsWith('"') ? match[2].slice(1, -1).replace(/\\(.)/g, "$1") : match[2];
  }
  return {
    headers: {
      type: type.trim().toLowerCase() || "text/plain",
      params,
      encoding: field("content-transfer-encoding").toLowerCase(),
      attachment: /^attachment\b/i.test(field("content-disposition")),
      pdf: /pdf/i.test(text),
    },
    bodyStart,
  };
}

/** The byte ranges of the parts of a multipart body, between its boundary lines. */
function partsOf(raw: Uint8Array, start: number, end: number, boundary: string): [number, number][] {
  const delimiter = new TextEncoder().encode(`--${boundary}`);
  const view = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  const parts: [number, number][] = [];
  let partStart = -1;
  for (let at = view.indexOf(delimiter, start); at !== -1 && at < end; at = view.indexOf(delimiter, at + 1)) {
    if (at !== start && raw[at - 1] !== LF) continue; // not at the start of a line
    const after = at + delimiter.length;
    // Not a longer boundary that begins with this one.
    if (after < end && ![CR, LF, 0x2d, 0x20, 0x09].includes(raw[after])) continue;
    const closing = raw[after] === 0x2d && raw[after + 1] === 0x2d;
    // The line break before a boundary line belongs to the boundary.
    if (partStart !== -1) parts.push([partStart, Math.max(partStart, at - (raw[at - 2] === CR ? 2 : 1))]);
    if (closing) return parts;
    const lineEnd = view.indexOf(LF, after);
    if (lineEnd === -1 || lineEnd >= end) return parts;
    partStart = lineEnd + 1;
  }
  if (partStart !== -1) parts.push([partStart, end]);
  return parts;
}

/** `raw` with the bodies of its large parts taken out (see the top of this file). */
export function slim(raw: Uint8Array, small = SMALL_PART): Slimmed {
  const texts: TextPart[] = [];
  /** Byte ranges of `raw` left out, in order. */
  const cuts: [number, number][] = [];
  // Parts to look at: [start, end, is a whole message (a part of message/rfc822)]. Each part's
  // children are pushed in reverse, so that they come off the stack in order.
  const stack: [number, number][] = [[0, raw.length]];
  while (stack.length > 0) {
    const [start, end] = stack.pop()!;
    const found = headersAt(raw, start, end);
    if (!found) continue;
    const { headers, bodyStart } = found;
    if (headers.type.startsWith("multipart/")) {
      // A digest's parts default to message/rfc822: left whole to postal-mime.
      if (!headers.params.boundary || headers.type === "multipart/digest") continue;
      const parts = partsOf(raw, bodyStart, end, headers.params.boundary);
      for (let i = parts.length - 1; i >= 0; i--) stack.push(parts[i]);
      continue;
    }
    if (end - bodyStart <= small) continue;
    const identity = ["", "7bit", "8bit", "binary"].includes(headers.encoding);
    if (headers.type === "message/rfc822" && !headers.attachment && identity) {
      stack.push([bodyStart, end]);
      continue;
    }
    if ((headers.type === "text/plain" || headers.type === "text/html") && !headers.attachment) {
      texts.push({
        html: headers.type === "text/html",
        charset: headers.params.charset ?? "utf-8",
        encoding: headers.encoding,
        flowed: /^flowed$/i.test(headers.params.format ?? ""),
        delsp: /^yes$/i.test(headers.params.delsp ?? ""),
        body: raw.subarray(bodyStart, end),
      });
      cuts.push([bodyStart, end]);
    } else if (!headers.pdf) cuts.push([bodyStart, end]);
  }
  if (cuts.length === 0) return { raw, texts };
  cuts.sort((a, b) => a[0] - b[0]);
  const kept = raw.length - cuts.reduce((sum, [a, b]) => sum + (b - a), 0);
  const out = new Uint8Array(kept);
  let from = 0;
  let to = 0;
  for (const [a, b] of cuts) {
    out.set(raw.subarray(from, a), to);
    to += a - from;
    from = b;
  }
  out.set(raw.subarray(from), to);
  return { raw: out, texts };
}

/** A decoder for the part's charset, as postal-mime would choose it (else windows-1252). */
function charsetDecoder(charset: string): TextDecoder {
  for (const label of [charset.trim().toLowerCase(), "windows-1252"]) {
    try {
      return new TextDecoder(label as ConstructorParameters<typeof TextDecoder>[0]);
    } catch {
      // not a label the runtime knows
    }
  }
  return new TextDecoder();
}

/** Gives the part's text, decoded, piece by piece to `take`, until `take` answers false. */
export function decodeText(part: TextPart, take: (text: string) => boolean): void {
  const decoder = charsetDecoder(part.charset);
  const transfer = part.encoding === "quoted-printable" ? new QuotedPrintable() : part.encoding === "base64" ? new Base64() : null;
  for (let at = 0; at < part.body.length; at += CHUNK) {
    const chunk = part.body.subarray(at, Math.min(at + CHUNK, part.body.length));
    const bytes = transfer ? transfer.update(chunk) : chunk;
    if (!take(decoder.decode(bytes, { stream: true }))) return;
  }
  take(decoder.decode(transfer ? transfer.end() : new Uint8Array()));
}

/** The plain text of a text/plain part: its first `enough` characters or so, flowed lines joined. */
export function plainText(part: TextPart, enough: number): string {
  const pieces: string[] = [];
  let length = 0;
  decodeText(part, (text) => {
    pieces.push(text);
    length += text.length;
    return length < enough;
  });
  const text = pieces.join("").replace(/\r\n?/g, "\n");
  return part.flowed ? unflow(text, part.delsp) : text;
}

/** RFC 3676: a line that ends with a space goes on in the next (the space dropped with delsp=yes),
 * except the signature separator; a space that starts a line is stuffing. */
function unflow(text: string, delsp: boolean): string {
  const out: string[] = [];
  let soft = false;
  for (let line of text.split("\n")) {
    if (line.startsWith(" ")) line = line.slice(1);
    if (soft) out[out.length - 1] += line;
    else out.push(line);
    soft = line.endsWith(" ") && line !== "-- ";
    if (soft && delsp) out[out.length - 1] = out[out.length - 1].slice(0, -1);
  }
  return out.join("\n");
}

/** Quoted-printable, a chunk at a time: "=XX" is a byte, "=" at a line's end joins it to the next. */
class QuotedPrintable {
  private rest = new Uint8Array();

  update(chunk: Uint8Array): Uint8Array {
    const input = this.rest.length > 0 ? concat(this.rest, chunk) : chunk;
    // An "=" in the last two bytes may be the start of an escape or of a soft line break.
    const last = input.lastIndexOf(0x3d);
    const cut = last !== -1 && last >= input.length - 2 ? last : input.length;
    this.rest = input.slice(cut);
    return decodeQp(input.subarray(0, cut));
  }

  end(): Uint8Array {
    const last = decodeQp(this.rest);
    this.rest = new Uint8Array();
    return last;
  }
}

function decodeQp(input: Uint8Array): Uint8Array {
  const out = new Uint8Array(input.length);
  let n = 0;
  for (let i = 0; i < input.length; i++) {
    const byte = input[i];
    if (byte !== 0x3d) {
      out[n++] = byte;
      continue;
    }
    // A soft line break: "=" then optional white space, then CRLF or LF.
    let j = i + 1;
    while (input[j] === 0x20 || input[j] === 0x09) j++;
    if (input[j] === LF || (input[j] === CR && input[j + 1] === LF)) {
      i = input[j] === LF ? j : j + 1;
      continue;
    }
    const high = hex(input[i + 1]);
    const low = hex(input[i + 2]);
    if (high < 0 || low < 0) {
      out[n++] = byte;
      continue;
    }
    out[n++] = (high << 4) | low;
    i += 2;
  }
  return out.subarray(0, n);
}

const hex = (byte: number | undefined) =>
  byte === undefined ? -1 : byte >= 0x30 && byte <= 0x39 ? byte - 0x30 : byte >= 0x41 && byte <= 0x46 ? byte - 0x37 : byte >= 0x61 && byte <= 0x66 ? byte - 0x57 : -1;

/** Base64, a chunk at a time: what is not of its alphabet is skipped, groups of 4 decoded. */
class Base64 {
  private rest = "";

  update(chunk: Uint8Array): Uint8Array {
    const text = this.rest + new TextDecoder("latin1").decode(chunk).replace(/[^A-Za-z0-9+/]/g, "");
    const whole = text.length - (text.length % 4);
    this.rest = text.slice(whole);
    return Buffer.from(text.slice(0, whole), "base64");
  }

  end(): Uint8Array {
    const last = Buffer.from(this.rest, "base64");
    this.rest = "";
    return last;
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
