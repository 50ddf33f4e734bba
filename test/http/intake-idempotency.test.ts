// Idempotency-Key on POST /intake/{token} (C16, C20: "on /intake/{token} the token is the principal").
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { intakeAddress } from "../../src/services/intake";
import { updateOrg } from "../../src/services/orgs";
import type { DossierApp } from "../../src/app";
import type { Store } from "../../src/db/store";
import { call, makeOrg, type Answer } from "../helpers";
import { ENGINES, appOn, queryRows, rowCountsOf } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

describe.each(ENGINES)("on %s", async (engine) => {
  // Each test its own app (its own counts, and its own intake rate limit): on PostgreSQL its own database.
  type App = DossierApp<Store>;

  /** A message with no Message-ID: without a key, each delivery of it is a new dossier. */
  const message = (name = "Ada Lovelace", text = "Please find my application.") =>
    `From: ${name} <ada@example.com>\r\nSubject: Application\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n${text}\r\n`;

  async function tokenOf(app: App, orgId: string, type: "candidate" | "sales" = "candidate"): Promise<string> {
    const [{ id: flow }] = await queryRows<{ id: string }>(app, "SELECT id FROM flows WHERE organization_id = ? AND type = ? AND is_default", orgId, type);
    const { address } = (await intakeAddress(app.dossier, orgId, flow))!;
    return address.slice(0, address.indexOf("@"));
  }

  const send = (app: App, token: string, body: string, key?: string, contentType = "message/rfc822"): Promise<Answer> =>
    call(app, "POST", `/intake/${token}`, { raw: body, contentType, headers: key === undefined ? {} : { "idempotency-key": key } });

  // PostgreSQL answers a count as a string: Number() it.
  const count = async (app: App, sql: string) => Number((await queryRows<{ n: number }>(app, sql))[0].n);
  const dossiers = async (app: App) => count(app, "SELECT count(*) AS n FROM dossiers");
  const events = async (app: App) => count(app, "SELECT count(*) AS n FROM events");

  async function growthOrg(app: App) {
    const org = await makeOrg(app);
    return { org, token: await tokenOf(app, org.id) };
  }

  describe("C16, C20: Idempotency-Key on POST /intake/{token}", () => {
    test("C16: a repeat with the same key and body answers the stored answer with Idempotent-Replayed: true and creates nothing", async () => {
      const app = await appOn(engine);
      const { token } = await growthOrg(app);
      const first = await send(app, token, message(), "mail-1");
      expect(first.status).toBe(201);
      expect(first.headers.get("idempotent-replayed")).toBeNull();
      const before = (await rowCountsOf(app));
      const again = await send(app, token, message(), "mail-1");
      expect([again.status, again.headers.get("idempotent-replayed"), again.text]).toEqual([201, "true", first.text]);
      expect(again.headers.get("content-type")).toBe(first.headers.get("content-type"));
      expect((await rowCountsOf(app))).toEqual(before);
      expect([await dossiers(app), await events(app)]).toEqual([1, 1]);
      // Without the key, the same message (no Message-ID) is a new dossier: the key is what held it.
      expect((await send(app, token, message())).status).toBe(201);
      expect(await dossiers(app)).toBe(2);
    });

    test("C20: the same key with another body (byte for byte) or query → 422 idempotency_key_reused, nothing changed", async () => {
      const app = await appOn(engine);
      const { token } = await growthOrg(app);
      expect((await send(app, token, message(), "k")).status).toBe(201);
      const before = (await rowCountsOf(app));
      const other = await send(app, token, message("Ada Lovelace", "Please find my application. "), "k");
      expect([other.status, other.json.error.code]).toEqual([422, "idempotency_key_reused"]);
      const query = await call(app, "POST", `/intake/${token}?x=1`, { raw: message(), contentType: "message/rfc822", headers: { "idempotency-key": "k" } });
      expect([query.status, query.json.error.code]).toEqual([422, "idempotency_key_reused"]);
      expect((await rowCountsOf(app))).toEqual(before);
    });

    test("C20: keys are scoped to the token: another flow's token, an API key, or the token after a rotation run their own request", async () => {
      const app = await appOn(engine);
      const { org, token } = await growthOrg(app);
      const salesToken = await tokenOf(app, org.id, "sales");
      const a = await send(app, token, message(), "shared");
      const b = await send(app, salesToken, message(), "shared");
      const c = await call(app, "POST", "/contacts", { key: org.key, body: { full_name: "Grace" }, headers: { "idempotency-key": "shared" } });
      expect([a.status, b.status, c.status]).toEqual([201, 201, 201]);
      expect([b.headers.get("idempotent-replayed"), c.headers.get("idempotent-replayed")]).toEqual([null, null]);
      expect(b.json.data.id).not.toBe(a.json.data.id);
      const [{ id: flow }] = await queryRows<{ id: string }>(app, "SELECT flow_id AS id FROM dossiers WHERE id = ?", a.json.data.id);
      const rotated = await call(app, "POST", `/flows/${flow}/intake/rotate`, { key: org.key });
      const fresh = rotated.json.data.address.split("@")[0];
      const d = await send(app, fresh, message(), "shared");
      expect([d.status, d.headers.get("idempotent-replayed")]).toEqual([201, null]);
      expect(await dossiers(app)).toBe(3);
    });

    test("C16: the token is not stored in clear beside the key", async () => {
      const app = await appOn(engine);
      const { token } = await growthOrg(app);
      await send(app, token, message(), "secret");
      const rows = await queryRows(app, "SELECT * FROM idempotency_keys");
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows)).not.toContain(token);
      expect(rows[0].path).toBe("/api/v1/intake/{token}");
    });

    test("C16: 10 concurrent deliveries with one key make one dossier and one event; the others are 409 idempotency_key_in_use or replays", async () => {
      const app = await appOn(engine);
      const { token } = await growthOrg(app);
      const answers = await Promise.all(Array.from({ length: 10 }, () => send(app, token, message(), "burst")));
      expect([await dossiers(app), await events(app)]).toEqual([1, 1]);
      const created = answers.filter((a) => a.status === 201);
      const busy = answers.filter((a) => a.status === 409);
      expect(created.length + busy.length).toBe(10);
      expect(busy.length).toBeGreaterThan(0);
      expect(created.filter((a) => a.headers.get("idempotent-replayed") === null)).toHaveLength(1);
      for (const a of created) expect(a.json.data.id).toBe(created[0].json.data.id);
      for (const a of busy) expect(a.json.error.code).toBe("idempotency_key_in_use");
      const after = await send(app, token, message(), "burst");
      expect([after.status, after.headers.get("idempotent-replayed")]).toEqual([201, "true"]);
    });

    test("C20: a malformed key is 400 invalid_body after the token's 404, 402 and 429; nothing stored", async () => {
      const app = await appOn(engine, { config: { intakeRateLimit: 4 } });
      const { org, token } = await growthOrg(app);
      const bad = "x".repeat(256);
      expect((await send(app, "q".repeat(26), message(), bad)).status).toBe(404);
      await updateOrg(app.dossier, org.id, { plan: "pro" });
      expect((await send(app, token, message(), bad)).json.error.code).toBe("plan_required");
      await updateOrg(app.dossier, org.id, { plan: "growth" });
      const before = (await rowCountsOf(app));
      for (const key of ["", bad, "é", "tab\there"]) {
        const answer = await send(app, token, message(), key);
        expect([key, answer.status, answer.json.error.code]).toEqual([key, 400, "invalid_body"]);
      }
      // Each was counted by the token's limit (4 a minute): the limit's 429 comes first.
      expect((await send(app, token, message(), bad)).json.error.code).toBe("rate_limited");
      expect((await rowCountsOf(app))).toEqual(before);
    });

    test("C20: a 4xx of a request that ran is stored and replayed (a message that cannot be read, another type); 413 is not", async () => {
      const app = await appOn(engine);
      const { token } = await growthOrg(app);
      const unreadable = "Subject: nobody\r\n\r\nno sender\r\n";
      const first = await send(app, token, unreadable, "bad");
      expect([first.status, first.json.error.code]).toEqual([400, "invalid_body"]);
      const again = await send(app, token, unreadable, "bad");
      // The same answer, but for the request id each error body quotes (its own request's, issue 38).
      expect([again.status, again.headers.get("idempotent-replayed"), { ...again.json.error, request_id: null }]).toEqual([400, "true", { ...first.json.error, request_id: null }]);
      const wrongType = await send(app, token, message(), "typed", "text/plain");
      expect(wrongType.status).toBe(415);
      const fixed = await send(app, token, message(), "typed");
      expect([fixed.status, fixed.headers.get("idempotent-replayed")]).toEqual([415, "true"]);
      const large = await send(app, token, "x".repeat(26_214_401), "large");
      expect(large.status).toBe(413);
      expect(await count(app, "SELECT count(*) AS n FROM idempotency_keys WHERE key = 'large'")).toBe(0);
      expect(await dossiers(app)).toBe(0);
    });

    test("round2-notes: the answer is stored in the transaction of the dossier: when storing it fails, no dossier either; a 5xx is not stored, so the retry runs", async () => {
      const app = await appOn(engine);
      const { token } = await growthOrg(app);
      // The trigger in each engine's dialect (PostgreSQL's runs a function of its own).
      const refuse =
        engine === "sqlite"
          ? [`CREATE TRIGGER refuse BEFORE INSERT ON idempotency_keys BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`]
          : [
              `CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$`,
              `CREATE TRIGGER refuse BEFORE INSERT ON idempotency_keys FOR EACH ROW EXECUTE FUNCTION refuse()`,
            ];
      for (const statement of refuse) await queryRows(app, statement);
      const failed = await send(app, token, message(), "atomic");
      expect(failed.status).toBeGreaterThanOrEqual(500);
      expect([await dossiers(app), await events(app)]).toEqual([0, 0]);
      await queryRows(app, engine === "sqlite" ? `DROP TRIGGER refuse` : `DROP TRIGGER refuse ON idempotency_keys`);
      const retried = await send(app, token, message(), "atomic");
      expect([retried.status, retried.headers.get("idempotent-replayed")]).toEqual([201, null]);
      expect([await dossiers(app), await events(app)]).toEqual([1, 1]);
      const [stored] = await queryRows<{ status: number; body: string }>(app, "SELECT status, body FROM idempotency_keys WHERE key = 'atomic'");
      expect(stored).toEqual({ status: 201, body: retried.text });
    });

    test("C20: a duplicate Message-ID under a new key answers 200 with the first id, and that answer is what its key replays", async () => {
      const app = await appOn(engine);
      const { token } = await growthOrg(app);
      const withId = `Message-ID: <dup-1@example.com>\r\n${message()}`;
      const first = await send(app, token, withId, "one");
      const second = await send(app, token, withId, "two");
      expect([first.status, second.status]).toEqual([201, 200]);
      const replay = await send(app, token, withId, "two");
      expect([replay.status, replay.headers.get("idempotent-replayed"), replay.text]).toEqual([200, "true", second.text]);
      expect(await dossiers(app)).toBe(1);
    });

    test("C20: the token's limit counts replays", async () => {
      const app = await appOn(engine, { config: { intakeRateLimit: 2 } });
      const { token } = await growthOrg(app);
      expect((await send(app, token, message(), "r")).status).toBe(201);
      expect((await send(app, token, message(), "r")).headers.get("idempotent-replayed")).toBe("true");
      const over = await send(app, token, message(), "r");
      expect([over.status, over.json.error.code]).toEqual([429, "rate_limited"]);
    });
  });
});
