// Issue 7 fuzzing on the wire: hostile HTTP/1.1 requests written byte for byte on a TCP socket to
// a real server (Host, Content-Length, Transfer-Encoding, duplicated and very long headers, odd
// request lines), the answers read back and parsed by hand.
//
// Which answers are Bun's own. Bun's HTTP parser refuses some requests before any of our code runs;
// those answers cannot carry the error envelope or X-Request-Id, and they are the only answers
// allowed to lack them. Found by sending the same bytes to a bare `Bun.serve` (the reference
// server below, with our server's options; Bun 1.4.5), they are exactly these, each followed by the
// server closing the connection:
//   400 Bad Request: an unparsable request line or header line (a space or control character in a
//     header name, a line without a colon, a NUL or other control character in a value, obs-fold),
//     no Host on HTTP/1.1, a Content-Length that is not digits alone ("abc", "-1", "+2", "", "2, 2",
//     20 digits), two different Content-Lengths, Content-Length with Transfer-Encoding, a
//     Transfer-Encoding other than exactly `chunked` (any case) given once ("gzip, chunked",
//     "identity", twice), a chunk size that is not hex or overflows, chunk lines ended by LF alone,
//     and whatever bytes follow a body that was shorter than its Content-Length said;
//   413 Request Entity Too Large: a Content-Length above 2^53 - 1 (our server lifts Bun's cap to
//     Number.MAX_SAFE_INTEGER: below it, our routes answer 413 with the envelope, C8); without the
//     `Connection: close` line when the request is HTTP/1.0 or sends a Connection header itself;
//   431 Request Header Fields Too Large: a request line and headers over 16 KiB in all;
//   505 HTTP Version Not Supported: a version other than HTTP/1.0 or HTTP/1.1, a request line with
//     a space in the target, lines ended by LF alone;
//   the connection closed with no answer at all: a method token Bun does not know ("FOO", "get",
//     "PRI"); a request whose body never ended (fewer bytes than Content-Length, no last chunk)
//     when the client closes its side; a pipelined request (sent before the answer to the one
//     before it) that Bun reads while the handler of the one before is still running: Bun then
//     closes the connection and drops both answers (a bare Bun.serve whose handler takes 5 ms does
//     it; a CV upload, which flushes a file, always takes that long).
// Also Bun's, and not an error: `100 Continue` before the answer to `Expect: 100-continue`.
// The property does not trust this list alone: an answer of ours that is one of these (or no
// answer) must also be what the reference server gives for the very same bytes, with a handler
// that answers at once or one that takes 25 ms (so that timing alone cannot tell them apart).
import fc from "fast-check";
import { connect } from "node:net";

/** Bun's protocol-level refusals, byte for byte (see above). */
export const BUN_REFUSALS = [
  "HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n",
  "HTTP/1.1 413 Request Entity Too Large\r\nConnection: close\r\n\r\n",
  "HTTP/1.1 413 Request Entity Too Large\r\n\r\n",
  "HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n",
  "HTTP/1.1 505 HTTP Version Not Supported\r\nConnection: close\r\n\r\n",
] as const;
export const CONTINUE = "HTTP/1.1 100 Continue\r\n\r\n";

// ---- the socket ---------------------------------------------------------------------------------

export interface WireOutcome {
  /** Every byte the server sent before closing. */
  data: Buffer<ArrayBufferLike>;
  /** A socket error seen (e.g. ECONNRESET when the server closed while we were still writing). */
  error?: string;
  /** We closed our side because no answer came within `stallMs` of a complete request. */
  stalled: boolean;
  /** The server did not close within the time allowed (after our side was closed): a hang. */
  timedOut: boolean;
}

