// api-v1 "Flows", C3 (sort, paging, stages meta), C4 (default flows), C10 (stage fields).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { insertFlow } from "../../src/services/flows";
import { call, makeOrg } from "../helpers";
import { ENGINES, appOn } from "../helpers/stores";
import { refused, scenarios, type World } from "../helpers/scenario";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

describe.each(ENGINES)("GET /flows on %s", async (engine) => {
  const app = await appOn(engine);
  const org = await makeOrg(app);
  const other = await makeOrg(app);

  test("C4: a new organization has one default flow per type, stages in order with every field", async () => {
    const answer = await call(app, "GET", "/flows", { key: org.key });
    expect(answer.status).toBe(200);
    expect(answer.json.meta).toEqual({ total: 2, page: 1, per_page: 25 });
    const [recruitment, sales] = answer.json.data;
    expect(recruitment).toMatchObject({ name: "Recruitment", type: "candidate", is_default: true, organization_id: org.id });
    expect(recruitment.stages.map((s: { name: string }) => s.name)).toEqual(["Applied", "Screening", "Interview", "Offer", "Hired"]);
    expect(sales.stages.map((s: { name: string }) => s.name)).toEqual(["Lead", "Qualified", "Proposal", "Negotiation", "Closed"]);
    for (const flow of answer.json.data) {
      flow.stages.forEach((stage: Record<string, unknown>, i: number) => {
        expect(Object.keys(stage).sort()).toEqual(["color", "deadline_days", "flow_id", "id", "name", "position", "win_probability"]);
        expect(stage.position).toBe(i + 1);
        expect(stage.flow_id).toBe(flow.id);
        expect(stage.color).toMatch(/^#[0-9A-F]{6}$/);
        expect(stage.win_probability).toBeGreaterThanOrEqual(0);
        expect(stage.win_probability).toBeLessThanOrEqual(100);
      });
    }
  });

  test("tenancy: another organization's flows are not listed", async () => {
    const mine = (await call(app, "GET", "/flows", { key: org.key })).json.data.map((f: { id: string }) => f.id);
    const theirs = (await call(app, "GET", "/flows", { key: other.key })).json.data.map((f: { id: string }) => f.id);
    expect(mine).toHaveLength(2);
    expect(mine.filter((id: string) => theirs.includes(id))).toEqual([]);
  });
});

describe.each(ENGINES)("C4: flow create --default moves the default flag on %s", async (engine) => {
  test("at most one default flow per type", async () => {
    const app = await appOn(engine);
    const org = await makeOrg(app);
    await app.dossier.store.write(() => insertFlow(app.dossier, org.id, { type: "candidate", name: "New default", isDefault: true, stages: [{ name: "Only" }] }));
    const flows = (await call(app, "GET", "/flows?type=candidate", { key: org.key })).json.data;
    expect(flows.map((f: { name: string; is_default: boolean }) => [f.name, f.is_default])).toEqual([
      ["New default", true],
      ["Recruitment", false],
    ]);
  });
});

/** Two flows beside the defaults, so that sorting and paging have something to show. */
async function twoMore({ app, org }: World) {
  await app.dossier.store.write(async () => {
    await insertFlow(app.dossier, org.id, { type: "candidate", name: "Alpha hiring", isDefault: false, stages: [{ name: "One" }] });
    await insertFlow(app.dossier, org.id, { type: "sales", name: "Zulu deals", isDefault: false, stages: [{ name: "One" }] });
  });
  const theirs = (await call(app, "GET", "/flows?type=sales", { key: org.key })).json.data[0];
  return { salesFlow: theirs as { id: string; stages: unknown[] } };
}

const names = (...list: string[]) => list.map((name) => ({ name }));

scenarios("api-v1 Flows: GET /flows and GET /flows/{id}/stages as rules", twoMore, [
  { name: "C3: sorted by name", method: "GET", path: "/flows", status: 200,
    json: { data: names("Alpha hiring", "Recruitment", "Sales", "Zulu deals"), meta: { total: 4, page: 1, per_page: 25 } } },
  { name: "C3: type filter, with its total", method: "GET", path: "/flows?type=candidate", status: 200,
    json: { data: names("Alpha hiring", "Recruitment"), meta: { total: 2, page: 1, per_page: 25 } } },
  { name: "C3: a later page", method: "GET", path: "/flows?per_page=3&page=2", status: 200,
    json: { data: names("Zulu deals"), meta: { total: 4, page: 2, per_page: 3 } } },
  { name: "C3: a page past the end is empty, with the total", method: "GET", path: "/flows?page=9", status: 200,
    json: { data: [], meta: { total: 4, page: 9, per_page: 25 } } },
  { name: "C3: per_page=100 is allowed", method: "GET", path: "/flows?per_page=100", status: 200 },
  ...["per_page=0", "per_page=101", "per_page=1.5", "per_page=abc", "page=0", "page=-1", "page=", "type=other"].map((query) => ({
    name: `C3: ${query} → 400 invalid_body`, method: "GET" as const, path: `/flows?${query}`, status: 400, json: refused("invalid_body"),
  })),
  { name: "C3: unknown query parameters are ignored", method: "GET", path: "/flows?color=red", status: 200 },
  { name: "C3: stages sorted by position, meta {total: n, page: 1, per_page: n}", method: "GET", path: "/flows/{salesFlow}/stages", status: 200,
    json: ({ salesFlow }) => ({ data: salesFlow.stages as never, meta: { total: 5, page: 1, per_page: 5 } }) },
  { name: "tenancy: another organization's flow's stages → 404 not_found", as: "another org", method: "GET", path: "/flows/{salesFlow}/stages",
    status: 404, json: refused("not_found") },
  { name: "C8: no key → 401 unauthorized", as: "no key", method: "GET", path: "/flows", status: 401, json: refused("unauthorized") },
  { name: "C8: the free plan → 402 plan_required", as: "free plan", method: "GET", path: "/flows", status: 402, json: refused("plan_required") },
  { name: "C8: a key without flows:read → 403 forbidden", as: ["dossiers:read"], method: "GET", path: "/flows", status: 403, json: refused("forbidden") },
  { name: "C8: flows:read is enough", as: ["flows:read"], method: "GET", path: "/flows/{salesFlow}/stages", status: 200 },
]);
