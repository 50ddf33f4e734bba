// C17: `GET /dossiers` and `GET /contacts` accept `updated_since=<ISO timestamp>`: only rows whose
// updated_at is at or after it; C20 "A bad updated_since": 400 invalid_body. The answers stay right
// across the lists' caches (a row that changes joins the filtered list at once) and their paths
// (first and deep pages, counts, search, kinds, pool).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { call, makeOrg } from "../helpers";
import { ENGINES, appOn, type Engine } from "../helpers/stores";
import { refused, scenarios } from "../helpers/scenario";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const bad = ["yesterday", "2026-13-01T00:00:00Z", "2026-02-30", "2026-11-22T04:21:26", "1700000000", "2026-11-22T25:00:00Z", ""];

for (const list of ["dossiers", "contacts"] as const) {
  scenarios(`GET /${list}?updated_since: C17, C20 rules`, () => ({}), [
    ...bad.map((value) => ({
      name: `C20 A bad updated_since: ${JSON.stringify(value)} → 400 invalid_body naming updated_since`,
      method: "GET" as const, path: `/${list}?updated_since=${encodeURIComponent(value)}`, status: 400, json: refused("invalid_body", "updated_since"),
    })),
    {
      name: "C17: an ISO timestamp in the future gives an empty page with total 0",
      method: "GET", path: `/${list}?updated_since=2999-01-01T00:00:00.000Z`, status: 200, json: { data: [], meta: { total: 0 } },
    },
    {
      name: "C17: an offset (its + sent as %2B) is an ISO timestamp too",
      method: "GET", path: `/${list}?updated_since=2999-01-01T00:00:00%2B02:00`, status: 200, json: { data: [], meta: { total: 0 } },
    },
    { name: "C17: a date alone is accepted", method: "GET", path: `/${list}?updated_since=2000-01-01`, status: 200 },
  ]);
}

const at = (day: number) => new Date(Date.UTC(2026, 0, day, 12)).toISOString();

/** An app on `engine` on a clock the test sets to a day of January 2026, an organization, and `get`: a list's
 * names (or full names) and total. */
async function world(engine: Engine) {
  let clock = new Date(at(1));
  const app = await appOn(engine, { now: () => clock });
  const org = await makeOrg(app, { rateLimit: 1_000_000 });
  const get = async (path: string) => {
    const answer = await call(app, "GET", path, { key: org.key });
    expect(answer.status).toBe(200);
    return { names: answer.json.data.map((row: { name?: string; full_name?: string }) => row.name ?? row.full_name), total: answer.json.meta.total };
  };
  return { app, org, get, setDay: (day: number) => (clock = new Date(at(day))) };
}