/**
 * Writes `bytes` on a new connection to 127.0.0.1:`port` and collects all the server sends until it
 * closes (bounded by `timeoutMs`). Our side of the connection is closed (a FIN) as soon as a final
 * answer has come; at once when the request is `incomplete` (its body never ends: the FIN is what
 * ends it); else after `stallMs` without an answer. Not at once in every case: Bun drops the
 * answer of a handler still running when the client's FIN arrives (a bare Bun.serve whose handler
 * takes 20 ms answers a half-closed connection with nothing), and a CV upload takes that long.
 */
export function rawExchange(port: number, bytes: Uint8Array, options: { incomplete: boolean; stallMs: number; timeoutMs: number }): Promise<WireOutcome> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let error: string | undefined;
    let done = false;
    let ended = false;
    let stalled = false;
    const socket = connect({ port, host: "127.0.0.1" });
    const end = () => {
      if (ended || done) return;
      ended = true;
      clearTimeout(stall);
      socket.end();
    };
    const finish = (timedOut: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearTimeout(stall);
      socket.destroy();
      resolve({ data: Buffer.concat(chunks), error, stalled, timedOut });
    };
    const timer = setTimeout(() => finish(true), options.timeoutMs);
    let stall: Timer | undefined;
    socket.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      if (!ended && hasFinalAnswer(Buffer.concat(chunks))) end();
    });
    socket.on("error", (e: NodeJS.ErrnoException) => void (error ??= e.code ?? e.message));
    socket.on("close", () => finish(false));
    socket.on("connect", () => {
      socket.write(bytes);
      if (options.incomplete) end();
      else stall = setTimeout(() => ((stalled = true), end()), options.stallMs);
    });
  });
}

/** True once `data` holds a whole answer other than `100 Continue`. */
function hasFinalAnswer(data: Buffer<ArrayBufferLike>): boolean {
  try {
    return parseResponses(data).some(
      (r) => r.status >= 200 && (header(r, "content-length") !== null || header(r, "transfer-encoding") !== null || (BUN_REFUSALS as readonly string[]).includes(r.raw)),
    );
  } catch {
    return false; // not whole yet
  }
}

// ---- parsing the answers ------------------------------------------------------------------------

export interface WireResponse {
  status: number;
  /** Header names lower-cased, values as sent, in order. */
  headers: [string, string][];
  body: Buffer<ArrayBufferLike>;
  /** The whole response as bytes (latin1), head and body. */
  raw: string;
}

export const header = (response: WireResponse, name: string) => response.headers.find(([n]) => n === name)?.[1] ?? null;
export const headerCount = (response: WireResponse, name: string) => response.headers.filter(([n]) => n === name).length;

/** Thrown when the bytes end in the middle of a response. */
class Incomplete extends Error {}

/** Splits what a server sent into HTTP/1.1 responses; throws on anything that is not one. With
 * `cutShort`, a last response that the bytes end in the middle of is left out instead (the
 * connection was reset: see `responsesOf` in fuzz.test.ts). */
export function parseResponses(data: Buffer<ArrayBufferLike>, cutShort = false): WireResponse[] {
  const out: WireResponse[] = [];
  let at = 0;
  for (let guard = 0; at < data.length; guard++) {
    if (guard > 1000) throw new Error("more than 1000 responses on one connection");
    let response: { response: WireResponse; next: number };
    try {
      response = parseOne(data, at);
    } catch (error) {
      if (cutShort && error instanceof Incomplete) break;
      throw error;
    }
    out.push(response.response);
    at = response.next;
  }
  return out;
}

