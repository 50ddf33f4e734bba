// Pages of a list in the address's query string: how many, the address of one, the numbers read.

export const pageCount = (total: number, perPage: number) => Math.max(1, Math.ceil(total / perPage));

/** The address of `page` of the screen, with every other parameter as it is. */
export function pageHref(path: string, params: URLSearchParams, page: number): string {
  const next = new URLSearchParams(params);
  if (page > 1) next.set("page", String(page));
  else next.delete("page");
  const query = next.toString();
  return query ? `${path}?${query}` : path;
}

/** A positive whole number from the query string, or `fallback`. */
export function whole(value: string | null, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 ? Math.min(n, max) : fallback;
}
