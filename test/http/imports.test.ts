// C21's imports through the real app on a real SQLite file: POST /imports (multipart) with mapping,
// modes, match_on, dry_run, emit_events, the encodings and delimiters, per-row errors, every bad
// input of issue 36 (answered before anything is queued, changing nothing), the background job,
// GET /imports, GET /imports/{id} and the revert.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { createContact, getContact } from "../../src/services/contacts";
import { createDossier } from "../../src/services/dossiers";
import { call, makeKey, makeOrg, until, type Answer } from "../helpers";
import { ENGINES, appOn, rowCountsOf } from "../helpers/stores";
import { cp1252, utf16le, utf8, withBom } from "../csv/fixtures";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

describe.each(ENGINES)("on %s", async (engine) => {
  const app = await appOn(engine);
  const org = await makeOrg(app);
  const ctx = app.dossier;

  type Fields = Record<string, string>;

  /** POST /imports with `file` (bytes, named) and the other form fields. */
  async function upload(bytes: Uint8Array | string, fields: Fields, key = org.key, name = "people.csv"): Promise<Answer> {
    const form = new FormData();
    form.append("file", new File([typeof bytes === "string" ? utf8(bytes) : bytes], name, { type: "text/csv" }));
    for (const [field, value] of Object.entries(fields)) form.append(field, value);
    return call(app, "POST", "/imports", { key, raw: form });
  }

  /** The import once its job is done (bounded wait). */
  async function finished(id: string, key = org.key) {
    return until(
      async () => {
        const { json } = await call(app, "GET", `/imports/${id}`, { key });
        return json.data.status !== "queued" && json.data.status !== "running" && json.data;
      },
      60_000,
      `import ${id} to finish`,
    );
  }

  async function imported(bytes: Uint8Array | string, fields: Fields, key = org.key) {
    const answer = await upload(bytes, fields, key);
    expect(answer.status, answer.text).toBe(202);
    expect(answer.json.data.status).toBe("queued");
    return finished(answer.json.data.id, key);
  }

  const contactsByEmail = async (email: string) => (await call(app, "GET", `/contacts?search=${encodeURIComponent(email)}`, { key: org.key })).json.data;
  const importFiles = () => (existsSync(join(ctx.filesDir, org.id, "imports")) ? readdirSync(join(ctx.filesDir, org.id, "imports")) : []);

  describe("POST /imports: contacts", () => {
    test("create: rows mapped by the mapping, a bad row refused with its row and column, the others in", async () => {
      const file =
        "Name;E-mail;Kinds;Notes;Ignored\r\n" +
        "Ada Lovelace;ada@example.com;candidate;\"First line\r\nsecond; with a semicolon\";x\r\n" +
        "Grace Hopper;not-an-email;client;;x\r\n" +
        "Zoë Ünïcode;zoe@example.com;prospect, partner;;x;one cell too many\r\n" +
        "Émile Zola;emile@example.com;supplier;'+33 note;x\r\n" +
        ";;;;\r\n" +
        "Marie Curie;marie@example.com;candidate;;x\r\n";
      const done = await imported(withBom(file), {
        resource: "contacts",
        mapping: JSON.stringify({ Name: "full_name", "E-mail": "email", Kinds: "kind", Notes: "notes" }),
      });
      expect(done).toMatchObject({ status: "succeeded", resource: "contacts", dry_run: false, mode: "create", match_on: "email", file_name: "people.csv" });
      expect(done).toMatchObject({ rows: 5, processed: 5, created: 3, updated: 0, skipped: 0, failed: 2 });
      expect(done.errors).toEqual([
        { row: 3, column: "E-mail", message: "email: must be an email address" },
        { row: 4, column: null, message: "the row has 6 cells, the header row 5" },
      ]);
      expect(done.finished_at).not.toBeNull();
      const [ada] = await contactsByEmail("ada@example.com");
      expect(ada).toMatchObject({ full_name: "Ada Lovelace", kind: ["candidate"], notes: "First line\r\nsecond; with a semicolon" });
      // The export's formula guard is taken off again on import (round 3 notes).
      expect((await contactsByEmail("emile@example.com"))[0].notes).toBe("+33 note");
      expect(await contactsByEmail("zoe@example.com")).toEqual([]);
      // The file is removed once the import is done (after its last commit, so a crash before it
      // leaves the file for the sweep, never an import without its file).
      await until(() => importFiles().length === 0, 60_000, "the import's file removed");
    });

    test("create, one batch (PostgreSQL's one INSERT): an email taken before, one taken earlier in the batch (any case) and a bad row refused alone, in row order; metadata and non-ASCII search kept", async () => {
      await createContact(ctx, org.id, { full_name: "Already Here", email: "taken@example.com" });
      const file =
        "name,email,tag\n" +
        "Taken Again,TAKEN@example.com,a\n" +
        "Batch First,batch1@example.com,b\n" +
        "Bad Email,nope,c\n" +
        "Batch Second,Batch1@Example.com,d\n" +
        "Ångström Çelik,angstrom@example.com,e\n" +
        "No Email,,f\n" +
        "No Email Either,,g\n";
      const done = await imported(file, { resource: "contacts", mapping: JSON.stringify({ name: "full_name", email: "email", tag: "metadata.tag" }) });
      expect(done).toMatchObject({ status: "succeeded", rows: 7, processed: 7, created: 4, failed: 3 });
      expect(done.errors.map((e: { row: number; column: string | null; message: string }) => [e.row, e.column, e.message.split(":")[0]])).toEqual([
        [2, "email", "a contact with this email already exists in the organization"],
        [4, "email", "email"],
        [5, "email", "a contact with this email already exists in the organization"],
      ]);
      const [first] = await contactsByEmail("batch1@example.com");
      expect(first).toMatchObject({ full_name: "Batch First", metadata: { tag: "b" } });
      // C10's folding of the search row, as for one contact made through the API.
      expect((await call(app, "GET", `/contacts?search=${encodeURIComponent("ångström")}`, { key: org.key })).json.data.map((c: { email: string }) => c.email)).toEqual([
        "angstrom@example.com",
      ]);
      expect((await call(app, "GET", "/contacts?metadata[tag]=f", { key: org.key })).json.data.map((c: { full_name: string }) => c.full_name)).toEqual(["No Email"]);
    });

    test("dry run: the same counts and errors, nothing written", async () => {
      const file = "full_name,email\nDry One,dry1@example.com\nDry Two,bad\nDry One Again,DRY1@example.com\n";
      const before = await rowCountsOf(app);
      const done = await imported(file, { resource: "contacts", mapping: JSON.stringify({ full_name: "full_name", email: "email" }), dry_run: "true" });
      expect(done).toMatchObject({ status: "succeeded", dry_run: true, rows: 3, processed: 3, created: 1, failed: 2 });
      expect(done.errors.map((e: { row: number }) => e.row)).toEqual([3, 4]);
      expect(done.errors[1].message).toContain("already exists");
      const after = await rowCountsOf(app);
      expect({ ...after, imports: before.imports } as Record<string, number>).toEqual(before);
      expect(after.imports).toBe(before.imports + 1);
    });

    test("upsert on email: matched rows updated (unchanged ones skipped), new ones created; the revert puts all back but what changed since", async () => {
      const kept = await createContact(ctx, org.id, { full_name: "Kept Same", email: "kept@example.com", city: "Paris" });
      const moved = await createContact(ctx, org.id, { full_name: "Moved City", email: "moved@example.com", city: "Lyon" });
      const touched = await createContact(ctx, org.id, { full_name: "Touched Later", email: "touched@example.com", city: "Nice" });
      const file = "name,email,city\nKept Same,kept@example.com,Paris\nMoved City,moved@example.com,Berlin\nTouched Later,touched@example.com,Rome\nNew Person,new@example.com,Oslo\n";
      // An upsert may create: it needs full_name mapped, else 400 before anything is queued.
      const unmapped = await upload(file, { resource: "contacts", mapping: JSON.stringify({ email: "email", city: "city" }), mode: "upsert" });
      expect(unmapped.status).toBe(400);
      expect(unmapped.json.error.message).toContain("full_name");
      const done = await imported(file, { resource: "contacts", mapping: JSON.stringify({ name: "full_name", email: "email", city: "city" }), mode: "upsert" });
      expect(done).toMatchObject({ status: "succeeded", mode: "upsert", rows: 4, processed: 4, created: 1, updated: 2, skipped: 1, failed: 0 });
      expect((await getContact(ctx, org.id, moved.id))!.city).toBe("Berlin");
      const created = (await contactsByEmail("new@example.com"))[0];
      expect(created.city).toBe("Oslo");
      // A later change to one of the rows: the revert leaves that one alone.
      expect((await call(app, "PATCH", `/contacts/${touched.id}`, { key: org.key, body: { role: "Editor" } })).status).toBe(200);
      const reverted = await call(app, "POST", `/imports/${done.id}/revert`, { key: org.key });
      expect(reverted.status, reverted.text).toBe(200);
      expect(reverted.json.data).toMatchObject({ status: "reverted", revert: { undone: 2, skipped: 1 } });
      expect((await getContact(ctx, org.id, moved.id))!.city).toBe("Lyon");
      expect((await getContact(ctx, org.id, touched.id))!.city).toBe("Rome");
      expect((await getContact(ctx, org.id, kept.id))!.city).toBe("Paris");
      expect(await getContact(ctx, org.id, created.id)).toBeNull();
      // Once only.
      const again = await call(app, "POST", `/imports/${done.id}/revert`, { key: org.key });
      expect(again.status).toBe(409);
      expect(again.json.error.code).toBe("import_not_revertable");
    });

    test("update on id: an unknown id is the row's error; match_on=email is the contacts' default", async () => {
      const one = await createContact(ctx, org.id, { full_name: "By Id" });
      const file = `id,role\n${one.id},Chief\n00000000-0000-4000-8000-000000000000,Nobody\nnot-a-uuid,Nobody\n`;
      const done = await imported(file, { resource: "contacts", mapping: JSON.stringify({ id: "id", role: "role" }), mode: "update", match_on: "id" });
      expect(done).toMatchObject({ updated: 1, failed: 2, match_on: "id" });
      expect(done.errors.map((e: { row: number; column: string }) => [e.row, e.column])).toEqual([[3, "id"], [4, "id"]]);
      expect((await getContact(ctx, org.id, one.id))!.role).toBe("Chief");
    });

    test("encodings and delimiters: UTF-16 LE with BOM and tabs, Windows-1252 with semicolons", async () => {
      const utf16 = await imported(utf16le("full_name\temail\r\nJosé Müller\tjose@example.com\r\n"), { resource: "contacts", mapping: JSON.stringify({ full_name: "full_name", email: "email" }) });
      expect(utf16).toMatchObject({ created: 1, failed: 0 });
      expect((await contactsByEmail("jose@example.com"))[0].full_name).toBe("José Müller");
      const latin = await imported(cp1252("Nom;Courriel;Société\r\nFrançois Œuvre;francois@example.com;Café “Noir” – 5€\r\n"), {
        resource: "contacts",
        mapping: JSON.stringify({ Nom: "full_name", Courriel: "email", "Société": "company" }),
      });
      expect(latin).toMatchObject({ created: 1, failed: 0 });
      expect((await contactsByEmail("francois@example.com"))[0]).toMatchObject({ full_name: "François Œuvre", company: "Café “Noir” – 5€" });
    });
  });

  describe("POST /imports: dossiers", () => {
    const flows = async () => (await call(app, "GET", "/flows?type=sales", { key: org.key })).json.data as { id: string; is_default: boolean; stages: { id: string; name: string }[] }[];

    test("create with the form's type, a stage name column, events and history as any create (actor: the import)", async () => {
      const sales = (await flows()).find((f) => f.is_default)!;
      const before = await rowCountsOf(app);
      const file = "Deal,Value,Currency,Step,Company\nBig deal,\"12 500,50\",EUR,proposal,Acme\nSmall deal,abc,EUR,Lead,Acme\nNo stage,10,EUR,Nowhere,Acme\nBad money,10,XYZ,Lead,Acme\n";
      const done = await imported(file, {
        resource: "dossiers",
        type: "sales",
        stage: "Step",
        mapping: JSON.stringify({ Deal: "name", Value: "deal_size", Currency: "deal_currency", Company: "company" }),
      });
      expect(done).toMatchObject({ status: "succeeded", resource: "dossiers", match_on: "id", rows: 4, created: 1, failed: 3 });
      expect(done.errors).toEqual([
        { row: 3, column: "Value", message: 'deal_size: "abc" is not a number' },
        { row: 4, column: "Step", message: expect.stringContaining('stage: the flow has no stage named "Nowhere"') },
        { row: 5, column: "Currency", message: "deal_currency: must be an upper-case ISO 4217 currency code" },
      ]);
      const [big] = (await call(app, "GET", "/dossiers?q=big%20deal", { key: org.key })).json.data;
      expect(big).toMatchObject({ type: "sales", deal_size: 12500.5, deal_currency: "EUR", flow_id: sales.id, current_stage_id: sales.stages.find((s) => s.name === "Proposal")!.id });
      const after = await rowCountsOf(app);
      // One dossier, its contact, its link, its dossier.created event; the refused rows left nothing.
      expect(after.dossiers - before.dossiers).toBe(1);
      expect(after.contacts - before.contacts).toBe(1);
      expect(after.events - before.events).toBe(1);
      const history = (await call(app, "GET", `/dossiers/${big.id}/history`, { key: org.key })).json.data;
      expect(history.map((h: { kind: string }) => h.kind)).toEqual(["created"]);
      expect(history[0].actor).toEqual({ type: "import", id: done.id, name: "people.csv" });
    });

    test("emit_events=false: rows made without events; update on id; the revert archives what it created", async () => {
      const before = await rowCountsOf(app);
      const made = await imported("name,type\nQuiet One,candidate\nQuiet Two,candidate\n", { resource: "dossiers", mapping: JSON.stringify({ name: "name", type: "type" }), emit_events: "false" });
      expect(made).toMatchObject({ created: 2, failed: 0 });
      expect((await rowCountsOf(app)).events).toBe(before.events);
      const existing = await createDossier(ctx, org.id, { type: "candidate", name: "To update", role: "Dev" });
      const updated = await imported(`id,role,type\n${existing.id},Lead dev,candidate\n${existing.id.replace(/.$/, (last) => (last === "0" ? "1" : "0"))},x,candidate\n`, {
        resource: "dossiers",
        mapping: JSON.stringify({ id: "id", role: "role", type: "type" }),
        mode: "update",
      });
      expect(updated).toMatchObject({ updated: 1, failed: 1 });
      expect((await call(app, "GET", `/dossiers/${existing.id}`, { key: org.key })).json.data.role).toBe("Lead dev");
      const undo = await call(app, "POST", `/imports/${updated.id}/revert`, { key: org.key });
      expect(undo.json.data.revert).toMatchObject({ undone: 1, skipped: 0 });
      expect((await call(app, "GET", `/dossiers/${existing.id}`, { key: org.key })).json.data.role).toBe("Dev");
      const archived = await call(app, "POST", `/imports/${made.id}/revert`, { key: org.key });
      expect(archived.json.data.revert).toMatchObject({ undone: 2, skipped: 0 });
      expect((await call(app, "GET", "/dossiers?status=archived&q=quiet", { key: org.key })).json.meta.total).toBe(2);
    });

    test("a flow_id that is not the organization's: 404 naming it; dossiers matched on email: 400", async () => {
      const missing = await upload("name\nX\n", { resource: "dossiers", type: "candidate", flow_id: "00000000-0000-4000-8000-000000000000", mapping: '{"name":"name"}' });
      expect(missing.status).toBe(404);
      expect(missing.json.error.param).toBe("flow_id");
      const email = await upload("name\nX\n", { resource: "dossiers", type: "candidate", match_on: "email", mapping: '{"name":"name"}' });
      expect(email.status).toBe(400);
      expect(email.json.error.param).toBe("match_on");
    });
  });

  describe("bad input gets a clear answer and changes nothing (issue 36)", () => {
    const mapping = JSON.stringify({ full_name: "full_name" });
    const cases: [string, Uint8Array | string, Fields, number, string][] = [
      ["an empty file", "", { resource: "contacts", mapping }, 400, "the file is empty"],
      ["a BOM and blank lines", withBom("\r\n\r\n"), { resource: "contacts", mapping }, 400, "the file is empty"],
      ["a CSV with no header", "ada@example.com,Ada\nbob@example.com,Bob\n", { resource: "contacts", mapping }, 400, "the first row must name the columns"],
      ["a binary file", Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]), { resource: "contacts", mapping }, 400, "not a CSV file but a PNG image"],
      ["an xlsx workbook", Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 20, 0, 6, 0, 8, 0, 0, 0, 33, 0, 1, 2]), { resource: "contacts", mapping }, 400, "save it as CSV first"],
      ["mixed delimiters", "full_name;email\nAda,ada@example.com\n", { resource: "contacts", mapping }, 400, "split by semicolons but row 2 by commas"],
      ["an unknown field in mapping", "full_name,Shoe size\nAda,42\n", { resource: "contacts", mapping: JSON.stringify({ full_name: "full_name", "Shoe size": "shoe_size" }) }, 400, 'unknown field "shoe_size"'],
      ["a read-only field in mapping", "full_name,Count\nAda,4\n", { resource: "contacts", mapping: JSON.stringify({ full_name: "full_name", Count: "dossier_count" }) }, 400, "dossier_count is read-only"],
      ["a column the file lacks", "full_name\nAda\n", { resource: "contacts", mapping: JSON.stringify({ full_name: "full_name", Email: "email" }) }, 400, 'the file has no column "Email"'],
      ["a mapping that is not JSON", "full_name\nAda\n", { resource: "contacts", mapping: "full_name=full_name" }, 400, "must be a JSON object"],
      ["no mapping", "full_name\nAda\n", { resource: "contacts" }, 400, "mapping is required"],
      ["no resource", "full_name\nAda\n", { mapping }, 400, "resource is required"],
      ["an unknown resource", "full_name\nAda\n", { resource: "notes", mapping }, 400, "resource: must be"],
      ["an unknown form field", "full_name\nAda\n", { resource: "contacts", mapping, colour: "blue" }, 400, 'unknown field "colour"'],
      ["a bad mode", "full_name\nAda\n", { resource: "contacts", mapping, mode: "merge" }, 400, "mode: must be"],
      ["a bad dry_run", "full_name\nAda\n", { resource: "contacts", mapping, dry_run: "yes" }, 400, "dry_run: must be"],
      ["a dossiers-only field on contacts", "full_name\nAda\n", { resource: "contacts", mapping, type: "sales" }, 400, "type: only for dossiers"],
      ["duplicate headers", "full_name,Full_Name\nAda,Ada\n", { resource: "contacts", mapping }, 400, "are both named"],
    ];
    for (const [what, bytes, fields, status, message] of cases) {
      test(`${what}: ${status}`, async () => {
        const before = await rowCountsOf(app);
        const answer = await upload(bytes, fields);
        expect(answer.status, answer.text).toBe(status);
        expect(answer.json.error.code).toBe("invalid_body");
        expect(answer.json.error.message).toContain(message);
        expect((await rowCountsOf(app))).toEqual(before);
        expect(importFiles()).toEqual([]);
      });
    }

    test("a file over 200,000 rows: 413 payload_too_large, nothing queued", async () => {
      const before = await rowCountsOf(app);
      const answer = await upload("full_name\n" + "x\n".repeat(200_001), { resource: "contacts", mapping });
      expect(answer.status).toBe(413);
      expect(answer.json.error).toMatchObject({ code: "payload_too_large", param: "file" });
      expect(answer.json.error.message).toContain("200,000 rows");
      expect((await rowCountsOf(app))).toEqual(before);
    });

    test("a file over 50 MB: 413 before its rows are read, nothing queued", async () => {
      const before = await rowCountsOf(app);
      const big = new Uint8Array(50 * 1024 * 1024 + 1).fill(0x61);
      big.set(utf8("full_name\n"));
      const answer = await upload(big, { resource: "contacts", mapping });
      expect(answer.status).toBe(413);
      expect(answer.json.error.code).toBe("payload_too_large");
      // A body declared larger than the form can be is refused before it is read.
      const declared = await app.handle(
        new Request("http://localhost/api/v1/imports", {
          method: "POST",
          headers: { authorization: `Bearer ${org.key}`, "content-type": "multipart/form-data; boundary=x", "content-length": String(60 * 1024 * 1024) },
          body: "--x--",
        }),
      );
      expect(declared.status).toBe(413);
      expect((await rowCountsOf(app))).toEqual(before);
    });

    test("with an Idempotency-Key, the limit is still C21's 50 MB a file: 50 MB exactly queued, a byte more 413 payload_too_large", async () => {
      // The key's check reads the body first: it read it with POST /dossiers' 11 MB, so a keyed
      // import of 11 MB or more was 413 file_too_large.
      const MB50 = 52_428_800; // C10: 1 MB = 1,048,576 bytes
      const file = (size: number) => {
        const bytes = new Uint8Array(size).fill(0x61);
        bytes.set(utf8("full_name\n"));
        for (let at = 50_000; at < size; at += 50_000) bytes[at] = 0x0a;
        return bytes;
      };
      const keyed = (bytes: Uint8Array, key: string) => {
        const form = new FormData();
        form.append("file", new File([bytes], "big.csv", { type: "text/csv" }));
        form.append("resource", "contacts");
        form.append("mapping", mapping);
        return call(app, "POST", "/imports", { key: org.key, raw: form, headers: { "idempotency-key": key } });
      };
      const at = await keyed(file(MB50), "import-at-50mb");
      expect(at.status, at.text).toBe(202);
      expect((await finished(at.json.data.id)).status).toBe("succeeded");
      const over = await keyed(file(MB50 + 1), "import-over-50mb");
      expect(over.status, over.text).toBe(413);
      expect(over.json.error).toMatchObject({ code: "payload_too_large", param: "file" });
    });

    test("JSON instead of a form: 415; scopes: the resource's write (and contacts:write for dossiers)", async () => {
      expect((await call(app, "POST", "/imports", { key: org.key, body: { resource: "contacts" } })).status).toBe(415);
      const readOnly = await makeKey(app, org, ["contacts:read", "dossiers:read"]);
      const refused = await upload("full_name\nAda\n", { resource: "contacts", mapping }, readOnly);
      expect(refused.status).toBe(403);
      expect(refused.json.error.message).toContain("contacts:write");
      const dossiersOnly = await makeKey(app, org, ["dossiers:write", "dossiers:read"]);
      const noContacts = await upload("name\nX\n", { resource: "dossiers", type: "candidate", mapping: '{"name":"name"}' }, dossiersOnly);
      expect(noContacts.status).toBe(403);
      expect(noContacts.json.error.message).toContain("contacts:write");
    });
  });

  describe("GET /imports, GET /imports/{id}", () => {
    test("newest first, paged, by the resources the key may read; another organization's import is 404", async () => {
      const list = await call(app, "GET", "/imports?per_page=2", { key: org.key });
      expect(list.status).toBe(200);
      expect(list.json.data.length).toBe(2);
      expect(list.json.meta.total).toBeGreaterThan(5);
      const all = (await call(app, "GET", "/imports?per_page=100", { key: org.key })).json.data as { created_at: string; resource: string; id: string }[];
      expect(all.map((i) => i.created_at)).toEqual([...all.map((i) => i.created_at)].sort().reverse());
      const contactsReader = await makeKey(app, org, ["contacts:read"]);
      const theirs = (await call(app, "GET", "/imports?per_page=100", { key: contactsReader })).json.data as { resource: string }[];
      expect(theirs.length).toBeGreaterThan(0);
      expect(theirs.every((i) => i.resource === "contacts")).toBe(true);
      const dossierImport = all.find((i) => i.resource === "dossiers")!;
      expect((await call(app, "GET", `/imports/${dossierImport.id}`, { key: contactsReader })).status).toBe(403);
      const stranger = await makeOrg(app);
      expect((await call(app, "GET", `/imports/${all[0].id}`, { key: stranger.key })).status).toBe(404);
      expect((await call(app, "POST", `/imports/${all[0].id}/revert`, { key: stranger.key })).status).toBe(404);
      expect((await call(app, "GET", "/imports/not-an-id", { key: org.key })).status).toBe(404);
      expect((await call(app, "GET", "/imports", { key: await makeKey(app, org, ["flows:read"]) })).status).toBe(403);
    });
  });
});
