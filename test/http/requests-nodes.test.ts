// Several nodes on one PostgreSQL database (C19, issue 35): each app below is a node (its own
// context, store, pool and caches) on ONE database, in this test process. What one node commits is
// seen at once by the others, their caches included (C11, C19); rate limits, sign-in throttles and
// intake limits count across them (C8, C12, C15, C20: an organization limited to N gets at most
// N + nodes in a window). The real-process version of these (3 `dossier serve` behind round-robin)
// is the multi-node suite's; these fail on the mechanism alone: a cache kept without the
// generations its request's statement read, or a count kept in one node's memory.
import { SQL } from "bun";
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { openApp, type DossierApp } from "../../src/app";
import type { Store } from "../../src/db/store";
import { intakeAddress } from "../../src/services/intake";
import { call, makeOrg, tempDir } from "../helpers";
import { onCleanup } from "../helpers/cleanup";
import { compose } from "../intake/compose";
import { signedInMember } from "../helpers/scenario";
import { migratedDatabase } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

/** `count` nodes on one fresh database, sharing one data folder (the master key, as C19 gives it to
 * every node), caches on, each with the clock `now`. */
async function nodes(count: number, options: { url?: string; now?: () => Date; env?: Record<string, string>; intakeRateLimit?: number } = {}): Promise<DossierApp<Store>[]> {
  const url = options.url ?? (await migratedDatabase());
  const dataDir = tempDir();
  const apps: DossierApp<Store>[] = [];
  for (let i = 0; i < count; i++) {
    const app = await openApp({
      dataDir,
      webhooks: false,
      now: options.now,
      env: { DOSSIER_DATABASE_URL: url, DOSSIER_DATABASE_POOL: "3", DOSSIER_CACHE: "on", ...options.env },
      config: { log: "off", ...(options.intakeRateLimit ? { intakeRateLimit: options.intakeRateLimit } : {}) },
    });
    onCleanup(() => app.close());
    apps.push(app);
  }
  return apps;
}

describe("C11, C19: a write on one node is seen at once on the others, caches included", async () => {
  const [a, b] = await nodes(2);
  const org = await makeOrg(a);

  test("a dossier by id: remembered on B, changed on A, B answers the change", async () => {
    const made = await call(a, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "Ada" } });
    expect(made.status).toBe(201);
    const path = `/dossiers/${made.json.data.id}`;
    for (let i = 0; i < 2; i++) expect((await call(b, "GET", path, { key: org.key })).json.data.name).toBe("Ada");
    expect((await call(a, "PATCH", path, { key: org.key, body: { name: "Ada Lovelace" } })).status).toBe(200);
    const seen = await call(b, "GET", path, { key: org.key });
    expect(seen.json.data.name).toBe("Ada Lovelace");
    expect(seen.headers.get("etag")).toBe((await call(a, "GET", path, { key: org.key })).headers.get("etag"));
  });

  test("GET /dossiers: remembered on B, a dossier made on A is in B's next answer", async () => {
    const before = await call(b, "GET", "/dossiers", { key: org.key });
    expect((await call(b, "GET", "/dossiers", { key: org.key })).text).toBe(before.text);
    const made = await call(a, "POST", "/dossiers", { key: org.key, body: { type: "sales", name: "Grace" } });
    const after = await call(b, "GET", "/dossiers", { key: org.key });
    expect(after.json.meta.total).toBe(before.json.meta.total + 1);
    expect(after.json.data[0].id).toBe(made.json.data.id);
  });

  test("a contact by id: remembered on B, changed on A, B answers the change", async () => {
    const made = await call(a, "POST", "/contacts", { key: org.key, body: { full_name: "Edsger" } });
    const path = `/contacts/${made.json.data.id}`;
    for (let i = 0; i < 2; i++) expect((await call(b, "GET", path, { key: org.key })).json.data.full_name).toBe("Edsger");
    expect((await call(a, "PATCH", path, { key: org.key, body: { full_name: "Edsger Dijkstra" } })).status).toBe(200);
    expect((await call(b, "GET", path, { key: org.key })).json.data.full_name).toBe("Edsger Dijkstra");
  });

  test("C10: a key revoked on A is refused on B at once", async () => {
    const other = await makeOrg(a);
    const made = await call(a, "POST", "/keys", { key: other.key, body: { scopes: ["flows:read"] } });
    expect(made.status).toBe(201);
    for (let i = 0; i < 2; i++) expect((await call(b, "GET", "/flows", { key: made.json.data.key })).status).toBe(200);
    expect((await call(a, "DELETE", `/keys/${made.json.data.id}`, { key: other.key })).status).toBe(200);
    expect((await call(b, "GET", "/flows", { key: made.json.data.key })).status).toBe(401);
  });

  test("C20: a member's role changed on A holds on B's next request of the member's session", async () => {
    const member = await signedInMember(a, org.id, "member");
    const create = () => call(b, "POST", "/dossiers", { headers: { ...member.headers, "content-type": "application/json" }, raw: JSON.stringify({ type: "candidate", name: "By a member" }) });
    expect((await create()).status).toBe(201);
    expect((await call(b, "GET", "/dossiers", { headers: member.headers })).status).toBe(200);
    expect((await call(a, "PATCH", `/members/${member.id}`, { key: org.key, body: { role: "viewer" } })).status).toBe(200);
    expect((await create()).status).toBe(403);
    expect((await call(b, "GET", "/dossiers", { headers: member.headers })).status).toBe(200);
  });
});

