// C13, C20: flows and stages over the API (POST /flows, PATCH /flows/{id}, POST /flows/{id}/stages,
// PATCH /stages/{id}, DELETE /stages/{id}), with `flows:write`.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { call, makeOrg, type Org } from "../helpers";
import { ENGINES, appOn } from "../helpers/stores";
import { refused, scenarios, type World } from "../helpers/scenario";
import type { DossierApp } from "../../src/app";
import type { Store } from "../../src/db/store";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

type Stage = { id: string; name: string; position: number };
type Flow = { id: string; name: string; is_default: boolean; stages: Stage[] };

async function post<T>(app: DossierApp<Store>, org: Org, path: string, body: unknown): Promise<T> {
  const answer = await call(app, "POST", path, { key: org.key, body });
  if (answer.status !== 201) throw new Error(`setup: ${path} answered ${answer.status} ${answer.text}`);
  return answer.json.data as T;
}

/** A candidate flow of three stages (A, B, C), a flow of one stage, the default candidate flow, an
 * archived dossier in B, and another organization's stage. */
async function flows({ app, org, other }: World) {
  const three = await post<Flow>(app, org, "/flows", { type: "candidate", name: "Three", stages: [{ name: "A" }, { name: "B" }, { name: "C" }] });
  const solo = await post<Flow>(app, org, "/flows", { type: "candidate", name: "Solo", stages: [{ name: "Only" }] });
  const [a, b, c] = three.stages;
  const dossier = await post<{ id: string }>(app, org, "/dossiers", { type: "candidate", name: "Ada", flow_id: three.id });
  expect((await call(app, "PATCH", `/dossiers/${dossier.id}`, { key: org.key, body: { current_stage_id: b.id } })).status).toBe(200);
  expect((await call(app, "DELETE", `/dossiers/${dossier.id}`, { key: org.key })).status).toBe(200);
  const listed = (await call(app, "GET", "/flows?type=candidate", { key: org.key })).json.data as Flow[];
  const recruitment = listed.find((f) => f.is_default)!;
  const theirs = (await call(app, "GET", "/flows", { key: other.key })).json.data[0] as Flow;
  return { three, solo, a, b, c, only: solo.stages[0], recruitment, theirFlow: theirs, theirStage: theirs.stages[0] };
}

const NOBODY = "00000000-0000-4000-8000-000000000000";

scenarios("POST /flows (C13): a flow with its stages", flows, [
  {
    name: "C13, C10: 201 with the stages in the order given, positions 1..n, defaults filled in, the name trimmed; no event",
    method: "POST",
    path: "/flows",
    body: { type: "sales", name: "  Partners  ", stages: [{ name: " Intro ", deadline_days: 0 }, { name: "Signed", win_probability: 100, color: "#abc" }] },
    status: 201,
    json: {
      data: {
        name: "Partners",
        type: "sales",
        is_default: false,
        stages: [
          { name: "Intro", position: 1, deadline_days: 0, win_probability: 0, color: "#9E9E9E" },
          { name: "Signed", position: 2, deadline_days: null, win_probability: 100, color: "#abc" },
        ],
      },
    },
  },
  { name: "C4: is_default true makes it the default", method: "POST", path: "/flows", body: { type: "candidate", name: "New", is_default: true, stages: [{ name: "One" }] }, status: 201, json: { data: { is_default: true } } },
  { name: "C4: a flow needs at least one stage", method: "POST", path: "/flows", body: { type: "sales", name: "Empty", stages: [] }, status: 400, json: refused("invalid_body", "stages") },
  { name: "C3: a name of spaces is refused", method: "POST", path: "/flows", body: { type: "sales", name: "   ", stages: [{ name: "One" }] }, status: 400, json: refused("invalid_body", "name") },
  { name: "C3: a name over 200 characters is refused", method: "POST", path: "/flows", body: { type: "sales", name: "x".repeat(201), stages: [{ name: "One" }] }, status: 400, json: refused("invalid_body", "name") },
  { name: "C3: a stage name of spaces is refused, naming it", method: "POST", path: "/flows", body: { type: "sales", name: "F", stages: [{ name: "One" }, { name: " " }] }, status: 400, json: refused("invalid_body", "stages[1].name") },
  { name: "C3: an unknown field of a stage is refused", method: "POST", path: "/flows", body: { type: "sales", name: "F", stages: [{ name: "One", position: 1 }] }, status: 400, json: refused("invalid_body", "position") },
  { name: "C10: a colour that is not #RGB or #RRGGBB is refused", method: "POST", path: "/flows", body: { type: "sales", name: "F", stages: [{ name: "One", color: "red" }] }, status: 400, json: refused("invalid_body", "color") },
  { name: "C3: win_probability over 100 is refused", method: "POST", path: "/flows", body: { type: "sales", name: "F", stages: [{ name: "One", win_probability: 101 }] }, status: 400, json: refused("invalid_body", "win_probability") },
  { name: "C4: an unknown type is refused", method: "POST", path: "/flows", body: { type: "other", name: "F", stages: [{ name: "One" }] }, status: 400, json: refused("invalid_body", "type") },
  { name: "C13: flows:read alone is 403", as: ["flows:read"], method: "POST", path: "/flows", body: { type: "sales", name: "F", stages: [{ name: "One" }] }, status: 403, json: refused("forbidden") },
  { name: "C8: no key is 401", as: "no key", method: "POST", path: "/flows", body: { type: "sales", name: "F", stages: [{ name: "One" }] }, status: 401 },
  { name: "C8: the Pro plan is 402", as: "pro plan", method: "POST", path: "/flows", body: { type: "sales", name: "F", stages: [{ name: "One" }] }, status: 402 },
]);

