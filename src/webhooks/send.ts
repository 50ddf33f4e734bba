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
import http from "node:http";
import https from "node:https";
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
): Promise<SendResult> {
  const headers = {
    "content-type": "application/json",
    "user-agent": USER_AGENT,
    "x-service-event-id": event.id,
    "x-service-event-type": event.type,
    "x-service-signature": signatureHeader(secrets, Math.floor(at.getTime() / 1000), event.body),
  };
  return sendAttempt(url, event.body, headers, timeoutMs, now);
}

/** Sends one attempt. Never throws: a failure is described in the result. The time limit covers
 * the whole attempt: connection, request, answer and the snippet of its body. */
export function sendAttempt(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
  now: () => Date,
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
