// The CSV writer of the exports (C21): RFC 4180 with a UTF-8 BOM, CRLF line ends and `,`; a header
// row of the resource's field names; a cell that a spreadsheet would run as a formula prefixed with
// `'`. It streams: rows come in batches from an async iterable (the export reads in keyset batches,
// each its own snapshot: round 3 notes) and leave as one chunk per batch, so memory holds one batch
// whatever the row count. Pure: no store, no HTTP; the route wraps `csvStream` in a Response.
import { ARRAY_FIELDS, EXPORT_COLUMNS, METADATA_COLUMN_PREFIX, type CsvResource } from "./columns";

export const CSV_CONTENT_TYPE = "text/csv; charset=utf-8";
export const UTF8_BOM = "\uFEFF";
export const CRLF = "\r\n";

/** A cell beginning with one of these runs as a formula in Excel, LibreOffice or Sheets (C21). */
const FORMULA_START = /^[=+\-@\t\r]/;
/** What makes a cell need quotes (RFC 4180): the delimiter, a quote, a line break. */
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell's text as written: `'`-prefixed and quoted when it begins like a formula (C21, the
 * round 3 notes: "quote and prefix anyway", phone numbers beginning with `+` included), quoted with
 * doubled quotes when it holds a quote, a comma or a line break, else as is. */
export function csvCell(text: string): string {
  if (FORMULA_START.test(text)) return `"'${text.replaceAll('"', '""')}"`;
  if (NEEDS_QUOTES.test(text)) return `"${text.replaceAll('"', '""')}"`;
  return text;
}

/** One CSV line, CRLF included. */
export function csvLine(cells: readonly string[]): string {
  let line = "";
  for (let i = 0; i < cells.length; i++) line += (i === 0 ? "" : ",") + csvCell(cells[i]);
  return line + CRLF;
}

/** The text of a field's value: `null`/absent an empty cell, an array joined by `;` (contacts'
 * `kind`), a number in JavaScript's shortest round-tripping form (`12500.5`), a boolean `true` or
 * `false`, an object as JSON (no resource has one today: a future nested field keeps its value). */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "bigint" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return value.map((item) => cellText(item)).join(";");
  if (value instanceof Date) return value.toISOString();
  return JSON.stringify(value);
}

/** The columns of one export: the header row's names, in order, and how a record gives each cell. */
export interface CsvColumns<Row> {
  readonly names: readonly string[];
  cells(row: Row): string[];
}

/** The columns of a resource's export: every field of its API record, in the schema's order, then
 * one `metadata.<key>` column per key of `metadataKeys` (in its order; issue 38), empty where a row
 * has no such key. */
export function resourceColumns(resource: CsvResource, metadataKeys: readonly string[] = []): CsvColumns<Record<string, unknown>> {
  const fields = EXPORT_COLUMNS[resource];
  const names = [...fields, ...metadataKeys.map((key) => METADATA_COLUMN_PREFIX + key)];
  return {
    names,
    cells: (row) => {
      const cells = fields.map((name) => cellText(row[name]));
      const metadata = (row.metadata ?? {}) as Record<string, string>;
      for (const key of metadataKeys) cells.push(Object.hasOwn(metadata, key) ? metadata[key] : "");
      return cells;
    },
  };
}

/** The header row alone, BOM first: what an export of no row answers. */
export function csvHeader(names: readonly string[]): string {
  return UTF8_BOM + csvLine(names);
}

const encoder = new TextEncoder();

/** The export's bytes: the BOM and header row first, then one chunk per batch of rows (an empty
 * batch writes nothing). The caller's iterable is read one batch at a time, as the consumer pulls:
 * stopping the consumer (`return()` on this generator) stops the reading too. */
export async function* csvChunks<Row>(columns: CsvColumns<Row>, batches: AsyncIterable<readonly Row[]> | Iterable<readonly Row[]>): AsyncGenerator<Uint8Array> {
  yield encoder.encode(csvHeader(columns.names));
  for await (const batch of batches) {
    if (batch.length === 0) continue;
    let text = "";
    for (const row of batch) text += csvLine(columns.cells(row));
    yield encoder.encode(text);
  }
}

/** CSV bytes sent between two garbage collections of an export's stream (about five batches of
 * dossiers): see csvStream. */
export const COLLECT_EVERY_BYTES = 2_097_152;
/** How long an export reads batches in one turn of the event loop before it lets other work run (ms). */
export const TURN_EVERY_MS = 20;

/** `csvChunks` as a byte stream for a Response body: pulled, so a slow client holds the reading of
 * further batches back (flat memory), and a client that goes away cancels it.
 *
 * Two things the pull does besides (measured with bench/export.ts, 1,000,000 dossiers over HTTP):
 * - A turn of the event loop once it has read batches for `turnEveryMs` (20 ms). While the socket takes every chunk at once (a
 *   client as fast as the server), Bun's server pulls the next chunk in the same turn, so an
 *   export held the server's one thread for its whole length: no other request was answered
 *   for 6.5 s (GET /healthz beside it: 2 answers in the export's 6.5 s; with the turn, p99 ~35 ms).
 * - A full garbage collection every `collectEvery` bytes. An export makes garbage fast (the rows,
 *   their cells, the text and its bytes) and JavaScriptCore let the heap grow to ~90 MB before
 *   collecting: the server's RSS rose by 129–148 MB (C21: under 50 MB). Bun.gc(false) changed
 *   nothing. Collected every 4 MB of CSV it rose by 43 MB (VmHWM +49 MB), every 2 MB by 26 MB, at
 *   ~25 ms a collection (~220 of them for the 442 MB of 1,000,000 dossiers). */
export function csvStream<Row>(
  columns: CsvColumns<Row>,
  batches: AsyncIterable<readonly Row[]> | Iterable<readonly Row[]>,
  collectEvery = COLLECT_EVERY_BYTES,
  turnEveryMs = TURN_EVERY_MS,
): ReadableStream<Uint8Array> {
  const chunks = csvChunks(columns, batches);
  let uncollected = 0;
  let turnAt = performance.now();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        // Not before every batch: a small export is read in the turn that started it, as one
        // piece with its head (with a turn between its chunks, Bun's server took a request
        // pipelined behind it meanwhile and closed the connection before the export's end).
        if (performance.now() - turnAt >= turnEveryMs) {
          await new Promise((resolve) => setImmediate(resolve));
          turnAt = performance.now();
        }
        const next = await chunks.next();
        if (next.done) return controller.close();
        controller.enqueue(next.value);
        uncollected += next.value.byteLength;
        if (uncollected >= collectEvery) {
          uncollected = 0;
          Bun.gc(true);
        }
      },
      async cancel() {
        await chunks.return(undefined);
      },
    },
    { highWaterMark: 0 },
  );
}

/** C21's file name: `dossiers-<yyyy-mm-dd>.csv`, the date in UTC. */
export function exportFilename(resource: CsvResource, now: Date): string {
  return `${resource}-${now.toISOString().slice(0, 10)}.csv`;
}

/** The export answer's headers (C21). */
export function exportHeaders(resource: CsvResource, now: Date): Record<string, string> {
  return {
    "Content-Type": CSV_CONTENT_TYPE,
    "Content-Disposition": `attachment; filename="${exportFilename(resource, now)}"`,
  };
}
