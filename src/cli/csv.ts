// `dossier import` and `dossier export` (C21): the API's CSV import and export from the shell, on
// the data folder, through the same services. `import` checks the file whole, records the import
// and runs it in this process (batches of at most 500 rows, resumable like the server's: a server
// started on the folder meanwhile takes up what this process leaves unfinished), with a progress
// bar on stderr on a terminal. `export` writes the CSV on stdout as it reads it.
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { csvChunks, guessMapping, inspectCsv, parseImportForm, parseMapOption, progressLine as countsLine, resourceColumns, type CsvResource } from "../csv";
import { ApiError } from "../errors";
import { parseQuery } from "../http/request";
import { ContactExportQuery } from "../schemas/contacts";
import { DossierExportQuery } from "../schemas/dossiers";
import { exportContacts, exportDossiers, type Export } from "../services/exports";
import { runImport, startImport, type Import } from "../services/imports";
import { firstLine, openOrg, optional, output, parse, required, STORE_ENV_HELP, UnknownIdError, UsageError, type Parsed } from "./args";
import { progressLine } from "./progress";

export const IMPORT_HELP = `dossier import --org ID --resource contacts|dossiers FILE [--map COL=field,...] [--mode M] [--match-on F]
              [--dry-run] [--no-events] [--flow-id ID] [--type T] [--stage COL] [--data DIR] [--json]
  Imports a CSV file as POST /api/v1/imports does (C21), in this process: the file is checked whole
  first (at most 50 MB and 200,000 rows; UTF-8, UTF-16 with BOM or Windows-1252; , ; or tab), then
  its rows go in by batches of 500, each validated as the API validates one create or update: a bad
  row is refused with its reason and the others go in. On a terminal, a progress bar on stderr.
  --org ID        the organization (required)
  --resource R    contacts or dossiers (required)
  --map M         COL=field pairs, comma separated (COL= leaves a column out); default: guessed from
                  the header names (E-mail → email, Company name → company, ...)
  --mode M        create (default), update or upsert
  --match-on F    email (contacts' default) or id: how update and upsert find each row's record
  --dry-run       validate every row, write none: the counts and errors of a real run (default off)
  --no-events     the rows made or changed record no event (default off: they do, as any change)
  --flow-id ID    dossiers: the flow of every row (default: the organization's default flow of the type)
  --type T        dossiers: candidate or sales for every row (else a column mapped to type)
  --stage COL     dossiers: the column that holds each row's stage name
  --data DIR      the data folder (default: env DOSSIER_DATA, else ./data)
  --json          print the Import as one JSON object on stdout, no progress bar (default: text)
                  {"id","status","rows","processed","created","updated","skipped","failed","errors":[{"row","column","message"}],...}
  Exit status: 0 when the import ran (some rows may have been refused: see failed and errors), 1 when
  it failed, 2 for bad arguments or a file that cannot be imported.
${STORE_ENV_HELP}`;

export const EXPORT_HELP = `dossier export --org ID --resource dossiers|contacts [filters] [--data DIR] > FILE
  Writes every matching row as CSV on stdout, as GET /api/v1/<resource>/export does (C21): UTF-8 with
  a BOM, CRLF, a header row of the field names, newest first, formula-like cells prefixed with '.
  --org ID            the organization (required)
  --resource R        dossiers or contacts (required)
  dossiers' filters:  --type T  --status S  --stage-id ID  --flow-id ID  --assigned-to ID  --overdue true|false
                      --q TEXT  --contact-id ID  --updated-since ISO
  contacts' filters:  --kind K (may repeat)  --pool in_pool|expired  --search TEXT  --updated-since ISO
  --data DIR          the data folder (default: env DOSSIER_DATA, else ./data)
${STORE_ENV_HELP}`;

function resourceOf(parsed: Parsed): CsvResource {
  const resource = required(parsed, "resource");
  if (resource !== "contacts" && resource !== "dossiers") throw new UsageError("--resource must be contacts or dossiers");
  return resource;
}

/** An API refusal as the CLI reports it: an id that names nothing exits 1, the rest are bad
 * arguments (the file, the mapping, a value): exit 2. */
function asCliError(error: unknown): unknown {
  if (!(error instanceof ApiError)) return error;
  return error.status === 404 ? new UnknownIdError(firstLine(error)) : new UsageError(firstLine(error));
}

const IMPORT_OPTIONS = {
  org: { type: "string" },
  resource: { type: "string" },
  map: { type: "string" },
  mode: { type: "string" },
  "match-on": { type: "string" },
  "dry-run": { type: "boolean" },
  "no-events": { type: "boolean" },
  "flow-id": { type: "string" },
  type: { type: "string" },
  stage: { type: "string" },
} as const;

