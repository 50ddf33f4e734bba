// The principal cache (src/db/principals.ts) against C10's rule: key, revocation, plan and
// rate-limit changes take effect on the next request, whoever makes them: the `dossier` CLI (another
// process), another connection in this process, or this app's own services. And C8: an expiring
// key answers 401 from its expiry time on, even when it was remembered just before.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { openContext } from "../../src/context";
import { createKey, hashKey, recallPrincipal, revokeKey } from "../../src/services/keys";
import { updateOrg } from "../../src/services/orgs";
import { dossier } from "../cli/helpers";
import { call, makeApp, makeOrg, tempDir } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const flows = (app: ReturnType<typeof makeApp>, key: string) => call(app, "GET", "/flows", { key });

/** A few requests, so that the key is surely remembered before the change under test. */
async function warm(app: ReturnType<typeof makeApp>, key: string) {
  for (let i = 0; i < 3; i++) expect((await flows(app, key)).status).toBe(200);
}

describe("changes by the dossier CLI (another process) on the same file", () => {
  const data = tempDir();
  const app = makeApp({ dataDir: data });

  test("key revoke → 401 on the next request", async () => {
    const org = await makeOrg(app);
    await warm(app, org.key);
    expect(dossier(data, "key", "revoke", org.keyId, "--json").code).toBe(0);
    expect((await flows(app, org.key)).status).toBe(401);
  });

  test("plan pro → 402, back to growth with a new rate limit → 200 with that limit", async () => {
    const org = await makeOrg(app);
    await warm(app, org.key);
    expect(dossier(data, "org", "update", org.id, "--plan", "pro", "--json").code).toBe(0);
    expect((await flows(app, org.key)).status).toBe(402);
    expect(dossier(data, "org", "update", org.id, "--plan", "growth", "--rate-limit", "42", "--json").code).toBe(0);
    const answer = await flows(app, org.key);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("x-ratelimit-limit")).toBe("42");
  });

  test("a rate limit lowered below what was used → 429 on the next request", async () => {
    const org = await makeOrg(app);
    await warm(app, org.key);
    expect(dossier(data, "org", "update", org.id, "--rate-limit", "2", "--json").code).toBe(0);
    expect((await flows(app, org.key)).status).toBe(429);
  });

  test("a key created by the CLI works at once", async () => {
    const org = await makeOrg(app);
    await warm(app, org.key);
    const created = dossier(data, "key", "create", "--org", org.id, "--scopes", "flows:read", "--json").json;
    expect((await flows(app, created.key)).status).toBe(200);
  });
});

describe("changes through another connection of this process (openContext on the same file)", () => {
  const data = tempDir();
  const app = makeApp({ dataDir: data });
  const other = openContext({ dataDir: data, config: { log: "off" } });

  test("revoke, plan and rate limit take effect on the next request", async () => {
    const org = await makeOrg(app);
    const second = await makeOrg(app);
    await warm(app, org.key);
    await warm(app, second.key);
    await revokeKey(other, org.keyId);
    expect((await flows(app, org.key)).status).toBe(401);
    await updateOrg(other, second.id, { plan: "free" });
    expect((await flows(app, second.key)).status).toBe(402);
    await updateOrg(other, second.id, { plan: "growth", rateLimit: 9 });
    expect((await flows(app, second.key)).headers.get("x-ratelimit-limit")).toBe("9");
    await other.store.close();
  });
});

describe("changes through this app's own services (same connection)", () => {
  const app = makeApp();

  test("a key created in-process works at once; revoking it → 401 on the next request", async () => {
    const org = await makeOrg(app);
    await warm(app, org.key);
    const extra = await createKey(app.dossier, { organizationId: org.id, scopes: ["flows:read"] });
    await warm(app, extra.key);
    await revokeKey(app.dossier, extra.id);
    expect((await flows(app, extra.key)).status).toBe(401);
    expect((await flows(app, org.key)).status).toBe(200);
  });

  test("plan and rate limit changes take effect on the next request", async () => {
    const org = await makeOrg(app);
    await warm(app, org.key);
    await updateOrg(app.dossier, org.id, { plan: "pro" });
    expect((await flows(app, org.key)).status).toBe(402);
    await updateOrg(app.dossier, org.id, { plan: "growth", rateLimit: 11 });
    expect((await flows(app, org.key)).headers.get("x-ratelimit-limit")).toBe("11");
  });
});

describe("expiry and last_used_at with a controlled clock", () => {
  let now = Date.parse("2026-11-22T10:00:00.000Z");
  const app = makeApp({ now: () => new Date(now) });

  test("a remembered key answers 401 from its expiry time on", async () => {
    const org = await makeOrg(app);
    const expiresAt = now + 30_000;
    const key = await createKey(app.dossier, { organizationId: org.id, scopes: ["flows:read"], expiresAt: new Date(expiresAt).toISOString() });
    await warm(app, key.key);
    now = expiresAt - 1;
    expect((await flows(app, key.key)).status).toBe(200);
    now = expiresAt;
    expect((await flows(app, key.key)).status).toBe(401);
    now = expiresAt + 1;
    expect((await flows(app, key.key)).status).toBe(401);
    expect((await flows(app, org.key)).status).toBe(200);
  });

  test("last_used_at is recorded, then refreshed at most once a minute", async () => {
    const org = await makeOrg(app);
    // The request does not wait for this write: it joins the store's next group (C11).
    const lastUsed = async () => {
      await app.dossier.store.idle();
      return app.dossier.store.sqlite.query<{ last_used_at: string | null }, [string]>("SELECT last_used_at FROM api_keys WHERE id = ?").get(org.keyId)!
        .last_used_at;
    };
    const start = now;
    expect((await flows(app, org.key)).status).toBe(200);
    expect(await lastUsed()).toBe(new Date(start).toISOString());
    now = start + 59_000;
    expect((await flows(app, org.key)).status).toBe(200);
    expect(await lastUsed()).toBe(new Date(start).toISOString());
    now = start + 60_000;
    expect((await flows(app, org.key)).status).toBe(200);
    expect(await lastUsed()).toBe(new Date(start + 60_000).toISOString());
  });
});

describe("what a remembered principal outlives (src/db/generations.ts)", () => {
  const data = tempDir();
  const app = makeApp({ dataDir: data });
  const remembered = async (key: string) => (await recallPrincipal(app.dossier, hashKey(key))) !== undefined;

  test("another organization's key and plan changes, and its own last_used_at, keep it; its own organization's change drops it", async () => {
    const org = await makeOrg(app);
    const neighbour = await makeOrg(app);
    await warm(app, org.key);
    await app.dossier.store.idle();
    expect((await remembered(org.key))).toBe(true);
    expect(dossier(data, "key", "revoke", neighbour.keyId, "--json").code).toBe(0);
    await updateOrg(app.dossier, neighbour.id, { plan: "pro" });
    expect((await remembered(org.key))).toBe(true);
    await updateOrg(app.dossier, org.id, { name: "Renamed" });
    expect((await remembered(org.key))).toBe(false);
  });
});
