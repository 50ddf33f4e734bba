// Idempotency-Key (C16, C20): replays, reused keys, keys in use, what is stored and what is not.
import { Type } from "@sinclair/typebox";
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { Elysia } from "elysia";
import type { DossierApp } from "../../src/app";
import type { SqliteStore } from "../../src/db/client";
import type { Store } from "../../src/db/store";
import { guard } from "../../src/http/auth";
import { one } from "../../src/http/request";
import { defineRoute, mount } from "../../src/http/route";
import { call, filesUnder, makeKey, makeOrg } from "../helpers";
import { ENGINES, appOn, queryRows, rowCountsOf } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const dossier = { type: "candidate", name: "Ada Lovelace", email: "ada@example.com" };
const withKey = (key: string, headers: Record<string, string> = {}) => ({ "idempotency-key": key, ...headers });

// `seq` is the events' order on both engines (on SQLite, the rowid itself).
async function events(app: DossierApp<Store>, orgId: string): Promise<string[]> {
  return (await queryRows<{ type: string }>(app, `SELECT type FROM events WHERE organization_id = ? ORDER BY seq`, orgId)).map((row) => row.type);
}

// PostgreSQL answers count(*) as a string: Number() it.
const dossierCount = async (app: DossierApp<Store>, orgId: string) =>
  Number((await queryRows<{ n: number }>(app, `SELECT count(*) AS n FROM dossiers WHERE organization_id = ?`, orgId))[0].n);

const storedKeys = async (app: DossierApp<Store>) => Number((await queryRows<{ n: number }>(app, `SELECT count(*) AS n FROM idempotency_keys`))[0].n);

/** Makes every insert of a dossier fail (a 500), until the returned function is called. */
async function refuseDossiers(app: DossierApp<Store>): Promise<() => Promise<void>> {
  if (app.dossier.store.engine === "sqlite") {
    const { sqlite } = app.dossier.store as SqliteStore;
    sqlite.run(`CREATE TEMP TRIGGER refuse BEFORE INSERT ON dossiers BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`);
    return async () => void sqlite.run(`DROP TRIGGER refuse`);
  }
  await queryRows(app, `CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$`);
  await queryRows(app, `CREATE TRIGGER refuse BEFORE INSERT ON dossiers FOR EACH ROW EXECUTE FUNCTION refuse()`);
  return async () => void (await queryRows(app, `DROP TRIGGER refuse ON dossiers`));
}

