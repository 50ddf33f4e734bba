// C21's export format, without a server: the writer's bytes (BOM, CRLF, RFC 4180 quoting, the
// formula guard, the header row of each resource), read back by an independent parser (CPython's
// csv module) and by the import's reader, and its streaming (one batch pulled at a time).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { EXPORT_COLUMNS } from "../../src/csv/columns";
import { cellText, csvCell, csvChunks, csvHeader, csvLine, csvStream, exportFilename, exportHeaders, resourceColumns, type CsvColumns } from "../../src/csv/writer";
import { Contact } from "../../src/schemas/contacts";
import { Dossier } from "../../src/schemas/dossiers";
import { cellsOf, collect, pythonCsv } from "./fixtures";

setDefaultTimeout(120_000);

describe("cells (RFC 4180 and the formula guard of C21)", () => {
  const cases: [string, string, string][] = [
    ["plain text as is", "Ada Lovelace", "Ada Lovelace"],
    ["empty", "", ""],
    ["accents as is", "Émilie Dupré, Zoë", '"Émilie Dupré, Zoë"'],
    ["a comma quoted", "Acme, Inc.", '"Acme, Inc."'],
    ["a quote doubled and quoted", 'the "best"', '"the ""best"""'],
    ["a line feed quoted", "line 1\nline 2", '"line 1\nline 2"'],
    ["CRLF quoted", "line 1\r\nline 2", '"line 1\r\nline 2"'],
    ["a semicolon needs no quotes", "a;b", "a;b"],
    ["= prefixed and quoted", "=HYPERLINK(\"http://x\")", '"\'=HYPERLINK(""http://x"")"'],
    ["+ prefixed and quoted (phone numbers too)", "+33 1 23 45 67 89", "\"'+33 1 23 45 67 89\""],
    ["- prefixed and quoted", "-1+2", "\"'-1+2\""],
    ["@ prefixed and quoted", "@SUM(A1)", "\"'@SUM(A1)\""],
    ["tab first prefixed and quoted", "\t=1", "\"'\t=1\""],
    ["CR first prefixed and quoted", "\r=1", "\"'\r=1\""],
    ["a formula sign later is harmless", "a=b+c", "a=b+c"],
    ["a leading space is not a formula start", " =1", " =1"],
    ["an apostrophe first is not guarded", "'=1", "'=1"],
  ];
  for (const [name, text, written] of cases) {
    test(name, () => expect(csvCell(text)).toBe(written));
  }

  test("a line: cells joined by commas, ended by CRLF", () => {
    expect(csvLine(["a", "b,c", ""])).toBe('a,"b,c",\r\n');
  });

  test("values: null and absent empty, numbers, booleans, arrays joined by ;, dates ISO", () => {
    expect(cellText(null)).toBe("");
    expect(cellText(undefined)).toBe("");
    expect(cellText(12500.5)).toBe("12500.5");
    expect(cellText(0)).toBe("0");
    expect(cellText(true)).toBe("true");
    expect(cellText(["prospect", "client"])).toBe("prospect;client");
    expect(cellText([])).toBe("");
    expect(cellText(new Date("2026-11-22T04:21:26.123Z"))).toBe("2026-11-22T04:21:26.123Z");
    expect(cellText({ a: 1 })).toBe('{"a":1}');
  });
});

describe("the header row: the resource's field names in the order of the API's schema", () => {
  test("metadata: a metadata.<key> column per key given, in its order, after the fields; empty where a row lacks the key", () => {
    const columns = resourceColumns("contacts", ["a", "b"]);
    expect(columns.names.slice(-3)).toEqual(["updated_at", "metadata.a", "metadata.b"]);
    expect(columns.cells({ id: "x", metadata: { b: "2", c: "3" } }).slice(-2)).toEqual(["", "2"]);
  });

  // `metadata` is written as one column per key after these (issue 38; test/http/metadata.test.ts).
  test("dossiers: every field of the Dossier record, in order", () => {
    expect(EXPORT_COLUMNS.dossiers).toEqual(Object.keys(Dossier.properties).filter((name) => name !== "metadata"));
    expect(EXPORT_COLUMNS.dossiers.slice(0, 5)).toEqual(["id", "organization_id", "flow_id", "type", "name"]);
    expect(EXPORT_COLUMNS.dossiers.at(-1)).toBe("updated_at");
  });

  test("contacts: every field of the Contact record, in order, kind among them", () => {
    expect(EXPORT_COLUMNS.contacts).toEqual(Object.keys(Contact.properties).filter((name) => name !== "metadata"));
    expect(EXPORT_COLUMNS.contacts).toContain("kind");
  });

  test("the header is the BOM then the names joined by commas, CRLF", () => {
    expect(csvHeader(["id", "name"])).toBe("\uFEFFid,name\r\n");
  });
});

const CONTACT = {
  id: "9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
  full_name: "Zoë O'Brien-Dupré",
  email: "zoe@example.org",
  phone: "+33 1 23 45 67 89",
  linkedin_url: "https://www.linkedin.com/in/zoe",
  company: 'Acme, "the best"',
  role: "=cmd|' /C calc'!A0",
  city: "Zürich",
  kind: ["prospect", "client"],
  notes: "line 1\r\nline 2\nline 3 — “quoted” €",
  dossier_count: 3,
  pool_added_at: null,
  pool_expires_at: "2027-06-30T00:00:00.000Z",
  created_at: "2026-11-22T04:21:26.123Z",
  updated_at: "2026-11-22T04:21:26.123Z",
};

