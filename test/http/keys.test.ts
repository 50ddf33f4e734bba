// C13, C20: API keys over the API (GET/POST /keys, DELETE /keys/{id}), with `keys:manage`.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Store } from "../../src/db/store";
import { call, makeKey, makeOrg } from "../helpers";
import { refused, scenarios, type World } from "../helpers/scenario";
import { ENGINES, appOn } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

async function keys({ app, org, other }: World<Store>) {
  const made = await call(app, "POST", "/keys", { key: org.key, body: { scopes: ["dossiers:read"], name: "Reader" } });
  expect(made.status).toBe(201);
  return { reader: made.json.data as { id: string; key: string }, theirKey: other.keyId };
}

const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

describe.each(ENGINES)("keys on %s", (engine) => {
  scenarios("GET /keys (C13, C20)", keys, [
    {
      name: "C13: every key of the organization, oldest first: prefix, scopes, expiry, revocation, last use; never the key; meta as GET /flows/{id}/stages",
      method: "GET",
      path: "/keys",
      status: 200,
      json: (f) => ({
        data: [
          { id: f.org.keyId, prefix: f.org.key.slice(0, 12), revoked_at: null, name: null, expires_at: null },
          { id: f.reader.id, prefix: f.reader.key.slice(0, 12), scopes: ["dossiers:read"], name: "Reader", last_used_at: null },
        ],
        meta: { total: 2, page: 1, per_page: 2 },
      }),
    },
    { name: "C13: keys:manage is required", as: ["dossiers:read"], method: "GET", path: "/keys", status: 403, json: refused("forbidden", "keys:manage") },
  ], { engine });

  scenarios("POST /keys (C13, C20)", keys, [
    {
      name: "C20: 201 {id, key, scopes, expires_at, name}; the key is shown once",
      method: "POST",
      path: "/keys",
      body: { scopes: ["dossiers:read", "flows:write"], name: "Console", expires_at: "2099-01-01T00:00:00Z" },
      status: 201,
      json: { data: { id: expect.any(String), key: expect.stringMatching(/^svc_live_[A-Za-z0-9]{32}$/), scopes: ["dossiers:read", "flows:write"], name: "Console", expires_at: "2099-01-01T00:00:00.000Z" } },
    },
    { name: "C20: name and expires_at may be left out", method: "POST", path: "/keys", body: { scopes: ["notes:read"] }, status: 201, json: { data: { scopes: ["notes:read"], name: null, expires_at: null } } },
    { name: "C20: an unknown scope is 400 invalid_body", method: "POST", path: "/keys", body: { scopes: ["dossiers:read", "root"] }, status: 400, json: refused("invalid_body", "scopes[1]") },
    {
      name: "C13, C20: a scope the creator lacks is 403 forbidden, naming it",
      as: ["keys:manage", "dossiers:read"],
      method: "POST",
      path: "/keys",
      body: { scopes: ["dossiers:read", "dossiers:write"] },
      status: 403,
      json: refused("forbidden", "dossiers:write"),
    },
    { name: "C13: a key may grant the scopes it holds", as: ["keys:manage", "dossiers:read"], method: "POST", path: "/keys", body: { scopes: ["keys:manage", "dossiers:read"] }, status: 201 },
    { name: "C20: at least one scope", method: "POST", path: "/keys", body: { scopes: [] }, status: 400, json: refused("invalid_body", "scopes") },
    { name: "C2: an expiry in the past is refused", method: "POST", path: "/keys", body: { scopes: ["notes:read"], expires_at: "2001-01-01T00:00:00Z" }, status: 400, json: refused("invalid_body", "expires_at") },
    { name: "C3: an expiry that is not a date-time is refused", method: "POST", path: "/keys", body: { scopes: ["notes:read"], expires_at: "soon" }, status: 400, json: refused("invalid_body", "expires_at") },
    { name: "C3: a name over 200 characters is refused", method: "POST", path: "/keys", body: { scopes: ["notes:read"], name: "é".repeat(201) }, status: 400, json: refused("invalid_body", "name") },
    { name: "C3: unknown fields are refused", method: "POST", path: "/keys", body: { scopes: ["notes:read"], organization_id: "x" }, status: 400, json: refused("invalid_body", "organization_id") },
    { name: "C13: keys:manage is required", as: ["dossiers:read"], method: "POST", path: "/keys", body: { scopes: ["dossiers:read"] }, status: 403, json: refused("forbidden") },
  ], { engine });

  scenarios("DELETE /keys/{id} (C13, C20)", keys, [
    { name: "C20: revokes, answering the key's final state", method: "DELETE", path: "/keys/{reader}", status: 200, json: (f) => ({ data: { id: f.reader.id, revoked_at: ISO, scopes: ["dossiers:read"], name: "Reader" } }) },
    { name: "C3: another organization's key is 404", method: "DELETE", path: "/keys/{theirKey}", status: 404, json: refused("not_found") },
    { name: "C3: a malformed id is 404", method: "DELETE", path: "/keys/svc_live_x", status: 404, json: refused("not_found") },
    { name: "C13: keys:manage is required", as: ["dossiers:read"], method: "DELETE", path: "/keys/{reader}", status: 403, json: refused("forbidden") },
  ], { engine });

  describe("C13: a key made over the API works at once, with its scopes alone; a revoked one answers 401", () => {
    test("create, use, revoke, use", async () => {
      const app = await appOn(engine);
      const org = await makeOrg(app);
      const made = (await call(app, "POST", "/keys", { key: org.key, body: { scopes: ["dossiers:read"] } })).json.data;
      expect((await call(app, "GET", "/dossiers", { key: made.key })).status).toBe(200);
      expect((await call(app, "POST", "/dossiers", { key: made.key, body: { type: "candidate", name: "Ada" } })).status).toBe(403);
      const listed = (await call(app, "GET", "/keys", { key: org.key })).json.data.find((k: { id: string }) => k.id === made.id);
      expect(listed.last_used_at).toEqual(ISO);
      const revoked = await call(app, "DELETE", `/keys/${made.id}`, { key: org.key });
      expect((await call(app, "GET", "/dossiers", { key: made.key })).status).toBe(401);
      // Revoking again changes nothing: the first revocation time stays.
      const again = await call(app, "DELETE", `/keys/${made.id}`, { key: org.key });
      expect(again.status).toBe(200);
      expect(again.json.data.revoked_at).toBe(revoked.json.data.revoked_at);
    });

    test("C20: a key with keys:manage cannot make itself a key with more scopes, one scope at a time either", async () => {
      const app = await appOn(engine);
      const org = await makeOrg(app);
      const manager = await makeKey(app, org, ["keys:manage", "notes:read"]);
      for (const scope of ["dossiers:write", "webhooks:manage", "members:manage", "events:read"]) {
        const answer = await call(app, "POST", "/keys", { key: manager, body: { scopes: [scope] } });
        expect(answer.status, scope).toBe(403);
      }
      expect((await call(app, "GET", "/keys", { key: org.key })).json.meta.total).toBe(2);
    });
  });
});
