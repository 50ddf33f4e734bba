// CSV import and export (C21): the export's file, and an import's record.
import { Type as t } from "@sinclair/typebox";

/** The bytes of an export: RFC 4180, UTF-8 with a BOM, CRLF, a header row of the field names. */
export const CsvFile = t.String({
  description: "A CSV file: RFC 4180, UTF-8 with a byte order mark, CRLF line ends, a header row of the resource's field names",
  examples: ["\uFEFFid,full_name,email\r\n9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d,Jane Doe,jane.doe@acme.example\r\n"],
});
