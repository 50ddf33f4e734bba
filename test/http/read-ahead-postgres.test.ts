// GET /dossiers/{id} on PostgreSQL: the request's bookkeeping statement reads the dossier too (its
// read ahead, src/db/pg/counters.ts, drizzle-pg/0011), so that the GET is one statement. The answer
// must be the one a read of the row gives, byte for byte, ETag included (C16); the read is the
// admitted organization's only (C2); a request that 402 or 429 refuse reads nothing (C3); the
// member's session takes the same way. A dossier the node holds under the generation the statement
// reads is left out of it and answered from the node (drizzle-pg/0016).
import { SQL } from "bun";
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { dossierRecords } from "../../src/db/pg/answer-cache";
import { pgCounters } from "../../src/db/pg/counters";
import type { ReadAheadDone } from "../../src/db/store";
import { hashKey } from "../../src/services/keys";
import { call, makeKey, makeOrg, onCleanup } from "../helpers";
import { signedInMember } from "../helpers/scenario";
import { appOn, queryRows } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

describe("GET /dossiers/{id} read with the request's admission (PostgreSQL)", async () => {
  const app = await appOn("postgres");
  const org = await makeOrg(app);
  const other = await makeOrg(app);
  const made = await call(app, "POST", "/dossiers", {
    key: org.key,
    body: { type: "sales", name: "Nordwind deal", company: "Nordwind", deal_size: 1234.56, deal_currency: "EUR", metadata: { region: "north", tier: "2" } },
  });
  const id: string = made.json.data.id;
  const now = () => Date.now();

  test("the answer and its ETag are those of the dossier read alone, byte for byte", async () => {
    const got = await call(app, "GET", `/dossiers/${id}`, { key: org.key });
    expect(got.status).toBe(200);
    // A PATCH that changes nothing answers the dossier read inside its unit (byId), not ahead.
    const unchanged = await call(app, "PATCH", `/dossiers/${id}`, { key: org.key, body: {} });
    expect(unchanged.status).toBe(200);
    expect(got.text).toBe(unchanged.text);
    expect(got.headers.get("etag")).toBe(unchanged.headers.get("etag"));
    expect(got.text).toBe(JSON.stringify({ data: await app.dossier.store.dossiers.byId(org.id, id) }));
    const again = await call(app, "GET", `/dossiers/${id}`, { key: org.key, headers: { "if-none-match": got.headers.get("etag")! } });
    expect(again.status).toBe(304);
  });

  test("a change is in the next read, whichever the path", async () => {
    expect((await call(app, "PATCH", `/dossiers/${id}`, { key: org.key, body: { name: "Nordwind deal, signed" } })).status).toBe(200);
    expect((await call(app, "GET", `/dossiers/${id}`, { key: org.key })).json.data.name).toBe("Nordwind deal, signed");
    expect((await call(app, "GET", `/dossiers/${id.toUpperCase()}`, { key: org.key })).json.data.id).toBe(id);
  });

  test("another organization's key reads nothing of it: 404", async () => {
    const got = await call(app, "GET", `/dossiers/${id}`, { key: other.key });
    expect(got.status).toBe(404);
    expect(got.json.error.code).toBe("not_found");
  });

  test("a key without dossiers:read: 403, nothing of the dossier in the answer", async () => {
    const narrow = await makeKey(app, org, ["flows:read"]);
    const got = await call(app, "GET", `/dossiers/${id}`, { key: narrow });
    expect(got.status).toBe(403);
    expect(got.text).not.toContain("Nordwind");
  });

  test("a member signed in reads it the same way", async () => {
    const member = await signedInMember(app, org.id, "member");
    const got = await call(app, "GET", `/dossiers/${id}`, { headers: member.headers });
    expect(got.status).toBe(200);
    expect(got.text).toBe(JSON.stringify({ data: await app.dossier.store.dossiers.byId(org.id, id) }));
  });

  test("the admission gives the dossier to a counted request of a Growth organization", async () => {
    const admitted = await app.dossier.store.counters!.admitKey(hashKey(org.key), now(), { dossierId: id });
    expect(admitted?.read).toEqual({ organizationId: org.id, dossierId: id, dossier: await app.dossier.store.dossiers.byId(org.id, id) });
    const missing = await app.dossier.store.counters!.admitKey(hashKey(org.key), now(), { dossierId: crypto.randomUUID() });
    expect(missing?.read?.dossier).toBeNull();
    expect((await app.dossier.store.counters!.admitKey(hashKey(org.key), now()))?.read).toBeUndefined();
  });

  test("drizzle-pg/0016: told the generation the node holds the dossier under, the statement leaves it out when it reads that one", async () => {
    const [{ generation }] = await queryRows<{ generation: number }>(app, "SELECT generation::float8 AS generation FROM generations WHERE organization_id = ? AND table_name = 'dossiers'", org.id);
    const read = (known: number | null) =>
      queryRows<{ dossier: { id: string } | null; dossier_known: boolean }>(
        app,
        "SELECT dossier, dossier_known FROM dossier_read_keys_known(?, ARRAY[?]::text[], ARRAY[?]::text[], ARRAY[?]::float8[], ?)",
        org.id,
        hashKey(org.key),
        id,
        known,
        new Date().toISOString(),
      );
    expect(await read(generation)).toEqual([{ dossier: null, dossier_known: true }]);
    for (const known of [generation - 1, null]) {
      const [row] = await read(known);
      expect({ id: row.dossier?.id, known: row.dossier_known }).toEqual({ id, known: false });
    }
    // The counting statement alike.
    const admitted = await queryRows<{ dossier: unknown; dossier_known: boolean }>(
      app,
      "SELECT dossier, dossier_known FROM dossier_admit_keys_known(?, ARRAY[?]::text[], ARRAY[?]::text[], ARRAY[?]::float8[], ?, 0::bigint, 0::bigint, ?::bigint)",
      org.id,
      hashKey(org.key),
      id,
      generation,
      new Date().toISOString(),
      now(),
    );
    expect(admitted).toEqual([{ dossier: null, dossier_known: true }]);
  });

  test("a dossier held under the generation read is answered from the node: the same bytes and ETag; a change is read again", async () => {
    const mine = (await call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "Held once" } })).json.data.id as string;
    const first = await call(app, "GET", `/dossiers/${mine}`, { key: org.key });
    const again = await call(app, "GET", `/dossiers/${mine}`, { key: org.key });
    expect({ status: again.status, text: again.text, etag: again.headers.get("etag") }).toEqual({ status: 200, text: first.text, etag: first.headers.get("etag") });
    // The node's record (frozen: src/db/pg/answer-cache.ts), not a copy parsed from the statement.
    const held = await app.dossier.store.counters!.admitKey(hashKey(org.key), now(), { dossierId: mine });
    expect(Object.isFrozen(held?.read?.dossier)).toBe(true);
    expect((await call(app, "PATCH", `/dossiers/${mine}`, { key: org.key, body: { name: "Held twice" } })).status).toBe(200);
    const fresh = await app.dossier.store.counters!.admitKey(hashKey(org.key), now(), { dossierId: mine });
    expect({ frozen: Object.isFrozen(fresh?.read?.dossier), name: fresh?.read?.dossier?.name }).toEqual({ frozen: false, name: "Held twice" });
    expect((await call(app, "GET", `/dossiers/${mine}`, { key: org.key })).json.data.name).toBe("Held twice");
  });

  test("a record left out of the statement but gone from the node by its answer: nothing is read ahead (the request reads it as any other)", async () => {
    const sql = new SQL(app.dossier.config.databaseUrl!, { max: 1 });
    onCleanup(() => sql.close());
    const held = dossierRecords((load) => load());
    const counters = pgCounters(sql, held);
    const hash = hashKey(org.key);
    const first = (await counters.admitKey(hash, now(), { dossierId: id }))!; // the node learns the key's organization
    const record = first.read!.dossier!;
    const planted = { ...record, name: "As the node holds it" };
    held.remember(first.generations, org.id, id, planted, (value) => value);
    expect((await counters.admitKey(hash, now(), { dossierId: id }))?.read).toEqual<ReadAheadDone>({ organizationId: org.id, dossierId: id, dossier: planted });
    // Asked under the generation held; held under another one before the statement answers.
    const asked = counters.admitKey(hash, now(), { dossierId: id });
    held.remember({ ...first.generations!, dossiers: first.generations!.dossiers + 1 }, org.id, id, record, (value) => value);
    const admitted = await asked;
    expect({ counted: admitted?.rate.allowed, read: admitted?.read }).toEqual({ counted: true, read: undefined });
  });

  test("a request that 402 refuses reads nothing ahead", async () => {
    const free = await makeOrg(app, { plan: "free" });
    const admitted = await app.dossier.store.counters!.admitKey(hashKey(free.key), now(), { dossierId: id });
    expect(admitted?.rate.limit).toBeGreaterThan(0);
    expect(admitted?.read).toBeUndefined();
    // The statement itself reads no row for it, even one of its own organization's ids.
    const rows = await queryRows<{ dossier: unknown }>(
      app,
      "SELECT dossier FROM dossier_admit_keys_reading(NULL, ARRAY[?]::text[], ARRAY[?]::text[], ?, ?::bigint)",
      hashKey(free.key),
      id,
      new Date().toISOString(),
      now(),
    );
    expect(rows).toEqual([{ dossier: null }]);
    expect((await call(app, "GET", `/dossiers/${id}`, { key: free.key })).status).toBe(402);
  });

  test("a request that 429 refuses reads nothing ahead; the one before it did", async () => {
    const limited = await makeOrg(app, { rateLimit: 1 });
    const mine = await call(app, "POST", "/dossiers", { key: limited.key, body: { type: "candidate", name: "Once" } });
    expect(mine.status).toBe(201);
    const refused = await app.dossier.store.counters!.admitKey(hashKey(limited.key), now(), { dossierId: mine.json.data.id });
    expect(refused?.rate.allowed).toBe(false);
    expect(refused?.read).toBeUndefined();
    const got = await call(app, "GET", `/dossiers/${mine.json.data.id}`, { key: limited.key });
    expect(got.status).toBe(429);
    expect(got.text).not.toContain("Once");
  });
});
