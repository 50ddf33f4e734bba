// DOSSIER_CACHE=off (src/config.ts) turns the answer caches off, so that the bench can tell what
// they are worth: remembered GET /dossiers answers and page boundaries (dossier-page.ts), contact
// search results and pages (contact-search.ts), remembered principals (principals.ts), and the
// records single GETs show (stamp-cache.ts). Correctness
// must not depend on them: two apps on one file, one with the caches on and one with them off,
// give the same answers to the same reads after every kind of write (C5, C6, C10's "next request"),
// whichever of them wrote. And off must mean off: nothing is remembered.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { loadConfig } from "../../src/config";
import { cacheStats } from "../../src/db/contact-search";
import { pageBoundaries } from "../../src/db/dossier-page";
import { listDossiersJson } from "../../src/services/dossiers";
import { createKey, hashKey, recallPrincipal, revokeKey } from "../../src/services/keys";
import { call, makeApp, makeOrg, type Answer } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

type App = ReturnType<typeof makeApp>;

/** Two apps on one data folder: `on` with the default caches, `off` with DOSSIER_CACHE=off. */
async function pair() {
  const on = makeApp();
  const off = makeApp({ dataDir: on.dossier.config.dataDir, env: { DOSSIER_CACHE: "off" } });
  // Every read is asked four times after every write: more than the default 600 a minute.
  return { on, off, org: (await makeOrg(on, { rateLimit: 100_000 })) };
}

// An error body quotes its own request's id (issue 38): the rest must be the same, its bytes and
// type included (a remembered record's answer is sent as the text made once for it, src/http/route.ts).
const shape = (a: Answer) => ({
  status: a.status,
  type: a.headers.get("content-type"),
  body: a.text.replace(/"request_id":"[^"]*"/, '"request_id":"…"'),
  etag: a.headers.get("etag"),
});

describe("DOSSIER_CACHE in the config", () => {
  test("on by default, off with DOSSIER_CACHE=off; another value is refused naming the variable", () => {
    expect(loadConfig({}).cache).toBe(true);
    expect(loadConfig({ DOSSIER_CACHE: "on" }).cache).toBe(true);
    expect(loadConfig({ DOSSIER_CACHE: "off" }).cache).toBe(false);
    expect(() => loadConfig({ DOSSIER_CACHE: "no" })).toThrow(`invalid DOSSIER_CACHE "no": expected on or off`);
  });
});