export async function importCommand(argv: string[]) {
  const parsed = parse(argv, IMPORT_OPTIONS, 1);
  const organizationId = required(parsed, "org");
  const resource = resourceOf(parsed);
  const path = parsed.positionals[0];
  if (path === undefined) throw new UsageError("the CSV file to import is required: dossier import --org ID --resource R FILE");
  const file = resolve(path);
  if (!existsSync(file) || !statSync(file).isFile()) throw new UsageError(`no file ${path}`);
  const blob = Bun.file(file);
  const ctx = await openOrg(parsed, organizationId);
  const progress = progressLine(!parsed.values.json && process.stderr.isTTY === true);
  let result: Import | null;
  try {
    let mapping: Record<string, string | null>;
    const map = optional(parsed, "map");
    try {
      mapping = map === undefined ? guessMapping(resource, (await inspectCsv(blob)).headers) : parseMapOption(map);
    } catch (error) {
      throw asCliError(error);
    }
    const fields: [string, string | Blob][] = [
      ["file", new File([blob], file.split("/").pop() ?? "import.csv")],
      ["resource", resource],
      ["mapping", JSON.stringify(mapping)],
    ];
    for (const [option, field] of [["mode", "mode"], ["match-on", "match_on"], ["flow-id", "flow_id"], ["type", "type"], ["stage", "stage"]] as const) {
      const value = optional(parsed, option);
      if (value !== undefined) fields.push([field, value]);
    }
    if (parsed.values["dry-run"]) fields.push(["dry_run", "true"]);
    if (parsed.values["no-events"]) fields.push(["emit_events", "false"]);
    let started: Import;
    try {
      started = await startImport(ctx, organizationId, parseImportForm(fields), null);
    } catch (error) {
      throw asCliError(error);
    }
    progress.show(countsLine({ ...started, lastRow: 0, errors: [] }));
    let drawnAt = -Infinity;
    result = await runImport(ctx, organizationId, started.id, {
      onBatch(counts) {
        const now = performance.now();
        if (counts.processed < counts.rows && now - drawnAt < 100) return; // at most ~10 redraws a second
        drawnAt = now;
        progress.show(countsLine(counts));
      },
    });
  } finally {
    progress.end();
    await ctx.store.close();
  }
  if (!result) throw new UnknownIdError("the import is gone");
  output(parsed, result, describe(result));
  if (result.status === "failed") process.exitCode = 1;
}

function describe(i: Import): string {
  const n = (value: number) => value.toLocaleString("en-US");
  const lines = [
    `import ${i.id} ${i.status}${i.dry_run ? " (dry run: nothing written)" : ""}: ${n(i.rows)} rows, ${n(i.created)} created, ${n(i.updated)} updated, ${n(i.skipped)} skipped, ${n(i.failed)} failed`,
  ];
  for (const error of i.errors.slice(0, 20)) lines.push(`  row ${error.row}${error.column === null ? "" : ` (${error.column})`}: ${error.message}`);
  if (i.errors.length > 20) lines.push(`  ... and ${n(i.failed - 20)} more: dossier import --json lists the first 1,000`);
  return lines.join("\n");
}

const EXPORT_OPTIONS = {
  org: { type: "string" },
  resource: { type: "string" },
  type: { type: "string" },
  status: { type: "string" },
  "stage-id": { type: "string" },
  "flow-id": { type: "string" },
  "assigned-to": { type: "string" },
  overdue: { type: "string" },
  q: { type: "string" },
  "contact-id": { type: "string" },
  "updated-since": { type: "string" },
  kind: { type: "string", multiple: true },
  pool: { type: "string" },
  search: { type: "string" },
} as const;

const DOSSIER_FILTERS = ["type", "status", "stage-id", "flow-id", "assigned-to", "overdue", "q", "contact-id", "updated-since"];
const CONTACT_FILTERS = ["kind", "pool", "search", "updated-since"];

export async function exportCommand(argv: string[]) {
  const parsed = parse(argv, EXPORT_OPTIONS);
  if (parsed.values.json) throw new UsageError("export writes CSV on stdout: --json does not apply");
  const organizationId = required(parsed, "org");
  const resource = resourceOf(parsed);
  const allowed = resource === "dossiers" ? DOSSIER_FILTERS : CONTACT_FILTERS;
  const query = new URLSearchParams();
  for (const [option, value] of Object.entries(parsed.values)) {
    if (value === undefined || ["org", "resource", "data"].includes(option)) continue;
    if (!allowed.includes(option)) throw new UsageError(`--${option} is not a filter of ${resource}`);
    for (const one of Array.isArray(value) ? value : [value]) query.append(option.replaceAll("-", "_"), String(one));
  }
  const ctx = await openOrg(parsed, organizationId);
  try {
    let started: Export<Record<string, unknown>>;
    try {
      if (resource === "dossiers") {
        const q = parseQuery(DossierExportQuery, query);
        started = await exportDossiers(ctx, organizationId, {
          type: q.type, status: q.status, stageId: q.stage_id, overdue: q.overdue, assignedTo: q.assigned_to, flowId: q.flow_id, q: q.q,
          contactId: q.contact_id?.toLowerCase(), updatedSince: q.updated_since, metadata: q.metadata,
        });
      } else {
        const q = parseQuery(ContactExportQuery, query);
        started = await exportContacts(ctx, organizationId, {
          kinds: q.kind, pool: q.pool, search: q.search, updatedSince: q.updated_since, metadata: q.metadata,
        });
      }
    } catch (error) {
      throw asCliError(error);
    }
    const out = Bun.stdout.writer();
    for await (const chunk of csvChunks(resourceColumns(resource, started.metadataKeys), started.batches)) {
      // Written before the next batch is read: a slow reader of stdout holds the export back.
      await out.write(chunk);
      await out.flush();
    }
  } finally {
    await ctx.store.close();
  }
}
