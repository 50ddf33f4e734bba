// Reading a request's URL as Bun builds it from whatever Host header the client sent.
/** Elysia looks for the path from the 12th character of the URL on, as if every host had at least
 * four characters: behind a proxy that sends `Host: app`, `http://app/api/v1/flows` would route
 * as `/flows`. Such a URL, a bare path, or one that does not parse (`Host: h:-1`, whose URL no
 * Request or URL can be made from, as a chunked body's count and an Idempotency-Key's fingerprint
 * do) is re-based on a host long enough; the path and query are untouched. */
export function routable(request: Request): Request {
  const url = request.url;
  // Bun gives a path alone (no scheme, no host) when the Host header is empty or not a valid host.
  if (url.startsWith("/")) return new Request(`http://localhost${url}`, request);
  const slash = url.indexOf("/", url.indexOf("//") + 2);
  if (slash === -1) return URL.canParse(url) ? request : new Request("http://localhost/", request);
  // URL.canParse: about 130 ns, against tens of microseconds for the request.
  return slash < 11 || !URL.canParse(url) ? new Request(`http://localhost${url.slice(slash)}`, request) : request;
}

/** The path of a request's URL, read without parsing the URL: Bun builds it from the Host header as
 * sent, so it may not parse (`Host: ]` gives "http://]/x"), or be a path alone (an empty Host). */
export function pathOf(url: string): string {
  const start = url.startsWith("/") ? 0 : url.indexOf("/", url.indexOf("//") + 2);
  if (start < 0) return "/";
  const query = url.indexOf("?", start);
  return query < 0 ? url.slice(start) : url.slice(start, query);
}