scenarios("PATCH /flows/{id} (C13, C20)", flows, [
  { name: "C13: rename (trimmed)", method: "PATCH", path: "/flows/{three}", body: { name: " Renamed " }, status: 200, json: { data: { name: "Renamed", is_default: false, stages: [{ name: "A" }, { name: "B" }, { name: "C" }] } } },
  { name: "C13: make it the default", method: "PATCH", path: "/flows/{three}", body: { is_default: true }, status: 200, json: { data: { is_default: true } } },
  { name: "C20: is_default false on the default flow is 400: each type keeps a default", method: "PATCH", path: "/flows/{recruitment}", body: { is_default: false }, status: 400, json: refused("invalid_body", "is_default") },
  { name: "C20: is_default false on a flow that is not the default changes nothing", method: "PATCH", path: "/flows/{three}", body: { is_default: false }, status: 200, json: { data: { is_default: false } }, unchanged: true },
  { name: "C10: {} changes nothing", method: "PATCH", path: "/flows/{three}", body: {}, status: 200, unchanged: true },
  { name: "C10: the same name changes nothing", method: "PATCH", path: "/flows/{three}", body: { name: "Three" }, status: 200, unchanged: true },
  { name: "C3: a name of spaces is refused", method: "PATCH", path: "/flows/{three}", body: { name: " " }, status: 400, json: refused("invalid_body", "name") },
  { name: "C10: type cannot be changed", method: "PATCH", path: "/flows/{three}", body: { type: "sales" }, status: 400, json: refused("invalid_body", "type") },
  { name: "C3: another organization's flow is 404", method: "PATCH", path: "/flows/{theirFlow}", body: { name: "Mine" }, status: 404, json: refused("not_found") },
  { name: "C3: a malformed id is 404, before the body", method: "PATCH", path: "/flows/nope", body: { name: 3 }, status: 404, json: refused("not_found") },
  { name: "C3: 403 comes before 404", as: ["flows:read"], method: "PATCH", path: `/flows/${NOBODY}`, body: { name: "x" }, status: 403, json: refused("forbidden") },
]);

scenarios("POST /flows/{id}/stages (C13, C20)", flows, [
  { name: "C20: without position the stage goes last", method: "POST", path: "/flows/{three}/stages", body: { name: "D" }, status: 201, json: { data: { name: "D", position: 4, win_probability: 0, color: "#9E9E9E", deadline_days: null } } },
  { name: "C20: at a position, 201 with the Stage", method: "POST", path: "/flows/{three}/stages", body: { name: "First", position: 1, deadline_days: 2, win_probability: 5, color: "#123456" }, status: 201, json: { data: { name: "First", position: 1, deadline_days: 2, win_probability: 5, color: "#123456" } } },
  { name: "C20: position n + 1 is last", method: "POST", path: "/flows/{three}/stages", body: { name: "D", position: 4 }, status: 201, json: { data: { position: 4 } } },
  { name: "C20: a position past n + 1 is refused", method: "POST", path: "/flows/{three}/stages", body: { name: "D", position: 5 }, status: 400, json: refused("invalid_body", "position") },
  { name: "C20: position 0 is refused", method: "POST", path: "/flows/{three}/stages", body: { name: "D", position: 0 }, status: 400, json: refused("invalid_body", "position") },
  { name: "C3: a name is required", method: "POST", path: "/flows/{three}/stages", body: {}, status: 400, json: refused("invalid_body", "name") },
  { name: "C3: another organization's flow is 404", method: "POST", path: "/flows/{theirFlow}/stages", body: { name: "D" }, status: 404, json: refused("not_found") },
  { name: "C13: flows:read alone is 403", as: ["flows:read"], method: "POST", path: "/flows/{three}/stages", body: { name: "D" }, status: 403 },
]);

