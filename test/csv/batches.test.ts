// The export's keyset batches (round 3 notes): each page its own read, after the previous page's
// last key, asked for only when pulled; and the CLI's progress line.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { keysetBatches } from "../../src/csv/batches";
import { progressLine, startCounts } from "../../src/csv/progress";
import { csvStream, type CsvColumns } from "../../src/csv/writer";

setDefaultTimeout(120_000);

interface Row {
  created_at: string;
  id: string;
}
type Key = [string, string];

/** An in-memory list in the lists' order (created_at desc, then id desc), read as the store would:
 * rows strictly after the key, at most `limit`. Counts its reads. */
function table(count: number) {
  const rows: Row[] = Array.from({ length: count }, (_, i) => ({ created_at: `2026-11-${String(1 + (i % 28)).padStart(2, "0")}`, id: `id-${String(i).padStart(5, "0")}` }));
  const order = (a: Row, b: Row) => (a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1);
  rows.sort(order);
  const reads: (Key | undefined)[] = [];
  const fetchPage = (after: Key | undefined, limit: number) => {
    reads.push(after);
    const start = after === undefined ? 0 : rows.findIndex((row) => order(row, { created_at: after[0], id: after[1] }) > 0);
    return start === -1 ? [] : rows.slice(start, start + limit);
  };
  return { rows, reads, fetchPage, keyOf: (row: Row): Key => [row.created_at, row.id] };
}

describe("keyset batches", () => {
  test("every row once, in order, a read per page, the last page short", async () => {
    const t = table(2_345);
    const seen: Row[] = [];
    for await (const page of keysetBatches(t.fetchPage, t.keyOf, 1_000)) seen.push(...page);
    expect(seen).toEqual(t.rows);
    expect(t.reads.length).toBe(3);
    expect(t.reads[0]).toBeUndefined();
    expect(t.reads[1]).toEqual(t.keyOf(t.rows[999]));
  });

  test("an exact multiple of the page size ends on an empty read; no row is no batch", async () => {
    const t = table(2_000);
    const pages: number[] = [];
    for await (const page of keysetBatches(t.fetchPage, t.keyOf, 1_000)) pages.push(page.length);
    expect(pages).toEqual([1_000, 1_000]);
    expect(t.reads.length).toBe(3);
    const empty = table(0);
    for await (const _ of keysetBatches(empty.fetchPage, empty.keyOf)) throw new Error("no batch expected");
  });

  test("a page is read only when the CSV stream is pulled", async () => {
    const t = table(10_000);
    const columns: CsvColumns<Row> = { names: ["id", "created_at"], cells: (row) => [row.id, row.created_at] };
    const reader = csvStream(columns, keysetBatches(t.fetchPage, t.keyOf, 100)).getReader();
    await reader.read(); // header
    await reader.read(); // first page
    expect(t.reads.length).toBe(1);
    await reader.cancel();
    expect(t.reads.length).toBe(1);
  });

  test("a bad page size", async () => {
    await expect(keysetBatches(() => [], () => 0, 0).next()).rejects.toThrow(RangeError);
  });
});

describe("the CLI's progress line", () => {
  test("share, counts", () => {
    const counts = { ...startCounts(2_000), processed: 800, created: 700, updated: 50, failed: 50 };
    expect(progressLine(counts, 10)).toBe("[####------] 40% 800/2,000 rows · 700 created · 50 updated · 0 skipped · 50 failed");
    expect(progressLine(startCounts(0), 4)).toBe("[####] 100% 0/0 rows · 0 created · 0 updated · 0 skipped · 0 failed");
  });
});
