// An import's counts (C21's Import: rows, processed, created, updated, skipped, failed, and the
// first 1,000 errors), added up batch by batch: pure, so that the job records the sum in the same
// transaction as the batch it closes (round 3 notes: progress and effect commit together) and a
// resumed job goes on from the recorded counts and `lastRow`.
import type { CsvRowError } from "./errors";

/** C21: an Import lists its first 1,000 errors. */
export const MAX_IMPORT_ERRORS = 1_000;

export interface ImportCounts {
  /** Data rows in the file (the inspection's `rows`). */
  rows: number;
  processed: number;
  created: number;
  updated: number;
  skipped: number;
  failed: number;
  errors: CsvRowError[];
  /** The last row number done: where a resumed job goes on (readCsv's `afterRow`). */
  lastRow: number;
}

/** What one batch did: the rows created, updated and skipped, and the errors of the rows refused
 * (a row may have several; it counts once as failed). */
export interface BatchOutcome {
  created: number;
  updated: number;
  skipped: number;
  errors: readonly CsvRowError[];
  lastRow: number;
}

export function startCounts(rows: number, afterRow = 0): ImportCounts {
  return { rows, processed: 0, created: 0, updated: 0, skipped: 0, failed: 0, errors: [], lastRow: afterRow };
}

/** The counts after one more batch. */
export function addBatch(counts: ImportCounts, outcome: BatchOutcome): ImportCounts {
  const failed = new Set(outcome.errors.map((error) => error.row)).size;
  const room = Math.max(0, MAX_IMPORT_ERRORS - counts.errors.length);
  return {
    rows: counts.rows,
    processed: counts.processed + outcome.created + outcome.updated + outcome.skipped + failed,
    created: counts.created + outcome.created,
    updated: counts.updated + outcome.updated,
    skipped: counts.skipped + outcome.skipped,
    failed: counts.failed + failed,
    errors: room === 0 ? counts.errors : [...counts.errors, ...outcome.errors.slice(0, room)],
    lastRow: Math.max(counts.lastRow, outcome.lastRow),
  };
}

/** The CLI's progress line on stderr (C21: `dossier import` shows a progress bar):
 * `[########------------] 40% 800/2,000 rows · 700 created · 50 updated · 0 skipped · 50 failed`. */
export function progressLine(counts: ImportCounts, width = 20): string {
  const share = counts.rows === 0 ? 1 : Math.min(1, counts.processed / counts.rows);
  const filled = Math.round(share * width);
  const n = (value: number) => value.toLocaleString("en-US");
  return (
    `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${Math.floor(share * 100)}% ${n(counts.processed)}/${n(counts.rows)} rows` +
    ` · ${n(counts.created)} created · ${n(counts.updated)} updated · ${n(counts.skipped)} skipped · ${n(counts.failed)} failed`
  );
}
