// C12, C20 over HTTP: signing in and out, the cookie, the session as a principal (plan, rate limit,
// C3's order), CSRF and Origin, the throttle, setup links. Each security row of C20 is an attack.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { DossierApp } from "../../src/app";
import { loadConfig } from "../../src/config";
import type { Store } from "../../src/db/store";
import { createMember, disableMember, operator, type Role } from "../../src/services/members";
import { updateOrg } from "../../src/services/orgs";
import { call, makeOrg, type Answer } from "../helpers";
import { engineFingerprint, fingerprintDiff } from "../helpers/fingerprint";
import { signedInMember } from "../helpers/scenario";
import { ENGINES, appOn, rowCountsOf } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const BASE = "http://127.0.0.1:8080";
const PASSWORD = "a long enough password";
let serial = 0;
const email = (what: string) => `${what}-${++serial}-${crypto.randomUUID().slice(0, 6)}@session.example`;
const COOKIE = /^dossier_session=([A-Za-z0-9_-]{43}); HttpOnly; SameSite=Lax; Path=\/$/;

/** A member with a password, not signed in. */
async function memberWithPassword(app: DossierApp<Store>, organizationId: string, role: Role = "member") {
  const address = email(role);
  const made = await createMember(app.dossier, operator(organizationId), { email: address, name: "Someone", role }, BASE);
  const token = made.setup_url.split("#token=")[1];
  const setup = await call(app, "POST", "/session/setup", { body: { token, password: PASSWORD } });
  expect(setup.status).toBe(200);
  return { id: made.id, email: address, token };
}

const cookieOf = (answer: Answer) => COOKIE.exec(answer.headers.get("set-cookie") ?? "")?.[1];
const signInFrom = (app: DossierApp<Store>, address: string, body: object) =>
  call(app, "POST", "/session", { body, headers: { "x-forwarded-for": `10.9.9.9, ${address}` } });

