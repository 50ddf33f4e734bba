// `bun bench/csv-export.ts`: the CSV writer alone (src/csv/writer.ts), in this process, with no
// store and no HTTP: 1,000,000 dossier records made in batches (as the export reads keyset batches)
// are written through `csvStream` into a sink that only counts bytes. Reports rows/s and how far the
// RSS rose above its level after a warm-up (C21: an export of 1,000,000 rows must not raise the
// server's RSS by more than 50 MB; this measures the writer's share of it). Then the reader's
// share of an import: a 100,000-row, 10-column contacts file inspected and read in batches of 500.
//
//   bun bench/csv-export.ts [--rows 1000000] [--batch 1000] [--import-rows 100000]
//
// A bench, not a test: it prints figures and asserts nothing about time.
import { openCsv } from "../src/csv/reader";
import { csvStream, resourceColumns } from "../src/csv/writer";

const argv = process.argv.slice(2);
const opt = (name: string, fallback: number) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const ROWS = opt("rows", 1_000_000);
const BATCH = opt("batch", 1_000);
const IMPORT_ROWS = opt("import-rows", 100_000);

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const rss = () => process.memoryUsage().rss;

/** A dossier as the API answers it, the n-th of the run. */
function dossier(n: number): Record<string, unknown> {
  const sales = n % 5 < 2;
  const hex = n.toString(16).padStart(12, "0");
  return {
    id: `0b5c3a4e-8f1d-4c2a-9e6b-${hex}`,
    organization_id: "7e9a1c2b-3d4f-4a5b-8c6d-0e1f2a3b4c5d",
    flow_id: "2f6d8a1c-4b3e-4d5f-9a7b-8c9d0e1f2a3b",
    type: sales ? "sales" : "candidate",
    name: sales ? `Acme renewal ${n}` : `Zoë Dupré ${n}`,
    email: `person${n}@example.org`,
    phone: n % 3 === 0 ? "+33 1 23 45 67 89" : null,
    company: n % 7 === 0 ? "Acme, Inc." : "Acme",
    role: "Head of procurement",
    contact_person: sales ? "Jane Doe" : null,
    status: "active",
    current_stage_id: "5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
    assigned_to: null,
    deal_size: sales ? 12500.5 + n : null,
    deal_currency: sales ? "EUR" : null,
    intake_notes: n % 11 === 0 ? 'Met at the fair.\nSaid "call me".' : null,
    cv_url: null,
    contact_id: `9c8b7a6d-5e4f-4a3b-8c2d-${hex}`,
    stage_entered_at: "2026-11-22T04:21:26.123Z",
    stage_due_at: null,
    created_at: "2026-11-22T04:21:26.123Z",
    updated_at: "2026-11-22T04:21:26.123Z",
  };
}

async function* batches(count: number, size: number): AsyncGenerator<Record<string, unknown>[]> {
  for (let start = 0; start < count; start += size) {
    const batch: Record<string, unknown>[] = [];
    for (let n = start; n < Math.min(count, start + size); n++) batch.push(dossier(n));
    yield batch;
  }
}

async function drain(stream: ReadableStream<Uint8Array>, onChunk: () => void): Promise<number> {
  let bytes = 0;
  for await (const chunk of stream) {
    bytes += chunk.length;
    onChunk();
  }
  return bytes;
}

async function exportBench(): Promise<void> {
  const columns = resourceColumns("dossiers");
  await drain(csvStream(columns, batches(20_000, BATCH)), () => {}); // warm-up
  Bun.gc(true);
  const base = rss();
  let peak = base;
  let chunks = 0;
  const started = performance.now();
  const bytes = await drain(csvStream(columns, batches(ROWS, BATCH)), () => {
    if (++chunks % 50 === 0) peak = Math.max(peak, rss());
  });
  const seconds = (performance.now() - started) / 1000;
  peak = Math.max(peak, rss());
  console.log(`export: ${ROWS.toLocaleString("en-US")} dossiers, batches of ${BATCH}: ${mb(bytes)} MB of CSV in ${seconds.toFixed(2)} s`);
  console.log(`export: ${Math.round(ROWS / seconds).toLocaleString("en-US")} rows/s; RSS ${mb(base)} MB after warm-up, peak ${mb(peak)} MB (+${mb(peak - base)} MB)`);
}

async function importBench(): Promise<void> {
  // A contacts file of 10 columns, as the import benchmark of issue 36 sends.
  const header = "Full name,Email,Phone,Company,Role,City,Kind,Notes,LinkedIn,Pool expires\r\n";
  const lines: string[] = [header];
  for (let n = 0; n < IMPORT_ROWS; n++) {
    lines.push(`Zoë Dupré ${n},person${n}@example.org,"'+33 1 23 45 ${n % 100}","Acme, Inc.",Engineer,Zürich,prospect;client,"Line 1\r\nLine 2",https://www.linkedin.com/in/p${n},2027-06-30T00:00:00.000Z\r\n`);
  }
  const file = new Blob(lines);
  Bun.gc(true);
  const started = performance.now();
  const { inspection, batches: read } = await openCsv(file);
  const inspected = performance.now();
  let rows = 0;
  let batchCount = 0;
  for await (const batch of read()) {
    rows += batch.rows.length;
    batchCount++;
  }
  const done = performance.now();
  console.log(
    `import: ${IMPORT_ROWS.toLocaleString("en-US")} rows x 10 columns (${mb(file.size)} MB): inspected in ${((inspected - started) / 1000).toFixed(2)} s, ` +
      `read in ${batchCount} batches in ${((done - inspected) / 1000).toFixed(2)} s (${Math.round(rows / ((done - inspected) / 1000)).toLocaleString("en-US")} rows/s); ${inspection.encoding}, "${inspection.delimiter}"`,
  );
}

await exportBench();
if (IMPORT_ROWS > 0) await importBench();
