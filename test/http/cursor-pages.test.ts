// Cursor pages (issue 38): a sync that reads a list whole with `after` (the previous page's
// meta.next_after) while others insert, archive, delete and update sees every row that existed and
// matched throughout exactly once, and no row twice; on both engines, for every list that takes
// `after`, with a filter of the list applied. Then the cursors that are refused (400 naming
// `after`, or `page` beside it) and the meta of a cursor page.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { DossierApp } from "../../src/app";
import type { Store } from "../../src/db/store";
import { call, makeOrg, until, type Answer, type Org } from "../helpers";
import { ENGINES, appOn } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const PER_PAGE = 7;
/** Bounds every sync: far more pages than any list here has. */
const MAX_PAGES = 60;

type App = DossierApp<Store>;
type Id = { id: string };

async function made(app: App, org: Org, path: string, body: unknown): Promise<string> {
  const answer = await call(app, "POST", path, { key: org.key, body });
  expect(answer.status, answer.text).toBe(201);
  return answer.json.data.id;
}

async function changed(app: App, org: Org, method: "PATCH" | "DELETE", path: string, body?: unknown) {
  const answer = await call(app, method, path, { key: org.key, body });
  expect(answer.status, `${method} ${path}: ${answer.text}`).toBe(200);
}

/**
 * Reads `path` whole as a sync does: an ordinary first page, then `after` until next_after is null.
 * `write(step)` runs beside each read (the same moment, interleaved at every await), so rows are
 * inserted, archived and changed before, during and after each page is read. Returns the ids seen
 * in order.
 */
async function sync(app: App, org: Org, path: string, write: (step: number) => Promise<void>, idOf = (row: Id) => row.id): Promise<string[]> {
  const seen: string[] = [];
  let after: string | null = null;
  for (let step = 0; step < MAX_PAGES; step++) {
    const url: string = `${path}${path.includes("?") ? "&" : "?"}per_page=${PER_PAGE}${after === null ? "" : `&after=${encodeURIComponent(after)}`}`;
    const [answer]: [Answer, void] = await Promise.all([call(app, "GET", url, { key: org.key }), write(step)]);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json.meta.page).toBe(1);
    expect(answer.json.meta.per_page).toBe(PER_PAGE);
    expect(answer.json.data.length).toBeLessThanOrEqual(PER_PAGE);
    seen.push(...answer.json.data.map(idOf));
    after = answer.json.meta.next_after;
    if (after === null) return seen;
    expect(answer.json.data.length).toBe(PER_PAGE);
  }
  throw new Error(`${path}: still a next page after ${MAX_PAGES}`);
}

/** Every id of `kept` seen once, no id seen twice, none of `never`. */
function expectOnce(seen: string[], kept: Iterable<string>, never: Iterable<string> = []) {
  const times = new Map<string, number>();
  for (const id of seen) times.set(id, (times.get(id) ?? 0) + 1);
  expect([...times].filter(([, n]) => n > 1)).toEqual([]);
  expect([...kept].filter((id) => times.get(id) !== 1)).toEqual([]);
  expect([...never].filter((id) => times.has(id))).toEqual([]);
}

/** The `n`-th pick (deterministic) among the ids still in `pool`, taken out of it. */
function pick(pool: string[], n: number): string {
  const [id] = pool.splice((n * 7 + 3) % pool.length, 1);
  return id;
}

const HOURS = (h: number) => new Date(Date.UTC(2027, 0, 1) + h * 3_600_000).toISOString();