describe.each(ENGINES)("session on %s", (engine) => {
  describe("C12: signing in and out", async () => {
    const app = await appOn(engine);
    const org = await makeOrg(app);

    test("C12: POST /session → 200 {member, csrf_token}, the cookie with exactly its attributes; GET /session → the same", async () => {
      const someone = await memberWithPassword(app, org.id);
      const answer = await call(app, "POST", "/session", { body: { email: someone.email.toUpperCase(), password: PASSWORD } });
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({ data: { member: expect.objectContaining({ id: someone.id, email: someone.email, last_sign_in_at: expect.any(String) }), csrf_token: expect.any(String) } });
      const token = cookieOf(answer);
      expect(token).toBeDefined();
      expect(answer.headers.get("x-ratelimit-limit")).toBeNull();
      const now = await call(app, "GET", "/session", { headers: { cookie: `dossier_session=${token}` } });
      expect(now.status).toBe(200);
      expect(now.json.data).toEqual({ member: expect.objectContaining({ id: someone.id }), csrf_token: answer.json.data.csrf_token });
      expect(now.headers.get("x-ratelimit-limit")).not.toBeNull();
      expect(answer.headers.get("cache-control")).toBe("no-store");
      expect(now.headers.get("cache-control")).toBe("no-store");
    });

    test("C12: a wrong password and an unknown email get the same 401 invalid_credentials", async () => {
      const someone = await memberWithPassword(app, org.id);
      const wrong = await call(app, "POST", "/session", { body: { email: someone.email, password: "not the password" } });
      const unknown = await call(app, "POST", "/session", { body: { email: email("nobody"), password: PASSWORD } });
      for (const answer of [wrong, unknown]) {
        expect(answer.status).toBe(401);
        expect(answer.headers.get("set-cookie")).toBeNull();
      }
      // Alike but for the request id each quotes (issue 38).
      expect({ ...wrong.json.error, request_id: null }).toEqual({ ...unknown.json.error, request_id: null });
      expect(wrong.json.error.code).toBe("invalid_credentials");
    });

    test("C20: DELETE /session → 200 {signed_out: true}, the cookie cleared, the session gone", async () => {
      const me = await signedInMember(app, org.id, "member");
      const out = await call(app, "DELETE", "/session", { headers: me.headers });
      expect(out.status).toBe(200);
      expect(out.json).toEqual({ data: { signed_out: true } });
      expect(out.headers.get("set-cookie")).toMatch(/^dossier_session=; HttpOnly; SameSite=Lax; Path=\/; Max-Age=0$/);
      expect((await call(app, "GET", "/session", { headers: me.headers })).status).toBe(401);
    });

    test("C20: GET and DELETE /session with an API key → 401", async () => {
      for (const method of ["GET", "DELETE"]) {
        const answer = await call(app, method, "/session", { key: org.key });
        expect(answer.status).toBe(401);
        expect(answer.json.error.code).toBe("unauthorized");
      }
    });

    test("C3: GET /session with no cookie, an unknown cookie or a malformed one → 401", async () => {
      const cases: Record<string, string>[] = [{}, { cookie: `dossier_session=${"A".repeat(43)}` }, { cookie: "dossier_session=nope" }];
      for (const headers of cases) {
        expect((await call(app, "GET", "/session", { headers })).status).toBe(401);
      }
    });

    test("C12: a disabled member's session answers 401 at once", async () => {
      const me = await signedInMember(app, org.id, "admin");
      expect((await call(app, "GET", "/members", { headers: me.headers })).status).toBe(200);
      await disableMember(app.dossier, operator(org.id), me.id);
      const after = await call(app, "GET", "/members", { headers: me.headers });
      expect(after.status).toBe(401);
      expect(after.json.error.code).toBe("unauthorized");
    });

    test("C12: a disabled member cannot sign in (401 invalid_credentials)", async () => {
      const someone = await memberWithPassword(app, org.id);
      await disableMember(app.dossier, operator(org.id), someone.id);
      const answer = await call(app, "POST", "/session", { body: { email: someone.email, password: PASSWORD } });
      expect(answer.status).toBe(401);
      expect(answer.json.error.code).toBe("invalid_credentials");
    });
  });

  describe("C12, C20: the Secure attribute", async () => {
    const signIn = async (app: DossierApp<Store>, headers: Record<string, string> = {}) => {
      const org = await makeOrg(app);
      const someone = await memberWithPassword(app, org.id);
      return call(app, "POST", "/session", { body: { email: someone.email, password: PASSWORD }, headers });
    };

    test("C12: DOSSIER_TRUST_PROXY is 1 or 0 (unset: 0); anything else stops the start", () => {
      expect(loadConfig({}).trustProxy).toBe(false);
      expect(loadConfig({ DOSSIER_TRUST_PROXY: "1" }).trustProxy).toBe(true);
      expect(loadConfig({ DOSSIER_TRUST_PROXY: "0" }).trustProxy).toBe(false);
      expect(() => loadConfig({ DOSSIER_TRUST_PROXY: "yes" })).toThrow("DOSSIER_TRUST_PROXY");
    });

    test("C12: X-Forwarded-Proto: https is ignored without DOSSIER_TRUST_PROXY=1", async () => {
      const answer = await signIn(await appOn(engine), { "x-forwarded-proto": "https" });
      expect(answer.headers.get("set-cookie")).not.toContain("Secure");
    });

    test("C12: with DOSSIER_TRUST_PROXY=1, X-Forwarded-Proto: https makes the cookie Secure", async () => {
      const answer = await signIn(await appOn(engine, { env: { DOSSIER_TRUST_PROXY: "1" } }), { "x-forwarded-proto": "https" });
      expect(answer.headers.get("set-cookie")).toMatch(/; Secure$/);
    });

    test("C20: a DOSSIER_PUBLIC_URL that begins with https: makes the cookie Secure", async () => {
      const answer = await signIn(await appOn(engine, { env: { DOSSIER_PUBLIC_URL: "https://dossier.example.com" } }));
      expect(answer.headers.get("set-cookie")).toMatch(/; Secure$/);
    });
  });

  describe("C12, C20: a cookie's change needs X-CSRF-Token; a foreign Origin is refused", async () => {
    const app = await appOn(engine);

    /** The request must be refused 403 csrf_failed and change nothing. */
    async function refusedCsrf(method: string, path: string, options: Parameters<typeof call>[3]) {
      const counts = await rowCountsOf(app);
      const contents = await engineFingerprint(app);
      const answer = await call(app, method, path, options);
      expect(answer.status).toBe(403);
      expect(answer.json.error.code).toBe("csrf_failed");
      expect(await rowCountsOf(app)).toEqual(counts);
      expect(fingerprintDiff(contents, await engineFingerprint(app))).toEqual([]);
    }

    test("C12 attack: POST, PATCH, DELETE with the cookie and no X-CSRF-Token → 403 csrf_failed, nothing changed", async () => {
      const org = await makeOrg(app);
      const admin = await signedInMember(app, org.id, "admin");
      const other = await signedInMember(app, org.id, "member");
      const cookie = { cookie: admin.headers.cookie };
      await refusedCsrf("POST", "/contacts", { headers: cookie, body: { full_name: "Forged" } });
      await refusedCsrf("PATCH", `/members/${other.id}`, { headers: cookie, body: { role: "viewer" } });
      await refusedCsrf("DELETE", `/members/${other.id}`, { headers: cookie });
      await refusedCsrf("POST", `/members/${other.id}/setup-link`, { headers: cookie });
      await refusedCsrf("DELETE", "/session", { headers: cookie });
    });

    test("C12 attack: a wrong X-CSRF-Token, or another session's → 403 csrf_failed", async () => {
      const org = await makeOrg(app);
      const me = await signedInMember(app, org.id, "member");
      const them = await signedInMember(app, org.id, "member");
      await refusedCsrf("POST", "/contacts", { headers: { cookie: me.headers.cookie, "x-csrf-token": "x".repeat(43) }, body: { full_name: "Forged" } });
      await refusedCsrf("POST", "/contacts", { headers: { cookie: me.headers.cookie, "x-csrf-token": them.csrf }, body: { full_name: "Forged" } });
    });

    test("C12: a GET with the cookie needs no X-CSRF-Token", async () => {
      const org = await makeOrg(app);
      const me = await signedInMember(app, org.id, "viewer");
      expect((await call(app, "GET", "/dossiers", { headers: { cookie: me.headers.cookie } })).status).toBe(200);
    });

    test("C20: csrf_failed comes before the scope check's 403 (a viewer's forged change is csrf_failed)", async () => {
      const org = await makeOrg(app);
      const viewer = await signedInMember(app, org.id, "viewer");
      await refusedCsrf("POST", "/contacts", { headers: { cookie: viewer.headers.cookie }, body: { full_name: "Forged" } });
    });

    test("C20: csrf_failed comes after 402 and 429", async () => {
      const poor = await makeOrg(app);
      const pro = await signedInMember(app, poor.id, "member");
      await updateOrg(app.dossier, poor.id, { plan: "pro" });
      expect((await call(app, "POST", "/contacts", { headers: { cookie: pro.headers.cookie }, body: { full_name: "X" } })).json.error.code).toBe("plan_required");

      const busy = await makeOrg(app, { rateLimit: 1 });
      const me = await signedInMember(app, busy.id, "member");
      expect((await call(app, "GET", "/flows", { headers: me.headers })).status).toBe(200);
      const limited = await call(app, "POST", "/contacts", { headers: { cookie: me.headers.cookie }, body: { full_name: "X" } });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    });

    test("C20 attack: a cookie request whose Origin is another site's → 403 csrf_failed, even a GET and with the right token", async () => {
      const org = await makeOrg(app);
      const me = await signedInMember(app, org.id, "admin");
      for (const origin of ["https://evil.example", "http://localhost.evil.example", "null"]) {
        await refusedCsrf("GET", "/members", { headers: { ...me.headers, origin } });
        await refusedCsrf("POST", "/contacts", { headers: { ...me.headers, origin }, body: { full_name: "Forged" } });
      }
    });

    test("C20: the server's own Origin, or none, is judged by the other rules", async () => {
      const org = await makeOrg(app);
      const me = await signedInMember(app, org.id, "member");
      expect((await call(app, "POST", "/contacts", { headers: { ...me.headers, origin: "http://localhost" }, body: { full_name: "Mine" } })).status).toBe(201);
      expect((await call(app, "POST", "/contacts", { headers: me.headers, body: { full_name: "Mine too" } })).status).toBe(201);
    });

    test("C20: behind DOSSIER_PUBLIC_URL, its origin is the server's own", async () => {
      const behind = await appOn(engine, { env: { DOSSIER_PUBLIC_URL: "https://dossier.example.com/" } });
      const org = await makeOrg(behind);
      const me = await signedInMember(behind, org.id, "member");
      const answer = await call(behind, "POST", "/contacts", { headers: { ...me.headers, origin: "https://dossier.example.com" }, body: { full_name: "Mine" } });
      expect(answer.status).toBe(201);
      const elsewhere = await call(behind, "POST", "/contacts", { headers: { ...me.headers, origin: "http://dossier.example.com" }, body: { full_name: "Forged" } });
      expect(elsewhere.status).toBe(403);
      expect(elsewhere.json.error.code).toBe("csrf_failed");
    });

    test("C12: with both, the Authorization header decides: a bad key is 401 whatever the cookie; a good key needs no CSRF", async () => {
      const org = await makeOrg(app);
      const me = await signedInMember(app, org.id, "owner");
      const bad = await call(app, "GET", "/members", { headers: { ...me.headers, authorization: `Bearer svc_live_${"A".repeat(32)}` } });
      expect(bad.status).toBe(401);
      const viaKey = await call(app, "POST", "/contacts", { key: org.key, headers: { cookie: me.headers.cookie }, body: { full_name: "By key" } });
      expect(viaKey.status).toBe(201);
    });

    test("C20: no answer carries Access-Control-Allow-Credentials", async () => {
      const org = await makeOrg(app);
      const me = await signedInMember(app, org.id, "member");
      const answer = await call(app, "GET", "/dossiers", { headers: { ...me.headers, origin: "http://localhost" } });
      expect(answer.headers.get("access-control-allow-credentials")).toBeNull();
    });
  });

  describe("C12: a session is a principal like a key", async () => {
    const app = await appOn(engine);

    test("round2-notes: sessions spend the organization's rate limit with its keys", async () => {
      const org = await makeOrg(app, { rateLimit: 2 });
      const me = await signedInMember(app, org.id, "viewer");
      expect((await call(app, "GET", "/flows", { key: org.key })).status).toBe(200);
      const second = await call(app, "GET", "/flows", { headers: me.headers });
      expect(second.status).toBe(200);
      expect(second.headers.get("x-ratelimit-remaining")).toBe("0");
      expect((await call(app, "GET", "/flows", { key: org.key })).status).toBe(429);
      expect((await call(app, "GET", "/flows", { headers: me.headers })).status).toBe(429);
    });

    test("C18, C20: what a member changes through its session is recorded as that member's", async () => {
      const org = await makeOrg(app);
      const me = await signedInMember(app, org.id, "member");
      const made = await call(app, "POST", "/dossiers", { headers: me.headers, body: { type: "candidate", name: "By a person" } });
      expect(made.status).toBe(201);
      const history = await call(app, "GET", `/dossiers/${made.json.data.id}/history`, { headers: me.headers });
      expect(history.status).toBe(200);
      expect(history.json.data[0]).toMatchObject({ kind: "created", actor: { type: "member", id: me.id, name: "A member" } });
    });

    test("C12: a session of an organization on Pro gets 402", async () => {
      const org = await makeOrg(app);
      const me = await signedInMember(app, org.id, "owner");
      await updateOrg(app.dossier, org.id, { plan: "pro" });
      const answer = await call(app, "GET", "/dossiers", { headers: me.headers });
      expect(answer.status).toBe(402);
    });
  });

  describe("C12, C20: setup links", async () => {
    const app = await appOn(engine);
    const org = await makeOrg(app);

    test("C12: a setup link works once: 200 and the cookie, then 400 invalid_setup_link", async () => {
      const made = await createMember(app.dossier, operator(org.id), { email: email("once"), name: "Once", role: "member" }, BASE);
      const token = made.setup_url.split("#token=")[1];
      const first = await call(app, "POST", "/session/setup", { body: { token, password: PASSWORD } });
      expect(first.status).toBe(200);
      expect(cookieOf(first)).toBeDefined();
      expect(first.json.data.member.id).toBe(made.id);
      const again = await call(app, "POST", "/session/setup", { body: { token, password: "another long password" } });
      expect(again.status).toBe(400);
      expect(again.json.error.code).toBe("invalid_setup_link");
    });

    test("C20: a refused password is 400 invalid_body and leaves the link usable", async () => {
      const made = await createMember(app.dossier, operator(org.id), { email: email("short"), name: "Short", role: "member" }, BASE);
      const token = made.setup_url.split("#token=")[1];
      const short = await call(app, "POST", "/session/setup", { body: { token, password: "short" } });
      expect(short.status).toBe(400);
      expect(short.json.error.code).toBe("invalid_body");
      expect((await call(app, "POST", "/session/setup", { body: { token, password: PASSWORD } })).status).toBe(200);
    });

    test("C20: an unknown token is 400 invalid_setup_link", async () => {
      const answer = await call(app, "POST", "/session/setup", { body: { token: "A".repeat(43), password: PASSWORD } });
      expect(answer.status).toBe(400);
      expect(answer.json.error.code).toBe("invalid_setup_link");
    });

    test("C20: a new link from POST /members/{id}/setup-link voids the older one; a password set ends the other sessions", async () => {
      const admin = await signedInMember(app, org.id, "admin");
      const someone = await signedInMember(app, org.id, "member");
      const first = await call(app, "POST", `/members/${someone.id}/setup-link`, { headers: admin.headers });
      const second = await call(app, "POST", `/members/${someone.id}/setup-link`, { headers: admin.headers });
      expect(first.status).toBe(200);
      const tokenOf = (answer: Answer) => (answer.json.data.setup_url as string).split("#token=")[1];
      expect((await call(app, "POST", "/session/setup", { body: { token: tokenOf(first), password: PASSWORD } })).json.error.code).toBe("invalid_setup_link");
      expect((await call(app, "POST", "/session/setup", { body: { token: tokenOf(second), password: PASSWORD } })).status).toBe(200);
      expect((await call(app, "GET", "/session", { headers: someone.headers })).status).toBe(401);
    });
  });

  describe("C12, C20: the sign-in throttle", async () => {
    let clock = Date.parse("2026-11-27T10:00:00.000Z");
    const app = await appOn(engine, { env: { DOSSIER_TRUST_PROXY: "1" }, now: () => new Date(clock) });
    const org = await makeOrg(app);

    test("C12: 5 failures for one email from one address → 429 with Retry-After, the right password too; frees after its window", async () => {
      const someone = await memberWithPassword(app, org.id);
      for (let i = 0; i < 5; i++) expect((await signInFrom(app, "192.0.2.10", { email: someone.email, password: "wrong password!" })).status).toBe(401);
      const tripped = await signInFrom(app, "192.0.2.10", { email: someone.email, password: PASSWORD });
      expect(tripped.status).toBe(429);
      expect(tripped.json.error.code).toBe("rate_limited");
      expect(Number(tripped.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(tripped.headers.get("set-cookie")).toBeNull();
      // C20 attack: nobody locks a member out from elsewhere.
      expect((await signInFrom(app, "198.51.100.7", { email: someone.email, password: PASSWORD })).status).toBe(200);
      clock += 15 * 60_000 + 1000;
      expect((await signInFrom(app, "192.0.2.10", { email: someone.email, password: PASSWORD })).status).toBe(200);
    });

    test("C12: 30 failures from one address, over many emails → 429 for any email from it", async () => {
      const someone = await memberWithPassword(app, org.id);
      for (let i = 0; i < 30; i++) expect((await signInFrom(app, "203.0.113.5", { email: email("guess"), password: "wrong password!" })).status).toBe(401);
      expect((await signInFrom(app, "203.0.113.5", { email: someone.email, password: PASSWORD })).status).toBe(429);
      expect((await signInFrom(app, "203.0.113.6", { email: someone.email, password: PASSWORD })).status).toBe(200);
    });

    test("C20: without DOSSIER_TRUST_PROXY, X-Forwarded-For does not choose the address (it cannot dodge the throttle)", async () => {
      const plain = await appOn(engine);
      const where = await makeOrg(plain);
      const someone = await memberWithPassword(plain, where.id);
      for (let i = 0; i < 5; i++) expect((await signInFrom(plain, `192.0.2.${i + 1}`, { email: someone.email, password: "wrong password!" })).status).toBe(401);
      expect((await signInFrom(plain, "192.0.2.99", { email: someone.email, password: PASSWORD })).status).toBe(429);
    });
  });
});
