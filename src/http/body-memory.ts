// Request bodies held at once (issue 32): the routes buffer a body whole before they use it (a CV
// of 10 MB, a message of 25 MB), so without a cap 40 uploads at a time took the server from 71 to
// 686 MB, and more would take it until the kernel killed it. The bytes of bodies in flight are
// capped (DOSSIER_BODY_MEMORY, default 256MB): a body beyond the cap is refused with 503
// server_busy and Retry-After (as C20 refuses password hashes beyond its queue), and the client
// sends it again in a moment.
//   - A body with a Content-Length holds that many bytes from its arrival: it is refused before
//     anything else is checked or read. One declared larger than any route takes (51 MB, an
//     import's form) holds nothing: it is refused 413 before it is read, or never read.
//   - A chunked body holds its bytes as they arrive, and is refused (503) at the chunk that passes
//     the cap, as a body that passes a route's limit is refused 413 while it streams.
//   - What a request holds is given back when its answer is ready, whatever the answer: the body
//     has been read, refused or abandoned by then (a client that goes away mid-body fails the read).
//   - A body larger than the whole cap is taken when no other body is held, rather than never.
import { Elysia } from "elysia";
import { ApiError } from "../errors";
import { IMPORT_FORM_LIMIT } from "../csv";
import { MESSAGE_LIMIT } from "../intake/message";

/** The largest body a route reads (POST /imports' form, C21; POST /intake/{token}'s 25 MB, C15): a
 * larger declared body is never buffered. (It was the intake's 25 MB alone: an import's form of up
 * to 51 MB went uncounted.) */
const LARGEST_BODY = Math.max(MESSAGE_LIMIT, IMPORT_FORM_LIMIT);

const serverBusy = () => new ApiError("server_busy", "the server is busy; try again in a moment", 1);

interface Hold {
  bytes: number;
  /** Until the request ends: a chunk read after that (by no one, so far) is not counted. */
  open: boolean;
}

export class BodyMemory {
  private held = 0;
  private readonly holds = new WeakMap<Request, Hold>();
  private readonly refused = new WeakSet<Request>();

  constructor(readonly cap: number) {}

  /** Bytes of request bodies held now. */
  get inFlight(): number {
    return this.held;
  }

  /** Called as a request arrives, before anything reads it: gives the request to answer, the same
   * one, or for a chunked body one whose body counts its chunks. A body over the cap is marked for
   * `refusals` to refuse. */
  admit(request: Request): Request {
    const length = request.headers.get("content-length");
    if (length === null) return request.headers.has("transfer-encoding") && request.body ? this.counted(request) : request;
    const declared = Number(length);
    if (!(declared > 0) || declared > LARGEST_BODY) return request;
    const hold: Hold = { bytes: 0, open: true };
    if (this.take(hold, declared)) this.holds.set(request, hold);
    else this.refused.add(request);
    return request;
  }

  /** Called when the request's answer is ready (also when it failed): its bytes are given back. */
  release(request: Request): void {
    const hold = this.holds.get(request);
    if (!hold?.open) return;
    hold.open = false;
    this.held -= hold.bytes;
  }

  /** Refuses, before any other check, a request whose declared body did not fit (503 server_busy,
   * Retry-After: 1, in the API's envelope through the errors plugin). */
  refusals() {
    return new Elysia({ name: "body-memory" }).onRequest(({ request }) => {
      if (this.refused.has(request)) throw serverBusy();
    });
  }

  private take(hold: Hold, bytes: number): boolean {
    if (this.held + bytes > this.cap && this.held > hold.bytes) return false;
    this.held += bytes;
    hold.bytes += bytes;
    return true;
  }

  /** The request with its chunked body counted as it is read: the chunk that does not fit fails
   * the read with server_busy, which the route's reader passes on (src/http/request.ts readBytes). */
  private counted(request: Request): Request {
    const hold: Hold = { bytes: 0, open: true };
    const counter = new TransformStream<Uint8Array, Uint8Array>({
      transform: (chunk, controller) => {
        if (hold.open && !this.take(hold, chunk.byteLength)) throw serverBusy();
        controller.enqueue(chunk);
      },
    });
    const counted = new Request(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body!.pipeThrough(counter),
      signal: request.signal,
      duplex: "half",
    } as RequestInit);
    this.holds.set(counted, hold);
    return counted;
  }
}