function parseOne(data: Buffer<ArrayBufferLike>, at: number): { response: WireResponse; next: number } {
  const end = data.indexOf("\r\n\r\n", at, "latin1");
  if (end < 0) throw new Incomplete(`an incomplete response head: ${JSON.stringify(data.subarray(at, at + 200).toString("latin1"))}`);
  const lines = data.subarray(at, end).toString("latin1").split("\r\n");
  const statusLine = /^HTTP\/1\.1 (\d{3}) [^\r\n]*$/.exec(lines[0]);
  if (!statusLine) throw new Error(`not a status line: ${JSON.stringify(lines[0].slice(0, 200))}`);
  const status = Number(statusLine[1]);
  const headers: [string, string][] = lines.slice(1).map((line) => {
    const match = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*?)[ \t]*$/.exec(line);
    if (!match) throw new Error(`not a header line: ${JSON.stringify(line.slice(0, 200))}`);
    return [match[1].toLowerCase(), match[2]];
  });
  let next = end + 4;
  let body: Buffer<ArrayBufferLike> = Buffer.alloc(0);
  const lengths = headers.filter(([n]) => n === "content-length").map(([, v]) => v);
  const chunked = headers.some(([n, v]) => n === "transfer-encoding" && /(^|,)\s*chunked\s*$/i.test(v));
  if (status < 200 || status === 204 || status === 304) {
    if (lengths.length > 0 || chunked) throw new Error(`status ${status} with a body`);
  } else if (chunked) {
    const parts: Buffer[] = [];
    for (let chunks = 0; ; chunks++) {
      if (chunks > 100_000) throw new Error("too many chunks");
      const lineEnd = data.indexOf("\r\n", next, "latin1");
      if (lineEnd < 0) throw new Incomplete("an incomplete chunked body");
      const size = parseInt(data.subarray(next, lineEnd).toString("latin1").split(";")[0], 16);
      if (!Number.isSafeInteger(size) || size < 0) throw new Error("a bad chunk size in a response");
      next = lineEnd + 2;
      if (size === 0) {
        const trailerEnd = data.indexOf("\r\n", next, "latin1");
        if (trailerEnd !== next) throw new Error("trailers in a response");
        next += 2;
        break;
      }
      if (next + size + 2 > data.length) throw new Incomplete("an incomplete chunk");
      parts.push(data.subarray(next, next + size));
      next += size + 2;
    }
    body = Buffer.concat(parts);
  } else if (lengths.length > 0) {
    if (lengths.length > 1 || !/^\d+$/.test(lengths[0])) throw new Error(`Content-Length ${JSON.stringify(lengths)}`);
    const length = Number(lengths[0]);
    if (next + length > data.length) throw new Incomplete(`a body shorter (${data.length - next}) than its Content-Length (${length})`);
    body = data.subarray(next, next + length);
    next += length;
  } else {
    body = data.subarray(next); // delimited by the close
    next = data.length;
  }
  return { response: { status, headers, body: decoded(body, headers), raw: data.subarray(at, next).toString("latin1") }, next };
}

/** The body as the server meant it: the fuzzer may send `Accept-Encoding: gzip, br`, and then a
 * large enough answer comes compressed (src/http/compress.ts), as any client that asks expects. */
function decoded(body: Buffer<ArrayBufferLike>, headers: [string, string][]): Buffer<ArrayBufferLike> {
  const encoding = headers.find(([n]) => n === "content-encoding")?.[1].toLowerCase();
  if (encoding === undefined || encoding === "identity") return body;
  if (encoding === "gzip") return Buffer.from(Bun.gunzipSync(new Uint8Array(body)));
  throw new Error(`an answer in an encoding nobody asked for: ${encoding}`);
}

// ---- the reference server -----------------------------------------------------------------------

/** A bare Bun server with our server's options (src/server.ts: body cap lifted, idle timeout 30 s)
 * that reads every body and answers 200 "reference", at once or after `delayMs`: what it refuses,
 * Bun refuses. */
function referenceServer(delayMs: number) {
  return Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    maxRequestBodySize: Number.MAX_SAFE_INTEGER,
    idleTimeout: 30,
    async fetch(request) {
      try {
        await request.arrayBuffer();
      } catch {
        // the body never ended: nobody is left to answer
      }
      if (delayMs > 0) await Bun.sleep(delayMs);
      return new Response("reference", { headers: { "x-reference": "1" } });
    },
  });
}