scenarios("PATCH /stages/{id} (C13, C20)", flows, [
  {
    name: "C13: name, deadline_days, win_probability and color",
    method: "PATCH",
    path: "/stages/{b}",
    body: { name: " Bee ", deadline_days: null, win_probability: 60, color: "#FFFFFF" },
    status: 200,
    json: (f) => ({ data: { id: f.b.id, name: "Bee", position: 2, deadline_days: null, win_probability: 60, color: "#FFFFFF" } }),
  },
  { name: "C13: a move answers the stage at its new position", method: "PATCH", path: "/stages/{a}", body: { position: 3 }, status: 200, json: { data: { name: "A", position: 3 } } },
  { name: "C10: {} changes nothing", method: "PATCH", path: "/stages/{b}", body: {}, status: 200, json: { data: { name: "B", position: 2 } }, unchanged: true },
  { name: "C10: its own position changes nothing", method: "PATCH", path: "/stages/{b}", body: { position: 2, name: "B" }, status: 200, unchanged: true },
  { name: "C20: a position past n is refused", method: "PATCH", path: "/stages/{b}", body: { position: 4 }, status: 400, json: refused("invalid_body", "position") },
  { name: "C10: deadline_days below 0 is refused", method: "PATCH", path: "/stages/{b}", body: { deadline_days: -1 }, status: 400, json: refused("invalid_body", "deadline_days") },
  { name: "C10: a bad colour is refused", method: "PATCH", path: "/stages/{b}", body: { color: "#12" }, status: 400, json: refused("invalid_body", "color") },
  { name: "C10: null for name is refused", method: "PATCH", path: "/stages/{b}", body: { name: null }, status: 400, json: refused("invalid_body", "name") },
  { name: "C10: flow_id cannot be changed", method: "PATCH", path: "/stages/{b}", body: (f) => ({ flow_id: f.solo.id }), status: 400, json: refused("invalid_body", "flow_id") },
  { name: "C3: another organization's stage is 404", method: "PATCH", path: "/stages/{theirStage}", body: { name: "Mine" }, status: 404, json: refused("not_found") },
  { name: "C3: an unknown stage is 404", method: "PATCH", path: `/stages/${NOBODY}`, body: { name: "x" }, status: 404, json: refused("not_found") },
]);

scenarios("DELETE /stages/{id} (C13, C20)", flows, [
  { name: "C20: an empty stage: 200 {id, deleted: true}", method: "DELETE", path: "/stages/{c}", status: 200, json: (f) => ({ data: { id: f.c.id, deleted: true } }) },
  { name: "C20: a stage that holds an archived dossier is 409 stage_not_empty", method: "DELETE", path: "/stages/{b}", status: 409, json: refused("stage_not_empty") },
  { name: "C13: a flow's last stage is 409 last_stage", method: "DELETE", path: "/stages/{only}", status: 409, json: refused("last_stage") },
  { name: "C3: another organization's stage is 404", method: "DELETE", path: "/stages/{theirStage}", status: 404, json: refused("not_found") },
  { name: "C13: flows:read alone is 403", as: ["flows:read"], method: "DELETE", path: "/stages/{c}", status: 403, json: refused("forbidden") },
]);

describe.each(ENGINES)("C20: last_stage is checked before stage_not_empty on %s", async (engine) => {
  test("the last stage of a flow, holding a dossier, answers last_stage", async () => {
    const app = await appOn(engine);
    const org = await makeOrg(app);
    const solo = await post<Flow>(app, org, "/flows", { type: "sales", name: "Solo", stages: [{ name: "Only" }] });
    await post(app, org, "/dossiers", { type: "sales", name: "Deal", flow_id: solo.id });
    const answer = await call(app, "DELETE", `/stages/${solo.stages[0].id}`, { key: org.key });
    expect(answer.status).toBe(409);
    expect(answer.json.error.code).toBe("last_stage");
  });
});

