// api-v1 "Authentication", C3 (order of checks), C8 (keys, plans, rate limits), C10.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeRevocation } from "../../src/services/keys";
import { updateOrg } from "../../src/services/orgs";
import { call, makeKey, makeOrg, setUp } from "../helpers";
import { ENGINES, appOn, queryRows } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

describe.each(ENGINES)("auth on %s", (engine) => {
  describe("C8 401 unauthorized: every cause, one message", async () => {
    const app = await appOn(engine);
    const org = await makeOrg(app);
    const revoked = await makeKey(app, org, ["flows:read"]);
    // The key just made, by its prefix (SQLite's rowid, which broke ties of created_at, is not PostgreSQL's).
    const [{ id: revokedId }] = await queryRows<{ id: string }>(app, "SELECT id FROM api_keys WHERE prefix = ?", revoked.slice(0, 12));
    await setUp(app.dossier, () => writeRevocation(app.dossier, revokedId));
    const expired = await makeKey(app, org, ["flows:read"], new Date(Date.now() - 1000).toISOString());
    const cases: [string, Record<string, string>][] = [
      ["no header", {}],
      ["not Bearer", { authorization: `Basic ${org.key}` }],
      ["lower-case scheme without the key", { authorization: "Bearer" }],
      ["wrong prefix", { authorization: `Bearer ${org.key.replace("svc_live_", "svc_test_")}` }],
      ["too short", { authorization: `Bearer ${org.key.slice(0, -1)}` }],
      ["too long", { authorization: `Bearer ${org.key}x` }],
      ["bad characters", { authorization: `Bearer ${org.key.slice(0, -1)}!` }],
      ["unknown key", { authorization: `Bearer svc_live_${"A".repeat(32)}` }],
      ["revoked key", { authorization: `Bearer ${revoked}` }],
      ["expired key", { authorization: `Bearer ${expired}` }],
    ];
    test.each(cases)("%s → 401 without rate-limit headers", async (_name, headers) => {
      const answer = await call(app, "GET", "/flows", { headers });
      expect(answer.status).toBe(401);
      expect(answer.json.error.code).toBe("unauthorized");
      expect(answer.json.error.message).toBe("a valid API key is required: Authorization: Bearer svc_live_...");
      expect(answer.headers.get("x-ratelimit-limit")).toBeNull();
    });

    test("a key not yet expired works, and last_used_at is recorded", async () => {
      const later = await makeKey(app, org, ["flows:read"], new Date(Date.now() + 60_000).toISOString());
      expect((await call(app, "GET", "/flows", { key: later })).status).toBe(200);
      const [row] = await queryRows<{ last_used_at: string | null }>(app, "SELECT last_used_at FROM api_keys WHERE prefix = ?", later.slice(0, 12));
      expect(row!.last_used_at).not.toBeNull();
    });

    test("keys are stored hashed: the database never holds the key", async () => {
      const rows = await queryRows<{ key_hash: string; prefix: string }>(app, "SELECT key_hash, prefix FROM api_keys");
      for (const row of rows) {
        expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
        expect(row.prefix.length).toBe(12);
      }
      expect(rows.some((r) => r.key_hash === new Bun.CryptoHasher("sha256").update(org.key).digest("hex"))).toBe(true);
    });
  });

  describe("C8 402 plan_required and 403 forbidden", async () => {
    const app = await appOn(engine);
    test.each(["free", "pro"] as const)("an organization on %s gets 402 with rate-limit headers", async (plan) => {
      const org = await makeOrg(app, { plan });
      const answer = await call(app, "GET", "/flows", { key: org.key });
      expect(answer.status).toBe(402);
      expect(answer.json.error.code).toBe("plan_required");
      expect(answer.headers.get("x-ratelimit-remaining")).toBe("599");
    });

    test("a plan change takes effect on the next request (C10)", async () => {
      const org = await makeOrg(app, { plan: "pro" });
      expect((await call(app, "GET", "/flows", { key: org.key })).status).toBe(402);
      await updateOrg(app.dossier, org.id, { plan: "growth" });
      expect((await call(app, "GET", "/flows", { key: org.key })).status).toBe(200);
    });

    test("a key without flows:read gets 403 on GET /flows", async () => {
      const org = await makeOrg(app, { scopes: ["dossiers:read", "contacts:read"] });
      const answer = await call(app, "GET", "/flows", { key: org.key });
      expect(answer.status).toBe(403);
      expect(answer.json.error.code).toBe("forbidden");
      expect(answer.json.error.message).toContain("flows:read");
    });
  });

  describe("C3 order of checks: 401 → 402 → 429 → 403 → 404 → 400", async () => {
    const app = await appOn(engine);
    test("401 wins over everything (a bad query, an unknown flow)", async () => {
      expect((await call(app, "GET", "/flows/00000000-0000-4000-8000-000000000000/stages?per_page=0")).status).toBe(401);
    });
    test("402 wins over 403 and 404", async () => {
      const org = await makeOrg(app, { plan: "free", scopes: ["notes:read"] });
      expect((await call(app, "GET", "/flows/not-a-uuid/stages", { key: org.key })).status).toBe(402);
    });
    test("429 wins over 403", async () => {
      const org = await makeOrg(app, { rateLimit: 1, scopes: ["notes:read"] });
      expect((await call(app, "GET", "/flows", { key: org.key })).status).toBe(403);
      expect((await call(app, "GET", "/flows", { key: org.key })).status).toBe(429);
    });
    test("403 wins over 404", async () => {
      const org = await makeOrg(app, { scopes: ["notes:read"] });
      expect((await call(app, "GET", "/flows/not-a-uuid/stages", { key: org.key })).status).toBe(403);
    });
    test("404 for a malformed or unknown path id (never 400)", async () => {
      const org = await makeOrg(app);
      for (const id of ["not-a-uuid", "00000000-0000-4000-8000-000000000000", "1'; DROP TABLE flows;--"]) {
        const answer = await call(app, "GET", `/flows/${encodeURIComponent(id)}/stages`, { key: org.key });
        expect(answer.status).toBe(404);
        expect(answer.json.error.code).toBe("not_found");
      }
    });
  });

  describe("C8 rate limits: sliding 60 s window per organization", async () => {
    test("headers count down; 429 with Retry-After; 429s do not count; another org is unaffected", async () => {
      let now = Date.parse("2026-11-22T10:00:00.000Z");
      const app = await appOn(engine, { now: () => new Date(now) });
      const busy = await makeOrg(app, { rateLimit: 3 });
      const calm = await makeOrg(app, { rateLimit: 3 });
      const remaining: string[] = [];
      for (let i = 0; i < 3; i++) {
        const answer = await call(app, "GET", "/flows", { key: busy.key });
        expect(answer.status).toBe(200);
        expect(answer.headers.get("x-ratelimit-limit")).toBe("3");
        remaining.push(answer.headers.get("x-ratelimit-remaining")!);
        now += 10_000;
      }
      expect(remaining).toEqual(["2", "1", "0"]);
      const refused = await call(app, "GET", "/flows", { key: busy.key });
      expect(refused.status).toBe(429);
      expect(refused.json.error.code).toBe("rate_limited");
      // The oldest counted request (t=0) leaves the window at t=60 s; now is t=30 s.
      expect(refused.headers.get("retry-after")).toBe("30");
      expect(refused.headers.get("x-ratelimit-reset")).toBe("30");
      expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");

      const other = await call(app, "GET", "/flows", { key: calm.key });
      expect(other.status).toBe(200);
      expect(other.headers.get("x-ratelimit-remaining")).toBe("2");

      // At t=60 s the first request has left the window; the 429 above was not counted.
      now = Date.parse("2026-11-22T10:01:00.000Z");
      const again = await call(app, "GET", "/flows", { key: busy.key });
      expect(again.status).toBe(200);
      expect(again.headers.get("x-ratelimit-remaining")).toBe("0");
    });

    test("answers other than 2xx count too (C10), and carry the headers", async () => {
      const app = await appOn(engine);
      const org = await makeOrg(app, { rateLimit: 5, scopes: ["notes:read"] });
      const forbidden = await call(app, "GET", "/flows", { key: org.key });
      expect(forbidden.status).toBe(403);
      expect(forbidden.headers.get("x-ratelimit-remaining")).toBe("4");
      // A malformed flow id, but the key lacks flows:read: 403 comes before 404 (C3).
      const forbiddenPath = await call(app, "GET", "/flows/x/stages", { key: org.key });
      expect(forbiddenPath.status).toBe(403);
      expect(forbiddenPath.headers.get("x-ratelimit-remaining")).toBe("3");
    });

    test("a rate-limit change takes effect on the next request (C10)", async () => {
      const app = await appOn(engine);
      const org = await makeOrg(app, { rateLimit: 1 });
      expect((await call(app, "GET", "/flows", { key: org.key })).status).toBe(200);
      expect((await call(app, "GET", "/flows", { key: org.key })).status).toBe(429);
      await updateOrg(app.dossier, org.id, { rateLimit: 10 });
      const answer = await call(app, "GET", "/flows", { key: org.key });
      expect(answer.status).toBe(200);
      expect(answer.headers.get("x-ratelimit-limit")).toBe("10");
    });
  });

  describe("C10 what counts, and the rate-limit headers on every answer of an identified organization", async () => {
    const start = Date.parse("2026-11-22T10:00:00.000Z");
    const rateHeaders = (answer: { headers: Headers }) =>
      ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"].map((name) => answer.headers.get(name));

    test("C10: a real 404 (unknown dossier, key with dossiers:read) and a 400 count, with the three headers", async () => {
      let now = start;
      const app = await appOn(engine, { now: () => new Date(now) });
      const org = await makeOrg(app, { rateLimit: 5, scopes: ["dossiers:read"] });
      const missing = await call(app, "GET", "/dossiers/00000000-0000-4000-8000-000000000000", { key: org.key });
      expect(missing.status).toBe(404);
      expect(missing.json.error.code).toBe("not_found");
      expect(rateHeaders(missing)).toEqual(["5", "4", "60"]);
      now += 15_000;
      const bad = await call(app, "GET", "/dossiers?per_page=0", { key: org.key });
      expect(bad.status).toBe(400);
      expect(bad.json.error.code).toBe("invalid_body");
      expect(rateHeaders(bad)).toEqual(["5", "3", "45"]);
    });

    test("C10: X-RateLimit-Reset on answers that are not 429: seconds until the oldest counted request leaves", async () => {
      let now = start;
      const app = await appOn(engine, { now: () => new Date(now) });
      const org = await makeOrg(app, { rateLimit: 10, scopes: ["notes:read"] });
      expect((await call(app, "GET", "/flows", { key: org.key })).headers.get("x-ratelimit-reset")).toBe("60"); // 403
      const growth = await makeOrg(app, { rateLimit: 10 });
      now += 20_400;
      const ok = await call(app, "GET", "/flows", { key: growth.key });
      expect(ok.status).toBe(200);
      expect(ok.headers.get("x-ratelimit-reset")).toBe("60");
      now += 30_300; // t=50.7 s
      const later = await call(app, "GET", "/flows", { key: growth.key });
      expect(later.headers.get("x-ratelimit-reset")).toBe("30"); // its first (t=20.4 s) leaves in 29.7 s: rounded up
      const forbidden = await call(app, "GET", "/flows", { key: org.key });
      expect(forbidden.status).toBe(403);
      expect(forbidden.headers.get("x-ratelimit-reset")).toBe("10"); // its first (t=0) leaves in 9.3 s
    });

    test("C10: an unknown path under /api/v1 is answered before authentication: no headers, not counted", async () => {
      const app = await appOn(engine);
      const org = await makeOrg(app, { rateLimit: 5 });
      expect((await call(app, "GET", "/flows", { key: org.key })).headers.get("x-ratelimit-remaining")).toBe("4");
      for (const path of ["/nope", "/flows/", "/dossiers/x/nope"]) {
        const unknown = await call(app, "GET", path, { key: org.key });
        expect(unknown.status).toBe(404);
        expect(rateHeaders(unknown)).toEqual([null, null, null]);
      }
      expect((await call(app, "GET", "/flows", { key: org.key })).headers.get("x-ratelimit-remaining")).toBe("3");
    });

    test("C3, C10: 402 wins over 429, and every 402 counts, past the limit too", async () => {
      let now = start;
      const app = await appOn(engine, { now: () => new Date(now) });
      const org = await makeOrg(app, { plan: "free", rateLimit: 2 });
      const seen: (string | null)[][] = [];
      for (let i = 0; i < 3; i++) {
        const answer = await call(app, "GET", "/flows", { key: org.key });
        expect(answer.status).toBe(402); // the third is over the limit: still 402, not 429
        expect(answer.headers.get("retry-after")).toBeNull();
        seen.push(rateHeaders(answer));
        now += 10_000;
      }
      // Counted at t=0, 10, 20 s. Two counted leave no room; with three, room comes back when the
      // second (t=10 s) leaves, at t=70 s.
      expect(seen).toEqual([["2", "1", "60"], ["2", "0", "50"], ["2", "0", "50"]]);

      await updateOrg(app.dossier, org.id, { plan: "growth" });
      now = start + 65_000; // t=0 has left; t=10 and t=20 s still count: no room
      const limited = await call(app, "GET", "/flows", { key: org.key });
      expect(limited.status).toBe(429);
      expect(limited.headers.get("retry-after")).toBe("5");
      expect(limited.headers.get("x-ratelimit-reset")).toBe("5");
      now = start + 70_000;
      expect((await call(app, "GET", "/flows", { key: org.key })).status).toBe(200);
    });

    test("C8: after the limit is lowered below the count, Retry-After is when a request is really free again", async () => {
      let now = start;
      const app = await appOn(engine, { now: () => new Date(now) });
      const org = await makeOrg(app, { rateLimit: 10 });
      for (let i = 0; i < 6; i++) {
        expect((await call(app, "GET", "/flows", { key: org.key })).status).toBe(200);
        now += 5_000;
      }
      // Counted at t=0, 5, 10, 15, 20, 25 s; the limit becomes 3 at t=30 s. A request is free once
      // two are left in the window: when the fourth oldest (t=15 s) leaves, at t=75 s.
      await updateOrg(app.dossier, org.id, { rateLimit: 3 });
      now = start + 30_000;
      const limited = await call(app, "GET", "/flows", { key: org.key });
      expect(limited.status).toBe(429);
      expect(rateHeaders(limited)).toEqual(["3", "0", "45"]);
      expect(limited.headers.get("retry-after")).toBe("45");
      now = start + 74_999;
      const early = await call(app, "GET", "/flows", { key: org.key });
      expect(early.status).toBe(429);
      expect(early.headers.get("retry-after")).toBe("1");
      now = start + 75_000;
      const free = await call(app, "GET", "/flows", { key: org.key });
      expect(free.status).toBe(200);
      // Now counted: t=20, 25 and 75 s; the next room comes when t=20 s leaves, at t=80 s.
      expect(rateHeaders(free)).toEqual(["3", "0", "5"]);
    });
  });
});
