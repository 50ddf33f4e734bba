// CSV import and export (C21): the export's file, and an import's record.
import { Type as t } from "@sinclair/typebox";
import { closed, DateTime, Nullable, Uuid } from "./common";

/** The bytes of an export: RFC 4180, UTF-8 with a BOM, CRLF, a header row of the field names. */
export const CsvFile = t.String({
  description: "A CSV file: RFC 4180, UTF-8 with a byte order mark, CRLF line ends, a header row of the resource's field names",
  examples: ["\uFEFFid,full_name,email\r\n9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d,Jane Doe,jane.doe@acme.example\r\n"],
});

const EXAMPLE_IMPORT = {
  id: "5b0c7e2a-1f3d-4c6b-9a8e-2d4f6a8c0e1b",
  resource: "contacts",
  status: "succeeded",
  dry_run: false,
  mode: "upsert",
  match_on: "email",
  file_name: "contacts.csv",
  rows: 3,
  processed: 3,
  created: 1,
  updated: 1,
  skipped: 0,
  failed: 1,
  errors: [{ row: 4, column: "Email", message: "email: must be an email address" }],
  created_at: "2026-11-22T04:21:26.123Z",
  finished_at: "2026-11-22T04:21:27.456Z",
  revert: null,
};

export const ImportError = t.Object(
  {
    row: t.Integer({ minimum: 1, description: "The spreadsheet's row number: the header row is row 1, the first data row 2" }),
    column: Nullable(t.String({ description: "The CSV header of the cell at fault; null when the whole row is" })),
    message: t.String({ description: "Why the row was refused, as the API would refuse the same create or update" }),
  },
  { ...closed, examples: [EXAMPLE_IMPORT.errors[0]] },
);

export const ImportRevert = t.Object(
  {
    undone: t.Integer({ minimum: 0, description: "Rows whose change was undone: contacts deleted, dossiers archived, fields put back" }),
    skipped: t.Integer({ minimum: 0, description: "Rows left as they are because a later change touched them" }),
    reverted_at: DateTime,
  },
  { ...closed, description: "What the revert did (null until the import is reverted)", examples: [{ undone: 2, skipped: 0, reverted_at: "2026-11-22T05:00:00.000Z" }] },
);

export const ImportStatus = t.Union(
  ["queued", "running", "succeeded", "failed", "reverted"].map((status) => t.Literal(status)),
  { description: "queued, running, then succeeded or failed; reverted once POST /imports/{id}/revert has run" },
);

/** An import (C21). */
export const Import = t.Object(
  {
    id: Uuid,
    resource: t.Union([t.Literal("contacts"), t.Literal("dossiers")]),
    status: ImportStatus,
    dry_run: t.Boolean({ description: "A dry run validates every row and writes none: the counts say what a real run would do" }),
    mode: t.Union([t.Literal("create"), t.Literal("update"), t.Literal("upsert")]),
    match_on: t.Union([t.Literal("email"), t.Literal("id")], { description: "The field an update or upsert finds each row's record by" }),
    file_name: Nullable(t.String({ description: "The uploaded file's name, when it had one" })),
    rows: t.Integer({ minimum: 0, description: "Data rows in the file (the header row and blank rows left out)" }),
    processed: t.Integer({ minimum: 0, description: "Rows done so far: created + updated + skipped + failed" }),
    created: t.Integer({ minimum: 0 }),
    updated: t.Integer({ minimum: 0 }),
    skipped: t.Integer({ minimum: 0, description: "Rows that matched a record and changed nothing" }),
    failed: t.Integer({ minimum: 0, description: "Rows refused, each with its reason among `errors`" }),
    errors: t.Array(ImportError, { description: "The first 1,000 rows' errors, in row order" }),
    created_at: DateTime,
    finished_at: Nullable(DateTime),
    revert: Nullable(ImportRevert),
  },
  { ...closed, examples: [EXAMPLE_IMPORT] },
);

/** POST /imports' multipart form (C21). */
export const ImportForm = t.Object(
  {
    file: t.String({ format: "binary", description: "The CSV file: at most 50 MB and 200,000 rows; UTF-8 (with or without BOM), UTF-16 with BOM, or Windows-1252; `,`, `;` or tab" }),
    resource: t.Union([t.Literal("contacts"), t.Literal("dossiers")]),
    mapping: t.String({ description: "JSON object from a CSV header to a field name; a header left out (or mapped to null) is not imported" }),
    mode: t.Optional(t.Union([t.Literal("create"), t.Literal("update"), t.Literal("upsert")], { description: "create (the default), update or upsert" })),
    match_on: t.Optional(t.Union([t.Literal("email"), t.Literal("id")], { description: "email (contacts' default) or id (dossiers' only)" })),
    dry_run: t.Optional(t.Union([t.Literal("true"), t.Literal("false")], { description: "true: validate every row, write none (default false)" })),
    emit_events: t.Optional(t.Union([t.Literal("true"), t.Literal("false")], { description: "false: the rows made or changed record no event (default true)" })),
    flow_id: t.Optional(t.String({ format: "uuid", description: "Dossiers: the flow of every row (default: the organization's default flow of the type)" })),
    type: t.Optional(t.Union([t.Literal("candidate"), t.Literal("sales")], { description: "Dossiers: the type of every row, else a column mapped to type gives it" })),
    stage: t.Optional(t.String({ description: "Dossiers: the header of the column that holds each row's stage name" })),
  },
  {
    additionalProperties: false,
    examples: [{ file: "full_name,Email\r\nJane Doe,jane@acme.example\r\n", resource: "contacts", mapping: '{"full_name":"full_name","Email":"email"}', mode: "upsert" }],
  },
);
