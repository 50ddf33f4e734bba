// rememberedOf (src/db/principals.ts): the principal a key's row gives. Its scopes come as one set
// per list, shared by every key and request that has that list (made on each request, the set
// cost about 2 µs of it on PostgreSQL, which reads the key every time).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { rememberedOf, type KeyHolder } from "../../src/db/principals";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const row = (id: string, scopes: string, more: Partial<KeyHolder> = {}): KeyHolder => ({
  id,
  organization_id: "org",
  scopes,
  expires_at: null,
  revoked_at: null,
  plan: "growth",
  rate_limit: 600,
  ...more,
});

describe("rememberedOf", () => {
  test("the scopes of a list, as a set; two keys with one list share it, another list has its own", () => {
    const first = rememberedOf(row("k1", "dossiers:read,flows:read"))!.principal.scopes;
    expect([...first].sort()).toEqual(["dossiers:read", "flows:read"]);
    expect(rememberedOf(row("k2", "dossiers:read,flows:read"))!.principal.scopes).toBe(first);
    const other = rememberedOf(row("k3", "dossiers:read"))!.principal.scopes;
    expect([...other]).toEqual(["dossiers:read"]);
    expect(other.has("flows:read")).toBe(false);
  });

  test("a revoked key gives none; an expiry is its time in ms", () => {
    expect(rememberedOf(row("k4", "dossiers:read", { revoked_at: "2026-11-30T00:00:00.000Z" }))).toBeUndefined();
    expect(rememberedOf(row("k5", "dossiers:read", { expires_at: "2026-12-01T00:00:00.000Z" }))!.expiresAt).toBe(Date.parse("2026-12-01T00:00:00.000Z"));
    expect(rememberedOf(null)).toBeUndefined();
  });
});
