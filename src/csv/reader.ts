// The CSV reader of the imports (C21). Two steps over a file that can be read again (an upload kept
// on disk, a Blob, bytes):
//
//   inspectCsv(source)      every check that refuses the whole file, before any row is imported:
//                           size (50 MB) and row count (200,000) as 413, empty, binary, no header,
//                           empty or duplicate headers, mixed delimiters, unreadable CSV. Finds the
//                           encoding (UTF-8 with or without BOM, UTF-16 LE/BE with BOM, else
//                           Windows-1252) and the delimiter (`,` `;` or tab, from the header row).
//   readCsv(source, found)  the data rows in batches of at most 500, each row `{row, cells}` with
//                           one cell per header, or a per-row error (too many cells); `afterRow`
//                           resumes after the last row a job committed.
//
// The CSV syntax itself (quotes, doubled quotes, line breaks inside quotes) is csv-parse's
// (docs/decisions.md); this module decodes the bytes for it, picks its options and turns its
// records into rows. Memory stays at one chunk and one batch whatever the file's size.
import { parse } from "csv-parse/stream";
import { CsvFileError, type CsvRowError } from "./errors";

export const CSV_LIMITS = {
  /** 50 MB, counted as C10 counts sizes: 52,428,800 bytes. */
  maxBytes: 50 * 1024 * 1024,
  /** Data rows, the header row and blank rows left out. */
  maxRows: 200_000,
} as const;

/** The most POST /imports reads of its form: the file's 50 MB and 1 MB for the other fields (C21). */
export const IMPORT_FORM_LIMIT = CSV_LIMITS.maxBytes + 1_048_576;

/** Rows in one batch: C21's "at most 500 rows a transaction". */
export const CSV_BATCH_ROWS = 500;

export type CsvEncoding = "utf-8" | "utf-16le" | "utf-16be" | "windows-1252";
export type CsvDelimiter = "," | ";" | "\t";
const DELIMITERS: readonly CsvDelimiter[] = [",", ";", "\t"];

/** A file that can be read more than once: bytes, a Blob (`Bun.file(path)` included), or a function
 * that opens it anew each time it is called. */
export type CsvSource = Uint8Array | Blob | (() => ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>);

export interface CsvLimits {
  maxBytes: number;
  maxRows: number;
}

/** What `inspectCsv` found: what `readCsv` needs, and what an Import shows before it runs. */
export interface CsvInspection {
  encoding: CsvEncoding;
  /** Whether the file began with a byte order mark. */
  bom: boolean;
  delimiter: CsvDelimiter;
  /** The header row's cells, trimmed, in order. */
  headers: string[];
  /** The spreadsheet row number of the header row (1 unless blank rows come first). */
  headerRow: number;
  /** Data rows: the records after the header row that hold at least one non-blank cell. */
  rows: number;
  /** The first data rows (at most 5), as `readCsv` gives them: a preview for the mapping page. */
  sample: CsvRow[];
  bytes: number;
}

/** One data row: `row` is the spreadsheet's row number (the header row is row 1, the first data row
 * 2, each record one row whatever line breaks its quoted cells hold); one cell per header, in the
 * headers' order, missing trailing cells empty. */
export interface CsvRow {
  row: number;
  cells: string[];
}

export interface CsvBatch {
  /** The rows that can be mapped and validated, in file order. */
  rows: CsvRow[];
  /** The rows refused by the reader itself, with their reasons. */
  errors: CsvRowError[];
  /** The last row number this batch covers (rows, refused rows and blank rows): the progress to
   * record with the batch, and the `afterRow` that resumes after it. */
  lastRow: number;
}

export interface ReadOptions {
  /** At most this many rows and refused rows a batch (default and maximum 500). */
  batchSize?: number;
  /** Resume: rows up to this row number (as a batch's `lastRow`) are passed over. */
  afterRow?: number;
  /** Undo the export's formula guard: a cell `'=…`, `'+…`, `'-…`, `'@…`, `'<tab>…`, `'<CR>…`
   * loses its `'` (default true; round 3 notes). */
  stripFormulaGuard?: boolean;
}

// ---------------------------------------------------------------------------------------------
// Bytes

const MB = 1024 * 1024;

async function* openBytes(source: CsvSource): AsyncGenerator<Uint8Array> {
  if (source instanceof Uint8Array) {
    // Pieces of 1 MB, so that a large buffer goes through the same streaming path as a file.
    for (let at = 0; at < source.length; at += MB) yield source.subarray(at, Math.min(at + MB, source.length));
    return;
  }
  const stream = source instanceof Blob ? source.stream() : source();
  for await (const chunk of stream as AsyncIterable<Uint8Array>) if (chunk.length > 0) yield chunk;
}

