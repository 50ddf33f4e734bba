// One delivery attempt over HTTP (C7): signed afresh with the current time, POST, redirects not
// followed, a time limit, and what the delivery log keeps of the answer (status or network error,
// duration, first 1 KB of the body).
//
// The client is node:http / node:https, not fetch: Bun's fetch runs at most 256 requests at once
// in the whole process (BUN_CONFIG_MAX_HTTP_REQUESTS, read once at start), so 256 endpoints that
// never answer would queue every other organization's delivery behind them until they time out
// (C7: a slow endpoint holds back only its own organization). node:http has no such process-wide
// limit; the dispatcher bounds the requests in flight itself (fair-queue.ts). Connections are
// kept alive and reused between attempts to the same host.
import dns, { type LookupAddress, type LookupOptions } from "node:dns";
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { signatureHeader } from "./signature";

export const USER_AGENT = "Dossier-Webhooks/1";
export const SNIPPET_BYTES = 1024;
export const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

export interface SendResult {
  /** The answer's status, or null when none came (network error, time limit). */
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  responseSnippet: string | null;
  /** What a 429 or 503 asked for with Retry-After, in ms (at most 24 h); else null. */
  retryAfterMs: number | null;
}

export const isSuccess = (result: SendResult) => result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;

const httpAgent = new http.Agent({ keepAlive: true });
const httpsAgent = new https.Agent({ keepAlive: true });
/** An answer of known size up to this is read to its end (its connection can then be reused). */
const WHOLE_BODY_BYTES = 64 * 1024;

/** The event as it is delivered: its id, type and exact body. */
export interface OutgoingEvent {
  id: string;
  type: string;
  body: string;
}

/** Signs `event` with the clear `secrets` (current first, C7) as of `at`, and sends it. */
export function sendSigned(
  url: string,
  event: OutgoingEvent,
  secrets: readonly string[],
  at: Date,
  timeoutMs: number,
  now: () => Date,
  allowPrivate = true,
): Promise<SendResult> {
  const headers = {
    "content-type": "application/json",
    "user-agent": USER_AGENT,
    "x-service-event-id": event.id,
    "x-service-event-type": event.type,
    "x-service-signature": signatureHeader(secrets, Math.floor(at.getTime() / 1000), event.body),
  };
  return sendAttempt(url, event.body, headers, timeoutMs, now, allowPrivate);
}

/** Sends one attempt. Never throws: a failure is described in the result. The time limit covers
 * the whole attempt: connection, request, answer and the snippet of its body. The address is
 * checked as it is connected to (C20 "Webhook URLs"): a name may resolve elsewhere than when the
 * URL was set. `resolveName` is the system's resolver unless a test gives its own. */
export function sendAttempt(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
  now: () => Date,
  allowPrivate = true,
  resolveName: Resolve = systemResolve,
): Promise<SendResult> {
  const started = performance.now();
  return new Promise<SendResult>((resolve) => {
    let done = false;
    let timedOut = false;
    let response: http.IncomingMessage | null = null;
    const chunks: Buffer[] = [];
    let size = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;

    const finish = (failure?: unknown) => {
      if (done) return;
      done = true;
      if (timer) clearTimeout(timer);
      const durationMs = Math.round(performance.now() - started);
      if (!response) {
        const error = timedOut ? `timeout: no answer within ${timeoutMs} ms` : describeError(failure);
        resolve({ statusCode: null, error, durationMs, responseSnippet: null, retryAfterMs: null });
        return;
      }
      // The status decided the outcome; the snippet is what arrived of the body (best effort).
      const status = response.statusCode ?? 0;
      const retryAfter = header(response.headers["retry-after"]);
      resolve({
        statusCode: status,
        error: status >= 200 && status < 300 ? null : `HTTP ${status}`,
        durationMs,
        responseSnippet: size === 0 ? null : new TextDecoder().decode(Buffer.concat(chunks, size).subarray(0, SNIPPET_BYTES)),
        retryAfterMs: status === 429 || status === 503 ? parseRetryAfter(retryAfter, now()) : null,
      });
    };

    let target: URL;
    try {
      target = new URL(url);
      if (target.protocol !== "http:" && target.protocol !== "https:") throw new Error(`unsupported protocol ${target.protocol}`);
      const literal = unbracketed(target.hostname);
      const refusal = isIP(literal) ? refusedAddress(literal, allowPrivate) : null;
      if (refusal) throw new Error(refusal);
    } catch (error) {
      finish(error);
      return;
    }
    const secure = target.protocol === "https:";
    let request: http.ClientRequest;
    try {
      request = (secure ? https : http).request(
        target,
        {
          method: "POST",
          headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
          agent: secure ? httpsAgent : httpAgent,
          lookup: checkedLookup(allowPrivate, resolveName),
        },
        (answer) => {
          response = answer;
          const length = Number(answer.headers["content-length"] ?? NaN);
          // A small answer of known size (the usual "ok") is read whole, so the connection is reused.
          const readAll = length >= 0 && length <= WHOLE_BODY_BYTES;
          answer.on("data", (chunk: Buffer) => {
            if (size < SNIPPET_BYTES) {
              chunks.push(chunk);
              size += chunk.byteLength;
            }
            if (size >= SNIPPET_BYTES && !readAll) {
              finish();
              answer.destroy();
            }
          });
          answer.on("end", () => finish());
          answer.on("error", () => finish()); // a body cut short keeps what arrived
          answer.on("close", () => finish());
        },
      );
    } catch (error) {
      finish(error);
      return;
    }
    request.on("error", (error) => finish(error));
    timer = setTimeout(() => {
      timedOut = true;
      finish();
      request.destroy();
    }, timeoutMs);
    request.end(body);
  });
}