describe.each(ENGINES)("idempotency on %s", (engine) => {
  describe("C16: Idempotency-Key", async () => {
    test("C16: a replay answers the stored answer with Idempotent-Replayed, no event, no change", async () => {
      const app = await appOn(engine);
      const org = await makeOrg(app);
      const first = await call(app, "POST", "/dossiers", { key: org.key, body: dossier, headers: withKey("create-1") });
      expect(first.status).toBe(201);
      expect(first.headers.get("idempotent-replayed")).toBeNull();
      const before = await rowCountsOf(app);
      const again = await call(app, "POST", "/dossiers", { key: org.key, body: dossier, headers: withKey("create-1") });
      expect(again.status).toBe(201);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(again.text).toBe(first.text);
      expect(again.headers.get("content-type")).toBe(first.headers.get("content-type"));
      expect(again.headers.get("x-ratelimit-remaining")).toBe(String(Number(first.headers.get("x-ratelimit-remaining")) - 1));
      expect(await rowCountsOf(app)).toEqual(before);
      expect(await events(app, org.id)).toEqual(["dossier.created"]);
    });

    test("C20: the same key with another body, path or method: 422 idempotency_key_reused, nothing changed", async () => {
      const app = await appOn(engine);
      const org = await makeOrg(app);
      const first = await call(app, "POST", "/dossiers", { key: org.key, body: dossier, headers: withKey("k") });
      expect(first.status).toBe(201);
      const before = await rowCountsOf(app);
      // Same JSON value, other bytes: byte for byte (C20).
      const spaced = await call(app, "POST", "/dossiers", { key: org.key, raw: JSON.stringify(dossier, null, 1), contentType: "application/json", headers: withKey("k") });
      expect(spaced.status).toBe(422);
      expect(spaced.json.error.code).toBe("idempotency_key_reused");
      const otherPath = await call(app, "POST", "/contacts", { key: org.key, body: { full_name: "Ada" }, headers: withKey("k") });
      expect(otherPath.status).toBe(422);
      const otherQuery = await call(app, "POST", "/dossiers?x=1", { key: org.key, body: dossier, headers: withKey("k") });
      expect(otherQuery.status).toBe(422);
      const otherMethod = await call(app, "PATCH", `/dossiers/${first.json.data.id}`, { key: org.key, body: dossier, headers: withKey("k") });
      expect(otherMethod.status).toBe(422);
      expect(await rowCountsOf(app)).toEqual(before);
    });

    test("C20: keys belong to the principal: another key of the organization runs its own request", async () => {
      const app = await appOn(engine);
      const org = await makeOrg(app);
      const second = await makeKey(app, org, ["dossiers:write"]);
      const a = await call(app, "POST", "/dossiers", { key: org.key, body: dossier, headers: withKey("shared") });
      const b = await call(app, "POST", "/dossiers", { key: second, body: dossier, headers: withKey("shared") });
      expect([a.status, b.status]).toEqual([201, 201]);
      expect(b.headers.get("idempotent-replayed")).toBeNull();
      expect(b.json.data.id).not.toBe(a.json.data.id);
    });

    test("C16: 20 concurrent requests with one key create one dossier and one event; the others are 409 or replays", async () => {
      const app = await appOn(engine);
      const org = await makeOrg(app);
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => call(app, "POST", "/dossiers", { key: org.key, body: dossier, headers: withKey("burst") })),
      );
      expect(await dossierCount(app, org.id)).toBe(1);
      expect(await events(app, org.id)).toEqual(["dossier.created"]);
      const created = answers.filter((a) => a.status === 201);
      const refused = answers.filter((a) => a.status === 409);
      expect(created.length + refused.length).toBe(20);
      expect(created.filter((a) => a.headers.get("idempotent-replayed") === null)).toHaveLength(1);
      for (const a of created) expect(a.json.data.id).toBe(created[0].json.data.id);
      for (const a of refused) expect(a.json.error.code).toBe("idempotency_key_in_use");
      const after = await call(app, "POST", "/dossiers", { key: org.key, body: dossier, headers: withKey("burst") });
      expect(after.status).toBe(201);
      expect(after.headers.get("idempotent-replayed")).toBe("true");
    });

    test("C20: a 4xx of a request that ran is stored and replayed; a fixed body with the same key is 422", async () => {
      const app = await appOn(engine);
      const org = await makeOrg(app);
      const bad = await call(app, "POST", "/dossiers", { key: org.key, body: { ...dossier, name: "" }, headers: withKey("bad") });
      expect(bad.status).toBe(400);
      const again = await call(app, "POST", "/dossiers", { key: org.key, body: { ...dossier, name: "" }, headers: withKey("bad") });
      expect(again.status).toBe(400);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      // The same answer, but for the request id each error body quotes (its own request's, issue 38).
      expect({ ...again.json.error, request_id: null }).toEqual({ ...bad.json.error, request_id: null });
      expect(again.json.error.request_id).toBe(again.headers.get("x-request-id"));
      const fixed = await call(app, "POST", "/dossiers", { key: org.key, body: dossier, headers: withKey("bad") });
      expect(fixed.status).toBe(422);
    });

    test("C20: 401, 402, 403 and 429 are not stored: the same key runs once the key may", async () => {
      const app = await appOn(engine);
      const org = await makeOrg(app, { scopes: ["dossiers:read"] });
      const refused = await call(app, "POST", "/dossiers", { key: org.key, body: dossier, headers: withKey("later") });
      expect(refused.status).toBe(403);
      const writer = await makeOrg(app);
      const limited = await makeOrg(app, { rateLimit: 1 });
      expect((await call(app, "GET", "/dossiers", { key: limited.key })).status).toBe(200);
      const tooMany = await call(app, "POST", "/dossiers", { key: limited.key, body: dossier, headers: withKey("later") });
      expect(tooMany.status).toBe(429);
      expect(await storedKeys(app)).toBe(0);
      const ran = await call(app, "POST", "/dossiers", { key: writer.key, body: dossier, headers: withKey("later") });
      expect(ran.status).toBe(201);
    });

    test("C20: a malformed key is 400 invalid_body after 429 and before 403; nothing stored", async () => {
      const app = await appOn(engine);
      const org = await makeOrg(app);
      const readOnly = await makeOrg(app, { scopes: ["dossiers:read"] });
      for (const key of ["", "x".repeat(256), "é", "tab\there"]) {
        const answer = await call(app, "POST", "/dossiers", { key: org.key, body: dossier, headers: withKey(key) });
        expect([key, answer.status, answer.json?.error?.code]).toEqual([key, 400, "invalid_body"]);
      }
      const forbidden = await call(app, "POST", "/dossiers", { key: readOnly.key, body: dossier, headers: withKey("x".repeat(256)) });
      expect(forbidden.status).toBe(400);
      expect((await call(app, "POST", "/dossiers", { key: org.key, body: dossier, headers: withKey("x".repeat(255)) })).status).toBe(201);
      expect(await dossierCount(app, org.id)).toBe(1);
    });

    test("C16: a PATCH replay changes nothing and emits nothing, even after the record moved on", async () => {
      const app = await appOn(engine);
      const org = await makeOrg(app);
      const created = await call(app, "POST", "/dossiers", { key: org.key, body: dossier });
      const id = created.json.data.id;
      const first = await call(app, "PATCH", `/dossiers/${id}`, { key: org.key, body: { company: "London" }, headers: withKey("p") });
      expect(first.status).toBe(200);
      await call(app, "PATCH", `/dossiers/${id}`, { key: org.key, body: { company: "Paris" } });
      const before = await events(app, org.id);
      const replay = await call(app, "PATCH", `/dossiers/${id}`, { key: org.key, body: { company: "London" }, headers: withKey("p") });
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
      expect(replay.json.data.company).toBe("London");
      expect((await call(app, "GET", `/dossiers/${id}`, { key: org.key })).json.data.company).toBe("Paris");
      expect(await events(app, org.id)).toEqual(before);
    });

    test("C20: keys older than 24 hours are gone: the key runs again", async () => {
      let now = Date.parse("2026-11-20T10:00:00.000Z");
      const app = await appOn(engine, { now: () => new Date(now) });
      const org = await makeOrg(app);
      expect((await call(app, "POST", "/dossiers", { key: org.key, body: dossier, headers: withKey("day") })).status).toBe(201);
      now += 24 * 60 * 60 * 1000 + 1;
      const later = await call(app, "POST", "/dossiers", { key: org.key, body: dossier, headers: withKey("day") });
      expect(later.status).toBe(201);
      expect(later.headers.get("idempotent-replayed")).toBeNull();
      expect(await dossierCount(app, org.id)).toBe(2);
      now += 2 * 60 * 60 * 1000;
      await call(app, "POST", "/contacts", { key: org.key, body: { full_name: "Sweep" }, headers: withKey("sweep") });
      const kept = await queryRows<{ key: string }>(app, `SELECT key FROM idempotency_keys ORDER BY key`);
      expect(kept.map((row) => row.key)).toEqual(["day", "sweep"]);
    });

    test("C16: a GET ignores the key; so does a route without one of POST and PATCH", async () => {
      const app = await appOn(engine);
      const org = await makeOrg(app);
      const answer = await call(app, "GET", "/dossiers", { key: org.key, headers: withKey("") });
      expect(answer.status).toBe(200);
    });

    test("C16: a 5xx is not stored: the retry runs", async () => {
      const app = await appOn(engine);
      const org = await makeOrg(app);
      const allow = await refuseDossiers(app);
      const failed = await call(app, "POST", "/dossiers", { key: org.key, body: dossier, headers: withKey("retry") });
      expect(failed.status).toBe(500);
      expect(await storedKeys(app)).toBe(0);
      await allow();
      const retried = await call(app, "POST", "/dossiers", { key: org.key, body: dossier, headers: withKey("retry") });
      expect(retried.status).toBe(201);
      expect(retried.headers.get("idempotent-replayed")).toBeNull();
      expect(await events(app, org.id)).toEqual(["dossier.created"]);
    });

    test("C16: multipart bodies are compared by their bytes", async () => {
      const app = await appOn(engine);
      const org = await makeOrg(app);
      const pdf = new TextEncoder().encode("%PDF-1.7\n% a CV\n%%EOF\n");
      const form = (name: string) => {
        const body = new FormData();
        body.set("type", "candidate");
        body.set("name", name);
        body.set("cv", new File([pdf], "cv.pdf", { type: "application/pdf" }));
        return body;
      };
      // One serialised body sent twice, byte for byte.
      const sample = new Request("http://localhost/", { method: "POST", body: form("Ada") });
      const type = sample.headers.get("content-type")!;
      const bytes = new Uint8Array(await sample.arrayBuffer());
      const first = await call(app, "POST", "/dossiers", { key: org.key, raw: bytes, contentType: type, headers: withKey("form") });
      expect(first.status).toBe(201);
      const files = filesUnder(app.dossier.filesDir);
      const again = await call(app, "POST", "/dossiers", { key: org.key, raw: bytes, contentType: type, headers: withKey("form") });
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(again.json).toEqual(first.json);
      expect(filesUnder(app.dossier.filesDir)).toEqual(files);
      // The same fields under another boundary are other bytes.
      const other = await call(app, "POST", "/dossiers", { key: org.key, raw: form("Ada"), headers: withKey("form") });
      expect(other.status).toBe(422);
      expect(await dossierCount(app, org.id)).toBe(1);
    });

    test("C20: the rate limit counts replays", async () => {
      const app = await appOn(engine);
      const org = await makeOrg(app, { rateLimit: 2 });
      expect((await call(app, "POST", "/dossiers", { key: org.key, body: dossier, headers: withKey("r") })).status).toBe(201);
      const replay = await call(app, "POST", "/dossiers", { key: org.key, body: dossier, headers: withKey("r") });
      expect(replay.headers.get("x-ratelimit-remaining")).toBe("0");
      expect((await call(app, "POST", "/dossiers", { key: org.key, body: dossier, headers: withKey("r") })).status).toBe(429);
    });
  });

  describe("C20: where Idempotency-Key is ignored", async () => {
    test("C20: a route whose answer carries a secret shown once ignores the key: a retry gets a new secret, nothing is stored", async () => {
      const app = await appOn(engine);
      const org = await makeOrg(app);
      const routes = [
        defineRoute({
          id: "makeSecret",
          method: "POST",
          path: "/secrets",
          summary: "A secret shown once",
          tag: "Test",
          scopes: [],
          secret: true,
          responses: { 201: { schema: Type.Object({ secret: Type.String() }), description: "A new secret" } },
          handler: () => one({ secret: crypto.randomUUID() }),
        }),
      ];
      const api = new Elysia({ prefix: "/api/v1" }).use(mount(app.dossier, guard(app.dossier), routes));
      const post = async () => {
        const response = await api.handle(new Request("http://localhost/api/v1/secrets", { method: "POST", headers: { authorization: `Bearer ${org.key}`, "idempotency-key": "once" } }));
        return { status: response.status, replayed: response.headers.get("idempotent-replayed"), json: (await response.json()) as { data: { secret: string } } };
      };
      const first = await post();
      const again = await post();
      expect([first.status, again.status, again.replayed]).toEqual([201, 201, null]);
      expect(again.json.data.secret).not.toBe(first.json.data.secret);
      expect(await storedKeys(app)).toBe(0);
    });

    test("C16: a link's replay gives the first answer's status and body (the handler's own, stored after the commit)", async () => {
      const app = await appOn(engine);
      const org = await makeOrg(app);
      const created = await call(app, "POST", "/dossiers", { key: org.key, body: dossier });
      const contact = await call(app, "POST", "/contacts", { key: org.key, body: { full_name: "Grace" } });
      const link = { contact_id: contact.json.data.id, role_on_dossier: "other" };
      const first = await call(app, "POST", `/dossiers/${created.json.data.id}/contacts`, { key: org.key, body: link, headers: withKey("link") });
      expect(first.status).toBe(201);
      const again = await call(app, "POST", `/dossiers/${created.json.data.id}/contacts`, { key: org.key, body: link, headers: withKey("link") });
      expect([again.status, again.headers.get("idempotent-replayed"), again.text]).toEqual([201, "true", first.text]);
    });
  });
});
