/** The content codings an Accept-Encoding header allows, lower-cased ("*" included as given); one
 * with q=0 is refused and left out. */
export function acceptedEncodings(accept: string | null): Set<string> {
  const allowed = new Set<string>();
  for (const part of (accept ?? "").toLowerCase().split(",")) {
    const [token, ...params] = part.split(";").map((piece) => piece.trim());
    const q = params.find((param) => param.startsWith("q="));
    if (token && !(q && Number(q.slice(2)) === 0)) allowed.add(token);
  }
  return allowed;
}
