// C21's exports through the real app: GET /dossiers/export and /contacts/export answer a streamed
// CSV (BOM, CRLF, RFC 4180, the formula guard, the file name), with the lists' filters, order and
// scopes, read here with csv-parse as a spreadsheet would read it.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { parse } from "csv-parse/sync";
import { EXPORT_COLUMNS } from "../../src/csv";
import { createContact } from "../../src/services/contacts";
import { createDossier } from "../../src/services/dossiers";
import { exportDossiers } from "../../src/services/exports";
import { call, makeKey, makeOrg } from "../helpers";
import { ENGINES, appOn } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

describe.each(ENGINES)("exports on %s", async (engine) => {
  const app = await appOn(engine, { now: () => new Date("2026-11-29T10:00:00.000Z") });
  const org = await makeOrg(app);
  const other = await makeOrg(app);
  const ctx = app.dossier;

  async function exported(path: string, key = org.key) {
    const response = await app.handle(new Request(`http://localhost/api/v1${path}`, { headers: { authorization: `Bearer ${key}` } }));
    const bytes = new Uint8Array(await response.arrayBuffer());
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
    return { response, bytes, text, rows: response.status === 200 ? (parse(text, { bom: true }) as string[][]) : [] };
  }

  // Dossiers with what spreadsheets trip over: accents, line breaks, quotes, commas, formula signs.
  const ada = await createDossier(ctx, org.id, { type: "candidate", name: "Ada Lovelace", email: "ada@example.com", phone: "+44 20 7946 0000", intake_notes: 'Line one\nLine "two", with a comma' });
  const eve = await createDossier(ctx, org.id, { type: "sales", name: "=HYPERLINK(\"http://evil\")", company: "Société Générale", deal_size: 12500.5, deal_currency: "EUR" });
  const zoe = await createDossier(ctx, org.id, { type: "candidate", name: "Zoë @home", role: "-lead" });
  await createDossier(ctx, other.id, { type: "candidate", name: "Someone else's" });

  describe("GET /dossiers/export", () => {
    test("a CSV file: BOM, CRLF, header of the schema's fields, every row newest first, values intact", async () => {
      const { response, bytes, text, rows } = await exported("/dossiers/export");
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect(response.headers.get("content-disposition")).toBe('attachment; filename="dossiers-2026-11-29.csv"');
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      // Every line ends with CRLF (a quoted cell's own line break stays as it was).
      expect(text.endsWith("\r\n")).toBe(true);
      expect(text.split("\r\n")[0]).toBe("\uFEFF" + EXPORT_COLUMNS.dossiers.join(","));
      expect(rows[0]).toEqual([...EXPORT_COLUMNS.dossiers]);
      const column = (name: string) => rows[0].indexOf(name);
      expect(rows.slice(1).map((row) => row[column("id")])).toEqual([zoe.id, eve.id, ada.id]);
      const byId = new Map(rows.slice(1).map((row) => [row[column("id")], row]));
      expect(byId.get(ada.id)![column("intake_notes")]).toBe('Line one\nLine "two", with a comma');
      expect(byId.get(eve.id)![column("company")]).toBe("Société Générale");
      expect(byId.get(eve.id)![column("deal_size")]).toBe("12500.5");
      expect(byId.get(ada.id)![column("deal_size")]).toBe("");
      // The formula guard: `'` before =, +, -, @.
      expect(byId.get(eve.id)![column("name")]).toBe("'=HYPERLINK(\"http://evil\")");
      expect(byId.get(ada.id)![column("phone")]).toBe("'+44 20 7946 0000");
      expect(byId.get(zoe.id)![column("role")]).toBe("'-lead");
      expect(byId.get(zoe.id)![column("name")]).toBe("Zoë @home");
    });

    test("the list's filters, the organization's rows only", async () => {
      expect((await exported("/dossiers/export?type=sales")).rows.slice(1).map((r) => r[0])).toEqual([eve.id]);
      expect((await exported("/dossiers/export?q=LOVE")).rows.slice(1).map((r) => r[0])).toEqual([ada.id]);
      expect((await exported("/dossiers/export?status=archived")).rows).toEqual([[...EXPORT_COLUMNS.dossiers]]);
      // page and per_page are not the export's: ignored, as unknown parameters are (C3).
      expect((await exported("/dossiers/export?per_page=1&page=2")).rows.length).toBe(4);
      const mine = (await exported("/dossiers/export")).rows.map((r) => r[1]);
      expect(mine.slice(1).every((organization) => organization === org.id)).toBe(true);
    });

    test("a bad filter is 400 before any byte of CSV; a key without dossiers:read 403", async () => {
      const bad = await exported("/dossiers/export?updated_since=yesterday");
      expect(bad.response.status).toBe(400);
      expect(JSON.parse(bad.text).error.code).toBe("invalid_body");
      expect((await exported("/dossiers/export?overdue=maybe")).response.status).toBe(400);
      expect((await exported("/dossiers/export?stage_id=nope")).response.status).toBe(400);
      const contactsOnly = await makeKey(app, org, ["contacts:read"]);
      expect((await exported("/dossiers/export", contactsOnly)).response.status).toBe(403);
      expect((await exported("/dossiers/export", "svc_live_" + "x".repeat(32))).response.status).toBe(401);
    });

    test("the batches are keyset pages, each its own read: every row once, in order, across batch edges", async () => {
      const seen: string[] = [];
      for await (const batch of (await exportDossiers(ctx, org.id, {}, 2)).batches) {
        expect(batch.length).toBeLessThanOrEqual(2);
        seen.push(...batch.map((row) => row.id));
      }
      expect(seen).toEqual([zoe.id, eve.id, ada.id]);
    });
  });

  describe("GET /contacts/export", () => {
    const pool = { pool_added_at: "2026-01-01T00:00:00.000Z", pool_expires_at: "2027-01-01T00:00:00.000Z" };

    test("every contact with its fields, kind joined by ';', filters of the list", async () => {
      const grace = await createContact(ctx, org.id, { full_name: "Grace Hopper", email: "grace@navy.example", kind: ["candidate", "partner"], notes: "Two\r\nlines", ...pool });
      const { response, rows } = await exported("/contacts/export");
      expect(response.status).toBe(200);
      expect(response.headers.get("content-disposition")).toBe('attachment; filename="contacts-2026-11-29.csv"');
      expect(rows[0]).toEqual([...EXPORT_COLUMNS.contacts]);
      const column = (name: string) => rows[0].indexOf(name);
      const row = rows.find((r) => r[column("id")] === grace.id)!;
      expect(row[column("kind")]).toBe("candidate;partner");
      expect(row[column("notes")]).toBe("Two\r\nlines");
      expect(row[column("dossier_count")]).toBe("0");
      // The three dossiers' own contacts, newest first after Grace.
      expect(rows.length).toBe(1 + 4);
      expect(rows[1][column("id")]).toBe(grace.id);
      expect((await exported("/contacts/export?kind=partner")).rows.slice(1).map((r) => r[0])).toEqual([grace.id]);
      expect((await exported("/contacts/export?search=NAVY")).rows.slice(1).map((r) => r[0])).toEqual([grace.id]);
      expect((await exported("/contacts/export?search=zo")).rows.slice(1).map((r) => r[column("full_name")])).toEqual(["Zoë @home"]);
      expect((await exported("/contacts/export?pool=in_pool")).rows.slice(1).map((r) => r[0])).toEqual([grace.id]);
      expect((await exported("/contacts/export?kind=supplier")).rows.length).toBe(1);
    });

    test("scopes and bad filters", async () => {
      const dossiersOnly = await makeKey(app, org, ["dossiers:read"]);
      expect((await exported("/contacts/export", dossiersOnly)).response.status).toBe(403);
      expect((await exported("/contacts/export?kind=nobody")).response.status).toBe(400);
      expect((await exported("/contacts/export?pool=sometimes")).response.status).toBe(400);
    });

    test("a path id named export still reaches the record routes' 404 for other methods", async () => {
      expect((await call(app, "PATCH", "/contacts/export", { key: org.key, body: {} })).status).toBe(404);
      expect((await call(app, "DELETE", "/dossiers/export", { key: org.key })).status).toBe(404);
    });
  });
});
