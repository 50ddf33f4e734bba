// API keys' and their principals' query modules (src/db/keys.ts, src/db/principals.ts and their
// PostgreSQL twins in src/db/pg/) on the store under test: the same answers on both engines.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { KeyRow } from "../../src/db/keys";
import { ENGINES, twoOrgs } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts); PostgreSQL starts once

const T0 = "2026-01-01T00:00:00.000Z";

const key = (id: string, organizationId: string, changes: Partial<KeyRow> = {}): KeyRow => ({
  id,
  organization_id: organizationId,
  name: null,
  prefix: `svc_live_${id}`.slice(0, 12),
  key_hash: `hash-${id}`,
  scopes: "dossiers:read,contacts:read",
  expires_at: null,
  revoked_at: null,
  last_used_at: null,
  created_at: T0,
  ...changes,
});

describe.each(ENGINES)("API keys on %s", (engine) => {
  test("keys are listed per organization, oldest first then by id; found by id, and by id only in their organization", async () => {
    const s = await twoOrgs(engine);
    await s.write(async () => {
      await s.keys.insert(key("k2", "o1", { created_at: "2026-01-02T00:00:00.000Z", name: "second" }));
      await s.keys.insert(key("k3", "o1"));
      await s.keys.insert(key("k1", "o1"));
      await s.keys.insert(key("k9", "o2"));
    });
    expect((await s.keys.ofOrganization("o1")).map((k) => k.id)).toEqual(["k1", "k3", "k2"]);
    expect(await s.keys.byId("k2")).toEqual(key("k2", "o1", { created_at: "2026-01-02T00:00:00.000Z", name: "second" }));
    expect(await s.keys.byIdInOrganization("o1", "k2")).not.toBeNull();
    expect(await s.keys.byIdInOrganization("o2", "k2")).toBeNull();
    expect(await s.keys.byId("nope")).toBeNull();
  });

  test("revoke keeps the first revocation time; setLastUsed records the last use", async () => {
    const s = await twoOrgs(engine);
    await s.write(() => s.keys.insert(key("k1", "o1")));
    await s.write(() => s.keys.revoke("k1", "2026-02-01T00:00:00.000Z"));
    await s.write(() => s.keys.revoke("k1", "2026-03-01T00:00:00.000Z"));
    await s.write(() => s.keys.setLastUsed("k1", "2026-02-02T00:00:00.000Z"));
    const row = await s.keys.byId("k1");
    expect(row?.revoked_at).toBe("2026-02-01T00:00:00.000Z");
    expect(row?.last_used_at).toBe("2026-02-02T00:00:00.000Z");
  });

  test("a key's principal carries its organization's plan and rate limit, its scopes and its expiry; a revoked or unknown key has none", async () => {
    const s = await twoOrgs(engine);
    await s.write(async () => {
      await s.keys.insert(key("k1", "o1", { expires_at: "2027-01-01T00:00:00.000Z" }));
      await s.keys.insert(key("k2", "o2"));
      await s.keys.insert(key("k3", "o1", { revoked_at: T0 }));
    });
    for (const remember of [false, true]) {
      const one = await s.read(() => s.principals.byKeyHash("hash-k1", remember));
      expect(one).toEqual({
        principal: { keyId: "k1", organizationId: "o1", plan: "growth", rateLimit: 120, scopes: new Set(["dossiers:read", "contacts:read"]) },
        expiresAt: Date.parse("2027-01-01T00:00:00.000Z"),
      });
      const two = await s.principals.byKeyHash("hash-k2", remember);
      expect(two?.principal.plan).toBe("free");
      expect(two?.expiresAt).toBe(Infinity);
      expect(await s.principals.byKeyHash("hash-k3", remember)).toBeNull();
      expect(await s.principals.byKeyHash("hash-unknown", remember)).toBeNull();
    }
  });

  test("an organization's new plan and a key's revocation show on the next read of its principal", async () => {
    const s = await twoOrgs(engine);
    await s.write(() => s.keys.insert(key("k1", "o1")));
    expect((await s.principals.byKeyHash("hash-k1", true))?.principal.plan).toBe("growth");
    await s.write(() => s.orgs.update("o1", { plan: "pro" }));
    expect((await s.principals.byKeyHash("hash-k1", true))?.principal.plan).toBe("pro");
    await s.write(() => s.keys.revoke("k1", T0));
    expect(await s.principals.byKeyHash("hash-k1", true)).toBeNull();
  });

  test("an installation without webhook endpoints holds no sealed secret", async () => {
    const s = await twoOrgs(engine);
    expect(await s.sealedSecrets.any()).toBe(false);
  });
});
