// The form of POST /imports (C21) checked without a server, the mapping resolved against a file's
// headers, and an import's counts added up batch by batch (the first 1,000 errors kept).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { ApiError } from "../../src/errors";
import { parseImportForm, resolveMapping, type ImportForm } from "../../src/csv/import-form";
import { addBatch, MAX_IMPORT_ERRORS, startCounts } from "../../src/csv/progress";

setDefaultTimeout(120_000);

const FILE = new Blob(["name\r\nA\r\n"], { type: "text/csv" });
const FLOW = "2f6d8a1c-4b3e-4d5f-9a7b-8c9d0e1f2a3b";

function form(fields: Record<string, string | Blob>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

const parsed = (fields: Record<string, string | Blob>) => parseImportForm(form(fields).entries());

function refused(run: () => unknown, param: string, words: string): void {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ApiError);
  const error = caught as ApiError;
  expect({ status: error.status, code: error.code, param: error.param }).toEqual({ status: 400, code: "invalid_body", param });
  expect(error.message).toContain(words);
}

describe("the import form", () => {
  test("defaults: create, match on email for contacts and id for dossiers, not a dry run, events emitted", async () => {
    const contacts = parsed({ file: FILE, resource: "contacts", mapping: '{"name":"full_name"}' });
    expect({ ...contacts, file: await contacts.file.text() }).toEqual({
      file: "name\r\nA\r\n",
      resource: "contacts",
      mapping: '{"name":"full_name"}',
      mode: "create",
      matchOn: "email",
      dryRun: false,
      emitEvents: true,
    });
    expect(parsed({ file: FILE, resource: "dossiers", mapping: "{}" }).matchOn).toBe("id");
  });

  test("every option", () => {
    const dossiers = parsed({ file: FILE, resource: "dossiers", mapping: "{}", mode: "upsert", match_on: "id", dry_run: "true", emit_events: "false", flow_id: FLOW, type: "sales", stage: "Stage" });
    expect(dossiers).toMatchObject({ mode: "upsert", matchOn: "id", dryRun: true, emitEvents: false, flowId: FLOW, type: "sales", stage: "Stage" });
  });

  test("an empty optional field counts as absent", () => {
    expect(parsed({ file: FILE, resource: "dossiers", mapping: "{}", mode: "", flow_id: "", type: "" })).toMatchObject({ mode: "create" });
    expect(parsed({ file: FILE, resource: "dossiers", mapping: "{}", flow_id: "" })).not.toHaveProperty("flowId");
  });

  const bad: [string, Record<string, string | Blob>, string, string][] = [
    ["no file", { resource: "contacts", mapping: "{}" }, "file", "required"],
    ["the file as text", { file: "name\r\nA", resource: "contacts", mapping: "{}" }, "file", "must be a file"],
    ["no resource", { file: FILE, mapping: "{}" }, "resource", "required"],
    ["an unknown resource", { file: FILE, resource: "notes", mapping: "{}" }, "resource", '"contacts" or "dossiers"'],
    ["no mapping", { file: FILE, resource: "contacts" }, "mapping", "required"],
    ["a mapping sent as a file", { file: FILE, resource: "contacts", mapping: new Blob(["{}"]) }, "mapping", "text field"],
    ["an unknown mode", { file: FILE, resource: "contacts", mapping: "{}", mode: "merge" }, "mode", '"create" or "update" or "upsert"'],
    ["dossiers matched on email", { file: FILE, resource: "dossiers", mapping: "{}", match_on: "email" }, "match_on", '"id"'],
    ["dry_run not true or false", { file: FILE, resource: "contacts", mapping: "{}", dry_run: "yes" }, "dry_run", '"true" or "false"'],
    ["emit_events not true or false", { file: FILE, resource: "contacts", mapping: "{}", emit_events: "0" }, "emit_events", '"true" or "false"'],
    ["flow_id for contacts", { file: FILE, resource: "contacts", mapping: "{}", flow_id: FLOW }, "flow_id", "only for dossiers"],
    ["stage for contacts", { file: FILE, resource: "contacts", mapping: "{}", stage: "Stage" }, "stage", "only for dossiers"],
    ["a flow_id that is not a uuid", { file: FILE, resource: "dossiers", mapping: "{}", flow_id: "x" }, "flow_id", "uuid"],
    ["an unknown type", { file: FILE, resource: "dossiers", mapping: "{}", type: "lead" }, "type", '"candidate" or "sales"'],
    ["an unknown field", { file: FILE, resource: "contacts", mapping: "{}", delimiter: ";" }, "delimiter", 'unknown field "delimiter"'],
  ];
  for (const [name, fields, param, words] of bad) test(`400 naming the field: ${name}`, () => refused(() => parsed(fields), param, words));

  test("a field given twice", () => {
    const data = form({ file: FILE, resource: "contacts", mapping: "{}" });
    data.append("mode", "create");
    data.append("mode", "update");
    refused(() => parseImportForm(data.entries()), "mode", "more than once");
  });
});

