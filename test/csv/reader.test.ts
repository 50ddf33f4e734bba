// C21's import input, without a server: files as Excel, LibreOffice and Google Sheets write them
// (written here byte by byte), the encodings and delimiters found, the rows in batches of at most
// 500 with their spreadsheet row numbers, resuming, and every file the import refuses whole.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CSV_LIMITS, inspectCsv, readCsv, type CsvSource } from "../../src/csv/reader";
import { cellsOf, cp1252, expectRefused, readAll, refusal, utf16be, utf16le, utf8, withBom } from "./fixtures";

setDefaultTimeout(120_000);

const dir = mkdtempSync(join(tmpdir(), "dossier-csv-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("files as spreadsheets write them", () => {
  test("Excel 'CSV UTF-8': BOM, commas, CRLF, quoted line breaks", async () => {
    const file = withBom('Nom,E-mail,Notes\r\nJosé Núñez,jose@example.org,"première ligne\r\nseconde ""citée"""\r\nZoë,zoe@example.org,\r\n');
    const { inspection, batches } = await readAll(file);
    expect(inspection).toMatchObject({ encoding: "utf-8", bom: true, delimiter: ",", headers: ["Nom", "E-mail", "Notes"], headerRow: 1, rows: 2 });
    expect(batches).toEqual([
      {
        rows: [
          { row: 2, cells: ["José Núñez", "jose@example.org", 'première ligne\r\nseconde "citée"'] },
          { row: 3, cells: ["Zoë", "zoe@example.org", ""] },
        ],
        errors: [],
        lastRow: 3,
      },
    ]);
  });

  test("Excel 'CSV (semicolon)' in a European locale: Windows-1252, semicolons, no BOM", async () => {
    const file = cp1252("Prénom;Société;Montant;Remarque\r\nAndré;Crédit Agricole;12500,50;“top” client – 5 €\r\nŒdipe;Müller & Söhne;;l’œuvre\r\n");
    const { inspection, batches } = await readAll(file);
    expect(inspection).toMatchObject({ encoding: "windows-1252", bom: false, delimiter: ";", headers: ["Prénom", "Société", "Montant", "Remarque"], rows: 2 });
    expect(batches[0].rows.map((row) => row.cells)).toEqual([
      ["André", "Crédit Agricole", "12500,50", "“top” client – 5 €"],
      ["Œdipe", "Müller & Söhne", "", "l’œuvre"],
    ]);
  });

  test("é as the single byte 0xE9 is Windows-1252, not UTF-8", async () => {
    const file = Uint8Array.from([...utf8("name\r\nJos"), 0xe9, ...utf8("\r\n")]);
    expect(await cellsOf(file)).toEqual([["José"]]);
  });

  test("one invalid byte after 3 MB of ASCII makes the whole file Windows-1252", async () => {
    const ascii = "name,city\r\n" + "Ada Lovelace,London\r\n".repeat(150_000);
    const file = Uint8Array.from([...utf8(ascii), ...utf8("Ren"), 0xe9, ...utf8(",Paris\r\n")]);
    const { inspection, batches } = await readAll(file);
    expect(inspection.encoding).toBe("windows-1252");
    expect(inspection.rows).toBe(150_001);
    expect(batches.at(-1)!.rows.at(-1)).toEqual({ row: 150_002, cells: ["René", "Paris"] });
  });

  test("Excel 'Unicode text': UTF-16 LE with BOM, tabs", async () => {
    const file = utf16le("Name\tCompany\tPhone\r\nÅsa Öberg\t北京公司\t+46 8 123\r\n\"Multi\r\nline\"\tAcme\t\r\n");
    const { inspection, batches } = await readAll(file);
    expect(inspection).toMatchObject({ encoding: "utf-16le", bom: true, delimiter: "\t", headers: ["Name", "Company", "Phone"], rows: 2 });
    expect(batches[0].rows.map((row) => row.cells)).toEqual([
      ["Åsa Öberg", "北京公司", "+46 8 123"],
      ["Multi\r\nline", "Acme", ""],
    ]);
  });

  test("UTF-16 BE with BOM", async () => {
    const { inspection, batches } = await readAll(utf16be("a;b\r\nç;😀\r\n"));
    expect(inspection).toMatchObject({ encoding: "utf-16be", delimiter: ";" });
    expect(batches[0].rows[0].cells).toEqual(["ç", "😀"]);
  });

  test("LibreOffice: UTF-8 without BOM, LF line ends, every text quoted", async () => {
    const file = utf8('"Full name","Email","Kind"\n"Ève Lefèvre","eve@example.org","client;partner"\n"Bob",,"prospect"\n');
    const { inspection, batches } = await readAll(file);
    expect(inspection).toMatchObject({ encoding: "utf-8", bom: false, delimiter: ",", headers: ["Full name", "Email", "Kind"] });
    expect(batches[0].rows.map((row) => row.cells)).toEqual([
      ["Ève Lefèvre", "eve@example.org", "client;partner"],
      ["Bob", "", "prospect"],
    ]);
  });

  test("Google Sheets: UTF-8 without BOM, CRLF, no line end after the last row", async () => {
    const file = utf8("Name,Phone number\r\nKenji 健二,+81 3 1234\r\nLast,0");
    expect(await cellsOf(file)).toEqual([
      ["Kenji 健二", "+81 3 1234"],
      ["Last", "0"],
    ]);
  });

  test("line ends mixed in one file: CRLF, LF and CR each end a row", async () => {
    expect(await cellsOf(utf8("a,b\n1,2\r\n3,4\r5,6"))).toEqual([
      ["1", "2"],
      ["3", "4"],
      ["5", "6"],
    ]);
  });

  test("a quote inside an unquoted cell is kept (hand-made files)", async () => {
    expect(await cellsOf(utf8('item,size\nscreen,27" wide\n'))).toEqual([["screen", '27" wide']]);
  });

  test("a header row with only one column: a one-column file", async () => {
    const { inspection, batches } = await readAll(utf8("email\r\na@example.org\r\nb@example.org\r\n"));
    expect(inspection).toMatchObject({ delimiter: ",", headers: ["email"], rows: 2 });
    expect(batches[0].rows.map((row) => row.cells)).toEqual([["a@example.org"], ["b@example.org"]]);
  });

  test("a delimiter inside a quoted header does not count", async () => {
    const { inspection } = await readAll(utf8('"Company, legal name";Email\r\nAcme;a@example.org\r\n'));
    expect(inspection).toMatchObject({ delimiter: ";", headers: ["Company, legal name", "Email"] });
  });

  test("a header row alone: no rows, not an error", async () => {
    const { inspection, batches } = await readAll(withBom("name,email\r\n"));
    expect(inspection).toMatchObject({ headers: ["name", "email"], rows: 0, sample: [] });
    expect(batches).toEqual([]);
  });

  test("header cells are trimmed", async () => {
    const { inspection } = await readAll(utf8(" Name , Email \r\nA,b\r\n"));
    expect(inspection.headers).toEqual(["Name", "Email"]);
  });
});