/** The reference servers: one whose handler answers at once, one whose handler takes 25 ms. */
export function startReference(): { ports: number[]; stop(): void } {
  const servers = [referenceServer(0), referenceServer(25)];
  return { ports: servers.map((s) => s.port!), stop: () => servers.forEach((s) => void s.stop(true)) };
}

// ---- hostile requests ---------------------------------------------------------------------------

/** Strings here are byte strings (one char per byte, written as latin1). */
const utf8 = (text: string) => Buffer.from(text, "utf8").toString("latin1");

export type Framing =
  | { kind: "length"; delta: number } // Content-Length: the body's length + delta (≥ 0)
  | { kind: "length-value"; value: string } // Content-Length as given, whatever the body
  | { kind: "length-twice"; second: string | null } // the right Content-Length twice, or with another
  | { kind: "none" } // no framing header: the body's bytes follow the head as they are
  | {
      kind: "chunked";
      te: string[]; // Transfer-Encoding header values (one header each)
      cuts: number[]; // chunk sizes, cycled
      upper: boolean;
      zeros: number; // leading zeros on sizes
      ext: string | null; // a chunk extension on each size line
      trailer: string | null;
      end: "final" | "missing" | "empty-middle";
      eol: "\r\n" | "\n";
      lie: number; // added to the first chunk's size
      badSize: string | null; // the first chunk's size line, as given
      withLength: string | null; // a Content-Length too
    };

export interface WireShape {
  method: "route" | "lower" | "other";
  otherMethod: string;
  target: "origin" | "absolute" | "fragment" | "raw-space" | "raw-utf8" | "star" | "double-slash";
  version: string;
  host: { kind: "real" } | { kind: "none" } | { kind: "value"; values: string[] };
  authorization: "once" | "none" | "twice-same" | "twice-other";
  contentType: "once" | "none" | "twice";
  requestId: "once" | "twice";
  framing: Framing;
  extras: string[]; // extra header lines (byte strings), each without its CRLF
  expectContinue: boolean;
  after: "nothing" | "healthz" | "garbage";
}

const HOSTS = [
  "", " ", "localhost", "a", "app", "a b", "/", "a/b", "a?b", "a#b", "u:p@h", "[::1]", "[::1]:1", "h:99999", "h:-1", "h:", ":80",
  "%00", "%41", "..", utf8("évil.example"), utf8("xn--e-bga.example"), "\th\t", "127.0.0.1:0", "host,other", "a".repeat(300),
  "localhost:8080/api/v1", "http://a", "@", "[", "]",
];

const LENGTH_VALUES = [
  "abc", "-1", "-0", "+2", "0x10", "1e3", "", " ", "2, 2", "2 2", "99999999999999999999", "9007199254740991", "9007199254740992",
  "9007199254740993", "18446744073709551616", "1048576", "1048577", "10485761", "11534337", "0", "00000000000000000000002",
  "\u0000", "٣", // an Arabic-Indic digit
];

const TE_VALUES = ["chunked", "chunked", "chunked", "Chunked", "CHUNKED", "chunked, chunked", "gzip, chunked", "chunked, gzip", "identity", " chunked", "chunked ", "chunked;q=1", "x-unknown"];

const EXTRA_LINES = [
  "X-A: a\u0001b", "X A: 1", "X-A : 1", "X-A:\u0000", "X-A:  padded  ", "NoColon", ": no-name", `${utf8("X-Ü")}: 1`, "X-A: \u00e9\u00ff",
  "X-A: 1\r\n folded", "Connection: close", "Connection: keep-alive, Upgrade", "Upgrade: websocket", "Upgrade: h2c",
  "Content-Encoding: gzip", "Accept-Encoding: gzip, br", "Range: bytes=0-1", "Range: bytes=999999-", "Range: bytes=-3", "Range: bytes=5-1", "If-None-Match: *", "If-Modified-Since: Thu, 01 Jan 1970 00:00:00 GMT",
  "Cookie: a=b", "Origin: null", "X-Forwarded-For: 1.2.3.4", "X-Forwarded-Host: evil.example", "X-HTTP-Method-Override: DELETE",
  "Transfer-Encoding: chunked", "Content-Length: 0", "Host: second.example", "Expect: 200-ok", "TE: trailers", "Trailer: X-T",
  "X-Empty:", "x-request-id: second", "AUTHORIZATION: Bearer x", "content-type: text/plain",
];