describe.each(ENGINES)("cursor pages under writes on %s", async (engine) => {
  const app = await appOn(engine);
  const org = await makeOrg(app, { rateLimit: 1_000_000 });

  test("GET /dossiers?type=candidate: inserts, archives and updates skip and repeat nothing", async () => {
    const seeded: string[] = [];
    for (let i = 0; i < 45; i++) seeded.push(await made(app, org, "/dossiers", { type: "candidate", name: `Seed ${i}` }));
    const sales: string[] = [];
    for (let i = 0; i < 4; i++) sales.push(await made(app, org, "/dossiers", { type: "sales", name: `Deal ${i}` }));
    const untouched = [...seeded];
    const archived: string[] = [];
    const seen = await sync(app, org, "/dossiers?type=candidate", async (step) => {
      await made(app, org, "/dossiers", { type: "candidate", name: `New ${step}a` });
      archived.push(pick(untouched, step));
      await changed(app, org, "DELETE", `/dossiers/${archived.at(-1)}`);
      await changed(app, org, "PATCH", `/dossiers/${untouched[(step * 5) % untouched.length]}`, { name: `Renamed ${step}`, company: "Acme" });
      await made(app, org, "/dossiers", { type: "candidate", name: `New ${step}b` });
    });
    expect(archived.length).toBeGreaterThan(4);
    expectOnce(seen, untouched, sales);
  });

  test("GET /contacts?kind=client: inserts, deletes and updates skip and repeat nothing", async () => {
    const seeded: string[] = [];
    for (let i = 0; i < 45; i++) seeded.push(await made(app, org, "/contacts", { full_name: `Client ${i}`, kind: ["client"] }));
    const partners: string[] = [];
    for (let i = 0; i < 4; i++) partners.push(await made(app, org, "/contacts", { full_name: `Partner ${i}`, kind: ["partner"] }));
    const untouched = [...seeded];
    const seen = await sync(app, org, "/contacts?kind=client", async (step) => {
      await made(app, org, "/contacts", { full_name: `New client ${step}`, kind: ["client"] });
      await changed(app, org, "DELETE", `/contacts/${pick(untouched, step)}`);
      await changed(app, org, "PATCH", `/contacts/${untouched[(step * 5) % untouched.length]}`, { city: `City ${step}` });
    });
    expectOnce(seen, untouched, partners);
  });

  test("GET /contacts?search=: the search still applies on every cursor page", async () => {
    const matching: string[] = [];
    for (let i = 0; i < 16; i++) matching.push(await made(app, org, "/contacts", { full_name: `Zebulon ${i}` }));
    const untouched = [...matching];
    const seen = await sync(app, org, "/contacts?search=zebul", async (step) => {
      await made(app, org, "/contacts", { full_name: `Zebulon new ${step}` });
      await made(app, org, "/contacts", { full_name: `Other ${step}` });
      await changed(app, org, "PATCH", `/contacts/${pick(untouched, step)}`, { full_name: `Renamed ${step}` });
    });
    // A contact renamed away from the search did not match throughout: only the others are owed.
    expectOnce(seen, untouched);
    expect(seen.length).toBeGreaterThanOrEqual(untouched.length);
  });

  test("GET /dossiers/{id}/notes (oldest first): notes added meanwhile come after, each once", async () => {
    const dossier = await made(app, org, "/dossiers", { type: "candidate", name: "Noted" });
    const other = await made(app, org, "/dossiers", { type: "candidate", name: "Other" });
    const seeded: string[] = [];
    for (let i = 0; i < 40; i++) seeded.push(await made(app, org, `/dossiers/${dossier}/notes`, { content: `Note ${i}` }));
    const elsewhere = [await made(app, org, `/dossiers/${other}/notes`, { content: "Elsewhere" })];
    const added: string[] = [];
    const seen = await sync(app, org, `/dossiers/${dossier}/notes`, async (step) => {
      added.push(await made(app, org, `/dossiers/${dossier}/notes`, { content: `Added ${step}` }));
      elsewhere.push(await made(app, org, `/dossiers/${other}/notes`, { content: `Elsewhere ${step}` }));
      if (step === 1) await changed(app, org, "DELETE", `/dossiers/${dossier}`);
      if (step === 2) await changed(app, org, "PATCH", `/dossiers/${dossier}`, { name: "Noted, archived" });
    });
    // Oldest first: the notes added during the sync come after the position, so they are read too,
    // but for the last one, added beside the last page's read.
    expectOnce(seen, [...seeded, ...added.slice(0, -1)], elsewhere);
    expect(seen.slice(0, seeded.length)).toEqual(seeded);
  });

  test("GET /tasks?status=open (due_at order, no due date last): inserts, deletes and updates skip and repeat nothing", async () => {
    const seeded: string[] = [];
    for (let i = 0; i < 45; i++) {
      seeded.push(await made(app, org, "/tasks", { title: `Task ${i}`, due_at: i % 5 === 0 ? null : HOURS((i * 11) % 17) }));
    }
    const done: string[] = [];
    for (let i = 0; i < 4; i++) {
      done.push(await made(app, org, "/tasks", { title: `Done ${i}`, due_at: HOURS(i) }));
      await changed(app, org, "PATCH", `/tasks/${done.at(-1)}`, { status: "done" });
    }
    const untouched = [...seeded];
    const seen = await sync(app, org, "/tasks?status=open", async (step) => {
      await made(app, org, "/tasks", { title: `New ${step}`, due_at: step % 3 === 0 ? null : HOURS(step % 17) });
      await changed(app, org, "DELETE", `/tasks/${pick(untouched, step)}`);
      await changed(app, org, "PATCH", `/tasks/${untouched[(step * 5) % untouched.length]}`, { title: `Renamed ${step}`, notes: "changed" });
    });
    expectOnce(seen, untouched, done);
  });

  test("GET /webhook-deliveries?type=note.created (newest first): new events skip and repeat nothing", async () => {
    const logged = await makeOrg(app, { rateLimit: 1_000_000 });
    const dossier = await made(app, logged, "/dossiers", { type: "candidate", name: "Logged" });
    for (let i = 0; i < 30; i++) await made(app, logged, `/dossiers/${dossier}/notes`, { content: `Note ${i}` });
    const before = await call(app, "GET", "/webhook-deliveries?type=note.created&per_page=100", { key: logged.key });
    const seeded: string[] = before.json.data.map((delivery: { event_id: string }) => delivery.event_id);
    expect(seeded.length).toBe(30);
    const seen = await sync(
      app,
      logged,
      "/webhook-deliveries?type=note.created",
      async (step) => {
        await made(app, logged, `/dossiers/${dossier}/notes`, { content: `Added ${step}` });
        await changed(app, logged, "PATCH", `/dossiers/${dossier}`, { name: `Logged ${step}` });
      },
      (row) => (row as unknown as { event_id: string }).event_id,
    );
    expectOnce(seen, seeded);
  });

  test("GET /imports (newest first): imports queued and run meanwhile skip and repeat nothing", async () => {
    const importer = await makeOrg(app, { rateLimit: 1_000_000 });
    const upload = async (name: string) => {
      const form = new FormData();
      form.append("file", new File([`full_name\n${name}\n`], "people.csv", { type: "text/csv" }));
      form.append("resource", "contacts");
      form.append("mapping", '{"full_name":"full_name"}');
      const answer = await call(app, "POST", "/imports", { key: importer.key, raw: form });
      expect(answer.status, answer.text).toBe(202);
      return answer.json.data.id as string;
    };
    const seeded: string[] = [];
    for (let i = 0; i < 16; i++) seeded.push(await upload(`Imported ${i}`));
    const seen = await sync(app, importer, "/imports", async (step) => void (await upload(`During ${step}`)));
    expectOnce(seen, seeded);
    // The imports ran meanwhile (their status changed under the sync); let them end before the app closes.
    await until(async () => {
      const all = await call(app, "GET", "/imports?per_page=100", { key: importer.key });
      return all.json.data.every((row: { status: string }) => row.status !== "queued" && row.status !== "running");
    }, 30_000, "the imports' end");
  });

  test("a cursor page's meta: page 1, the list's total for its filters, next_after null at the end", async () => {
    const fresh = await makeOrg(app, { rateLimit: 1_000_000 });
    for (let i = 0; i < 5; i++) await made(app, fresh, "/dossiers", { type: "candidate", name: `M${i}` });
    await made(app, fresh, "/dossiers", { type: "sales", name: "Not counted" });
    const first = await call(app, "GET", "/dossiers?type=candidate&per_page=2", { key: fresh.key });
    expect(first.json.meta).toEqual({ total: 5, page: 1, per_page: 2, next_after: expect.any(String) });
    const second = await call(app, "GET", `/dossiers?type=candidate&per_page=2&after=${first.json.meta.next_after}`, { key: fresh.key });
    expect(second.json.meta).toEqual({ total: 5, page: 1, per_page: 2, next_after: expect.any(String) });
    const third = await call(app, "GET", `/dossiers?type=candidate&per_page=2&after=${second.json.meta.next_after}`, { key: fresh.key });
    expect(third.json.meta).toEqual({ total: 5, page: 1, per_page: 2, next_after: null });
    expect(third.json.data.length).toBe(1);
    // The same pages as page= gives while nothing changes (and the same bytes for the rows).
    const byPage = await call(app, "GET", "/dossiers?type=candidate&per_page=2&page=2", { key: fresh.key });
    expect(JSON.stringify(second.json.data)).toBe(JSON.stringify(byPage.json.data));
    expect(byPage.json.meta.next_after).toBe(second.json.meta.next_after);
    // A full last page by page= says null: nothing follows it.
    const exact = await call(app, "GET", "/dossiers?type=candidate&per_page=5", { key: fresh.key });
    expect(exact.json.meta.next_after).toBeNull();
  });

  test("a remembered answer is one cursor's (the cursor in its key) and goes with the next change", async () => {
    const fresh = await makeOrg(app, { rateLimit: 1_000_000 });
    for (let i = 0; i < 6; i++) await made(app, fresh, "/dossiers", { type: "candidate", name: `R${i}` });
    const page = (after: string) => call(app, "GET", `/dossiers?per_page=2&after=${after}`, { key: fresh.key });
    const first = (await call(app, "GET", "/dossiers?per_page=2", { key: fresh.key })).json;
    const second = (await page(first.meta.next_after)).json;
    const third = (await page(second.meta.next_after)).json;
    expect((await page(first.meta.next_after)).json).toEqual(second);
    expect(third.data.map((d: Id) => d.id)).not.toEqual(second.data.map((d: Id) => d.id));
    await changed(app, fresh, "DELETE", `/dossiers/${second.data[0].id}`);
    const after = (await page(first.meta.next_after)).json;
    expect(after.data.map((d: Id) => d.id)).toEqual([second.data[1].id, third.data[0].id]);
    expect(after.meta.total).toBe(5);
  });
});