describe("the mapping against the file's headers", () => {
  const base = (fields: Partial<ImportForm>): ImportForm => ({ file: FILE, resource: "dossiers", mapping: "{}", mode: "create", matchOn: "id", dryRun: false, emitEvents: true, ...fields });
  const headers = ["Deal", "Stage", "Amount"];

  test("the stage column becomes the stage field", () => {
    expect(resolveMapping(base({ mapping: '{"Deal":"name","Amount":"deal_size"}', type: "sales", stage: "stage" }), headers)).toEqual({ Deal: "name", Amount: "deal_size", Stage: "stage" });
  });

  test("a stage column the file does not have, or mapped to another field", () => {
    refused(() => resolveMapping(base({ mapping: '{"Deal":"name"}', type: "sales", stage: "Phase" }), headers), "stage", 'no column "Phase"');
    refused(() => resolveMapping(base({ mapping: '{"Deal":"name","Stage":"role"}', type: "sales", stage: "Stage" }), headers), "stage", "mapped to role");
  });

  test("what the mode needs: a type for dossiers, from the form or a column", () => {
    refused(() => resolveMapping(base({ mapping: '{"Deal":"name"}' }), headers), "mapping", "type");
    expect(resolveMapping(base({ mapping: '{"Deal":"name"}', type: "candidate" }), headers)).toEqual({ Deal: "name" });
  });

  test("an unknown field in the mapping is named", () => {
    refused(() => resolveMapping(base({ mapping: '{"Deal":"deal_name"}', type: "sales" }), headers), "mapping", '"deal_name"');
  });
});

describe("an import's counts", () => {
  test("batches add up; a row with two errors fails once; lastRow moves on", () => {
    let counts = startCounts(6);
    counts = addBatch(counts, { created: 2, updated: 0, skipped: 0, errors: [{ row: 3, column: "Email", message: "email: not an email address" }], lastRow: 4 });
    counts = addBatch(counts, {
      created: 0,
      updated: 1,
      skipped: 0,
      errors: [
        { row: 6, column: "Email", message: "a" },
        { row: 6, column: "Name", message: "b" },
      ],
      lastRow: 7,
    });
    expect(counts).toEqual({
      rows: 6,
      processed: 5,
      created: 2,
      updated: 1,
      skipped: 0,
      failed: 2,
      errors: [
        { row: 3, column: "Email", message: "email: not an email address" },
        { row: 6, column: "Email", message: "a" },
        { row: 6, column: "Name", message: "b" },
      ],
      lastRow: 7,
    });
  });

  test("the first 1,000 errors are kept, every failure counted", () => {
    let counts = startCounts(2_500);
    for (let b = 0; b < 5; b++) {
      const errors = Array.from({ length: 500 }, (_, i) => ({ row: 2 + b * 500 + i, column: null, message: "bad" }));
      counts = addBatch(counts, { created: 0, updated: 0, skipped: 0, errors, lastRow: 1 + (b + 1) * 500 });
    }
    expect(counts.failed).toBe(2_500);
    expect(counts.errors.length).toBe(MAX_IMPORT_ERRORS);
    expect(counts.errors.at(-1)!.row).toBe(1_001);
  });

  test("a resumed import starts from the recorded row", () => {
    expect(startCounts(10, 501).lastRow).toBe(501);
  });
});
