// The webhook endpoint's query module (src/db/webhooks.ts, src/db/pg/webhooks.ts) on the store
// under test: the same answers on both engines, one organization's endpoint never another's.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { ENGINES, twoOrgs } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts); PostgreSQL starts once

const T0 = "2026-01-01T00:00:00.000Z";
const T1 = "2026-01-02T00:00:00.000Z";

describe.each(ENGINES)("webhook endpoints on %s", (engine) => {
  test("an organization with no endpoint has none, no secret, nothing enabled", async () => {
    const s = await twoOrgs(engine);
    expect(await s.read(() => s.webhooks.endpoint("o1"))).toBeNull();
    expect(await s.webhooks.sealedSecret("o1")).toBeNull();
    expect(await s.webhooks.hasEnabled("o1")).toBe(false);
  });

  test("upsert sets the endpoint and its secret for that organization only; a second replaces the first", async () => {
    const s = await twoOrgs(engine);
    await s.write(() => s.webhooks.upsert({ organizationId: "o1", url: "https://a.example/hook", secret: "sealed-1", at: T0 }));
    expect(await s.webhooks.endpoint("o1")).toEqual({ url: "https://a.example/hook", disabled_at: null });
    expect(await s.webhooks.sealedSecret("o1")).toBe("sealed-1");
    expect(await s.read(() => s.webhooks.hasEnabled("o1"))).toBe(true);
    expect(await s.webhooks.endpoint("o2")).toBeNull();
    expect(await s.webhooks.hasEnabled("o2")).toBe(false);
    await s.write(async () => {
      await s.webhooks.rotate("o1", { secret: "sealed-2", previousSecret: "sealed-1", previousSecretExpiresAt: T1, at: T1 });
      await s.webhooks.upsert({ organizationId: "o1", url: "https://b.example/hook", secret: "sealed-3", at: T1 });
    });
    expect(await s.webhooks.endpoint("o1")).toEqual({ url: "https://b.example/hook", disabled_at: null });
    expect(await s.webhooks.sealedSecret("o1")).toBe("sealed-3");
  });

  test("rotate sets the new secret of that organization only; remove deletes that organization's endpoint only", async () => {
    const s = await twoOrgs(engine);
    await s.write(async () => {
      await s.webhooks.upsert({ organizationId: "o1", url: "https://a.example/hook", secret: "sealed-1", at: T0 });
      await s.webhooks.upsert({ organizationId: "o2", url: "https://two.example/hook", secret: "sealed-o2", at: T0 });
    });
    await s.write(() => s.webhooks.rotate("o1", { secret: "sealed-2", previousSecret: "sealed-1", previousSecretExpiresAt: T1, at: T1 }));
    expect(await s.webhooks.sealedSecret("o1")).toBe("sealed-2");
    expect(await s.webhooks.sealedSecret("o2")).toBe("sealed-o2");
    await s.write(() => s.webhooks.remove("o1"));
    expect(await s.webhooks.endpoint("o1")).toBeNull();
    expect(await s.webhooks.sealedSecret("o1")).toBeNull();
    expect(await s.webhooks.hasEnabled("o1")).toBe(false);
    expect(await s.webhooks.endpoint("o2")).toEqual({ url: "https://two.example/hook", disabled_at: null });
    expect(await s.webhooks.hasEnabled("o2")).toBe(true);
  });
});