const header = (value: string | string[] | undefined): string | null => (Array.isArray(value) ? value[0] : value) ?? null;

function describeError(error: unknown): string {
  const message = error instanceof Error ? `${error.name === "Error" ? "" : error.name + ": "}${error.message}` : String(error);
  return message.slice(0, 500) || "network error";
}

/** Retry-After as delta seconds or an HTTP date, in ms from `now`, at most 24 h; null if absent or unreadable. */
export function parseRetryAfter(value: string | null, now: Date): number | null {
  if (!value) return null;
  const text = value.trim();
  let ms: number;
  if (/^\d+$/.test(text)) ms = Number(text) * 1000;
  else {
    // An HTTP date (e.g. "Wed, 21 Oct 2026 07:28:00 GMT") names its day or month in letters.
    const at = /[A-Za-z]{3}/.test(text) ? Date.parse(text) : NaN;
    if (Number.isNaN(at)) return null;
    ms = at - now.getTime();
  }
  return Math.max(0, Math.min(ms, MAX_RETRY_AFTER_MS));
}

// ---- which addresses a webhook may reach (C20 "Webhook URLs") ----

const unbracketed = (hostname: string) => hostname.replace(/^\[(.*)\]$/, "$1");

/** An IPv4 address as a number, or null. */
function ipv4(address: string): number | null {
  const parts = address.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return null;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

const inV4 = (n: number, base: string, bits: number) => Math.floor(n / 2 ** (32 - bits)) === Math.floor(ipv4(base)! / 2 ** (32 - bits));

/** The first 16 bits of an IPv6 address, its 128 bits, and the IPv4 address it carries when it is
 * one written as IPv6: IPv4-mapped (::ffff:a.b.c.d, however spelled: ::ffff:6464:64c8 is
 * 100.100.100.200), IPv4-compatible (::a.b.c.d) or NAT64 (64:ff9b::a.b.c.d), which reach that IPv4
 * address through the host's stack or a NAT64 gateway. */
function ipv6(address: string): { head: number; v4: string | null; all: bigint } | null {
  if (isIP(address) !== 6) return null;
  let text = address.toLowerCase().split("%")[0];
  let v4: string | null = null;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const n = ipv4(dotted[1])!;
    text = text.slice(0, -dotted[1].length) + `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [left, right] = text.includes("::") ? text.split("::") : [text, undefined];
  const head = left ? left.split(":") : [];
  const tail = right ? right.split(":") : [];
  const groups = right === undefined ? head : [...head, ...Array(8 - head.length - tail.length).fill("0"), ...tail];
  const all = groups.reduce((n, g) => (n << 16n) + BigInt(parseInt(g || "0", 16)), 0n);
  const prefix96 = all >> 32n;
  const carriesV4 = prefix96 === 0xffffn || prefix96 === NAT64_PREFIX || (prefix96 === 0n && all > 0xffffffn);
  if (carriesV4) v4 = [24n, 16n, 8n, 0n].map((s) => Number((all >> s) & 0xffn)).join(".");
  return { head: Number(all >> 112n), v4, all };
}

/** 64:ff9b::/96, the well-known NAT64 prefix (RFC 6052), as its first 96 bits. */
const NAT64_PREFIX = 0x64ff9bn << 64n;

/** Cloud metadata services outside the link-local ranges (C20 "Webhook URLs"): AWS's IPv6 one and
 * Alibaba Cloud's. Refused whatever DOSSIER_WEBHOOK_ALLOW_PRIVATE says, like link-local ones. */
const METADATA_V4 = ipv4("100.100.100.200")!;
const METADATA_V6 = ipv6("fd00:ec2::254")!.all;

/** Why a webhook may not reach `address` (an IP address, as a resolver or the URL parser gives it),
 * or null when it may. Link-local addresses and the other cloud metadata addresses never; loopback,
 * private and unspecified ones only with `allowPrivate` (DOSSIER_WEBHOOK_ALLOW_PRIVATE, default 1).
 * An IPv4 address written as IPv6 is judged as the IPv4 address. */
export function refusedAddress(address: string, allowPrivate: boolean): string | null {
  const v6 = ipv6(address);
  const v4text = v6 ? v6.v4 : address;
  const v4 = v4text === null ? null : ipv4(v4text);
  if (v4 !== null) {
    if (inV4(v4, "169.254.0.0", 16)) return `${address} is a link-local address`;
    if (v4 === METADATA_V4) return `${address} is a cloud metadata address`;
    if (allowPrivate) return null;
    const privateRanges: [string, number][] = [["127.0.0.0", 8], ["10.0.0.0", 8], ["172.16.0.0", 12], ["192.168.0.0", 16], ["100.64.0.0", 10], ["0.0.0.0", 8]];
    return privateRanges.some(([base, bits]) => inV4(v4, base, bits)) ? `${address} is a loopback or private address` : null;
  }
  if (!v6) return null;
  if ((v6.head & 0xffc0) === 0xfe80) return `${address} is a link-local address`;
  if (v6.all === METADATA_V6) return `${address} is a cloud metadata address`;
  if (allowPrivate) return null;
  if (v6.all === 0n || v6.all === 1n || (v6.head & 0xfe00) === 0xfc00) return `${address} is a loopback or private address`;
  return null;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** Every address a host name resolves to. The system's resolver (dns.lookup: /etc/hosts, then DNS)
 * unless a test names its own, to make a name resolve where no DNS of this machine points. */
export type Resolve = (hostname: string, options: LookupOptions) => Promise<LookupAddress[]>;
const systemResolve: Resolve = (hostname, options) => dns.promises.lookup(hostname, { ...options, all: true });

/** The connection's lookup: `resolveName`, failing with the refusal when any address the name resolves
 * to is refused. */
function checkedLookup(allowPrivate: boolean, resolveName: Resolve) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback) => {
    resolveName(hostname, options).then(
      (addresses) => {
        const refusal = addresses.map((a) => refusedAddress(a.address, allowPrivate)).find((r) => r !== null);
        if (refusal) return callback(Object.assign(new Error(`${hostname}: ${refusal}`), { code: "EADDRNOTALLOWED" }), "");
        if (addresses.length === 0) return callback(Object.assign(new Error(`${hostname}: no address`), { code: "ENOTFOUND" }), "");
        if (options.all) return callback(null, addresses);
        callback(null, addresses[0].address, addresses[0].family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ""),
    );
  };
}

/** Why a webhook URL is refused (C20 "Webhook URLs"), or null: http or https only, and no address
 * it resolves to now may be refused by refusedAddress. A name that does not resolve now is taken:
 * DNS may change, and every attempt checks again. */
export async function refusedWebhookUrl(url: string, allowPrivate: boolean): Promise<string | null> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return "url: must be an absolute http or https URL";
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") return "url: must be http or https";
  const host = unbracketed(target.hostname);
  if (isIP(host)) {
    const refusal = refusedAddress(host, allowPrivate);
    return refusal ? `url: ${refusal}` : null;
  }
  let addresses: LookupAddress[];
  try {
    addresses = await systemResolve(host, {});
  } catch {
    return null;
  }
  const refusal = addresses.map((a) => refusedAddress(a.address, allowPrivate)).find((r) => r !== null);
  return refusal ? `url: ${host} resolves to ${refusal.replace(/^\S+ is /, "")}` : null;
}