describe.each(ENGINES)("C20: stage positions are always 1..n, in order on %s", async (engine) => {
  const app = await appOn(engine);
  const org = await makeOrg(app);

  const names = async (flowId: string) => {
    const stages = (await call(app, "GET", `/flows/${flowId}/stages`, { key: org.key })).json.data as Stage[];
    expect(stages.map((s) => s.position)).toEqual(stages.map((_, i) => i + 1));
    return stages.map((s) => s.name);
  };

  test("after adds, moves and deletes, each checked against a list kept beside it", async () => {
    const flow = await post<Flow>(app, org, "/flows", { type: "sales", name: "Moves", stages: ["A", "B", "C", "D", "E"].map((name) => ({ name })) });
    const model = ["A", "B", "C", "D", "E"];
    const ids = new Map(flow.stages.map((s) => [s.name, s.id]));

    const add = async (name: string, position?: number) => {
      const stage = await post<Stage>(app, org, `/flows/${flow.id}/stages`, position === undefined ? { name } : { name, position });
      ids.set(name, stage.id);
      model.splice(position === undefined ? model.length : position - 1, 0, name);
    };
    const move = async (name: string, position: number) => {
      const answer = await call(app, "PATCH", `/stages/${ids.get(name)}`, { key: org.key, body: { position } });
      expect(answer.json.data.position).toBe(position);
      model.splice(model.indexOf(name), 1);
      model.splice(position - 1, 0, name);
    };
    const remove = async (name: string) => {
      expect((await call(app, "DELETE", `/stages/${ids.get(name)}`, { key: org.key })).status).toBe(200);
      model.splice(model.indexOf(name), 1);
    };

    const steps: [string, () => Promise<void>][] = [
      ["move first to last", () => move("A", 5)],
      ["move last to first", () => move("A", 1)],
      ["move down inside", () => move("B", 4)],
      ["move up inside", () => move("E", 2)],
      ["add last", () => add("F")],
      ["add first", () => add("G", 1)],
      ["add in the middle", () => add("H", 4)],
      ["delete the first", () => remove("G")],
      ["delete in the middle", () => remove("C")],
      ["delete the last", () => remove("F")],
      ["move to the same place", () => move("D", model.indexOf("D") + 1)],
    ];
    for (const [what, step] of steps) {
      await step();
      expect(await names(flow.id), what).toEqual(model);
    }
  });

  test("a flow's other stages and other flows are not moved", async () => {
    const one = await post<Flow>(app, org, "/flows", { type: "sales", name: "One", stages: [{ name: "A" }, { name: "B" }] });
    const two = await post<Flow>(app, org, "/flows", { type: "sales", name: "Two", stages: [{ name: "X" }, { name: "Y" }] });
    await call(app, "PATCH", `/stages/${one.stages[1].id}`, { key: org.key, body: { position: 1 } });
    await post(app, org, `/flows/${one.id}/stages`, { name: "C", position: 1 });
    expect(await names(one.id)).toEqual(["C", "B", "A"]);
    expect(await names(two.id)).toEqual(["X", "Y"]);
  });
});

describe.each(ENGINES)("C4, C13: the default flag moves on %s", async (engine) => {
  test("PATCH is_default true takes the flag from the type's default and leaves the other type's", async () => {
    const app = await appOn(engine);
    const org = await makeOrg(app);
    const mine = await post<Flow>(app, org, "/flows", { type: "candidate", name: "Mine", stages: [{ name: "One" }] });
    expect((await call(app, "PATCH", `/flows/${mine.id}`, { key: org.key, body: { is_default: true } })).json.data.is_default).toBe(true);
    const listed = (await call(app, "GET", "/flows", { key: org.key })).json.data as (Flow & { type: string })[];
    expect(listed.filter((f) => f.is_default).map((f) => [f.type, f.name]).sort()).toEqual([
      ["candidate", "Mine"],
      ["sales", "Sales"],
    ]);
    // The new default is used for a dossier created without flow_id (api-v1 "Flow").
    const dossier = await post<{ flow_id: string }>(app, org, "/dossiers", { type: "candidate", name: "Ada" });
    expect(dossier.flow_id).toBe(mine.id);
  });
});
