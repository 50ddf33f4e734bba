// Idempotency keys' query module (src/db/idempotency.ts, src/db/pg/idempotency.ts) on the store under
// test: the same answers on both engines, one organization's (or principal's) keys never another's.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { RememberedAnswer } from "../../src/db/idempotency";
import { ENGINES, twoOrgs } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts); PostgreSQL starts once

const T0 = "2026-01-01T00:00:00.000Z";
const T1 = "2026-01-02T00:00:00.000Z";
const T2 = "2026-01-03T00:00:00.000Z";

const answer = (organizationId: string, principalId: string, key: string, changes: Partial<RememberedAnswer> = {}): RememberedAnswer => ({
  organization_id: organizationId,
  principal_id: principalId,
  key,
  method: "POST",
  path: "/api/v1/dossiers",
  body_hash: "h1",
  status: 201,
  content_type: "application/json",
  location: "/api/v1/dossiers/d1",
  body: '{"id":"d1"}',
  created_at: T1,
  ...changes,
});
const stored = ({ organization_id: _o, principal_id: _p, key: _k, created_at: _c, ...rest }: RememberedAnswer) => rest;

describe.each(ENGINES)("idempotency keys on %s", (engine) => {
  test("find: the principal's key in its organization, stored at or after `since`; nulls as null", async () => {
    const s = await twoOrgs(engine);
    const a = answer("o1", "k1", "abc");
    const b = answer("o1", "k1", "def", { status: 422, content_type: null, location: null, body: "" });
    await s.write(async () => {
      await s.idempotency.remember(a);
      await s.idempotency.remember(b);
      await s.idempotency.remember(answer("o2", "k9", "abc", { body: "other" }));
    });
    expect(await s.read(() => s.idempotency.find("o1", "k1", "abc", T0))).toEqual(stored(a));
    expect(JSON.stringify(await s.idempotency.find("o1", "k1", "abc", T1))).toBe(JSON.stringify(stored(a)));
    expect(await s.idempotency.find("o1", "k1", "abc", T2)).toBeNull();
    expect(await s.idempotency.find("o1", "k1", "def", T0)).toEqual(stored(b));
    expect(await s.idempotency.find("o1", "k2", "abc", T0)).toBeNull();
    expect(await s.idempotency.find("o2", "k1", "abc", T0)).toBeNull();
    expect((await s.idempotency.find("o2", "k9", "abc", T0))?.body).toBe("other");
  });

  test("remember replaces the key's answer, all of it", async () => {
    const s = await twoOrgs(engine);
    await s.write(() => s.idempotency.remember(answer("o1", "k1", "abc")));
    const again = answer("o1", "k1", "abc", { method: "PATCH", path: "/x", body_hash: "h2", status: 200, content_type: null, location: null, body: "{}", created_at: T2 });
    await s.write(() => s.idempotency.remember(again));
    expect(await s.idempotency.find("o1", "k1", "abc", T2)).toEqual(stored(again));
  });

  test("sweep removes the keys of every organization stored before the time given and counts them", async () => {
    const s = await twoOrgs(engine);
    await s.write(async () => {
      await s.idempotency.remember(answer("o1", "k1", "old", { created_at: T0 }));
      await s.idempotency.remember(answer("o2", "k9", "old", { created_at: T0 }));
      await s.idempotency.remember(answer("o1", "k1", "new", { created_at: T1 }));
    });
    expect(await s.write(() => s.idempotency.sweep(T1))).toBe(2);
    expect(await s.write(() => s.idempotency.sweep(T1))).toBe(0);
    expect(await s.idempotency.find("o1", "k1", "old", T0)).toBeNull();
    expect(await s.idempotency.find("o2", "k9", "old", T0)).toBeNull();
    expect(await s.idempotency.find("o1", "k1", "new", T0)).not.toBeNull();
  });
});