describe("C8, C19: rate limits count across nodes", async () => {
  let now = Date.parse("2026-11-29T10:00:00.000Z");
  const three = await nodes(3, { now: () => new Date(now) });

  test("60 requests at once spread over 3 nodes, a limit of 10: at most 10 + 3 accepted", async () => {
    const org = await makeOrg(three[0], { rateLimit: 10 });
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => call(three[i % 3], "GET", "/flows", { key: org.key })));
    const accepted = answers.filter((answer) => answer.status === 200).length;
    expect(answers.every((answer) => answer.status === 200 || answer.status === 429)).toBe(true);
    expect(accepted).toBeGreaterThanOrEqual(10);
    expect(accepted).toBeLessThanOrEqual(10 + 3);
  });

  test("the same once each node knows the key (requests that wait for their organization's statement go together in the next)", async () => {
    const org = await makeOrg(three[0], { rateLimit: 13 });
    for (const node of three) expect((await call(node, "GET", "/flows", { key: org.key })).status).toBe(200);
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => call(three[i % 3], "GET", "/flows", { key: org.key })));
    const accepted = answers.filter((answer) => answer.status === 200);
    expect(answers.every((answer) => answer.status === 200 || answer.status === 429)).toBe(true);
    expect(accepted.length).toBeGreaterThanOrEqual(10);
    expect(accepted.length).toBeLessThanOrEqual(10 + 3);
    // Each accepted answer says what was left after it: no two the same on one window.
    const left = accepted.map((answer) => Number(answer.headers.get("x-ratelimit-remaining"))).sort((x, y) => x - y);
    expect(new Set(left).size).toBe(left.length);
  });

  test("C10: one window over the nodes, with the headers of one: remaining counts down, Reset names the oldest, the window slides", async () => {
    const org = await makeOrg(three[0], { rateLimit: 3 });
    const start = now;
    const seen: (string | null)[][] = [];
    for (let i = 0; i < 4; i++) {
      const answer = await call(three[i % 3], "GET", "/flows", { key: org.key });
      seen.push([String(answer.status), answer.headers.get("x-ratelimit-remaining"), answer.headers.get("x-ratelimit-reset")]);
      now += 10_000;
    }
    // Counted at t=0, 10 and 20 s on three nodes; the fourth (t=30 s) waits for t=0 to leave.
    expect(seen).toEqual([["200", "2", "60"], ["200", "1", "50"], ["200", "0", "40"], ["429", "0", "30"]]);
    now = start + 60_000;
    const free = await call(three[1], "GET", "/flows", { key: org.key });
    expect([free.status, free.headers.get("x-ratelimit-remaining"), free.headers.get("x-ratelimit-reset")]).toEqual([200, "0", "10"]);
  });
});

