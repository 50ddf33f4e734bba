// JSON answers of more than 1 KiB go gzip-compressed to clients that accept it: a board's first load
// asks for seven columns of 50 dossiers, about 40 kB of JSON each and a seventh of that compressed
// (C14: the first load under 250 KB). An answer with an ETag goes as it is: a strong ETag names the
// bytes of one representation, and If-Match must keep matching what the client holds (one record's
// answer is small anyway). A request that accepts no gzip costs one header read: the answer is not
// touched (an identity answer needs no `Vary` for a cache to stay right; a gzip one carries it).
import { acceptedEncodings } from "./encoding";

const MIN_BYTES = 1024;

export function compressed(request: Request, response: Promise<Response>): Promise<Response> {
  const accept = request.headers.get("accept-encoding");
  if (accept === null || request.method === "HEAD") return response;
  const accepted = acceptedEncodings(accept);
  if (!accepted.has("gzip") && !accepted.has("*")) return response;
  return response.then(gzipped);
}

async function gzipped(response: Response): Promise<Response> {
  const headers = response.headers;
  if (response.status === 204 || response.status === 304 || response.body === null) return response;
  if (headers.has("content-encoding") || headers.has("etag") || !headers.get("content-type")?.startsWith("application/json")) return response;
  headers.append("vary", "Accept-Encoding");
  const body = new Uint8Array(await response.arrayBuffer());
  if (body.byteLength < MIN_BYTES) return new Response(body, { status: response.status, statusText: response.statusText, headers });
  headers.set("content-encoding", "gzip");
  headers.delete("content-length");
  return new Response(Bun.gzipSync(body, { level: 5 }), { status: response.status, statusText: response.statusText, headers });
}
