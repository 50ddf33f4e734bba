// A long JSON answer made after an await leaves in one write.
//
// Bun (1.4.5) corks a socket around a request's synchronous handling, and an answer made later (every
// answer on PostgreSQL, after its statement; a change's on SQLite, after its group commit) is written
// corked only while it fits the 16 KiB cork buffer. A longer one leaves uncorked: the status line,
// then each header's name, ": ", value and line end, then the body, each a send() of its own and a
// TCP segment, about 30 for a page of 25 dossiers (19.7 KB) where one would do (oven-sh/bun#41341,
// open). Measured on this machine, a 20 KB answer after a PostgreSQL round trip: 5,000 a second
// written so, 20,000 through a direct stream, which Bun writes corked whole: one send(), in chunked
// transfer coding instead of a Content-Length (docs/performance.md, "Long answers in one write").
const CORKED_MAX_BYTES = 15 * 1024;

const NO_BODY = new Set([101, 204, 205, 304]);

/** An answer its route keeps (a remembered page of dossiers, a remembered record's, src/http/route.ts):
 * its text, the text's length in bytes, and its bytes once inOneWrite has encoded them. */
export interface KeptAnswer {
  text: string;
  length: number;
  bytes?: Uint8Array;
}

/** A long kept answer is written from its bytes, encoded once: reading them back out of each
 * Response cost more than the rest of the request's own work (issue 34: 107 µs of the server's
 * thread a page of 25 dossiers on PostgreSQL, 66 µs so). */
const keptAnswers = new WeakMap<Request, KeptAnswer>();

/** Tells inOneWrite that `request`'s answer is `kept`, whose text nothing changes afterwards (a
 * short one leaves as it is: nothing to tell). */
export function sendsKept(request: Request, kept: KeptAnswer): void {
  if (kept.length > CORKED_MAX_BYTES) keptAnswers.set(request, kept);
}

/** `response`, or the same answer through a direct stream when it is a JSON body too long to be
 * written corked. Only JSON is read here: its body is in memory, never a file or a stream. */
export async function inOneWrite(request: Request, response: Response): Promise<Response> {
  if (request.method === "HEAD" || NO_BODY.has(response.status)) return response;
  const type = response.headers.get("content-type");
  if (type === null || !type.startsWith("application/json") || response.headers.has("content-encoding")) return response;
  // An answer whose length its route told (a remembered record's, src/http/route.ts) is not read
  // again to learn it.
  const told = response.headers.get("content-length");
  if (told !== null && Number(told) <= CORKED_MAX_BYTES) return response;
  // The kept answer only while the Response still has its length (not compressed, not an error).
  const kept = keptAnswers.get(request);
  const bytes = kept !== undefined && told !== null && Number(told) === kept.length ? (kept.bytes ??= Buffer.from(kept.text)) : new Uint8Array(await response.arrayBuffer());
  const init = { status: response.status, statusText: response.statusText, headers: response.headers };
  if (bytes.byteLength <= CORKED_MAX_BYTES) return new Response(bytes, init);
  const body = new ReadableStream({
    type: "direct",
    async pull(controller) {
      await controller.write(bytes); // a slow client's socket: the rest goes as it drains
      controller.close();
    },
  });
  return new Response(body, init);
}