describe("the same answers with the caches on and off", () => {
  test("reads after creates, stage moves, updates, archiving, contact writes and a revoked key", async () => {
    const { on, off, org } = await pair();
    const flows = (await call(on, "GET", "/flows", { key: org.key })).json.data as { type: string; stages: { id: string }[] }[];
    const candidate = flows.find((f) => f.type === "candidate")!;
    const ids: string[] = [];
    const contactIds: string[] = [];

    /** Every read, asked twice of each app (the second is a cache hit where a cache is on). */
    const compare = async (key = org.key) => {
      const paths = [
        "/dossiers",
        "/dossiers?per_page=2&page=2",
        "/dossiers?per_page=2&page=3",
        "/dossiers?status=won",
        "/dossiers?type=sales",
        `/dossiers?stage_id=${candidate.stages[1].id}`,
        "/dossiers?status=archived",
        ...ids.map((id) => `/dossiers/${id}`),
        ...ids.slice(0, 2).map((id) => `/dossiers/${id}/notes`),
        ...contactIds.map((id) => `/contacts/${id}`),
        "/contacts",
        "/contacts?per_page=2&page=2",
        "/contacts?search=ada",
        "/contacts?search=exam",
        "/contacts?kind=client",
        "/contacts?kind=candidate&search=love",
        "/flows",
      ];
      for (const path of paths) {
        const answers: ReturnType<typeof shape>[] = [];
        for (const app of [on, off, on, off]) answers.push(shape(await call(app, "GET", path, { key })));
        for (const answer of answers) expect({ path, ...answer }).toEqual({ path, ...answers[0] });
      }
    };

    const write = async (app: App, method: string, path: string, body: unknown, status: number) => {
      const answer = await call(app, method, path, { key: org.key, body });
      expect(answer.status).toBe(status);
      return answer.json.data;
    };

    await compare();
    for (let i = 0; i < 6; i++) {
      const app = i % 2 === 0 ? on : off;
      const made = await write(app, "POST", "/dossiers", i % 3 === 2
        ? { type: "sales", name: `Deal ${i}`, email: `deal${i}@example.com`, company: "Adamant Corp" }
        : { type: "candidate", name: `Ada Lovelace ${i}`, email: `ada${i}@example.com` }, 201);
      ids.push(made.id);
      await compare();
    }
    await write(off, "PATCH", `/dossiers/${ids[0]}`, { current_stage_id: candidate.stages[1].id }, 200);
    await compare();
    await write(off, "POST", `/dossiers/${ids[0]}/notes`, { content: "Called back" }, 201);
    await compare();
    await write(on, "POST", `/dossiers/${ids[1]}/notes`, { content: "Sent the offer" }, 201);
    await compare();
    await write(on, "PATCH", `/dossiers/${ids[1]}`, { current_stage_id: candidate.stages[1].id, status: "won" }, 200);
    await compare();
    await write(off, "PATCH", `/dossiers/${ids[3]}`, { name: "Ada Byron" }, 200);
    await compare();
    await write(on, "DELETE", `/dossiers/${ids[4]}`, undefined, 200);
    await compare();
    contactIds.push((await write(off, "POST", "/contacts", { full_name: "Grace Client", email: "grace@example.com", kind: ["client"] }, 201)).id);
    await compare();
    await write(on, "PATCH", `/contacts/${contactIds[0]}`, { full_name: "Ada Client" }, 200);
    await compare();
    await write(off, "DELETE", `/contacts/${contactIds[0]}`, undefined, 200);
    await compare();

    // A key revoked through the services of the app without caches answers 401 at both on the next request.
    const other = await createKey(on.dossier, { organizationId: org.id, scopes: ["dossiers:read", "contacts:read", "flows:read"] });
    await compare(other.key);
    expect(await revokeKey(off.dossier, other.id)).not.toBeNull();
    for (const app of [on, off]) expect((await call(app, "GET", "/dossiers", { key: other.key })).status).toBe(401);
  });
});

describe("off means nothing is remembered", () => {
  test("no dossier answer, page boundary, contact search or page, or principal is kept", async () => {
    const { on, off, org } = await pair();
    let made = { id: "" };
    for (let i = 0; i < 5; i++) {
      const created = await call(on, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: `Ada ${i}`, email: `ada${i}@example.com` } });
      expect(created.status).toBe(201);
      made = created.json.data;
    }
    for (const app of [on, off]) {
      for (const path of ["/dossiers", "/dossiers?per_page=2&page=2", "/contacts?search=ada", "/contacts?kind=candidate"]) {
        expect((await call(app, "GET", path, { key: org.key })).status).toBe(200);
      }
    }
    const first = { page: 1, perPage: 25 };
    const remembered = async (app: App) => ({
      list: (await listDossiersJson(app.dossier, org.id, first)) === (await listDossiersJson(app.dossier, org.id, first)),
      boundaries: pageBoundaries(app.dossier.store.reader).size > 0,
      search: cacheStats(app.dossier.store.reader).entries > 0,
      pages: cacheStats(app.dossier.store.reader).pages > 0,
      principal: (await recallPrincipal(app.dossier, hashKey(org.key))) !== undefined,
      record: (await (async () => {
        const shown = () => app.dossier.store.read(() => app.dossier.store.dossiers.shown(org.id, made.id, { remember: app.dossier.config.cache }));
        return (await shown()) === (await shown());
      })()),
    });
    expect((await remembered(on))).toEqual({ list: true, boundaries: true, search: true, pages: true, principal: true, record: true });
    expect((await remembered(off))).toEqual({ list: false, boundaries: false, search: false, pages: false, principal: false, record: false });
  });
});