describe("rows", () => {
  test("the inspection previews the first five data rows, guard undone", async () => {
    const { inspection } = await readAll(utf8("name,phone\r\n" + Array.from({ length: 8 }, (_, i) => `P${i},"'+33 ${i}"`).join("\r\n")));
    expect(inspection.sample).toEqual(Array.from({ length: 5 }, (_, i) => ({ row: i + 2, cells: [`P${i}`, `+33 ${i}`] })));
  });

  test("rows of delimiters alone before the header row are blank, whatever the delimiter", async () => {
    const { inspection } = await readAll(utf8(";;\r\n,,\r\n\t\r\nname,email\r\nA,a@x.org\r\n"));
    expect(inspection).toMatchObject({ headerRow: 4, headers: ["name", "email"], delimiter: "," });
  });

  test("a row with fewer cells that another delimiter would not split as the header is not mixed", async () => {
    // Two semicolons in a row of a three-column comma file would be; one in a row of two cells is not.
    expect(await cellsOf(utf8("name,email,city\r\nSmith; John,x\r\n"))).toEqual([["Smith; John", "x", ""]]);
  });

  test("blank rows are passed over but numbered, as a spreadsheet numbers them", async () => {
    const { inspection, batches } = await readAll(utf8("\r\n,,\r\nname,email,city\r\nA,a@x.org,\r\n\r\n,,\r\nB,,Paris\r\n,\r\n"));
    expect(inspection).toMatchObject({ headerRow: 3, rows: 2 });
    expect(batches).toEqual([
      {
        rows: [
          { row: 4, cells: ["A", "a@x.org", ""] },
          { row: 7, cells: ["B", "", "Paris"] },
        ],
        errors: [],
        lastRow: 8,
      },
    ]);
  });

  test("a row with too many cells is refused alone, with its row number; the others go on", async () => {
    const { inspection, batches } = await readAll(utf8("name,email\r\nA,a@x.org\r\nB,b@x.org,extra\r\nC,c@x.org\r\n"));
    expect(inspection.rows).toBe(3);
    expect(batches).toEqual([
      {
        rows: [
          { row: 2, cells: ["A", "a@x.org"] },
          { row: 4, cells: ["C", "c@x.org"] },
        ],
        errors: [{ row: 3, column: null, message: "the row has 3 cells, the header row 2" }],
        lastRow: 4,
      },
    ]);
  });

  test("a row with fewer cells has the rest empty", async () => {
    expect(await cellsOf(utf8("a,b,c\r\n1\r\n1,2\r\n"))).toEqual([
      ["1", "", ""],
      ["1", "2", ""],
    ]);
  });

  test("a row number counts records, not lines: a quoted line break stays in its row", async () => {
    const { batches } = await readAll(utf8('name,notes\r\nA,"1\r\n2\r\n3"\r\nB,x\r\n'));
    expect(batches[0].rows.map((row) => row.row)).toEqual([2, 3]);
  });

  test("the formula guard of our exports is undone; other apostrophes stay; an option keeps it", async () => {
    const file = utf8("a,b,c,d,e,f,g\r\n\"'+33 1\",\"'=SUM(1)\",'-5,'@x,\"'\tt\",'plain,''=x\r\n");
    expect(await cellsOf(file)).toEqual([["+33 1", "=SUM(1)", "-5", "@x", "\tt", "'plain", "''=x"]]);
    expect(await cellsOf(file, { stripFormulaGuard: false })).toEqual([["'+33 1", "'=SUM(1)", "'-5", "'@x", "'\tt", "'plain", "''=x"]]);
  });

  test("batches of at most 500 rows, refused rows included, each with the last row it covers", async () => {
    const lines = ["n,v"];
    for (let i = 1; i <= 1_234; i++) lines.push(i % 100 === 0 ? `${i},x,extra` : `${i},x`);
    const { batches } = await readAll(utf8(lines.join("\r\n") + "\r\n"));
    expect(batches.map((b) => b.rows.length + b.errors.length)).toEqual([500, 500, 234]);
    expect(batches.map((b) => b.lastRow)).toEqual([501, 1_001, 1_235]);
    expect(batches.flatMap((b) => b.errors.map((e) => e.row))).toEqual([101, 201, 301, 401, 501, 601, 701, 801, 901, 1_001, 1_101, 1_201]);
    const numbers = batches.flatMap((b) => b.rows.map((r) => Number(r.cells[0])));
    expect(numbers.length).toBe(1_234 - 12);
    expect(numbers.every((n, i) => i === 0 || n > numbers[i - 1])).toBe(true);
  });

  test("a smaller batch size is kept, a larger one is cut to 500", async () => {
    const file = utf8("n\r\n" + Array.from({ length: 1_100 }, (_, i) => `${i}`).join("\r\n"));
    const sizes = async (batchSize: number) => (await readAll(file, { batchSize })).batches.map((b) => b.rows.length);
    expect(await sizes(300)).toEqual([300, 300, 300, 200]);
    expect(await sizes(10_000)).toEqual([500, 500, 100]);
  });

  test("resume: afterRow passes over the rows a job already committed", async () => {
    const file = utf8("n\r\n" + Array.from({ length: 1_200 }, (_, i) => `${i + 1}`).join("\r\n"));
    const inspection = await inspectCsv(file);
    const first = await readCsv(file, inspection).next();
    expect(first.done).toBe(false);
    const lastRow = first.value!.lastRow;
    expect(lastRow).toBe(501);
    const rest: number[] = [];
    for await (const batch of readCsv(file, inspection, { afterRow: lastRow })) rest.push(...batch.rows.map((r) => r.row));
    expect(rest[0]).toBe(502);
    expect(rest.length).toBe(700);
    expect(rest.at(-1)).toBe(1_201);
  });
});

