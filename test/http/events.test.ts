// C17 "Catching up: the events feed"; C20 ("Events next_after", "Events dossier_id", "Events after
// unknown or pruned", "Events after of another organization", "Event ids", "Events query"). The
// rules that are one request and its answer are rows of a scenario table; reading the feed while
// writers add events is a plain test below it.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { DossierApp } from "../../src/app";
import { openConfiguredContext } from "../../src/context";
import type { Store } from "../../src/db/store";
import { createDossier } from "../../src/services/dossiers";
import { call, makeOrg, onCleanup, setUp, type Org } from "../helpers";
import { refused, scenarios, type World } from "../helpers/scenario";
import { ENGINES, appOn, queryRows } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

async function newDossier(app: DossierApp<Store>, org: Org, name: string): Promise<{ id: string }> {
  const answer = await call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name } });
  expect(answer.status).toBe(201);
  return answer.json.data;
}

/** The organization's event ids, in commit order. */
async function eventIds(app: DossierApp<Store>, org: Org): Promise<string[]> {
  return (await queryRows<{ id: string }>(app, `SELECT id FROM events WHERE organization_id = ? ORDER BY seq`, org.id)).map((row) => row.id);
}

/** Fixtures: the organization's events e0 (dossier.created of d0, recorded 40 days ago: past the
 * retention, its row still there), e1 dossier.created (d1), e2 note.created (on d1), e3
 * dossier.created (d2), e4 dossier.updated (d1); the other organization's `theirs` (dossier.created). */
async function feed({ app, org, other }: World<Store>) {
  const d0 = await newDossier(app, org, "Old");
  const [e0] = await eventIds(app, org);
  await setUp(app.dossier, () => queryRows(app, `UPDATE events SET created_at = ? WHERE id = ?`, new Date(Date.now() - 40 * 86_400_000).toISOString(), e0));
  const d1 = await newDossier(app, org, "First");
  expect((await call(app, "POST", `/dossiers/${d1.id}/notes`, { key: org.key, body: { content: "called" } })).status).toBe(201);
  const d2 = await newDossier(app, org, "Second");
  expect((await call(app, "PATCH", `/dossiers/${d1.id}`, { key: org.key, body: { name: "First, renamed" } })).status).toBe(200);
  await newDossier(app, other, "Theirs");
  const [, e1, e2, e3, e4] = await eventIds(app, org);
  const [theirs] = await eventIds(app, other);
  return { d0, d1, d2, e0, e1, e2, e3, e4, theirs };
}

type Feed = Awaited<ReturnType<typeof feed>>;
/** The `json` of a feed answer: exactly these events (by id, in order), and meta. */
const page = (ids: (f: Feed) => string[], has_more: boolean, next_after: (f: Feed) => string | null) => (f: Feed) => ({
  data: ids(f).map((id) => ({ id })),
  meta: { has_more, next_after: next_after(f) },
});

