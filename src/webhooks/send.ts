// One delivery attempt over HTTP (C7): POST, redirects not followed, a time limit, and what the
// delivery log keeps of the answer (status or network error, duration, first 1 KB of the body).

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

/** Sends one attempt. Never throws: a failure is described in the result. */
export async function sendAttempt(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
  now: () => Date,
): Promise<SendResult> {
  const started = performance.now();
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, { method: "POST", body, headers, redirect: "manual", signal });
  } catch (error) {
    return {
      statusCode: null,
      error: signal.aborted ? `timeout: no answer within ${timeoutMs} ms` : describeError(error),
      durationMs: Math.round(performance.now() - started),
      responseSnippet: null,
      retryAfterMs: null,
    };
  }
  // The status decided the outcome; the snippet is read on a best-effort basis within the same limit.
  const responseSnippet = await readSnippet(response);
  const retryAfterMs =
    response.status === 429 || response.status === 503 ? parseRetryAfter(response.headers.get("retry-after"), now()) : null;
  return {
    statusCode: response.status,
    error: response.status >= 200 && response.status < 300 ? null : `HTTP ${response.status}`,
    durationMs: Math.round(performance.now() - started),
    responseSnippet,
    retryAfterMs,
  };
}

function describeError(error: unknown): string {
  const message = error instanceof Error ? `${error.name === "Error" ? "" : error.name + ": "}${error.message}` : String(error);
  return message.slice(0, 500) || "network error";
}

const WHOLE_BODY_BYTES = 64 * 1024;

async function readSnippet(response: Response): Promise<string | null> {
  if (!response.body) return null;
  const length = Number(response.headers.get("content-length") ?? NaN);
  if (length >= 0 && length <= WHOLE_BODY_BYTES) {
    // A small answer of known size (the usual "ok"): read it whole, in one step.
    try {
      const bytes = new Uint8Array(await response.arrayBuffer());
      return bytes.byteLength === 0 ? null : new TextDecoder().decode(bytes.subarray(0, SNIPPET_BYTES));
    } catch {
      return null;
    }
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < SNIPPET_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
    if (size >= SNIPPET_BYTES) await reader.cancel().catch(() => {});
  } catch {
    // A body cut short (or the time limit) keeps what arrived.
  }
  if (size === 0) return null;
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes.subarray(0, SNIPPET_BYTES));
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