describe("C8, C19: a busy organization's node gives places of the window it reserved (drizzle-pg/0015)", async () => {
  let now = Date.parse("2026-11-29T12:00:00.000Z");
  const url = await migratedDatabase();
  const [a, b, c] = await nodes(3, { url, now: () => new Date(now) });
  const sql = new SQL(url, { max: 1 });
  onCleanup(() => sql.close());
  const remaining = (answer: { headers: Headers }) => Number(answer.headers.get("x-ratelimit-remaining"));

  const principals: [string, (org: { id: string; key: string }) => Promise<{ key?: string; headers?: Record<string, string> }>][] = [
    ["an API key", async (org) => ({ key: org.key })],
    ["a member's session", async (org) => ({ headers: (await signedInMember(a, org.id, "member")).headers })],
  ];
  for (const [principal, credentials] of principals) {
    test(`requests of ${principal} given reserved places are answered while another transaction holds the organization's counter row`, async () => {
      const org = await makeOrg(a, { rateLimit: 1000 });
      const as = await credentials(org);
      const get = () => call(a, "GET", "/flows", as);
      expect(remaining(await get())).toBe(999); // A learns the principal's organization
      // One of these two comes while the other's statement is out: its count reserves the first ask,
      // 8 places, after its own (one hit of 9 places); whichever commits first has place 2.
      const two = await Promise.all([get(), get()]);
      const hits = [...(await sql`SELECT cum::float8 AS cum, n FROM rate_hits WHERE subject = ${org.id} AND cum > 1 ORDER BY cum`)];
      expect(hits.map((hit) => hit.n).sort()).toEqual([1, 9]);
      const reserving = hits.find((hit) => hit.n === 9);
      const ownPlaces = hits.map((hit) => hit.cum - hit.n + 1);
      expect(two.map(remaining).sort()).toEqual(ownPlaces.map((place) => 1000 - place).sort());
      const [counter] = await sql`SELECT cum::float8 AS cum FROM rate_counters WHERE subject = ${org.id}`;
      expect(counter.cum).toBe(3 + 8);

      let release = () => {};
      let locked = () => {};
      const held = new Promise<void>((resolve) => (locked = resolve));
      const holding = sql.begin(async (tx) => {
        await tx`SELECT cum FROM rate_counters WHERE subject = ${org.id} FOR UPDATE`;
        locked();
        await new Promise<void>((resolve) => (release = resolve));
      });
      await held;
      // A count would wait for the lock; these take A's places and only read.
      const given = [];
      for (let i = 0; i < 3; i++) given.push(await get());
      const reserved = reserving.cum - 7; // the first of the 8
      expect(given.map((answer) => [answer.status, remaining(answer)])).toEqual([0, 1, 2].map((i) => [200, 1000 - (reserved + i)]));
      release();
      await holding;

      // Past their span (500 ms) the places left lapse, still counted: the next request's own count is the 12th place.
      now += 501;
      expect(remaining(await get())).toBe(1000 - 12);
    });
  }

  test("300 requests at once over 3 busy nodes, a limit of 100: at most 100 accepted, each with its own place", async () => {
    const org = await makeOrg(a, { rateLimit: 100 });
    for (const node of [a, b, c]) expect((await call(node, "GET", "/flows", { key: org.key })).status).toBe(200);
    const answers = await Promise.all(Array.from({ length: 300 }, (_, i) => call([a, b, c][i % 3], "GET", "/flows", { key: org.key })));
    expect(answers.every((answer) => answer.status === 200 || answer.status === 429)).toBe(true);
    const accepted = answers.filter((answer) => answer.status === 200);
    expect(accepted.length + 3).toBeLessThanOrEqual(100);
    const left = accepted.map(remaining);
    expect(new Set(left).size).toBe(left.length);
    const [counter] = await sql`SELECT cum::float8 AS cum FROM rate_counters WHERE subject = ${org.id}`;
    expect(counter.cum).toBeLessThanOrEqual(100);
  });
});

describe("C12, C19, C20: the sign-in throttle counts across nodes", async () => {
  const three = await nodes(3, { env: { DOSSIER_TRUST_PROXY: "1" } });
  const org = await makeOrg(three[0]);

  test("5 failures for one email from one address, each on a node of the three: the next attempt is 429 on every node", async () => {
    const member = await signedInMember(three[0], org.id, "member");
    const signIn = (node: DossierApp<Store>, password: string) =>
      call(node, "POST", "/session", { body: { email: member.email, password }, headers: { "x-forwarded-for": "192.0.2.44" } });
    for (let i = 0; i < 5; i++) expect((await signIn(three[i % 3], "a wrong password")).status).toBe(401);
    for (const node of three) {
      const tripped = await signIn(node, "a long enough password");
      expect(tripped.status).toBe(429);
      expect(Number(tripped.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    }
  });
});

describe("C15, C19, C20: an intake token's limit counts across nodes", async () => {
  const three = await nodes(3, { intakeRateLimit: 2 });
  const org = await makeOrg(three[0]);

  test("a limit of 2 a minute: the third message, on a third node, is 429", async () => {
    const flows = await call(three[0], "GET", "/flows", { key: org.key });
    const address = (await intakeAddress(three[0].dossier, org.id, flows.json.data[0].id))!.address;
    const token = address.slice(0, address.indexOf("@"));
    const send = async (node: DossierApp<Store>, i: number) =>
      call(node, "POST", `/api/v1/intake/${token}`, { raw: await compose({ from: "x@example.com", text: `m${i}`, messageId: `<nodes-${i}@example.com>` }), contentType: "message/rfc822" });
    expect((await send(three[0], 0)).status).toBe(201);
    expect((await send(three[1], 1)).status).toBe(201);
    const over = await send(three[2], 2);
    expect(over.status).toBe(429);
    expect(over.json.error.code).toBe("rate_limited");
  });
});