describe.each(ENGINES)("C17 updated_since on GET /dossiers: rows with updated_at at or after it, on %s", async (engine) => {
  const { app, org, get, setDay } = await world(engine);

  test("GET /dossiers: first page, deep page, counts, filters, and a change seen at once through the remembered answers", async () => {
    for (let day = 1; day <= 6; day++) {
      setDay(day);
      expect((await call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: `d${day}`, company: day % 2 ? "Odd" : "Even" } })).status).toBe(201);
    }
    const since = encodeURIComponent(at(4));
    expect(await get(`/dossiers?updated_since=${since}`)).toEqual({ names: ["d6", "d5", "d4"], total: 3 });
    // At or after: the exact instant counts; one millisecond later leaves d4 out.
    expect(await get(`/dossiers?updated_since=${encodeURIComponent(new Date(Date.parse(at(4)) + 1).toISOString())}`)).toEqual({ names: ["d6", "d5"], total: 2 });
    expect(await get(`/dossiers?updated_since=${since}&per_page=2&page=2`)).toEqual({ names: ["d4"], total: 3 });
    expect(await get(`/dossiers?updated_since=${since}&q=odd`)).toEqual({ names: ["d5"], total: 1 });
    expect(await get(`/dossiers?updated_since=${since}&type=candidate&status=active`)).toEqual({ names: ["d6", "d5", "d4"], total: 3 });
    // An offset names the same instant.
    expect(await get(`/dossiers?updated_since=${encodeURIComponent("2026-01-04T14:00:00+02:00")}`)).toEqual({ names: ["d6", "d5", "d4"], total: 3 });

    // d1 changes: it joins the same query at once (the remembered answer is not served).
    setDay(7);
    const d1 = (await call(app, "GET", "/dossiers?q=d1", { key: org.key })).json.data[0];
    expect((await call(app, "PATCH", `/dossiers/${d1.id}`, { key: org.key, body: { role: "Lead" } })).status).toBe(200);
    expect(await get(`/dossiers?updated_since=${since}`)).toEqual({ names: ["d6", "d5", "d4", "d1"], total: 4 });
    expect(await get(`/dossiers?updated_since=${since}&per_page=2&page=2`)).toEqual({ names: ["d4", "d1"], total: 4 });
    expect(await get(`/dossiers?updated_since=${encodeURIComponent(at(7))}`)).toEqual({ names: ["d1"], total: 1 });
    // Without updated_since, the list is the whole one still.
    expect((await get("/dossiers")).total).toBe(6);
  });

});

describe.each(ENGINES)("C17 updated_since on GET /contacts: rows with updated_at at or after it, on %s", async (engine) => {
  const { app, org, get, setDay } = await world(engine);

  test("GET /contacts: with and without search (short and long terms), kinds and the pool; a change seen at once", async () => {
    for (let day = 1; day <= 5; day++) {
      setDay(day);
      const body = { full_name: `c${day} Person`, kind: [day % 2 ? "candidate" : "client"], pool_added_at: at(1) };
      expect((await call(app, "POST", "/contacts", { key: org.key, body })).status).toBe(201);
    }
    const since = encodeURIComponent(at(3));
    expect((await get(`/contacts?updated_since=${since}`)).names).toEqual(["c5 Person", "c4 Person", "c3 Person"]);
    expect(await get(`/contacts?updated_since=${since}&search=person`)).toEqual({ names: ["c5 Person", "c4 Person", "c3 Person"], total: 3 });
    expect(await get(`/contacts?updated_since=${since}&search=c4`)).toEqual({ names: ["c4 Person"], total: 1 });
    expect(await get(`/contacts?updated_since=${since}&kind=candidate&search=person`)).toEqual({ names: ["c5 Person", "c3 Person"], total: 2 });
    expect((await get(`/contacts?updated_since=${since}&kind=client`)).names).toEqual(["c4 Person"]);
    expect(await get(`/contacts?updated_since=${since}&pool=in_pool`)).toEqual({ names: ["c5 Person", "c4 Person", "c3 Person"], total: 3 });

    // Ask once so that the answers are remembered, then change c1 (its notes: not searched text).
    expect((await get(`/contacts?updated_since=${since}&search=person`)).total).toBe(3);
    setDay(8);
    const c1 = (await call(app, "GET", "/contacts?search=c1%20person", { key: org.key })).json.data[0];
    expect((await call(app, "PATCH", `/contacts/${c1.id}`, { key: org.key, body: { notes: "called back" } })).status).toBe(200);
    expect(await get(`/contacts?updated_since=${since}&search=person`)).toEqual({ names: ["c5 Person", "c4 Person", "c3 Person", "c1 Person"], total: 4 });
    expect(await get(`/contacts?updated_since=${since}&search=c1`)).toEqual({ names: ["c1 Person"], total: 1 });
    expect(await get(`/contacts?updated_since=${encodeURIComponent(at(8))}`)).toEqual({ names: ["c1 Person"], total: 1 });
    expect(await get(`/contacts?updated_since=${encodeURIComponent(at(8))}&per_page=1&page=2`)).toEqual({ names: [], total: 1 });
  });
});