const framing: fc.Arbitrary<Framing> = fc.oneof(
  { weight: 40, arbitrary: fc.record({ kind: fc.constant("length" as const), delta: fc.constant(0) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("length" as const), delta: fc.integer({ min: -40, max: 40 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("length-value" as const), value: fc.constantFrom(...LENGTH_VALUES) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("length-twice" as const), second: fc.constantFrom(null, "0", "1", "abc", "99999") }) },
  { weight: 1, arbitrary: fc.constant({ kind: "none" as const }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("chunked" as const),
      te: fc.oneof({ weight: 6, arbitrary: fc.constant<string[]>(["chunked"]) }, { weight: 2, arbitrary: fc.array(fc.constantFrom(...TE_VALUES), { minLength: 1, maxLength: 2 }) }),
      cuts: fc.array(fc.integer({ min: 1, max: 4096 }), { minLength: 1, maxLength: 5 }),
      upper: fc.boolean(),
      zeros: fc.oneof({ weight: 5, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.nat(20) }),
      ext: fc.option(fc.constantFrom("a=b", "a", "a=\"q;\"", " a=b", "a=b;c", "\u0001"), { freq: 5 }),
      trailer: fc.option(fc.constantFrom("X-T: 1", "Content-Length: 5", "Host: evil", "bad trailer"), { freq: 5 }),
      end: fc.constantFrom("final", "final", "final", "final", "missing", "empty-middle"),
      eol: fc.constantFrom("\r\n", "\r\n", "\r\n", "\r\n", "\r\n", "\n"),
      lie: fc.oneof({ weight: 8, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: -3, max: 50 }) }),
      badSize: fc.option(fc.constantFrom("zz", "-1", "ffffffffffffffffff", " 2", "2 ", "0x2", "", "+2", "1_0"), { freq: 10 }),
      withLength: fc.option(fc.constantFrom("0", "2", "100", "abc"), { freq: 10 }),
    }),
  },
);

/** `common`, or one of `rare` once in `1 + odds` times. */
const mostly = <T>(odds: number, common: T, ...rare: T[]): fc.Arbitrary<T> =>
  fc.oneof({ weight: odds, arbitrary: fc.constant(common) }, { weight: 1, arbitrary: fc.constantFrom(...rare) });

/** The shape of one hostile request, apart from what the route needs (method, path, body). Each
 * part is odd now and then only (1 in 5 to 1 in 13), so that a request has one or two odd parts,
 * many get through Bun's parser to the app, and some are refused by Bun itself. */