function knownSize(source: CsvSource): number | undefined {
  if (source instanceof Uint8Array) return source.length;
  if (source instanceof Blob) return source.size;
  return undefined;
}

const tooLarge = (limits: CsvLimits) =>
  new CsvFileError("too_large", `file: the file is larger than ${formatBytes(limits.maxBytes)}, the most an import takes`);

function formatBytes(bytes: number): string {
  return bytes % MB === 0 ? `${bytes / MB} MB` : `${bytes.toLocaleString("en-US")} bytes`;
}

/** Formats that are not text, by their first bytes: what the user most likely sent instead. */
const MAGIC: readonly { bytes: number[]; what: string }[] = [
  { bytes: [0x50, 0x4b, 0x03, 0x04], what: "a ZIP archive or an Excel workbook (.xlsx): save it as CSV first" },
  { bytes: [0xd0, 0xcf, 0x11, 0xe0], what: "an old Excel workbook (.xls): save it as CSV first" },
  { bytes: [0x25, 0x50, 0x44, 0x46], what: "a PDF document" },
  { bytes: [0x89, 0x50, 0x4e, 0x47], what: "a PNG image" },
  { bytes: [0xff, 0xd8, 0xff], what: "a JPEG image" },
  { bytes: [0x47, 0x49, 0x46, 0x38, 0x37, 0x61], what: "a GIF image" },
  { bytes: [0x47, 0x49, 0x46, 0x38, 0x39, 0x61], what: "a GIF image" },
  { bytes: [0x1f, 0x8b], what: "a gzip archive" },
  { bytes: [...new TextEncoder().encode("SQLite format 3"), 0], what: "an SQLite database" },
];

const startsWith = (bytes: Uint8Array, prefix: number[]) => prefix.every((byte, i) => bytes[i] === byte);

/** The byte order mark's encoding, if the file begins with one. */
function bomEncoding(head: Uint8Array): { encoding: CsvEncoding; length: number } | undefined {
  if (startsWith(head, [0xef, 0xbb, 0xbf])) return { encoding: "utf-8", length: 3 };
  if (startsWith(head, [0xff, 0xfe])) return { encoding: "utf-16le", length: 2 };
  if (startsWith(head, [0xfe, 0xff])) return { encoding: "utf-16be", length: 2 };
  return undefined;
}

/** Control characters other than tab, line feed, form feed and carriage return: a text file has
 * none, or nearly none. */
const isControl = (code: number) => code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0c && code !== 0x0d;

/** The first pass over the bytes: size, byte order mark, binary content, and whether the bytes are
 * valid UTF-8 (else they are read as Windows-1252). */
async function scanBytes(source: CsvSource, limits: CsvLimits): Promise<{ encoding: CsvEncoding; bom: boolean; bytes: number }> {
  const size = knownSize(source);
  if (size !== undefined && size > limits.maxBytes) throw tooLarge(limits);
  let bytes = 0;
  let head: Uint8Array | undefined;
  let bom: ReturnType<typeof bomEncoding>;
  let utf8: TextDecoder | undefined = new TextDecoder("utf-8", { fatal: true });
  let controls = 0;
  let sampled = 0;
  const SAMPLE = 64 * 1024;
  const HEAD = 16; // the longest signature
  for await (const chunk of openBytes(source)) {
    bytes += chunk.length;
    if (bytes > limits.maxBytes) throw tooLarge(limits);
    if (head === undefined || head.length < HEAD) {
      // The first bytes, gathered across chunks however small: the BOM and the format's signature.
      head = head === undefined ? chunk.slice(0, HEAD) : Uint8Array.from([...head, ...chunk.subarray(0, HEAD - head.length)]);
      if (head.length >= HEAD || head.length === bytes) {
        const magic = MAGIC.find((m) => startsWith(head!, m.bytes));
        if (magic) throw new CsvFileError("binary", `file: this is not a CSV file but ${magic.what}`);
        bom = bomEncoding(head);
      }
    }
    if (bom && bom.encoding !== "utf-8") continue; // UTF-16: NULs are its high bytes
    // A NUL byte never stands in UTF-8 or Windows-1252 text: UTF-16 without a BOM, or binary.
    if (chunk.indexOf(0) !== -1) {
      throw new CsvFileError("binary", "file: this is not a text file (it holds NUL bytes); a UTF-16 file needs its byte order mark");
    }
    for (let i = 0; i < chunk.length && sampled < SAMPLE; i++, sampled++) if (isControl(chunk[i])) controls++;
    if (utf8) {
      try {
        utf8.decode(chunk, { stream: true });
      } catch {
        utf8 = undefined; // not UTF-8: Windows-1252 (C21), unless a BOM said UTF-8
      }
    }
  }
  if (utf8) {
    try {
      utf8.decode();
    } catch {
      utf8 = undefined; // ends inside a sequence
    }
  }
  if (sampled > 0 && controls / sampled > 0.01) throw new CsvFileError("binary", "file: this is not a text file (it holds control characters)");
  const encoding: CsvEncoding = bom ? bom.encoding : utf8 ? "utf-8" : "windows-1252";
  return { encoding, bom: bom !== undefined, bytes: size ?? bytes };
}