describe("stopping early", () => {
  test("a job that stops after a batch leaves the file and the parser closed", async () => {
    let opened = 0;
    let closed = 0;
    const file = utf8("n\r\n" + Array.from({ length: 2_000 }, (_, i) => `${i}`).join("\r\n"));
    const source = () =>
      (async function* () {
        opened++;
        try {
          for (let at = 0; at < file.length; at += 1_000) yield file.subarray(at, at + 1_000);
        } finally {
          closed++;
        }
      })();
    const inspection = await inspectCsv(source);
    for await (const batch of readCsv(source, inspection)) {
      expect(batch.rows.length).toBe(500);
      break;
    }
    expect({ opened, closed }).toEqual({ opened: 3, closed: 3 }); // bytes scanned, records inspected, read
  });
});

describe("sources", () => {
  const text = "name,city\r\nZoë,Zürich\r\n";
  const expected = [["Zoë", "Zürich"]];

  test("bytes, a Blob, a file on disk, a stream opened anew each time", async () => {
    const path = join(dir, "contacts.csv");
    writeFileSync(path, withBom(text));
    const sources: CsvSource[] = [utf8(text), new Blob([withBom(text)]), Bun.file(path), () => Bun.file(path).stream()];
    for (const source of sources) expect(await cellsOf(source)).toEqual(expected);
  });

  test("a UTF-8 character split across chunks, one byte a chunk", async () => {
    const bytes = withBom(text);
    const source = () =>
      (async function* () {
        for (const byte of bytes) yield Uint8Array.of(byte);
      })();
    const { inspection, batches } = await readAll(source);
    expect(inspection).toMatchObject({ encoding: "utf-8", bom: true });
    expect(batches[0].rows[0].cells).toEqual(expected[0]);
  });

  test("a UTF-16 file split across chunks at odd bytes", async () => {
    const bytes = utf16le(text);
    const source = () =>
      (async function* () {
        for (let at = 0; at < bytes.length; at += 3) yield bytes.subarray(at, at + 3);
      })();
    expect(await cellsOf(source)).toEqual(expected);
  });
});

