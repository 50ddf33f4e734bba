// Helpers of the CSV tests: files as spreadsheets write them, byte by byte, and an independent CSV
// parser (CPython's `csv` module, the machine's python3) to read what the writer wrote.
import { expect } from "bun:test";
import { CsvFileError, type CsvProblem } from "../../src/csv/errors";
import { inspectCsv, readCsv, type CsvBatch, type CsvInspection, type CsvLimits, type CsvSource, type ReadOptions } from "../../src/csv/reader";

export const utf8 = (text: string) => new TextEncoder().encode(text);
export const withBom = (text: string) => utf8("\uFEFF" + text);

/** UTF-16 LE with its BOM: Excel's "Unicode text" (tab-separated). */
export function utf16le(text: string, bom = true): Uint8Array {
  const out = new Uint8Array((bom ? 2 : 0) + text.length * 2);
  let at = 0;
  if (bom) (out[at++] = 0xff), (out[at++] = 0xfe);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    out[at++] = code & 0xff;
    out[at++] = code >> 8;
  }
  return out;
}

export function utf16be(text: string): Uint8Array {
  const out = new Uint8Array(2 + text.length * 2);
  out[0] = 0xfe;
  out[1] = 0xff;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    out[2 + i * 2] = code >> 8;
    out[3 + i * 2] = code & 0xff;
  }
  return out;
}

/** Windows-1252 bytes of `text`, written by hand from the code page's table (the characters used
 * by the tests): what Excel's "CSV (separated by semicolons)" writes in a Western European locale. */
const CP1252: Record<string, number> = { "€": 0x80, "‚": 0x82, "„": 0x84, "…": 0x85, "‘": 0x91, "’": 0x92, "“": 0x93, "”": 0x94, "–": 0x96, "—": 0x97, "œ": 0x9c, "Œ": 0x8c, "š": 0x9a, "Ÿ": 0x9f };
export function cp1252(text: string): Uint8Array {
  return Uint8Array.from([...text].map((char) => {
    if (char in CP1252) return CP1252[char];
    const code = char.codePointAt(0)!;
    if (code < 0x80 || (code >= 0xa0 && code <= 0xff)) return code;
    throw new Error(`no Windows-1252 byte for ${char}`);
  }));
}

/** Everything a file gives: the inspection and every batch. */
export async function readAll(source: CsvSource, options: ReadOptions & { limits?: CsvLimits } = {}): Promise<{ inspection: CsvInspection; batches: CsvBatch[] }> {
  const inspection = await inspectCsv(source, options.limits);
  const batches: CsvBatch[] = [];
  for await (const batch of readCsv(source, inspection, options)) batches.push(batch);
  return { inspection, batches };
}

/** The data rows' cells, refused rows left out. */
export async function cellsOf(source: CsvSource, options: ReadOptions = {}): Promise<string[][]> {
  const { batches } = await readAll(source, options);
  return batches.flatMap((batch) => batch.rows.map((row) => row.cells));
}

/** The CsvFileError that inspecting `source` throws, checked to be one. */
export async function refusal(source: CsvSource, limits?: CsvLimits): Promise<CsvFileError> {
  let caught: unknown;
  try {
    await inspectCsv(source, limits);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(CsvFileError);
  return caught as CsvFileError;
}

export async function expectRefused(source: CsvSource, problem: CsvProblem, status = 400, limits?: CsvLimits): Promise<CsvFileError> {
  const error = await refusal(source, limits);
  expect({ problem: error.problem, status: error.status }).toEqual({ problem, status });
  expect(error.code).toBe(status === 413 ? "payload_too_large" : "invalid_body");
  expect(error.param).toBe("file");
  expect(error.message.length).toBeGreaterThan(10);
  return error;
}

/** The records of CSV bytes as CPython's csv module reads them (BOM dropped, `newline=""`). */
export async function pythonCsv(bytes: Uint8Array): Promise<string[][]> {
  const script = "import csv, io, json, sys\ntext = sys.stdin.buffer.read().decode('utf-8-sig')\nprint(json.dumps(list(csv.reader(io.StringIO(text, newline='')))))";
  const child = Bun.spawn(["python3", "-c", script], { stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  child.stdin.write(bytes);
  await child.stdin.end();
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  if (code !== 0) throw new Error(`python3 csv failed: ${err}`);
  return JSON.parse(out);
}

/** All the bytes of a writer's chunks. */
export async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return new Uint8Array(await new Blob(parts).arrayBuffer());
}