/** The file's text, decoded, without its byte order mark, in chunks. */
async function* decodeText(source: CsvSource, encoding: CsvEncoding): AsyncGenerator<string> {
  // TextDecoder drops a leading BOM of its own encoding (ignoreBOM: false); Windows-1252 has none.
  const decoder = new TextDecoder(encoding);
  const utf16 = encoding === "utf-16le" || encoding === "utf-16be";
  for await (const chunk of openBytes(source)) {
    const text = decoder.decode(chunk, { stream: true });
    // UTF-16's bytes were not checked for NULs (its high bytes are mostly 0): its characters are.
    if (utf16 && text.includes("\u0000")) throw new CsvFileError("binary", "file: this is not a text file (it holds NUL characters)");
    if (text.length > 0) yield text;
  }
  const rest = decoder.decode();
  if (rest.length > 0) yield rest;
}

// ---------------------------------------------------------------------------------------------
// Records

/** The first record's text (up to its unquoted line end) in `text`, or undefined if it goes on
 * past `text`'s end. */
function firstRecord(text: string): string | undefined {
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '"') quoted = !quoted; // a doubled quote toggles twice
    else if (!quoted && (char === "\n" || char === "\r")) return text.slice(0, i);
  }
  return undefined;
}

/** How often each delimiter stands outside quotes in `line`. */
function delimiterCounts(line: string): Record<CsvDelimiter, number> {
  const counts: Record<CsvDelimiter, number> = { ",": 0, ";": 0, "\t": 0 };
  let quoted = false;
  for (const char of line) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === "," || char === ";" || char === "\t")) counts[char]++;
  }
  return counts;
}

const NAME_OF: Record<CsvDelimiter, string> = { ",": "commas", ";": "semicolons", "\t": "tabs" };

/** C21: the delimiter is found from the header row. The one that stands there outside quotes; if
 * several do, the most frequent; a tie cannot be told apart (mixed delimiters). No delimiter at
 * all: a file of one column, read with `,`. */
function detectDelimiter(header: string): CsvDelimiter {
  const counts = delimiterCounts(header);
  const present = DELIMITERS.filter((d) => counts[d] > 0).sort((a, b) => counts[b] - counts[a]);
  if (present.length === 0) return ",";
  if (present.length > 1 && counts[present[0]] === counts[present[1]]) {
    throw new CsvFileError(
      "mixed_delimiters",
      `file: the header row is split by ${NAME_OF[present[0]]} and by ${NAME_OF[present[1]]} as often: use one delimiter, and quote a column name that holds the other`,
    );
  }
  return present[0];
}

interface RawRecord {
  cells: string[];
  raw: string;
}

/** The CSV records of `text`, as csv-parse reads them with `delimiter`. Record delimiters CRLF, LF
 * or CR, mixed in one file if need be; a quote inside an unquoted cell (`5" screen`) is kept. */
async function* parseRecords(text: AsyncIterable<string>, delimiter: CsvDelimiter): AsyncGenerator<RawRecord> {
  const chunks = text[Symbol.asyncIterator]();
  const input = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(Buffer.from(next.value, "utf8"));
    },
    async cancel() {
      await chunks.return?.(undefined);
    },
  });
  const parser = parse({
    delimiter,
    record_delimiter: ["\r\n", "\n", "\r"],
    relax_column_count: true,
    relax_quotes: true,
    bom: false,
    raw: true,
  }) as unknown as TransformStream<Uint8Array, { record: string[]; raw: string }>;
  const records = input.pipeThrough(parser);
  try {
    for await (const { record, raw } of records as unknown as AsyncIterable<{ record: string[]; raw: string }>) yield { cells: record, raw };
  } catch (error) {
    if (error instanceof CsvFileError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new CsvFileError("malformed", `file: the CSV cannot be read: ${message}`);
  }
}

