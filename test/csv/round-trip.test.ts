// Export → import gives back the same values (C21, issue 36: "round-tripping it through import"):
// generated cells full of what CSV and spreadsheets treat specially (quotes, commas, semicolons,
// tabs, line breaks, formula signs, accents, emoji), written by the writer and read by the reader,
// and by CPython's csv module as a spreadsheet would read them.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import fc from "fast-check";
import { IMPORT_FIELDS, type CsvResource } from "../../src/csv/columns";
import { checkMappingForMode, guessMapping, mapBatch, parseMapping } from "../../src/csv/mapping";
import { openCsv } from "../../src/csv/reader";
import { csvChunks, resourceColumns, type CsvColumns } from "../../src/csv/writer";
import { cellsOf, collect, pythonCsv } from "./fixtures";

setDefaultTimeout(120_000);

const CHARS = ["a", "Z", "0", " ", ",", ";", '"', "'", "\r", "\n", "\r\n", "\t", "=", "+", "-", "@", "é", "ß", "€", "“", "😀", "北"];
const cell = fc.string({ unit: fc.constantFrom(...CHARS), maxLength: 12 });
/** A cell that begins like the export's own guard (`'=`, `'+`, ...) comes back without its `'`:
 * the one value that does not round-trip (round 3 notes: the prefix is stripped on import). */
const unambiguous = (text: string) => !/^'[=+\-@\t\r]/.test(text);

const table = fc
  .integer({ min: 1, max: 5 })
  .chain((width) => fc.array(fc.array(cell.filter(unambiguous), { minLength: width, maxLength: width }), { minLength: 0, maxLength: 8 }).map((rows) => ({ width, rows })));

/** Rows keyed by a first `id` cell, so that no row is blank (blank rows are passed over). */
function columnsOf(width: number): CsvColumns<string[]> {
  return { names: ["id", ...Array.from({ length: width }, (_, i) => `c${i + 1}`)], cells: (row) => row };
}

const withIds = (rows: string[][]) => rows.map((row, i) => [`r${i}`, ...row]);

/** What a spreadsheet shows of a written cell: the guard's `'` kept. */
const shown = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

describe("round trips", () => {
  test("writer → reader: every value back, in order, whatever it holds", async () => {
    await fc.assert(
      fc.asyncProperty(table, fc.integer({ min: 1, max: 3 }), async ({ width, rows }, batches) => {
        const records = withIds(rows);
        const size = Math.ceil(records.length / batches) || 1;
        const chunks = Array.from({ length: batches }, (_, b) => records.slice(b * size, (b + 1) * size));
        const bytes = await collect(csvChunks(columnsOf(width), chunks));
        expect(await cellsOf(bytes)).toEqual(records);
      }),
      { numRuns: 150 },
    );
  });

  test("writer → CPython's csv: the same cells, the formula guard visible as in a spreadsheet", async () => {
    const samples = fc.sample(table, { numRuns: 40, seed: 36 });
    // One python3 run for all the samples' files would be quicker; one each keeps failures apart.
    for (const { width, rows } of samples.slice(0, 20)) {
      const records = withIds(rows);
      const bytes = await collect(csvChunks(columnsOf(width), [records]));
      const read = await pythonCsv(bytes);
      expect(read).toEqual([[...columnsOf(width).names], ...records.map((row) => row.map(shown))]);
    }
  });

  test("named cases: accents, line breaks, quotes, leading + and =", async () => {
    const records = [
      ["1", "Émilie Dupré", "+33 6 12 34 56 78", '=HYPERLINK("http://evil")', 'She said "hi",\r\nthen left'],
      ["2", "-", "@", "\tindented", "ligne 1\nligne 2"],
      ["3", "'quoted'", "a;b,c", "€ 12,50", "😀 北京"],
    ];
    const bytes = await collect(csvChunks(columnsOf(4), [records]));
    expect(await cellsOf(bytes)).toEqual(records);
    expect((await pythonCsv(bytes)).slice(1)).toEqual(records.map((row) => row.map(shown)));
  });
});

describe("export → import through the mapping", () => {
  const contact = {
    id: "9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
    full_name: "Zoë O'Brien",
    email: "zoe@example.org",
    phone: "+33 1 23 45 67 89",
    linkedin_url: "https://www.linkedin.com/in/zoe",
    company: "Acme, Inc.",
    role: "-",
    city: null,
    kind: ["prospect", "client"],
    notes: 'line 1\r\n"line 2"',
    dossier_count: 3,
    pool_added_at: null,
    pool_expires_at: "2027-06-30T00:00:00.000Z",
    created_at: "2026-11-22T04:21:26.123Z",
    updated_at: "2026-11-22T04:21:26.123Z",
  };
  const dossier = {
    id: "0b5c3a4e-8f1d-4c2a-9e6b-1d2f3a4b5c6d",
    organization_id: "7e9a1c2b-3d4f-4a5b-8c6d-0e1f2a3b4c5d",
    flow_id: "2f6d8a1c-4b3e-4d5f-9a7b-8c9d0e1f2a3b",
    type: "sales",
    name: "=Acme renewal",
    email: null,
    phone: null,
    company: "Acme",
    role: null,
    contact_person: "Jane Doe",
    status: "won",
    current_stage_id: "5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
    assigned_to: null,
    deal_size: 12500.5,
    deal_currency: "EUR",
    intake_notes: null,
    cv_url: null,
    contact_id: "9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
    stage_entered_at: "2026-11-22T04:21:26.123Z",
    stage_due_at: null,
    created_at: "2026-11-22T04:21:26.123Z",
    updated_at: "2026-11-22T04:21:26.123Z",
  };

  /** The fields an import sets from an export's row: the importable ones that are not null. */
  const importable = (resource: CsvResource, record: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(record).filter(([name, value]) => IMPORT_FIELDS[resource].includes(name) && value !== null));

  for (const [resource, record] of [
    ["contacts", contact],
    ["dossiers", dossier],
  ] as const) {
    test(`${resource}: an export's file imports back as the same fields (guessed mapping, upsert on the export's match key)`, async () => {
      const bytes = await collect(csvChunks(resourceColumns(resource), [[record]]));
      const { inspection, batches } = await openCsv(bytes);
      const mapping = parseMapping(resource, JSON.stringify(guessMapping(resource, inspection.headers)), inspection.headers);
      checkMappingForMode(resource, mapping, { mode: "upsert", matchOn: "id" });
      const bodies = [];
      for await (const batch of batches()) bodies.push(...mapBatch(resource, mapping, inspection.headers, batch).bodies);
      expect(bodies).toEqual([{ row: 2, body: importable(resource, record) }]);
    });
  }
});
