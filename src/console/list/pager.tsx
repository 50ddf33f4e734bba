// Previous / "page n of m" / next, as links to the same screen with another `page` in its query
// string, so that a page can be bookmarked, shared and reached with the browser's back button.
import { Link } from "wouter";

interface PagerProps {
  /** The screen's path, e.g. "/dossiers". */
  path: string;
  /** The query string as it is now (filters kept). */
  params: URLSearchParams;
  page: number;
  perPage: number;
  total: number;
  /** What the pages are of, for the navigation's name ("Pages of dossiers"). */
  of: string;
}

export const pageCount = (total: number, perPage: number) => Math.max(1, Math.ceil(total / perPage));

/** The address of `page` of the screen, with every other parameter as it is. */
export function pageHref(path: string, params: URLSearchParams, page: number): string {
  const next = new URLSearchParams(params);
  if (page > 1) next.set("page", String(page));
  else next.delete("page");
  const query = next.toString();
  return query ? `${path}?${query}` : path;
}

export function Pager({ path, params, page, perPage, total, of }: PagerProps) {
  const pages = pageCount(total, perPage);
  return (
    <nav className="pager" aria-label={`Pages of ${of}`}>
      {page > 1 ? (
        <Link href={pageHref(path, params, Math.min(page - 1, pages))} rel="prev">
          Previous page
        </Link>
      ) : (
        <span aria-hidden="true" className="pager-off">
          Previous page
        </span>
      )}
      <span className="pager-at">
        Page {page} of {pages}
      </span>
      {page < pages ? (
        <Link href={pageHref(path, params, page + 1)} rel="next">
          Next page
        </Link>
      ) : (
        <span aria-hidden="true" className="pager-off">
          Next page
        </span>
      )}
    </nav>
  );
}

/** A positive whole number from the query string, or `fallback`. */
export function whole(value: string | null, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 ? Math.min(n, max) : fallback;
}
