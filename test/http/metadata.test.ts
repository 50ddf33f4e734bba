// Issue 38 "metadata" on dossiers and contacts, Stripe's rules: at most 50 keys, a key 1 to 40
// characters without [ or ], a value a string of at most 500; on create and PATCH (keys merge, null
// or "" removes one, "" removes all); shown in every representation ({} when empty), events and
// history included; `?metadata[key]=value` on the lists (AND, with the other filters, scoped to the
// organization); one `metadata.<key>` column per key in the CSV exports, read back by an import.
// Each test runs on both engines, with the same answers.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { guessMapping } from "../../src/csv";
import { intakeAddress } from "../../src/services/intake";
import { compose } from "../intake/compose";
import { call, makeOrg, until, type Org } from "../helpers";
import { ENGINES, appOn, queryRows } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const T0 = Date.parse("2026-03-01T12:00:00.000Z");

describe.each(ENGINES)("metadata on %s", async (engine) => {
  let time = T0;
  const app = await appOn(engine, { now: () => new Date(time) });
  const org = await makeOrg(app, { rateLimit: 1_000_000, plan: "growth" });
  const other = await makeOrg(app, { rateLimit: 1_000_000, plan: "growth" });
  const tick = () => void (time += 1000);
  const as = (who: Org) => ({
    get: (path: string) => call(app, "GET", path, { key: who.key }),
    post: (path: string, body: unknown) => call(app, "POST", path, { key: who.key, body }),
    patch: (path: string, body: unknown) => call(app, "PATCH", path, { key: who.key, body }),
  });
  const api = as(org);
  const names = async (path: string, who: Org = org) => {
    const answer = await as(who).get(path);
    expect(answer.status).toBe(200);
    return answer.json.data.map((row: { name?: string; full_name?: string }) => row.name ?? row.full_name);
  };
  const events = async (type: string) => (await api.get(`/events?type=${type}&limit=100`)).json.data;

  for (const resource of ["dossiers", "contacts"] as const) {
    const body = (name: string, metadata?: unknown) =>
      resource === "dossiers" ? { type: "candidate", name, ...(metadata === undefined ? {} : { metadata }) } : { full_name: name, ...(metadata === undefined ? {} : { metadata }) };

    test(`${resource}: every bad metadata is 400 invalid_body naming the key, on create and on PATCH, and changes nothing`, async () => {
      const made = await api.post(`/${resource}`, body("Target"));
      expect(made.status).toBe(201);
      const bad: [unknown, string][] = [
        [{ crm_id: 42 }, "metadata.crm_id"],
        [{ crm_id: true }, "metadata.crm_id"],
        [{ crm_id: { nested: "x" } }, "metadata.crm_id"],
        [{ crm_id: ["x"] }, "metadata.crm_id"],
        [{ ["k".repeat(41)]: "v" }, `metadata.${"k".repeat(41)}`],
        [{ "": "v" }, "metadata."],
        [{ "a[b]": "v" }, "metadata.a[b]"],
        [{ crm_id: "v".repeat(501) }, "metadata.crm_id"],
        [Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, "v"])), "metadata"],
        [["x"], "metadata"],
        [42, "metadata"],
        ["not empty", "metadata"],
      ];
      for (const [metadata, param] of bad) {
        const created = await api.post(`/${resource}`, body("Refused", metadata));
        expect([created.status, created.json.error.code, created.json.error.param], JSON.stringify(metadata)).toEqual([400, "invalid_body", param]);
        const patched = await api.patch(`/${resource}/${made.json.data.id}`, { metadata });
        expect([patched.status, patched.json.error.param], JSON.stringify(metadata)).toEqual([400, param]);
      }
      // null is no metadata on a create (C10), but never a value on a PATCH: "" clears.
      expect((await api.post(`/${resource}`, body("Null", null))).json.data.metadata).toEqual({});
      const nulled = await api.patch(`/${resource}/${made.json.data.id}`, { metadata: null });
      expect([nulled.status, nulled.json.error.param]).toEqual([400, "metadata"]);
      expect((await api.get(`/${resource}/${made.json.data.id}`)).json.data).toEqual(made.json.data);
      expect(await names(`/${resource}?${resource === "dossiers" ? "q" : "search"}=Refused`)).toEqual([]);
    });

    test(`${resource}: the limits themselves are accepted (50 keys, a 40-character key, 500 characters counted in code points)`, async () => {
      const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${String(i).padStart(2, "0")}`, "v"]));
      const atLimit = { ["k".repeat(40)]: "😀".repeat(500), "ключ": "значение" };
      const made = await api.post(`/${resource}`, body("Limits", fifty));
      expect([made.status, Object.keys(made.json.data.metadata).length]).toEqual([201, 50]);
      // The merge is judged whole: a 51st key is refused, one more for one less is not.
      expect((await api.patch(`/${resource}/${made.json.data.id}`, { metadata: { k50: "v" } })).json.error.param).toBe("metadata");
      expect((await api.patch(`/${resource}/${made.json.data.id}`, { metadata: { k50: "v", k00: null } })).status).toBe(200);
      const second = await api.post(`/${resource}`, body("Limits 2", atLimit));
      expect([second.status, second.json.data.metadata]).toEqual([201, atLimit]);
    });

    test(`${resource}: PATCH merges keys, null or "" removes one, "" removes all, {} and the same values change nothing; keys come sorted`, async () => {
      tick();
      const made = await api.post(`/${resource}`, body("Merge", { zeta: "z", alpha: "a", "10": "ten", "9": "nine", drop: "" }));
      expect(made.status).toBe(201);
      const id = made.json.data.id;
      // Sorted by code unit, integer-like keys first (as JavaScript orders an object's keys); "" left out.
      expect(JSON.stringify(made.json.data.metadata)).toBe('{"9":"nine","10":"ten","alpha":"a","zeta":"z"}');
      tick();
      const merged = await api.patch(`/${resource}/${id}`, { metadata: { zeta: null, "10": "", beta: "b", alpha: "A" } });
      expect(merged.status).toBe(200);
      expect(JSON.stringify(merged.json.data.metadata)).toBe('{"9":"nine","alpha":"A","beta":"b"}');
      expect(merged.json.data.updated_at).not.toBe(made.json.data.updated_at);
      tick();
      for (const same of [{}, { alpha: "A" }, { gone: null }]) {
        const unchanged = await api.patch(`/${resource}/${id}`, { metadata: same });
        expect([unchanged.status, unchanged.json.data.updated_at, unchanged.json.data.metadata]).toEqual([200, merged.json.data.updated_at, merged.json.data.metadata]);
      }
      const cleared = await api.patch(`/${resource}/${id}`, { metadata: "" });
      expect(cleared.json.data.metadata).toEqual({});
      const read = await api.get(`/${resource}/${id}`);
      expect(read.json.data.metadata).toEqual({});
      // The side table follows: no filter finds the removed pairs.
      expect(await names(`/${resource}?metadata[alpha]=A`)).toEqual([]);
    });

    test(`${resource}: ?metadata[key]=value filters, several AND together, with the other filters, within the organization only`, async () => {
      tick();
      await api.post(`/${resource}`, body("F1", { erp: "X-1", region: "eu" }));
      tick();
      await api.post(`/${resource}`, body("F2", { erp: "X-2", region: "eu" }));
      tick();
      await api.post(`/${resource}`, body("F3 other", { erp: "X-3", region: "us" }));
      await as(other).post(`/${resource}`, body("Theirs", { erp: "X-1", region: "eu" }));
      expect(await names(`/${resource}?metadata[erp]=X-1`)).toEqual(["F1"]);
      expect(await names(`/${resource}?metadata[region]=eu`)).toEqual(["F2", "F1"]);
      expect(await names(`/${resource}?metadata[region]=eu&metadata[erp]=X-2`)).toEqual(["F2"]);
      expect(await names(`/${resource}?metadata[region]=us&metadata[erp]=X-2`)).toEqual([]);
      expect(await names(`/${resource}?metadata%5Bregion%5D=eu&per_page=1&page=2`)).toEqual(["F1"]);
      const list = await api.get(`/${resource}?metadata[region]=eu&per_page=1`);
      expect(list.json.meta).toEqual({ total: 2, page: 1, per_page: 1, next_after: expect.any(String) });
      // A cursor page (issue 38) keeps the metadata filter.
      const next = await api.get(`/${resource}?metadata[region]=eu&per_page=1&after=${list.json.meta.next_after}`);
      expect(next.json.data.map((row: { name?: string; full_name?: string }) => row.name ?? row.full_name)).toEqual(["F1"]);
      expect(next.json.meta).toEqual({ total: 2, page: 1, per_page: 1, next_after: null });
      const text = resource === "dossiers" ? "q" : "search";
      expect(await names(`/${resource}?metadata[region]=eu&${text}=F2`)).toEqual(["F2"]);
      expect(await names(`/${resource}?metadata[region]=us&${text}=other`)).toEqual(["F3 other"]);
      expect(await names(`/${resource}?metadata[erp]=X-1`, other)).toEqual(["Theirs"]);
      // Case matters, and a value is matched whole.
      expect(await names(`/${resource}?metadata[erp]=x-1`)).toEqual([]);
      expect(await names(`/${resource}?metadata[erp]=X`)).toEqual([]);
      // A change is seen at once, through the lists' remembered answers.
      const f1 = (await api.get(`/${resource}?metadata[erp]=X-1`)).json.data[0];
      tick();
      expect((await api.patch(`/${resource}/${f1.id}`, { metadata: { erp: "X-9" } })).status).toBe(200);
      expect(await names(`/${resource}?metadata[erp]=X-1`)).toEqual([]);
      expect(await names(`/${resource}?metadata[erp]=X-9`)).toEqual(["F1"]);
      for (const [query, param] of [
        [`metadata[${"k".repeat(41)}]=v`, `metadata[${"k".repeat(41)}]`],
        ["metadata[]=v", "metadata[]"],
        ["metadata=v", "metadata"],
        ["metadata[a][b]=v", "metadata[a][b]"],
        ["metadata[a]=1&metadata[a]=2", "metadata[a]"],
      ]) {
        const refused = await api.get(`/${resource}?${query}`);
        expect([refused.status, refused.json.error.code, refused.json.error.param], query).toEqual([400, "invalid_body", param]);
      }
    });

    test(`${resource}: the list's JSON is the representation's, byte for byte, and the CSV export has a metadata.<key> column per key`, async () => {
      tick();
      const a = await api.post(`/${resource}`, body(`${resource} Csv A`, { "b key": "=1+1", a: "one" }));
      tick();
      const b = await api.post(`/${resource}`, body(`${resource} Csv B`, { c: "three", a: "uno" }));
      const list = await api.get(`/${resource}?metadata[a]=one`);
      expect(list.text).toContain(`${JSON.stringify((await api.get(`/${resource}/${a.json.data.id}`)).json.data)}`);
      const csv = await api.get(`/${resource}/export?${resource === "dossiers" ? "q" : "search"}=${resource}%20Csv`);
      expect(csv.status).toBe(200);
      const [header, ...rows] = csv.text.replace(/^\uFEFF/, "").trimEnd().split("\r\n");
      const columns = header.split(",");
      // Only the keys of the rows exported (the organization's other rows hold erp, region, ...), sorted, last.
      expect(columns.filter((name) => name.startsWith("metadata."))).toEqual(["metadata.a", "metadata.b key", "metadata.c"]);
      expect(columns.slice(-3)).toEqual(["metadata.a", "metadata.b key", "metadata.c"]);
      expect(columns).not.toContain("metadata");
      expect(rows[0].endsWith(",uno,,three")).toBe(true);
      expect(rows[1].endsWith(`,one,"'=1+1",`)).toBe(true);
      expect(rows.length).toBe(2);
      expect(b.status).toBe(201);
    });
  }

  test("dossiers: events and history carry metadata; previous_attributes holds the old object", async () => {
    tick();
    const made = await api.post("/dossiers", { type: "sales", name: "Evented", metadata: { erp: "E-1" } });
    tick();
    await api.patch(`/dossiers/${made.json.data.id}`, { metadata: { erp: "E-2", extra: "x" } });
    const created = (await events("dossier.created")).find((e: { data: { id: string } }) => e.data.id === made.json.data.id);
    expect(created.data.metadata).toEqual({ erp: "E-1" });
    const updated = (await events("dossier.updated")).find((e: { data: { id: string } }) => e.data.id === made.json.data.id);
    expect(updated.data.metadata).toEqual({ erp: "E-2", extra: "x" });
    expect(updated.previous_attributes).toEqual({ metadata: { erp: "E-1" } });
    // The outbox's body (what a webhook delivery sends) is the same event.
    const [stored] = await queryRows<{ body: string }>(app, "SELECT body FROM events WHERE id = ?", updated.id);
    expect(JSON.parse(stored.body).data.metadata).toEqual({ erp: "E-2", extra: "x" });
    const history = (await api.get(`/dossiers/${made.json.data.id}/history`)).json.data;
    expect(history.map((item: { kind: string; changes: unknown }) => [item.kind, item.changes])).toEqual([
      ["created", expect.objectContaining({ metadata: [null, { erp: "E-1" }] })],
      ["updated", { metadata: [{ erp: "E-1" }, { erp: "E-2", extra: "x" }] }],
    ]);
  });

  test("a dossier made without metadata, and the contact made for it, show {}", async () => {
    tick();
    const made = await api.post("/dossiers", { type: "candidate", name: "Plain", email: "plain@example.org" });
    expect(made.json.data.metadata).toEqual({});
    const contact = await api.get(`/contacts/${made.json.data.contact_id}`);
    expect(contact.json.data.metadata).toEqual({});
  });

  test("CSV import: an export's metadata.<key> columns map by themselves; an update merges; a revert puts the old pairs back", async () => {
    const upload = async (csv: string, fields: Record<string, string>) => {
      const form = new FormData();
      form.append("file", new File([csv], "people.csv", { type: "text/csv" }));
      form.append("resource", "contacts");
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      const answer = await call(app, "POST", "/imports", { key: other.key, raw: form });
      expect(answer.status, answer.text).toBe(202);
      return until(
        async () => {
          const { json } = await as(other).get(`/imports/${answer.json.data.id}`);
          return json.data.status !== "queued" && json.data.status !== "running" && json.data;
        },
        60_000,
        "the import to finish",
      );
    };
    tick();
    await api.post("/contacts", { full_name: "Exported", email: "exported@example.org", metadata: { erp: "E-7", "b key": "=b" } });
    const csv = (await api.get("/contacts/export?metadata[erp]=E-7")).text;
    // The console's and the CLI's guess (the API takes the mapping it is given).
    const mapping = guessMapping("contacts", csv.replace(/^\uFEFF/, "").split("\r\n")[0].split(","));
    expect(mapping).toMatchObject({ "metadata.erp": "metadata.erp", "metadata.b key": "metadata.b key", full_name: "full_name" });
    const first = await upload(csv, { mapping: JSON.stringify(mapping) });
    expect([first.status, first.created, first.failed]).toEqual(["succeeded", 1, 0]);
    const [made] = (await as(other).get("/contacts?metadata[erp]=E-7")).json.data;
    expect([made.full_name, made.metadata]).toEqual(["Exported", { "b key": "=b", erp: "E-7" }]);
    tick();
    const second = await upload("Email,ERP,Region\r\nexported@example.org,E-8,eu\r\n", {
      mode: "update", mapping: JSON.stringify({ Email: "email", ERP: "metadata.erp", Region: "metadata.region" }),
    });
    expect([second.status, second.updated]).toEqual(["succeeded", 1]);
    expect((await as(other).get(`/contacts/${made.id}`)).json.data.metadata).toEqual({ "b key": "=b", erp: "E-8", region: "eu" });
    expect((await call(app, "POST", `/imports/${second.id}/revert`, { key: other.key })).status).toBe(200);
    expect((await as(other).get(`/contacts/${made.id}`)).json.data.metadata).toEqual({ "b key": "=b", erp: "E-7" });
  });

  test("the pairs' rows follow their record in its unit: none left by a refused create, none after a contact's deletion", async () => {
    const pairs = async (table: "contact_metadata" | "dossier_metadata", owner: string) =>
      Number((await queryRows<{ n: number }>(app, `SELECT count(*) AS n FROM ${table} WHERE ${table === "contact_metadata" ? "contact_id" : "dossier_id"} = ?`, owner))[0].n);
    const before = Number((await queryRows<{ n: number }>(app, "SELECT count(*) AS n FROM contact_metadata"))[0].n);
    const kept = await api.post("/contacts", { full_name: "Unique", email: "unique@example.org", metadata: { a: "1", b: "2" } });
    expect(await pairs("contact_metadata", kept.json.data.id)).toBe(2);
    const clash = await api.post("/contacts", { full_name: "Clash", email: "UNIQUE@example.org", metadata: { c: "3" } });
    expect(clash.status).toBe(409);
    expect(Number((await queryRows<{ n: number }>(app, "SELECT count(*) AS n FROM contact_metadata"))[0].n)).toBe(before + 2);
    expect((await call(app, "DELETE", `/contacts/${kept.json.data.id}`, { key: org.key })).status).toBe(200);
    expect(await pairs("contact_metadata", kept.json.data.id)).toBe(0);
    const dossier = await api.post("/dossiers", { type: "candidate", name: "Pairs", metadata: { a: "1" } });
    expect(await pairs("dossier_metadata", dossier.json.data.id)).toBe(1);
    await api.patch(`/dossiers/${dossier.json.data.id}`, { metadata: { a: null, b: "2", c: "3" } });
    expect(await pairs("dossier_metadata", dossier.json.data.id)).toBe(2);
  });

  test("C15: a dossier taken in by email, and its new contact, have no metadata", async () => {
    const [flow] = await queryRows<{ id: string }>(app, "SELECT id FROM flows WHERE organization_id = ? AND type = 'candidate' AND is_default", org.id);
    const address = (await intakeAddress(app.dossier, org.id, flow.id))!.address;
    const message = await compose({ from: '"Mail Person" <mail.person@example.com>', subject: "Application", text: "Hello", messageId: "<metadata-1@example.com>" });
    const taken = await call(app, "POST", `/intake/${address.slice(0, address.indexOf("@"))}`, { raw: message, contentType: "message/rfc822" });
    expect(taken.status).toBe(201);
    const dossier = (await api.get(`/dossiers/${taken.json.data.id}`)).json.data;
    expect(dossier.metadata).toEqual({});
    expect((await api.get(`/contacts/${dossier.contact_id}`)).json.data.metadata).toEqual({});
  });

  test("multipart POST /dossiers takes metadata as JSON text; bad JSON is 400 naming metadata", async () => {
    const form = new FormData();
    form.set("type", "candidate");
    form.set("name", "From a form");
    form.set("metadata", JSON.stringify({ ats_id: "A-7" }));
    const made = await call(app, "POST", "/dossiers", { key: org.key, raw: form });
    expect([made.status, made.json.data.metadata]).toEqual([201, { ats_id: "A-7" }]);
    form.set("metadata", "{not json");
    const refused = await call(app, "POST", "/dossiers", { key: org.key, raw: form });
    expect([refused.status, refused.json.error.param]).toEqual([400, "metadata"]);
    form.set("metadata", JSON.stringify({ ats_id: 7 }));
    const typed = await call(app, "POST", "/dossiers", { key: org.key, raw: form });
    expect([typed.status, typed.json.error.param]).toEqual([400, "metadata.ats_id"]);
  });
});