const isBlank = (cells: readonly string[]) => cells.every((cell) => cell.trim() === "");
/** Before the header row, a row of delimiters alone is blank too, whichever delimiter it has
 * (as `headerLine` decides). */
const isBlankBeforeHeader = (cells: readonly string[]) => cells.every((cell) => /^[\s,;]*$/.test(cell));

/** A header cell that reads as data: the first row is a record, not column names. */
function looksLikeData(cell: string): boolean {
  return (
    /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(cell) || // an email address
    /^[+-]?\d[\d\s.,]*$/.test(cell) || // a number or a phone number
    /^\d{4}-\d{2}-\d{2}([T ]|$)/.test(cell) || // a date
    /^https?:\/\//i.test(cell) // a URL
  );
}

function checkHeaders(cells: readonly string[], delimiter: CsvDelimiter): string[] {
  const headers = cells.map((cell) => cell.trim());
  const data = headers.find(looksLikeData);
  if (data !== undefined) {
    throw new CsvFileError("no_header", `file: the first row must name the columns, but it holds data (${JSON.stringify(data)})`);
  }
  const empty = headers.findIndex((name) => name === "");
  if (empty !== -1) {
    throw new CsvFileError(
      "empty_header",
      `file: column ${empty + 1} of the header row has no name${headers.length === 1 ? "" : ` (columns split by ${NAME_OF[delimiter]})`}: name it or delete the column`,
    );
  }
  const seen = new Map<string, number>();
  headers.forEach((name, i) => {
    const key = name.toLowerCase();
    const first = seen.get(key);
    if (first !== undefined) {
      throw new CsvFileError("duplicate_header", `file: columns ${first + 1} and ${i + 1} are both named ${JSON.stringify(name)}: rename one`);
    }
    seen.set(key, i);
  });
  return headers;
}

/** The records of a decoded file, its delimiter found from the header row (the first record that
 * is not blank). `row` counts every record, blank ones too, as a spreadsheet numbers its rows. */
async function* numberedRecords(text: AsyncIterable<string>): AsyncGenerator<{ row: number; record: RawRecord; delimiter: CsvDelimiter }> {
  // Read ahead until the header row is whole, to find the delimiter before parsing.
  const chunks = text[Symbol.asyncIterator]();
  let prefix = "";
  let header: string | undefined;
  let ended = false;
  while (header === undefined && !ended) {
    const next = await chunks.next();
    if (next.done) ended = true;
    else prefix += next.value;
    header = headerLine(prefix, ended);
    if (header === undefined && prefix.length > MB) throw new CsvFileError("no_header", "file: the first row is longer than 1 MB: this is not a header row");
  }
  if (header === undefined) throw new CsvFileError("empty", "file: the file is empty");
  const delimiter = detectDelimiter(header);
  async function* all(): AsyncGenerator<string> {
    yield prefix;
    if (!ended) for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
  }
  let row = 0;
  for await (const record of parseRecords(all(), delimiter)) yield { row: ++row, record, delimiter };
}

/** The header row's text: the first record of `text` that is not blank (blank: nothing but white
 * space and delimiters); undefined while it may go on past `text`'s end, or when there is none. */
function headerLine(text: string, ended: boolean): string | undefined {
  let rest = text;
  for (;;) {
    const line = firstRecord(rest) ?? (ended ? rest : undefined);
    if (line === undefined) return undefined;
    if (!/^[\s,;]*$/.test(line)) return line;
    if (line.length === rest.length) return undefined;
    rest = rest.slice(line.length).replace(/^(\r\n|\n|\r)/, "");
  }
}

/** The other delimiter that splits a row the header's delimiter did not split at all into the
 * header's number of cells: a file whose rows are split by another delimiter than its header.
 * (A row of one cell holding one `;` in a two-column file reads so too: the message names it.) */
function otherDelimiter(raw: string, delimiter: CsvDelimiter, columns: number): CsvDelimiter | undefined {
  const counts = delimiterCounts(raw);
  return DELIMITERS.find((d) => d !== delimiter && counts[d] === columns - 1);
}

