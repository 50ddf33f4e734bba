// Previous / "page n of m" / next, as links to the same screen with another `page` in its query
// string, so that a page can be bookmarked, shared and reached with the browser's back button.
import { Link } from "wouter";
import { pageCount, pageHref } from "./paging";

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