export const wireShape: fc.Arbitrary<WireShape> = fc.record({
  method: mostly<WireShape["method"]>(12, "route", "lower", "other"),
  otherMethod: fc.constantFrom("FOO", "PRI", "PUT", "GET", "POST", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT", "PROPFIND", "M-SEARCH", "QUERY"),
  target: mostly<WireShape["target"]>(12, "origin", "absolute", "fragment", "raw-space", "raw-utf8", "star", "double-slash"),
  version: mostly(12, "HTTP/1.1", "HTTP/1.0", "HTTP/1.0", "HTTP/2.0", "HTTP/1.2", "http/1.1", "HTTP/1.1 ", "HTTP/1"),
  host: fc.oneof(
    { weight: 16, arbitrary: fc.constant({ kind: "real" as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: "none" as const }) },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant("value" as const),
        values: fc.array(
          fc.oneof(
            { weight: 4, arbitrary: fc.constantFrom(...HOSTS) },
            { weight: 1, arbitrary: fc.integer({ min: 100, max: 17_000 }).map((n) => "h".repeat(n)) },
            { weight: 1, arbitrary: fc.string({ unit: "binary-ascii", maxLength: 20 }).map((s) => s.replace(/[\r\n]/g, "")) },
          ),
          { minLength: 1, maxLength: 2 },
        ),
      }),
    },
  ),
  authorization: mostly<WireShape["authorization"]>(12, "once", "none", "twice-same", "twice-other"),
  contentType: mostly<WireShape["contentType"]>(12, "once", "none", "twice"),
  requestId: mostly<WireShape["requestId"]>(12, "once", "twice"),
  framing,
  extras: fc.oneof(
    { weight: 32, arbitrary: fc.constant<string[]>([]) },
    { weight: 3, arbitrary: fc.array(fc.constantFrom(...EXTRA_LINES), { minLength: 1, maxLength: 3 }) },
    // very long values, around Bun's 16 KiB limit for the whole head
    { weight: 2, arbitrary: fc.constantFrom(100, 4_000, 8_000, 15_000, 16_000, 16_300, 16_400, 17_000, 40_000, 70_000).map((n) => [`X-Long: ${"v".repeat(n)}`]) },
    { weight: 1, arbitrary: fc.integer({ min: 10, max: 400 }).map((n) => Array.from({ length: n }, (_, i) => `X-H${i}: ${i}`)) },
    {
      weight: 1,
      arbitrary: fc.array(
        fc.tuple(fc.string({ unit: "binary-ascii", minLength: 1, maxLength: 12 }), fc.string({ unit: "binary-ascii", maxLength: 40 }))
          .map(([name, value]) => `${name}: ${value}`.replace(/[\r\n]/g, "")),
        { minLength: 1, maxLength: 2 },
      ),
    },
  ),
  expectContinue: mostly(12, false, true),
  after: mostly<WireShape["after"]>(12, "nothing", "healthz", "garbage"),
});

export interface WireParts {
  method: string;
  /** The path and query, as the route is asked for (already escaped where it must be). */
  path: string;
  authorization?: string;
  contentType?: string;
  requestId?: string;
  body: Uint8Array;
}

export interface WireRequest {
  bytes: Buffer;
  /** What the head says, for checks and messages. */
  method: string;
  target: string;
  requestIds: string[];
  expectContinue: boolean;
  /** The body, as framed, ends before its framing says (a Content-Length over the bytes sent, no
   * last chunk, a chunk longer than its bytes): only closing the connection ends it. */
  incomplete: boolean;
  /** A short description for failure messages. */
  label: string;
}

const hex = (n: number, upper: boolean, zeros: number) => "0".repeat(zeros) + (upper ? n.toString(16).toUpperCase() : n.toString(16));

function chunk(body: Uint8Array, f: Extract<Framing, { kind: "chunked" }>): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (let i = 0; at < body.length && i < 100_000; i++) {
    const size = Math.min(f.cuts[i % f.cuts.length], body.length - at);
    const declared = i === 0 ? Math.max(0, size + f.lie) : size;
    const sizeLine = i === 0 && f.badSize !== null ? f.badSize : hex(declared, f.upper, f.zeros) + (f.ext !== null ? `;${f.ext}` : "");
    parts.push(Buffer.from(sizeLine + f.eol, "latin1"), Buffer.from(body.subarray(at, at + size)), Buffer.from(f.eol, "latin1"));
    at += size;
    if (f.end === "empty-middle" && i === 0) parts.push(Buffer.from(`0${f.eol}${f.eol}`, "latin1"));
  }
  if (f.end !== "missing") parts.push(Buffer.from(`0${f.eol}${f.trailer !== null ? f.trailer + f.eol : ""}${f.eol}`, "latin1"));
  return Buffer.concat(parts);
}

