// CSV exports (C21): every row of a list, with the list's filters and order, as one download.
//   GET /dossiers/export   GET /dossiers' filters (no page/per_page); dossiers:read
//   GET /contacts/export   GET /contacts' filters (no page/per_page); contacts:read
// The answer is streamed: the rows are read in keyset batches, each its own read snapshot, as the
// client takes them (src/services/exports.ts, src/csv/writer.ts), so memory stays flat whatever
// the row count. RFC 4180, UTF-8 with a BOM, CRLF, a header row of the API's field names.
import { csvStream, exportHeaders, resourceColumns, type CsvResource } from "../../csv";
import { CsvFile } from "../../schemas/imports";
import { ContactExportQuery } from "../../schemas/contacts";
import { DossierExportQuery } from "../../schemas/dossiers";
import { checkDossierFilters, exportContacts, exportDossiers, type Export } from "../../services/exports";
import { defineRoute } from "../route";
import { dossierFiltersOf } from "./dossiers";

const csvAnswer = (resource: CsvResource) => ({
  200: {
    description:
      `Every ${resource === "dossiers" ? "dossier" : "contact"} that matches the filters, in the list's order, as a CSV file (RFC 4180, UTF-8 with a BOM, ` +
      "CRLF line ends, a header row of the field names); streamed",
    mediaType: "text/csv",
    schema: CsvFile,
    headers: {
      "Content-Disposition": {
        description: `attachment; filename="${resource}-<yyyy-mm-dd>.csv" (the date in UTC)`,
        required: true,
        schema: { type: "string", pattern: `^attachment; filename="${resource}-\\d{4}-\\d{2}-\\d{2}\\.csv"$` },
      },
    },
  },
});

const GUARD =
  "A cell whose text begins with `=`, `+`, `-`, `@`, a tab or a carriage return is prefixed with `'` (spreadsheet formula injection); " +
  "an import of the file takes the prefix off again.";

/** The streamed answer: headers now, rows as the client reads them. */
async function download(resource: CsvResource, now: Date, started: Promise<Export<Record<string, unknown>>>): Promise<Response> {
  const { metadataKeys, batches } = await started;
  return new Response(csvStream(resourceColumns(resource, metadataKeys), batches), { headers: exportHeaders(resource, now) });
}

export const exportRoutes = [
  defineRoute({
    id: "exportDossiers",
    method: "GET",
    path: "/dossiers/export",
    summary: "Export dossiers as CSV",
    tag: "Dossiers",
    description:
      "Needs `dossiers:read`. GET /dossiers' filters (without paging), every matching dossier newest first, one row each, the columns in the " +
      `order of the Dossier schema. ${GUARD}`,
    scopes: ["dossiers:read"],
    query: DossierExportQuery,
    responses: csvAnswer("dossiers"),
    handler: ({ ctx, principal, query }) => {
      const filters = checkDossierFilters(dossierFiltersOf(query));
      return download("dossiers", ctx.now(), exportDossiers(ctx, principal.organizationId, filters));
    },
  }),
  defineRoute({
    id: "exportContacts",
    method: "GET",
    path: "/contacts/export",
    summary: "Export contacts as CSV",
    tag: "Contacts",
    description:
      "Needs `contacts:read`. GET /contacts' filters (without paging), every matching contact newest first, one row each, the columns in the " +
      `order of the Contact schema; \`kind\` joined by \`;\`. ${GUARD}`,
    scopes: ["contacts:read"],
    query: ContactExportQuery,
    responses: csvAnswer("contacts"),
    handler: ({ ctx, principal, query }) =>
      download(
        "contacts",
        ctx.now(),
        exportContacts(ctx, principal.organizationId, {
          kinds: query.kind, pool: query.pool, search: query.search, updatedSince: query.updated_since, metadata: query.metadata,
        }),
      ),
  }),
];