describe("files refused whole, before any row is read into the database", () => {
  test("over 50 MB: 413 payload_too_large, from the Blob's size without reading it", async () => {
    expect(CSV_LIMITS.maxBytes).toBe(52_428_800);
    const big = new Blob([new Uint8Array(CSV_LIMITS.maxBytes + 1)]);
    const error = await expectRefused(big, "too_large", 413);
    expect(error.message).toContain("50 MB");
  });

  test("exactly 50 MB is taken (413 only above)", async () => {
    // A 50 MB Blob of one column: inspected, not refused for size (its row count is fine too).
    const row = "x".repeat(1023) + "\n";
    const big = new Blob(["h\n", row.repeat(CSV_LIMITS.maxBytes / 1024 - 1), "x".repeat(1021) + "\n"]);
    expect(big.size).toBe(CSV_LIMITS.maxBytes);
    const inspection = await inspectCsv(big);
    expect(inspection.rows).toBe(CSV_LIMITS.maxBytes / 1024);
  });

  test("over 50 MB from a stream of unknown length: refused once the 50 MB are passed", async () => {
    let sent = 0;
    const source = () =>
      (async function* () {
        const chunk = utf8("a,b\n".repeat(256 * 1024)); // 1 MB
        for (let i = 0; i < 60; i++) {
          sent += chunk.length;
          yield chunk;
        }
      })();
    await expectRefused(source, "too_large", 413);
    expect(sent).toBeLessThanOrEqual(51 * 1024 * 1024);
  });

  test("over 200,000 rows: 413; 200,000 rows are taken", async () => {
    expect(CSV_LIMITS.maxRows).toBe(200_000);
    const rows = (n: number) => utf8("n\n" + "1\n".repeat(n));
    expect((await inspectCsv(rows(200_000))).rows).toBe(200_000);
    const error = await expectRefused(rows(200_001), "too_many_rows", 413);
    expect(error.message).toContain("200,000");
  });

  test("blank rows do not count toward the row limit; the limits can be set lower", async () => {
    const limits = { maxBytes: 1_000, maxRows: 2 };
    expect((await inspectCsv(utf8("n\n1\n\n\n2\n\n"), limits)).rows).toBe(2);
    await expectRefused(utf8("n\n1\n2\n3\n"), "too_many_rows", 413, limits);
    await expectRefused(utf8("n\n" + "1".repeat(1_000)), "too_large", 413, limits);
  });

  test("an empty file", async () => {
    for (const empty of [new Uint8Array(0), withBom(""), utf8("\r\n\r\n"), utf8("  \n,,\n;;\n"), utf16le(""), utf16le("\r\n")]) {
      await expectRefused(empty, "empty");
    }
  });

  test("a binary file: NUL bytes, control characters, known formats named", async () => {
    await expectRefused(Uint8Array.from([0x61, 0x2c, 0x62, 0x0a, 0x00, 0x01, 0x02]), "binary");
    await expectRefused(Uint8Array.from({ length: 400 }, (_, i) => (i % 7 === 0 ? 0x01 : 0x41)), "binary");
    const xlsx = await expectRefused(Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00]), "binary");
    expect(xlsx.message).toContain("Excel");
    const pdf = await expectRefused(utf8("%PDF-1.7\n..."), "binary");
    expect(pdf.message).toContain("PDF");
    await expectRefused(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), "binary");
    await expectRefused(Uint8Array.from([...utf8("SQLite format 3"), 0, 0x10, 0x00]), "binary");
  });

  test("text that begins like a signature's first letters is still text", async () => {
    expect((await inspectCsv(utf8("SQLite version,GIF8\r\n3.45,x\r\n"))).headers).toEqual(["SQLite version", "GIF8"]);
  });

  test("a UTF-16 BOM before binary content", async () => {
    await expectRefused(Uint8Array.from([0xff, 0xfe, 0x61, 0x00, 0x00, 0x00, 0x01, 0x02, 0x0a, 0x00]), "binary");
  });

  test("Windows-1252's bytes 0x80-0x9F are text, not control characters", async () => {
    const bytes = Uint8Array.from([...utf8("name\r\n"), ...Array.from({ length: 32 }, (_, i) => 0x80 + i), ...utf8("\r\n")]);
    const { inspection } = await readAll(bytes);
    expect(inspection.encoding).toBe("windows-1252");
  });

  test("UTF-16 without its BOM reads as binary, and the message says why", async () => {
    const error = await expectRefused(utf16le("name\r\nA\r\n", false), "binary");
    expect(error.message).toContain("byte order mark");
  });

  test("no header row: the first row holds data", async () => {
    for (const text of ["jane@example.org,Jane Doe\r\n", "Jane,+33 1 23 45 67 89\r\n", "2026-11-22,x\r\n", "Acme,https://acme.example\r\n", "42\n"]) {
      await expectRefused(utf8(text), "no_header");
    }
  });

  test("a header with an empty name", async () => {
    const error = await expectRefused(utf8("name,,email\r\nA,x,a@x.org\r\n"), "empty_header");
    expect(error.message).toContain("column 2");
    await expectRefused(utf8("name;email;\r\n"), "empty_header");
  });

  test("duplicate headers, compared trimmed and case-insensitively", async () => {
    const error = await expectRefused(utf8("Email,name, email \r\n"), "duplicate_header");
    expect(error.message).toContain("columns 1 and 3");
  });

  test("mixed delimiters: a header split by commas and rows by semicolons", async () => {
    const error = await expectRefused(utf8("name,email,city\r\nA,a@x.org,Paris\r\nB;b@x.org;Lyon\r\n"), "mixed_delimiters");
    expect(error.message).toContain("row 3");
    await expectRefused(utf8("name\temail\r\nA;a@x.org\r\n"), "mixed_delimiters");
  });

  test("mixed delimiters: a header split as often by two", async () => {
    await expectRefused(utf8("name;email,city\r\n"), "mixed_delimiters");
  });

  test("a header with a stray other delimiter in a name: the most frequent one wins", async () => {
    const { inspection, batches } = await readAll(utf8("name;email;note, misc\r\nA;a@x.org;ok\r\n"));
    expect(inspection.delimiter).toBe(";");
    expect(inspection.headers).toEqual(["name", "email", "note, misc"]);
    expect(batches[0].rows[0].cells).toEqual(["A", "a@x.org", "ok"]);
  });

  test("a quote that is never closed: the CSV cannot be read", async () => {
    const error = await expectRefused(utf8('name,notes\r\nA,"open\r\nB,x\r\n'), "malformed");
    expect(error.message).toContain("Quote");
  });

  test("refusals are ApiErrors as the API renders them", async () => {
    const error = await refusal(utf8(""));
    expect({ status: error.status, code: error.code, param: error.param }).toEqual({ status: 400, code: "invalid_body", param: "file" });
  });
});