describe("a whole export", () => {
  test("bytes: the UTF-8 BOM first, CRLF after every row and nowhere else outside quotes", async () => {
    const bytes = await collect(csvChunks(resourceColumns("contacts"), [[CONTACT], [], [{ ...CONTACT, notes: null }]]));
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes); // drops the BOM
    expect(text.startsWith(EXPORT_COLUMNS.contacts.join(",") + "\r\n")).toBe(true);
    expect(text.endsWith("\r\n")).toBe(true);
    // Line ends outside quotes: exactly three CRLFs (header and two rows).
    let quoted = false;
    const ends: string[] = [];
    for (let i = 0; i < text.length; i++) {
      if (text[i] === '"') quoted = !quoted;
      else if (!quoted && (text[i] === "\r" || text[i] === "\n")) ends.push(text.slice(i, i + 2)), i++;
    }
    expect(ends).toEqual(["\r\n", "\r\n", "\r\n"]);
    expect(text).toContain("prospect;client");
    expect(text).toContain("\"'+33 1 23 45 67 89\"");
    expect(text).toContain("\"'=cmd|' /C calc'!A0\"");
  });

  test("an independent parser (CPython's csv) reads the same values, the guard's ' kept as a spreadsheet shows it", async () => {
    const bytes = await collect(csvChunks(resourceColumns("contacts"), [[CONTACT]]));
    const records = await pythonCsv(bytes);
    expect(records[0]).toEqual([...EXPORT_COLUMNS.contacts]);
    const row = Object.fromEntries(records[1].map((cell, i) => [records[0][i], cell]));
    expect(row).toEqual({
      ...Object.fromEntries(Object.entries(CONTACT).map(([k, v]) => [k, cellText(v)])),
      phone: "'+33 1 23 45 67 89",
      role: "'=cmd|' /C calc'!A0",
    });
    expect(records.length).toBe(2);
  });

  test("the import's reader reads back every value, the guard undone", async () => {
    const bytes = await collect(csvChunks(resourceColumns("contacts"), [[CONTACT, { ...CONTACT, id: "2", notes: "", kind: [] }]]));
    const rows = await cellsOf(bytes);
    expect(rows).toEqual([
      EXPORT_COLUMNS.contacts.map((name) => cellText(CONTACT[name as keyof typeof CONTACT])),
      EXPORT_COLUMNS.contacts.map((name) => (name === "id" ? "2" : name === "notes" || name === "kind" ? "" : cellText(CONTACT[name as keyof typeof CONTACT]))),
    ]);
  });

  test("an export of no row is the header alone", async () => {
    const bytes = await collect(csvChunks(resourceColumns("dossiers"), []));
    expect(new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes)).toBe(csvHeader(EXPORT_COLUMNS.dossiers));
  });

  test("file name and headers", () => {
    const now = new Date("2026-11-29T23:59:59.999Z");
    expect(exportFilename("dossiers", now)).toBe("dossiers-2026-11-29.csv");
    expect(exportHeaders("contacts", now)).toEqual({
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": 'attachment; filename="contacts-2026-11-29.csv"',
    });
  });
});

describe("streaming: memory holds one batch", () => {
  const columns: CsvColumns<number> = { names: ["n"], cells: (n) => [String(n)] };

  /** Batches of `size` numbers, counting how many were asked for. */
  function source(batches: number, size: number) {
    const state = { pulled: 0, finished: false };
    async function* gen() {
      try {
        for (let b = 0; b < batches; b++) {
          state.pulled++;
          yield Array.from({ length: size }, (_, i) => b * size + i);
        }
      } finally {
        state.finished = true;
      }
    }
    return { state, batches: gen() };
  }

  test("a batch is read only when the consumer pulls the previous one's bytes", async () => {
    const { state, batches } = source(1_000, 10);
    const chunks = csvChunks(columns, batches);
    expect(state.pulled).toBe(0);
    await chunks.next(); // the header
    expect(state.pulled).toBe(0);
    await chunks.next();
    expect(state.pulled).toBe(1);
    await chunks.next();
    expect(state.pulled).toBe(2);
    await chunks.return(undefined);
    expect(state.finished).toBe(true);
  });

  test("the Response stream pulls as read, and a client that goes away stops the reading", async () => {
    const { state, batches } = source(1_000, 10);
    const reader = csvStream(columns, batches).getReader();
    await reader.read();
    await reader.read();
    expect(state.pulled).toBeLessThanOrEqual(2);
    await reader.cancel();
    expect(state.finished).toBe(true);
    expect(state.pulled).toBeLessThanOrEqual(2);
  });

  test("the stream gives the event loop a turn between batches: other requests are answered during an export", async () => {
    // Without the turn, a consumer that takes each chunk at once (as Bun's server does while the
    // socket is writable) read all 100 batches before work queued beforehand for the next turn of
    // the event loop (a request's I/O) could run. A timer would not do: 100 small batches may all
    // be read, turns included, before its first millisecond is up.
    const { state, batches } = source(100, 10);
    let pulledWhenTimerFired = -1;
    setImmediate(() => (pulledWhenTimerFired = state.pulled));
    // A turn as soon as any time has passed (in the server: once it has read for 20 ms).
    await new Response(csvStream(columns, batches, undefined, 0)).arrayBuffer();
    expect(state.pulled).toBe(100);
    expect(pulledWhenTimerFired).toBeGreaterThanOrEqual(0);
    expect(pulledWhenTimerFired).toBeLessThan(100);
  });

  test("every batch arrives, in order", async () => {
    const { batches } = source(50, 20);
    const text = await new Response(csvStream(columns, batches)).text();
    const lines = text.replace(/^\uFEFF/, "").split("\r\n");
    expect(lines.length).toBe(1 + 1_000 + 1);
    expect(lines[0]).toBe("n");
    expect(lines[1]).toBe("0");
    expect(lines[1_000]).toBe("999");
  });
});
