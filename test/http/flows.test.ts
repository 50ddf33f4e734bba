// api-v1 "Flows", C3 (sort, paging, stages meta), C4 (default flows), C10 (stage fields).
import { describe, expect, test } from "bun:test";
import { insertFlow } from "../../src/services/flows";
import { call, makeApp, makeOrg } from "../helpers";

describe("GET /flows", () => {
  const app = makeApp();
  const org = makeOrg(app);
  const other = makeOrg(app);

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

  test("C3: sorted by name; type filter; paging edges", async () => {
    await app.dossier.store.write(() => {
      insertFlow(app.dossier, org.id, { type: "candidate", name: "Alpha hiring", isDefault: false, stages: [{ name: "One" }] });
      insertFlow(app.dossier, org.id, { type: "sales", name: "Zulu deals", isDefault: false, stages: [{ name: "One" }] });
    });
    const names = (await call(app, "GET", "/flows", { key: org.key })).json.data.map((f: { name: string }) => f.name);
    expect(names).toEqual(["Alpha hiring", "Recruitment", "Sales", "Zulu deals"]);
    const candidates = await call(app, "GET", "/flows?type=candidate", { key: org.key });
    expect(candidates.json.data.map((f: { name: string }) => f.name)).toEqual(["Alpha hiring", "Recruitment"]);
    expect(candidates.json.meta.total).toBe(2);
    const page2 = await call(app, "GET", "/flows?per_page=3&page=2", { key: org.key });
    expect(page2.json.data.map((f: { name: string }) => f.name)).toEqual(["Zulu deals"]);
    expect(page2.json.meta).toEqual({ total: 4, page: 2, per_page: 3 });
    const past = await call(app, "GET", "/flows?page=9", { key: org.key });
    expect(past.json).toEqual({ data: [], meta: { total: 4, page: 9, per_page: 25 } });
    expect((await call(app, "GET", "/flows?per_page=100", { key: org.key })).status).toBe(200);
  });

  test.each([
    ["per_page=0"], ["per_page=101"], ["per_page=1.5"], ["per_page=abc"], ["page=0"], ["page=-1"], ["page="], ["type=other"],
  ])("C3: %s → 400 invalid_body", async (query) => {
    const answer = await call(app, "GET", `/flows?${query}`, { key: org.key });
    expect(answer.status).toBe(400);
    expect(answer.json.error.code).toBe("invalid_body");
  });

  test("C3: unknown query parameters are ignored", async () => {
    expect((await call(app, "GET", "/flows?color=red", { key: org.key })).status).toBe(200);
  });

  test("tenancy: another organization's flows are not listed", async () => {
    const mine = (await call(app, "GET", "/flows", { key: org.key })).json.data.map((f: { id: string }) => f.id);
    const theirs = (await call(app, "GET", "/flows", { key: other.key })).json.data.map((f: { id: string }) => f.id);
    expect(mine.filter((id: string) => theirs.includes(id))).toEqual([]);
  });
});

describe("GET /flows/{id}/stages", () => {
  const app = makeApp();
  const org = makeOrg(app);
  const other = makeOrg(app);

  test("C3: sorted by position, meta {total: n, page: 1, per_page: n}", async () => {
    const flow = (await call(app, "GET", "/flows?type=sales", { key: org.key })).json.data[0];
    const answer = await call(app, "GET", `/flows/${flow.id}/stages`, { key: org.key });
    expect(answer.status).toBe(200);
    expect(answer.json.meta).toEqual({ total: 5, page: 1, per_page: 5 });
    expect(answer.json.data).toEqual(flow.stages);
  });

  test("tenancy: another organization's flow is 404", async () => {
    const flow = (await call(app, "GET", "/flows", { key: other.key })).json.data[0];
    const answer = await call(app, "GET", `/flows/${flow.id}/stages`, { key: org.key });
    expect(answer.status).toBe(404);
    expect(answer.json.error.code).toBe("not_found");
  });
});

describe("C4: flow create --default moves the default flag", () => {
  test("at most one default flow per type", async () => {
    const app = makeApp();
    const org = makeOrg(app);
    await app.dossier.store.write(() => insertFlow(app.dossier, org.id, { type: "candidate", name: "New default", isDefault: true, stages: [{ name: "Only" }] }));
    const flows = (await call(app, "GET", "/flows?type=candidate", { key: org.key })).json.data;
    expect(flows.map((f: { name: string; is_default: boolean }) => [f.name, f.is_default])).toEqual([
      ["New default", true],
      ["Recruitment", false],
    ]);
  });
});