describe("cursors that are refused", async () => {
  const app = await appOn("sqlite");
  const org = await makeOrg(app, { rateLimit: 1_000_000 });
  const dossier = await made(app, org, "/dossiers", { type: "candidate", name: "One" });
  await made(app, org, "/dossiers", { type: "candidate", name: "Two" });
  const cursor = (await call(app, "GET", "/dossiers?per_page=1", { key: org.key })).json.meta.next_after as string;
  const encoded = (value: unknown) => `v1.${Buffer.from(JSON.stringify(value)).toString("base64url")}`;

  const bad: [string, string][] = [
    ["empty", ""],
    ["no version", cursor.slice(3)],
    ["another version", `v2.${cursor.slice(3)}`],
    ["the version alone", "v1."],
    ["not base64url", "v1.a+b/c="],
    ["not JSON", `v1.${Buffer.from("not json").toString("base64url")}`],
    ["not an array", encoded({ list: "dossiers" })],
    ["no key", encoded(["dossiers"])],
    ["a key of the wrong types", encoded(["dossiers", 1, 2])],
    ["a time not as stored", encoded(["dossiers", "2026-01-01", dossier])],
    ["an id that is no uuid", encoded(["dossiers", "2026-01-01T00:00:00.000Z", "x"])],
    ["a value too many", encoded(["dossiers", "2026-01-01T00:00:00.000Z", dossier, 1])],
    ["another list's cursor", encoded(["contacts", "2026-01-01T00:00:00.000Z", dossier])],
    ["far too long", `v1.${"A".repeat(5000)}`],
  ];
  for (const [name, after] of bad) {
    test(`GET /dossiers with after: ${name} → 400 invalid_body naming after`, async () => {
      const answer = await call(app, "GET", `/dossiers?after=${encodeURIComponent(after)}`, { key: org.key });
      expect(answer.status, answer.text).toBe(400);
      expect(answer.json.error).toMatchObject({ code: "invalid_body", param: "after" });
    });
  }

  test("each list refuses the others' cursors", async () => {
    const lists = ["/contacts", `/dossiers/${dossier}/notes`, "/webhook-deliveries", "/imports", "/tasks", `/dossiers/${dossier}/tasks`];
    for (const path of lists) {
      const answer = await call(app, "GET", `${path}?after=${cursor}`, { key: org.key });
      expect({ path, status: answer.status, param: answer.json.error?.param }).toEqual({ path, status: 400, param: "after" });
    }
  });

  test("after with page → 400 naming page, whatever the page; a well-formed cursor naming no row is a position like any other", async () => {
    for (const page of ["1", "2"]) {
      const answer = await call(app, "GET", `/dossiers?page=${page}&after=${cursor}`, { key: org.key });
      expect(answer.status).toBe(400);
      expect(answer.json.error).toMatchObject({ code: "invalid_body", param: "page" });
    }
    const before = await call(app, "GET", `/dossiers?after=${encoded(["dossiers", "2000-01-01T00:00:00.000Z", dossier])}`, { key: org.key });
    expect(before.json).toEqual({ data: [], meta: { total: 2, page: 1, per_page: 25, next_after: null } });
    const future = await call(app, "GET", `/dossiers?after=${encoded(["dossiers", "2999-01-01T00:00:00.000Z", dossier])}`, { key: org.key });
    expect(future.json.data.length).toBe(2);
  });
});
