// The errors of a CSV import (C21), as the API answers them: a file that cannot be imported at all
// is an ApiError (413 payload_too_large for size and row count, else 400 invalid_body naming the
// form field at fault), with a `problem` that tells tests and the CLI which check refused it. A row
// that cannot go in is not an error but a result beside the others: `{row, column, message}`, the
// shape of an Import's `errors` items.
import { ApiError } from "../errors";

export type CsvProblem =
  | "too_large" // over 50 MB (413)
  | "too_many_rows" // over 200,000 rows (413)
  | "empty" // no byte, or nothing but a BOM and blank lines
  | "binary" // not text: NUL bytes, control characters, a known binary format
  | "no_header" // the first row names no column
  | "empty_header" // a header cell is blank
  | "duplicate_header" // two header cells name the same column
  | "mixed_delimiters" // rows split by another delimiter than the header row
  | "malformed" // the CSV cannot be read (an unclosed quote at the end of the file)
  | "bad_mapping"; // the `mapping` form field

export class CsvFileError extends ApiError {
  constructor(
    readonly problem: CsvProblem,
    message: string,
    param: string | null = problem === "bad_mapping" ? "mapping" : "file",
  ) {
    super(problem === "too_large" || problem === "too_many_rows" ? "payload_too_large" : "invalid_body", message, undefined, param);
  }
}

/** One refused row, as an Import lists it: `row` is the spreadsheet's row number (the header row is
 * row 1), `column` the header of the cell at fault or null for the whole row. */
export interface CsvRowError {
  row: number;
  column: string | null;
  message: string;
}