describe.each(ENGINES)("events on %s", (engine) => {
  scenarios("GET /events: C17, C20 rules", feed, [
    {
      name: "C17: the organization's events as webhook bodies, oldest first; one past the retention counts as pruned (C20); next_after is the last id",
      method: "GET", path: "/events", status: 200,
      json: (f) => ({
        data: [
          { id: f.e1, type: "dossier.created", organization_id: f.org.id, data: { id: f.d1.id, name: "First" }, created_at: expect.any(String) },
          { id: f.e2, type: "note.created", data: { dossier_id: f.d1.id, content: "called" } },
          { id: f.e3, type: "dossier.created", data: { id: f.d2.id } },
          { id: f.e4, type: "dossier.updated", data: { id: f.d1.id, name: "First, renamed" }, previous_attributes: { name: "First" } },
        ],
        meta: { has_more: false, next_after: f.e4 },
      }),
    },
    {
      name: "C17: limit=2 gives the first two, has_more true, next_after the second",
      method: "GET", path: "/events?limit=2", status: 200, json: page((f) => [f.e1, f.e2], true, (f) => f.e2),
    },
    {
      name: "C17: after=next_after goes on from there",
      method: "GET", path: "/events?limit=2&after={e2}", status: 200, json: page((f) => [f.e3, f.e4], false, (f) => f.e4),
    },
    {
      name: "C20 Events next_after: with nothing after `after`, data is empty and next_after is the after sent",
      method: "GET", path: "/events?after={e4}", status: 200, json: page(() => [], false, (f) => f.e4),
    },
    {
      name: "C20 Events next_after: no after and no events → null",
      as: "another org", method: "GET", path: "/events?type=note.created", status: 200, json: page(() => [], false, () => null),
    },
    {
      name: "C17: type filters; it may repeat (any of them)",
      method: "GET", path: "/events?type=note.created&type=dossier.updated", status: 200, json: page((f) => [f.e2, f.e4], false, (f) => f.e4),
    },
    {
      name: "C17: type=note.created alone",
      method: "GET", path: "/events?type=note.created", status: 200, json: page((f) => [f.e2], false, (f) => f.e2),
    },
    {
      name: "C20 Events dossier_id: the dossier's own events and the note.created of its notes",
      method: "GET", path: "/events?dossier_id={d1}", status: 200, json: page((f) => [f.e1, f.e2, f.e4], false, (f) => f.e4),
    },
    {
      name: "C20 Events dossier_id: with type and after too",
      method: "GET", path: "/events?dossier_id={d1}&type=dossier.updated&type=dossier.created&after={e1}", status: 200,
      json: page((f) => [f.e4], false, (f) => f.e4),
    },
    {
      name: "C20 Events dossier_id: a dossier of another organization has no events here",
      method: "GET", path: "/events?dossier_id={d1}", as: "another org", status: 200, json: page(() => [], false, () => null),
    },
    {
      name: "C20 Events query: an unknown type → 400 invalid_body naming type",
      method: "GET", path: "/events?type=dossier.created&type=contact.created", status: 400, json: refused("invalid_body", "type"),
    },
    {
      name: "C20 Events query: dossier_id not a uuid → 400 invalid_body naming dossier_id",
      method: "GET", path: "/events?dossier_id=d1", status: 400, json: refused("invalid_body", "dossier_id"),
    },
    { name: "C20: limit=0 → 400 invalid_body", method: "GET", path: "/events?limit=0", status: 400, json: refused("invalid_body", "limit") },
    { name: "C20: limit=101 → 400 invalid_body", method: "GET", path: "/events?limit=101", status: 400, json: refused("invalid_body", "limit") },
    { name: "C20: limit=ten → 400 invalid_body", method: "GET", path: "/events?limit=ten", status: 400, json: refused("invalid_body", "limit") },
    {
      name: "C17: limit=100 and limit=1 are accepted",
      method: "GET", path: "/events?limit=1&after={e3}", status: 200, json: page((f) => [f.e4], false, (f) => f.e4),
    },
    {
      name: "C20 Events after unknown: an id nobody has → 410 cursor_expired",
      method: "GET", path: "/events?after=evt_99999999999999999999999999", status: 410, json: refused("cursor_expired"),
    },
    { name: "C20 Events after unknown: not an event id at all → 410 cursor_expired", method: "GET", path: "/events?after=nope", status: 410, json: refused("cursor_expired") },
    {
      name: "C20 Events after of another organization: unknown → 410 cursor_expired",
      method: "GET", path: "/events?after={theirs}", status: 410, json: refused("cursor_expired"),
    },
    {
      name: "C20 Events query: after an event older than the retention, its row still there → 410 cursor_expired",
      method: "GET", path: "/events?after={e0}", status: 410, json: refused("cursor_expired"),
    },
    { name: "C17: scope events:read is needed → 403", as: ["dossiers:read", "notes:read"], method: "GET", path: "/events", status: 403, json: refused("forbidden") },
    { name: "C17: events:read alone is enough", as: ["events:read"], method: "GET", path: "/events?limit=1", status: 200, json: page((f) => [f.e1], true, (f) => f.e1) },
    { name: "C3: no key → 401", as: "no key", method: "GET", path: "/events", status: 401, json: refused("unauthorized") },
    {
      name: "C17: GET /events/{id} answers the event as its webhook body",
      method: "GET", path: "/events/{e2}", status: 200,
      json: (f) => ({ data: { id: f.e2, type: "note.created", organization_id: f.org.id, data: { dossier_id: f.d1.id } } }),
    },
    { name: "C17: GET /events/{id} of another organization → 404", method: "GET", path: "/events/{theirs}", status: 404, json: refused("not_found") },
    { name: "C17: GET /events/{id} past the retention → 404", method: "GET", path: "/events/{e0}", status: 404, json: refused("not_found") },
    { name: "C17: GET /events/{id} of an unknown id → 404", method: "GET", path: "/events/evt_99999999999999999999999999", status: 404, json: refused("not_found") },
    { name: "C3: GET /events/{id} with a malformed id → 404", method: "GET", path: "/events/42", status: 404, json: refused("not_found") },
    { name: "C17: GET /events/{id} needs events:read → 403", as: ["dossiers:read"], method: "GET", path: "/events/{e1}", status: 403, json: refused("forbidden") },
  ], { engine });

  describe("C17: the feed is what the webhooks carry", async () => {
    const app = await appOn(engine);
    const org = await makeOrg(app, { rateLimit: 1_000_000 });

    test("C7, C17: each item is the exact webhook body of its event, recorded while no endpoint is set (status skipped)", async () => {
      const d = await newDossier(app, org, "Body");
      await call(app, "PATCH", `/dossiers/${d.id}`, { key: org.key, body: { email: "body@example.com" } });
      const rows = await queryRows<{ body: string; status: string }>(app, `SELECT body, status FROM events WHERE organization_id = ? ORDER BY seq`, org.id);
      expect(rows.map((row) => row.status)).toEqual(["skipped", "skipped"]);
      const answer = await call(app, "GET", "/events", { key: org.key });
      expect(answer.status).toBe(200);
      expect(answer.headers.get("content-type")).toStartWith("application/json");
      expect(answer.json.data).toEqual(rows.map((row) => JSON.parse(row.body)));
      for (const event of answer.json.data) expect(event.id).toMatch(/^evt_\d{26}$/);
      expect((await call(app, "GET", `/events/${answer.json.data[1].id}`, { key: org.key })).json).toEqual({ data: JSON.parse(rows[1].body) });
    });
  });

  describe("C17: reading with next_after while 8 writers add events misses nothing and repeats nothing", async () => {
    test("4 writers through the API, 4 through a second context on the same database (as the CLI); the reader pages by 7", async () => {
      const app = await appOn(engine);
      const org = await makeOrg(app, { rateLimit: 1_000_000 });
      const second = await openConfiguredContext({ dataDir: app.dossier.config.dataDir, env: app.dossier.config.databaseUrl ? { DOSSIER_DATABASE_URL: app.dossier.config.databaseUrl, DOSSIER_DATABASE_POOL: "3" } : undefined, config: { log: "off" } });
      onCleanup(() => second.store.close());
      const PER_WRITER = 15;
      let writing = 8;
      const writer = async (w: number) => {
        for (let i = 0; i < PER_WRITER; i++) {
          const name = `w${w}-${i}`;
          if (w < 4) await newDossier(app, org, name);
          else await createDossier(second, org.id, { type: "candidate", name });
          await Bun.sleep(Math.random() * 3);
        }
        writing--;
      };
      const seen: string[] = [];
      const reader = async () => {
        let after: string | null = null;
        for (let round = 0; round < 10_000; round++) {
          const done = writing === 0;
          const answer = await call(app, "GET", `/events?limit=7${after ? `&after=${after}` : ""}`, { key: org.key });
          expect(answer.status).toBe(200);
          seen.push(...answer.json.data.map((e: { id: string }) => e.id));
          if (answer.json.data.length > 0) expect(answer.json.meta.next_after).toBe(answer.json.data.at(-1).id);
          else expect(answer.json.meta.next_after).toBe(after);
          after = answer.json.meta.next_after;
          // Writers finished before this read began, and it reached the end: nothing more can come.
          if (done && !answer.json.meta.has_more) return;
          if (!answer.json.meta.has_more) await Bun.sleep(1);
        }
        throw new Error("the reader did not reach the end");
      };
      await Promise.all([...Array.from({ length: 8 }, (_, w) => writer(w)), reader()]);
      const all = await eventIds(app, org);
      expect(all.length).toBe(8 * PER_WRITER);
      expect(seen).toEqual(all);
      expect(new Set(seen).size).toBe(seen.length);
      // C20: ids sort, as strings, in commit order.
      expect([...seen].sort()).toEqual(seen);
    });
  });
});
