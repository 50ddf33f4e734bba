// C21's `mapping`: guessed from header names (case, accents, spaces ignored; common synonyms),
// checked when given (an unknown field is 400 naming it), and applied to a row to make one body.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { EXPORT_COLUMNS, IMPORT_FIELDS } from "../../src/csv/columns";
import { CsvFileError } from "../../src/csv/errors";
import { checkMappingForMode, guessMapping, mapBatch, normalizeHeader, parseMapOption, parseMapping, readNumber, rowBody, type Mapping } from "../../src/csv/mapping";

setDefaultTimeout(120_000);

function refused(run: () => unknown): CsvFileError {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(CsvFileError);
  const error = caught as CsvFileError;
  expect({ status: error.status, code: error.code, problem: error.problem }).toEqual({ status: 400, code: "invalid_body", problem: "bad_mapping" });
  return error;
}

describe("normalizing header names", () => {
  const cases: [string, string][] = [
    ["E-mail", "email"],
    [" Email Address ", "emailaddress"],
    ["Téléphone", "telephone"],
    ["full_name", "fullname"],
    ["FULL NAME", "fullname"],
    ["Société", "societe"],
    ["Straße", "straße"],
    ["Ｅｍａｉｌ", "email"], // full-width
  ];
  for (const [header, normal] of cases) test(`${JSON.stringify(header)} → ${normal}`, () => expect(normalizeHeader(header)).toBe(normal));
});

describe("guessing a mapping", () => {
  test("contacts: a spreadsheet's own names", () => {
    const headers = ["Name", "E-mail", "Phone number", "Company name", "Job Title", "LinkedIn", "Ville", "Tags", "Comments", "Favourite colour"];
    expect(guessMapping("contacts", headers)).toEqual({
      Name: "full_name",
      "E-mail": "email",
      "Phone number": "phone",
      "Company name": "company",
      "Job Title": "role",
      LinkedIn: "linkedin_url",
      Ville: "city",
      Tags: "kind",
      Comments: "notes",
    });
  });

  test("case, accents and spaces do not matter", () => {
    expect(guessMapping("contacts", ["  FULL NAME ", "e mail", "Téléphone", "SOCIÉTÉ"])).toEqual({
      "  FULL NAME ": "full_name",
      "e mail": "email",
      Téléphone: "phone",
      SOCIÉTÉ: "company",
    });
  });

  test("dossiers: sales columns", () => {
    expect(guessMapping("dossiers", ["Deal name", "Contact", "Amount", "Currency", "Stage", "Status", "Notes", "Type"])).toEqual({
      "Deal name": "name",
      Contact: "contact_person",
      Amount: "deal_size",
      Currency: "deal_currency",
      Stage: "stage",
      Status: "status",
      Notes: "intake_notes",
      Type: "type",
    });
  });

  test("a field is guessed once: the first column that names it wins", () => {
    expect(guessMapping("contacts", ["Email", "E-mail", "Work email"])).toEqual({ Email: "email" });
  });

  test("an export's own header row maps to itself, read-only columns left out", () => {
    for (const resource of ["contacts", "dossiers"] as const) {
      const mapping = guessMapping(resource, EXPORT_COLUMNS[resource]);
      const expected = Object.fromEntries(EXPORT_COLUMNS[resource].filter((name) => IMPORT_FIELDS[resource].includes(name)).map((name) => [name, name]));
      expect(mapping).toEqual(expected);
    }
    expect(guessMapping("contacts", EXPORT_COLUMNS.contacts)).not.toHaveProperty("dossier_count");
    expect(guessMapping("dossiers", EXPORT_COLUMNS.dossiers)).not.toHaveProperty("created_at");
  });

  test("every guess is a field parseMapping accepts", () => {
    const headers = ["Name", "E-mail", "Phone", "Company", "Role", "City", "Kind", "Notes", "id", "Stage", "Deal size"];
    for (const resource of ["contacts", "dossiers"] as const) {
      const mapping = guessMapping(resource, headers);
      expect(parseMapping(resource, mapping, headers)).toEqual(mapping);
    }
  });
});

