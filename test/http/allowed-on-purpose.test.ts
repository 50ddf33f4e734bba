// What the audit of issue 32 found allowed but surprising, decided as it is (docs/security.md
// "Allowed on purpose"): these tests pin the decisions, so that changing one is a choice.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { call, makeApp, makeKey, makeOrg } from "../helpers";
import { signedInMember } from "../helpers/scenario";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

describe("keys belong to the organization, not to the member who made them (C12, C13)", () => {
  test("a key an admin made keeps working once that admin is disabled; the admin's session does not", async () => {
    const app = makeApp();
    const org = await makeOrg(app);
    const admin = await signedInMember(app, org.id, "admin");
    const made = await call(app, "POST", "/keys", { headers: admin.headers, body: { scopes: ["dossiers:read"], name: "Reporting" } });
    expect(made.status).toBe(201);

    expect((await call(app, "DELETE", `/members/${admin.id}`, { key: org.key })).status).toBe(200);
    expect((await call(app, "GET", "/dossiers", { headers: admin.headers })).status).toBe(401);
    expect((await call(app, "GET", "/dossiers", { key: made.json.data.key })).status).toBe(200);
    // The way to end it: revoke it, by its name in the list.
    const listed = (await call(app, "GET", "/keys", { key: org.key })).json.data.find((k: { name: string | null }) => k.name === "Reporting");
    expect((await call(app, "DELETE", `/keys/${listed.id}`, { key: org.key })).status).toBe(200);
    expect((await call(app, "GET", "/dossiers", { key: made.json.data.key })).status).toBe(401);
  });
});

describe("keys:manage revokes any key of its organization, whatever that key's scopes (C13)", () => {
  test("a key with keys:manage alone revokes a key of every scope, and can revoke itself", async () => {
    const app = makeApp();
    const org = await makeOrg(app); // org.key holds every scope
    const manager = await makeKey(app, org, ["keys:manage"]);
    expect((await call(app, "DELETE", `/keys/${org.keyId}`, { key: manager })).status).toBe(200);
    expect((await call(app, "GET", "/dossiers", { key: org.key })).status).toBe(401);

    const own = (await call(app, "GET", "/keys", { key: manager })).json.data.find((k: { scopes: string[]; revoked_at: string | null }) => k.revoked_at === null);
    expect(own.scopes).toEqual(["keys:manage"]);
    expect((await call(app, "DELETE", `/keys/${own.id}`, { key: manager })).status).toBe(200);
    expect((await call(app, "GET", "/keys", { key: manager })).status).toBe(401);
  });

  test("but it cannot make a key with more scopes than its own (403, C13)", async () => {
    const app = makeApp();
    const org = await makeOrg(app);
    const manager = await makeKey(app, org, ["keys:manage"]);
    const answer = await call(app, "POST", "/keys", { key: manager, body: { scopes: ["dossiers:read"] } });
    expect(answer.status).toBe(403);
    expect(answer.json.error.code).toBe("forbidden");
  });
});
