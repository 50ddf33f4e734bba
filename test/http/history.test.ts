// C18 GET /dossiers/{id}/history, C20 "History items per change", "History kinds", "meta.stages":
// a table of requests, each with the history items it must add (kind and changes, in order), then
// the actor of each way in (key, member, email, CLI) and the stays in stages.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { asActor } from "../../src/actor";
import { readApplication } from "../../src/intake/message";
import { updateDossier } from "../../src/services/dossiers";
import { intakeAddress, intakeTarget, takeIn } from "../../src/services/intake";
import { call, makeOrg, setUp, tempDir, type Org } from "../helpers";
import { ENGINES, appOn, migratedDatabase } from "../helpers/stores";
import { dossierRun } from "../cli/helpers";
import { compose } from "../intake/compose";
import { writeKey } from "../../src/services/keys";
import { createMember, operator } from "../../src/services/members";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

function clock(start = "2026-03-01T12:00:00.000Z") {
  let time = Date.parse(start);
  return { now: () => new Date(time), tick: (ms = 60_000) => void (time += ms) };
}

describe.each(ENGINES)("history on %s", async (engine) => {
  const time = clock();
  const app = await appOn(engine, { now: time.now });

  /** The organization's default candidate flow, as the API lists it. */
  const defaultCandidateFlow = async (org: Org): Promise<string> =>
    (await call(app, "GET", "/flows?type=candidate", { key: org.key })).json.data.find((f: { is_default: boolean }) => f.is_default).id;

  async function ok(answer: Promise<{ status: number; json: any; text: string }>) {
    const got = await answer;
    if (got.status >= 300) throw new Error(`${got.status} ${got.text}`);
    return got.json?.data;
  }

  interface Fixtures {
    org: Org;
    dossier: { id: string; contact_id: string; current_stage_id: string };
    other: { id: string };
    stages: string[];
    contact: { id: string };
    linked: { id: string };
  }

  /** A candidate dossier in its flow's first stage, a second dossier, a contact linked to both. */
  async function fixtures(): Promise<Fixtures> {
    const org = await makeOrg(app, { rateLimit: 1_000_000 });
    const dossier = await ok(call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "Ada", email: "ada@example.com" } }));
    const other = await ok(call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "Bea" } }));
    const stages = ((await ok(call(app, "GET", `/flows/${dossier.flow_id}/stages`, { key: org.key }))) as { id: string }[]).map((s) => s.id);
    const contact = await ok(call(app, "POST", "/contacts", { key: org.key, body: { full_name: "Manager" } }));
    const linked = await ok(call(app, "POST", "/contacts", { key: org.key, body: { full_name: "Linked" } }));
    for (const d of [dossier, other]) {
      await ok(call(app, "POST", `/dossiers/${d.id}/contacts`, { key: org.key, body: { contact_id: linked.id, role_on_dossier: "other" } }));
    }
    time.tick();
    return { org, dossier, other, stages, contact, linked };
  }

  const history = async (org: Org, id: string) => (await call(app, "GET", `/dossiers/${id}/history`, { key: org.key })).json;

  interface Row {
    name: string;
    request: (f: Fixtures) => [method: string, path: string, options?: { body?: unknown; raw?: Uint8Array; contentType?: string }];
    status: number;
    /** The items the request adds to `dossier` (and to `other`, when given), in order. */
    items: (f: Fixtures) => { kind: string; changes: Record<string, unknown[]> }[];
    otherItems?: (f: Fixtures) => { kind: string; changes: Record<string, unknown[]> }[];
  }

  const pdfLike = () => {
    const bytes = new Uint8Array(2_000);
    bytes.set(new TextEncoder().encode("%PDF-1.7\n"));
    return bytes;
  };

  const rows: Row[] = [
    { name: "C20: PATCH of a field → one `updated` with [old, new]", status: 200,
      request: (f) => ["PATCH", `/dossiers/${f.dossier.id}`, { body: { name: "Ada L", phone: "+1 555" } }],
      items: () => [{ kind: "updated", changes: { name: ["Ada", "Ada L"], phone: [null, "+1 555"] } }] },
    { name: "C20: PATCH that moves the stage → `stage_changed` with changes.current_stage_id only", status: 200,
      request: (f) => ["PATCH", `/dossiers/${f.dossier.id}`, { body: { current_stage_id: f.stages[1] } }],
      items: (f) => [{ kind: "stage_changed", changes: { current_stage_id: [f.stages[0], f.stages[1]] } }] },
    { name: "C20: PATCH of the stage and another field → `stage_changed`, then one `updated` with the others", status: 200,
      request: (f) => ["PATCH", `/dossiers/${f.dossier.id}`, { body: { current_stage_id: f.stages[2], status: "won", name: "Ada" } }],
      items: (f) => [
        { kind: "stage_changed", changes: { current_stage_id: [f.stages[0], f.stages[2]] } as Record<string, unknown[]> },
        { kind: "updated", changes: { status: ["active", "won"] } },
      ] },
    { name: "C20 History kinds: PATCH {status: archived} is `updated`", status: 200,
      request: (f) => ["PATCH", `/dossiers/${f.dossier.id}`, { body: { status: "archived" } }],
      items: () => [{ kind: "updated", changes: { status: ["active", "archived"] } }] },
    { name: "C5: a PATCH that changes nothing adds nothing", status: 200,
      request: (f) => ["PATCH", `/dossiers/${f.dossier.id}`, { body: { name: "Ada" } }],
      items: () => [] },
    { name: "C10: a refused PATCH adds nothing", status: 400,
      request: (f) => ["PATCH", `/dossiers/${f.dossier.id}`, { body: { name: null } }],
      items: () => [] },
    { name: "C20 History kinds: DELETE → `archived`", status: 200,
      request: (f) => ["DELETE", `/dossiers/${f.dossier.id}`],
      items: () => [{ kind: "archived", changes: { status: ["active", "archived"] } }] },
    { name: "C20: a CV upload → `cv_attached` only", status: 200,
      request: (f) => ["POST", `/dossiers/${f.dossier.id}/cv`, { raw: pdfLike(), contentType: "application/pdf" }],
      items: (f) => [{ kind: "cv_attached", changes: { cv_url: [null, `${f.org.id}/dossiers/${f.dossier.id}/cv.pdf`] } }] },
    { name: "C18: a note → `note_added`", status: 201,
      request: (f) => ["POST", `/dossiers/${f.dossier.id}/notes`, { body: { content: "Called" } }],
      items: () => [{ kind: "note_added", changes: { note_id: [null, expect.any(String)] } }] },
    { name: "C18: linking a contact → `contact_linked`", status: 201,
      request: (f) => ["POST", `/dossiers/${f.dossier.id}/contacts`, { body: { contact_id: f.contact.id, role_on_dossier: "hiring_manager" } }],
      items: (f) => [{ kind: "contact_linked", changes: { contact_id: [null, f.contact.id], role_on_dossier: [null, "hiring_manager"], is_primary: [null, false] } }] },
    { name: "C20 History kinds: linking an already linked contact with a new role → `contact_linked` with the changed role", status: 200,
      request: (f) => ["POST", `/dossiers/${f.dossier.id}/contacts`, { body: { contact_id: f.linked.id, role_on_dossier: "decision_maker" } }],
      items: (f) => [{ kind: "contact_linked", changes: { contact_id: [f.linked.id, f.linked.id], role_on_dossier: ["other", "decision_maker"] } }] },
    { name: "C20 History kinds: linking an already linked contact as it is → nothing", status: 200,
      request: (f) => ["POST", `/dossiers/${f.dossier.id}/contacts`, { body: { contact_id: f.linked.id, role_on_dossier: "other" } }],
      items: () => [] },
    { name: "C18: unlinking → `contact_unlinked`", status: 200,
      request: (f) => ["DELETE", `/dossiers/${f.dossier.id}/contacts/${f.linked.id}`],
      items: (f) => [{ kind: "contact_unlinked", changes: { contact_id: [f.linked.id, null], role_on_dossier: ["other", null], is_primary: [false, null] } }] },
    { name: "C20 History kinds: deleting a contact → `contact_unlinked` on each of its dossiers", status: 200,
      request: (f) => ["DELETE", `/contacts/${f.linked.id}`],
      items: (f) => [{ kind: "contact_unlinked", changes: { contact_id: [f.linked.id, null], role_on_dossier: ["other", null], is_primary: [false, null] } }],
      otherItems: (f) => [{ kind: "contact_unlinked", changes: { contact_id: [f.linked.id, null], role_on_dossier: ["other", null], is_primary: [false, null] } }] },
  ];

  describe("C18, C20: each request → the history items it adds", () => {
    for (const row of rows) {
      test(row.name, async () => {
        const f = await fixtures();
        const before = (await history(f.org, f.dossier.id)).data.length;
        const beforeOther = (await history(f.org, f.other.id)).data.length;
        const [method, path, options] = row.request(f);
        const answer = await call(app, method, path, { key: f.org.key, ...options });
        expect({ status: answer.status, body: answer.text }).toMatchObject({ status: row.status });
        const added = (await history(f.org, f.dossier.id)).data.slice(before);
        expect(added.map((item: { kind: string; changes: unknown }) => ({ kind: item.kind, changes: item.changes }))).toEqual(row.items(f));
        for (const item of added) expect(item).toMatchObject({ at: time.now().toISOString(), actor: { type: "key", id: f.org.keyId } });
        const addedOther = (await history(f.org, f.other.id)).data.slice(beforeOther);
        expect(addedOther.map((item: { kind: string; changes: unknown }) => ({ kind: item.kind, changes: item.changes }))).toEqual(row.otherItems?.(f) ?? []);
      });
    }

    test("C20: creation gives `created` only, its primary link included", async () => {
      const f = await fixtures();
      const { data } = await history(f.org, f.dossier.id);
      expect(data).toEqual([
        {
          at: expect.any(String),
          kind: "created",
          actor: { type: "key", id: f.org.keyId, name: null },
          changes: {
            type: [null, "candidate"], flow_id: [null, expect.any(String)], current_stage_id: [null, f.stages[0]], status: [null, "active"],
            contact_id: [null, f.dossier.contact_id], name: [null, "Ada"], email: [null, "ada@example.com"],
          },
        },
        { at: expect.any(String), kind: "contact_linked", actor: expect.any(Object), changes: expect.any(Object) },
      ]);
    });

    test("C18: another organization's dossier, or none, is 404; the read needs dossiers:read", async () => {
      const f = await fixtures();
      const other = await makeOrg(app);
      expect((await call(app, "GET", `/dossiers/${f.dossier.id}/history`, { key: other.key })).status).toBe(404);
      expect((await call(app, "GET", `/dossiers/${crypto.randomUUID()}/history`, { key: f.org.key })).status).toBe(404);
      const reader = await setUp(app.dossier, async () => (await writeKey(app.dossier, { organizationId: f.org.id, scopes: ["notes:read"] })).key);
      expect((await call(app, "GET", `/dossiers/${f.dossier.id}/history`, { key: reader })).json.error.code).toBe("forbidden");
    });
  });

  describe("C18: the actor of each way in", () => {
    test("a key: its id and name", async () => {
      const org = await makeOrg(app);
      const named = await setUp(app.dossier, () => writeKey(app.dossier, { organizationId: org.id, scopes: ["dossiers:write", "dossiers:read"], name: "ATS sync" }));
      const d = await ok(call(app, "POST", "/dossiers", { key: named.key, body: { type: "sales", name: "Deal" } }));
      expect((await history(org, d.id)).data[0].actor).toEqual({ type: "key", id: named.id, name: "ATS sync" });
    });

    test("a member: what a signed-in member's request runs as is recorded, past the group commit", async () => {
      const org = await makeOrg(app);
      const d = await ok(call(app, "POST", "/dossiers", { key: org.key, body: { type: "sales", name: "Deal" } }));
      const made = await createMember(app.dossier, operator(org.id), { email: `mia-${org.id}@example.com`, name: "Mia Member", role: "admin" }, "http://127.0.0.1:8080");
      // What the route layer sets for a member's principal: the id; the name is the member's own.
      await asActor({ type: "member", id: made.id, name: null }, () => updateDossier(app.dossier, org.id, d.id, { name: "Deal 2" }));
      expect((await history(org, d.id)).data.at(-1)).toMatchObject({ kind: "updated", actor: { type: "member", id: made.id, name: "Mia Member" } });
    });

    test("C20: an email: {type: email, id: <From address>, name: <display name>}", async () => {
      const org = await makeOrg(app);
      const flow = await defaultCandidateFlow(org);
      const address = (await intakeAddress(app.dossier, org.id, flow))!.address;
      const message = await compose({ from: '"Ada Lovelace" <ada@example.com>', replyTo: "other@example.com", subject: "Hi", text: "CV", messageId: "<h1@example.com>" });
      const { id } = await takeIn(app.dossier, (await intakeTarget(app.dossier, address.split("@")[0]))!, await readApplication(message));
      expect((await history(org, id)).data[0]).toMatchObject({ kind: "created", actor: { type: "email", id: "ada@example.com", name: "Ada Lovelace" } });
    });

    test("C20: an email over POST /intake/{token} is the sender's too, not the token's", async () => {
      const org = await makeOrg(app);
      const flow = await defaultCandidateFlow(org);
      const address = (await intakeAddress(app.dossier, org.id, flow))!.address;
      const message = await compose({ from: "grace@example.com", subject: "Hi", text: "CV", messageId: "<h2@example.com>" });
      const posted = await call(app, "POST", `/intake/${address.split("@")[0]}`, { raw: message, contentType: "message/rfc822" });
      expect(posted.status).toBe(201);
      expect((await history(org, posted.json.data.id)).data[0]).toMatchObject({ kind: "created", actor: { type: "email", id: "grace@example.com", name: "grace" } });
    });

    test("the CLI: type cli, for what `dossier seed` made", async () => {
      const data = join(tempDir(), "data");
      // On PostgreSQL the CLI and the app share a database of their own (the data folder keeps the master key).
      const env: Record<string, string> = engine === "postgres" ? { DOSSIER_DATABASE_URL: await migratedDatabase() } : {};
      const cli = (...args: string[]) => dossierRun([...args, "--data", data], env);
      const org = cli("org", "create", "--name", "CLI Co", "--json").json.id as string;
      const key = cli("key", "create", "--org", org, "--scopes", "all", "--json").json.key as string;
      expect(cli("seed", "--org", org, "--dossiers", "3", "--contacts", "2", "--seed", "1", "--json").code).toBe(0);
      const seeded = await appOn(engine, { dataDir: data, env });
      const list = await call(seeded, "GET", "/dossiers?per_page=1", { key });
      const got = await call(seeded, "GET", `/dossiers/${list.json.data[0].id}/history`, { key });
      expect(got.json.data[0]).toMatchObject({ kind: "created", actor: { type: "cli", id: expect.any(String) } });
    });
  });

  describe("C20 meta.stages: the stays, by entered_at, in decimal days", () => {
    test("each move closes a stay and opens the next; the open one counts up to now; a move to no stage opens none", async () => {
      const f = await fixtures();
      const entered = (await history(f.org, f.dossier.id)).meta.stages[0].entered_at as string;
      time.tick(36 * 3_600_000); // 1.5 days (plus the fixtures' minute)
      await ok(call(app, "PATCH", `/dossiers/${f.dossier.id}`, { key: f.org.key, body: { current_stage_id: f.stages[1] } }));
      const moved = time.now().toISOString();
      time.tick(6 * 3_600_000);
      const { meta } = await history(f.org, f.dossier.id);
      expect(meta.stages).toEqual([
        { stage_id: f.stages[0], entered_at: entered, left_at: moved, days: (Date.parse(moved) - Date.parse(entered)) / 86_400_000 },
        { stage_id: f.stages[1], entered_at: moved, left_at: null, days: 0.25 },
      ]);
      await ok(call(app, "PATCH", `/dossiers/${f.dossier.id}`, { key: f.org.key, body: { current_stage_id: null } }));
      const after = (await history(f.org, f.dossier.id)).meta.stages;
      expect(after).toHaveLength(2);
      expect(after[1]).toMatchObject({ left_at: time.now().toISOString(), days: 0.25 });
    });
  });
});