/** `'` then a character that starts a formula: what the export's guard wrote (writer.ts). */
const GUARDED = /^'[=+\-@\t\r]/;
const SAMPLE_ROWS = 5;

/** A record as a row of one cell per header (missing ones empty; extra ones are the caller's). */
function toRow(row: number, cells: readonly string[], headers: readonly string[], strip: boolean): CsvRow {
  const out = new Array<string>(headers.length);
  for (let i = 0; i < headers.length; i++) {
    const cell = cells[i] ?? "";
    out[i] = strip && GUARDED.test(cell) ? cell.slice(1) : cell;
  }
  return { row, cells: out };
}

// ---------------------------------------------------------------------------------------------
// The two steps

/** Every check that refuses the whole file (C21, issue 36), before any row is imported; throws a
 * CsvFileError (413 `payload_too_large` or 400 `invalid_body`, param `file`). */
export async function inspectCsv(source: CsvSource, limits: CsvLimits = CSV_LIMITS): Promise<CsvInspection> {
  const scanned = await scanBytes(source, limits);
  if (scanned.bytes === 0 || (scanned.bom && scanned.bytes <= 3)) throw new CsvFileError("empty", "file: the file is empty");
  let headers: string[] | undefined;
  let headerRow = 0;
  let delimiter: CsvDelimiter = ",";
  let rows = 0;
  const sample: CsvRow[] = [];
  for await (const { row, record, delimiter: found } of numberedRecords(decodeText(source, scanned.encoding))) {
    delimiter = found;
    if (headers === undefined) {
      if (isBlankBeforeHeader(record.cells)) continue;
      headers = checkHeaders(record.cells, delimiter);
      headerRow = row;
      continue;
    }
    if (isBlank(record.cells)) continue;
    if (record.cells.length === 1 && headers.length > 1) {
      const other = otherDelimiter(record.raw, delimiter, headers.length);
      if (other !== undefined) {
        throw new CsvFileError(
          "mixed_delimiters",
          `file: the header row is split by ${NAME_OF[delimiter]} but row ${row} by ${NAME_OF[other]}: use one delimiter in the whole file`,
        );
      }
    }
    if (sample.length < SAMPLE_ROWS) sample.push(toRow(row, record.cells, headers, true));
    if (++rows > limits.maxRows) {
      throw new CsvFileError("too_many_rows", `file: the file has more than ${limits.maxRows.toLocaleString("en-US")} rows, the most an import takes`);
    }
  }
  if (headers === undefined) throw new CsvFileError("empty", "file: the file is empty");
  return { encoding: scanned.encoding, bom: scanned.bom, delimiter, headers, headerRow, rows, sample, bytes: scanned.bytes };
}

/** The data rows of a file that `inspectCsv` accepted, in batches. A row with more cells than the
 * header row is refused alone (C21, issue 36); one with fewer has its missing cells empty; blank
 * rows are passed over. */
export async function* readCsv(source: CsvSource, inspection: CsvInspection, options: ReadOptions = {}): AsyncGenerator<CsvBatch> {
  const size = Math.max(1, Math.min(CSV_BATCH_ROWS, Math.floor(options.batchSize ?? CSV_BATCH_ROWS)));
  const afterRow = options.afterRow ?? 0;
  const strip = options.stripFormulaGuard ?? true;
  const { headers, headerRow } = inspection;
  let batch: CsvBatch = { rows: [], errors: [], lastRow: afterRow };
  for await (const { row, record } of numberedRecords(decodeText(source, inspection.encoding))) {
    if (row <= headerRow || row <= afterRow) continue;
    batch.lastRow = row;
    const cells = record.cells;
    if (isBlank(cells)) continue;
    if (cells.length > headers.length) {
      batch.errors.push({ row, column: null, message: `the row has ${cells.length} cells, the header row ${headers.length}` });
    } else {
      batch.rows.push(toRow(row, cells, headers, strip));
    }
    if (batch.rows.length + batch.errors.length >= size) {
      yield batch;
      batch = { rows: [], errors: [], lastRow: row };
    }
  }
  if (batch.rows.length + batch.errors.length > 0) yield batch;
}

/** Both steps: the inspection (or its CsvFileError), and the batches. */
export async function openCsv(
  source: CsvSource,
  options: ReadOptions & { limits?: CsvLimits } = {},
): Promise<{ inspection: CsvInspection; batches: () => AsyncGenerator<CsvBatch> }> {
  const inspection = await inspectCsv(source, options.limits);
  return { inspection, batches: () => readCsv(source, inspection, options) };
}
