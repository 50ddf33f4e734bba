// The CSV exports of the lists (C21): a plain link to GET /api/v1/<resource>/export with the list's
// filters, so that the browser downloads the streamed file itself, with the session's cookie (a GET
// needs no CSRF token), and names it from the answer's Content-Disposition.
import type { operations } from "./schema";

type DossierFilters = NonNullable<operations["exportDossiers"]["parameters"]["query"]>;
type ContactFilters = NonNullable<operations["exportContacts"]["parameters"]["query"]>;

function href(path: string, filters: Record<string, unknown>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) {
    if (value === undefined || value === null || value === "") continue;
    for (const one of Array.isArray(value) ? value : [value]) query.append(name, String(one));
  }
  const text = query.toString();
  return `/api/v1${path}${text ? `?${text}` : ""}`;
}

/** The export of the dossiers that match the list's filters (its page and page size left out). */
export const dossiersExport = ({ page: _page, per_page: _perPage, ...filters }: DossierFilters & { page?: number; per_page?: number }) => href("/dossiers/export", filters);

/** The export of the contacts that match the list's filters (its page and page size left out). */
export const contactsExport = ({ page: _page, per_page: _perPage, ...filters }: ContactFilters & { page?: number; per_page?: number }) => href("/contacts/export", filters);