/** The bytes of one request: `parts` (what the route needs) written in the hostile `shape`. */
export function buildWire(parts: WireParts, shape: WireShape, port: number): WireRequest {
  const method = shape.method === "route" ? parts.method : shape.method === "lower" ? parts.method.toLowerCase() : shape.otherMethod;
  const target = {
    origin: parts.path,
    absolute: `http://127.0.0.1:${port}${parts.path}`,
    fragment: `${parts.path}#frag`,
    "raw-space": parts.path.replace(/\/([^/]*)$/, "/ $1"),
    "raw-utf8": parts.path + utf8("é☃"),
    star: "*",
    "double-slash": `/${parts.path}`,
  }[shape.target];
  const lines: string[] = [`${method} ${target} ${shape.version}`];
  if (shape.host.kind === "real") lines.push(`Host: 127.0.0.1:${port}`);
  if (shape.host.kind === "value") for (const value of shape.host.values) lines.push(`Host: ${value}`);
  if (parts.authorization !== undefined && shape.authorization !== "none") {
    lines.push(`Authorization: ${parts.authorization}`);
    if (shape.authorization === "twice-same") lines.push(`Authorization: ${parts.authorization}`);
    if (shape.authorization === "twice-other") lines.push("Authorization: Bearer svc_live_" + "B".repeat(32));
  }
  if (parts.contentType !== undefined && shape.contentType !== "none") {
    lines.push(`Content-Type: ${parts.contentType}`);
    if (shape.contentType === "twice") lines.push("Content-Type: text/plain");
  }
  if (parts.requestId !== undefined) {
    lines.push(`X-Request-Id: ${parts.requestId}`);
    if (shape.requestId === "twice") lines.push("X-Request-Id: second-id");
  }
  if (shape.expectContinue) lines.push("Expect: 100-continue");
  lines.push(...shape.extras);
  // The X-Request-Id values the head carries in the end (an extra line may add one).
  const requestIds = lines.slice(1).filter((l) => /^x-request-id:/i.test(l)).map((l) => l.slice(l.indexOf(":") + 1).trim());
  const f = shape.framing;
  let body: Buffer = Buffer.from(parts.body);
  if (f.kind === "length") lines.push(`Content-Length: ${Math.max(0, body.length + f.delta)}`);
  if (f.kind === "length-value") lines.push(`Content-Length: ${f.value}`);
  if (f.kind === "length-twice") lines.push(`Content-Length: ${body.length}`, `Content-Length: ${f.second ?? body.length}`);
  if (f.kind === "chunked") {
    for (const te of f.te) lines.push(`Transfer-Encoding: ${te}`);
    if (f.withLength !== null) lines.push(`Content-Length: ${f.withLength}`);
    body = chunk(parts.body, f);
  }
  const after = { nothing: "", healthz: `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`, garbage: "\u0016\u0003\u0001 not http\r\n\r\n" }[shape.after];
  const head = Buffer.from(lines.map((l) => l.replace(/[\u0100-\uffff]/g, "?")).join("\r\n") + "\r\n\r\n", "latin1");
  const bytes = Buffer.concat([head, body, Buffer.from(after, "latin1")]);
  const describe = (s: string) => JSON.stringify(s.length > 120 ? `${s.slice(0, 120)}…(${s.length})` : s);
  const label = `${method} ${describe(target)} ${shape.version} host=${describe(JSON.stringify(shape.host))} framing=${JSON.stringify(f).slice(0, 200)} extras=${describe(shape.extras.join(" | "))} after=${shape.after} body=${parts.body.length} B`;
  const declared = (value: string) => (/^\d+$/.test(value) ? Number(value) : 0);
  const incomplete =
    f.kind === "length" ? f.delta > 0
    : f.kind === "length-value" ? declared(f.value) > parts.body.length
    : f.kind === "chunked" ? f.end === "missing" || f.lie > 0
    : false;
  return { bytes, method, target, requestIds, expectContinue: shape.expectContinue, incomplete, label };
}