describe("checking a given mapping", () => {
  const headers = ["Name", "Mail", "Extra"];

  test("a JSON object or its text; null and empty leave a column out", () => {
    expect(parseMapping("contacts", '{"Name":"full_name","Mail":"email","Extra":null}', headers)).toEqual({ Name: "full_name", Mail: "email" });
    expect(parseMapping("contacts", { Name: "full_name", Extra: "" }, headers)).toEqual({ Name: "full_name" });
    expect(parseMapping("contacts", {}, headers)).toEqual({});
  });

  test("an unknown field: 400 invalid_body naming it, param mapping", () => {
    const error = refused(() => parseMapping("contacts", { Name: "full_name", Mail: "e_mail" }, headers));
    expect(error.param).toBe("mapping");
    expect(error.message).toContain('unknown field "e_mail"');
    expect(error.message).toContain('column "Mail"');
  });

  test("a field of the other resource is unknown", () => {
    expect(refused(() => parseMapping("contacts", { Name: "deal_size" }, headers)).message).toContain('"deal_size"');
    expect(refused(() => parseMapping("dossiers", { Name: "linkedin_url" }, headers)).message).toContain('"linkedin_url"');
  });

  test("a read-only field says so", () => {
    expect(refused(() => parseMapping("contacts", { Name: "dossier_count" }, headers)).message).toContain("read-only");
    expect(refused(() => parseMapping("dossiers", { Name: "created_at" }, headers)).message).toContain("read-only");
  });

  test("a column the file does not have", () => {
    expect(refused(() => parseMapping("contacts", { Nom: "full_name" }, headers)).message).toContain('no column "Nom"');
  });

  test("two columns mapped to one field", () => {
    expect(refused(() => parseMapping("contacts", { Name: "full_name", Extra: "full_name" }, headers)).message).toContain("both mapped to full_name");
  });

  test("not an object, not JSON, a value that is not a name", () => {
    for (const bad of ["[1]", "not json", "12", [], null, 5, { Name: 5 }, { Name: ["full_name"] }]) refused(() => parseMapping("contacts", bad, headers));
  });

  test("what each mode needs", () => {
    const contacts: Mapping = { Name: "full_name" };
    checkMappingForMode("contacts", contacts, { mode: "create" });
    expect(refused(() => checkMappingForMode("contacts", {}, { mode: "create" })).message).toContain("full_name");
    expect(refused(() => checkMappingForMode("contacts", contacts, { mode: "upsert" })).message).toContain("email");
    checkMappingForMode("contacts", { Mail: "email" }, { mode: "update" });
    checkMappingForMode("contacts", { Extra: "id" }, { mode: "update", matchOn: "id" });
    expect(refused(() => checkMappingForMode("dossiers", { Name: "name" }, { mode: "create" })).message).toContain("type");
    checkMappingForMode("dossiers", { Name: "name" }, { mode: "create", type: "sales" });
    checkMappingForMode("dossiers", { Name: "name", Extra: "type" }, { mode: "create" });
    expect(refused(() => checkMappingForMode("dossiers", { Name: "name" }, { mode: "upsert", type: "sales" })).message).toContain("id");
    expect(refused(() => checkMappingForMode("dossiers", { Name: "name" }, { mode: "update", matchOn: "email" })).param).toBe("match_on");
  });

  test("the CLI's --map COL=field,...", () => {
    expect(parseMapOption("Nom=full_name, E-mail = email,Extra=")).toEqual({ Nom: "full_name", "E-mail": "email", Extra: null });
    expect(refused(() => parseMapOption("Nom")).message).toContain("COLUMN=field");
  });
});

describe("a row as a body", () => {
  const headers = ["Name", "Mail", "Kinds", "Notes", "Ignored"];
  const mapping: Mapping = { Name: "full_name", Mail: "email", Kinds: "kind", Notes: "notes" };

  test("mapped cells under their fields, empty cells left out, kind split on ; or ,", () => {
    expect(rowBody("contacts", mapping, headers, { row: 2, cells: ["Zoë", "zoe@x.org", "client; partner", "line 1\nline 2", "x"] })).toEqual({
      body: { full_name: "Zoë", email: "zoe@x.org", kind: ["client", "partner"], notes: "line 1\nline 2" },
    });
    expect(rowBody("contacts", mapping, headers, { row: 3, cells: ["Bob", "", "prospect,client", " ", ""] })).toEqual({
      body: { full_name: "Bob", kind: ["prospect", "client"] },
    });
  });

  test("deal_size read as a number; a cell that is none is the row's error, named by its column", () => {
    const dossierHeaders = ["Deal", "Amount"];
    const dossierMapping: Mapping = { Deal: "name", Amount: "deal_size" };
    expect(rowBody("dossiers", dossierMapping, dossierHeaders, { row: 2, cells: ["Acme", "12500,50"] })).toEqual({ body: { name: "Acme", deal_size: 12500.5 } });
    expect(rowBody("dossiers", dossierMapping, dossierHeaders, { row: 4, cells: ["Acme", "lots"] })).toEqual({
      errors: [{ row: 4, column: "Amount", message: 'deal_size: "lots" is not a number' }],
    });
  });

  const numbers: [string, number | undefined][] = [
    ["12500.5", 12500.5],
    ["12500,5", 12500.5],
    ["12 500,50", 12500.5],
    ["1,234.5", 1234.5],
    ["1.234,5", 1234.5],
    ["1,234,567", 1234567],
    ["1.234.567", 1234567],
    ["0", 0],
    ["-3", -3],
    ["12e3", undefined],
    ["abc", undefined],
    ["", undefined],
    ["1..2", undefined],
  ];
  for (const [text, number] of numbers) test(`number ${JSON.stringify(text)} → ${number}`, () => expect(readNumber(text)).toBe(number));
});

describe("a batch as bodies", () => {
  test("bodies for the good rows, errors for the others, in row order with the reader's", () => {
    const headers = ["Deal", "Amount"];
    const mapping: Mapping = { Deal: "name", Amount: "deal_size" };
    const batch = {
      rows: [
        { row: 2, cells: ["A", "10"] },
        { row: 4, cells: ["B", "ten"] },
        { row: 5, cells: ["C", ""] },
      ],
      errors: [{ row: 3, column: null, message: "the row has 3 cells, the header row 2" }],
    };
    expect(mapBatch("dossiers", mapping, headers, batch)).toEqual({
      bodies: [
        { row: 2, body: { name: "A", deal_size: 10 } },
        { row: 5, body: { name: "C" } },
      ],
      errors: [
        { row: 3, column: null, message: "the row has 3 cells, the header row 2" },
        { row: 4, column: "Amount", message: 'deal_size: "ten" is not a number' },
      ],
    });
  });

  test("a mapping's header may differ in case and spaces when one header fits", () => {
    expect(parseMapping("contacts", { " name ": "full_name", EMAIL: "email" }, ["Name", "Email"])).toEqual({ Name: "full_name", Email: "email" });
    // Two headers that fit: the given name must be exact (duplicate headers are refused anyway).
    expect(refused(() => parseMapping("contacts", { NAME: "full_name" }, ["Name", "name "])).message).toContain('no column "NAME"');
  });
});
