// Flows and their stages (api-v1 "Flows", C4).
import { chain } from "../awaitable";
import type { Static } from "@sinclair/typebox";
import type { Context } from "../context";
import { ApiError, invalidBody, notFound } from "../errors";
import { newId } from "../ids";
import type {
  CreateFlow,
  CreateStage,
  Flow as FlowSchema,
  FlowType as FlowTypeSchema,
  PatchFlow,
  PatchStage,
  Stage as StageSchema,
} from "../schemas/flows";
import { writeIntakeAddress } from "./intake";

export type FlowType = Static<typeof FlowTypeSchema>;
export type Stage = Static<typeof StageSchema>;
export type Flow = Static<typeof FlowSchema>;

/** A stage as `flow create` takes it (no schema: the CLI's input, checked by validateStages). */
export interface StageInput {
  name: string;
  deadline_days?: number | null;
  win_probability?: number;
  color?: string;
}

export const DEFAULT_FLOWS: { type: FlowType; name: string; stages: Required<StageInput>[] }[] = [
  {
    type: "candidate",
    name: "Recruitment",
    stages: [
      { name: "Applied", deadline_days: 3, win_probability: 10, color: "#90CAF9" },
      { name: "Screening", deadline_days: 7, win_probability: 25, color: "#64B5F6" },
      { name: "Interview", deadline_days: 14, win_probability: 50, color: "#FFB74D" },
      { name: "Offer", deadline_days: 7, win_probability: 80, color: "#81C784" },
      { name: "Hired", deadline_days: null, win_probability: 100, color: "#388E3C" },
    ],
  },
  {
    type: "sales",
    name: "Sales",
    stages: [
      { name: "Lead", deadline_days: 7, win_probability: 10, color: "#B0BEC5" },
      { name: "Qualified", deadline_days: 14, win_probability: 25, color: "#4FC3F7" },
      { name: "Proposal", deadline_days: 14, win_probability: 50, color: "#FFB74D" },
      { name: "Negotiation", deadline_days: 21, win_probability: 75, color: "#FF8A65" },
      { name: "Closed", deadline_days: null, win_probability: 100, color: "#388E3C" },
    ],
  },
];

const DEFAULT_COLOR = "#9E9E9E";
const COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/** Checks a stage list as given to `flow create` (C4, C10); throws invalid_body. */
export function validateStages(input: unknown): StageInput[] {
  if (!Array.isArray(input) || input.length === 0) throw invalidBody("stages: a flow needs at least one stage");
  return input.map((stage, i) => {
    const where = `stages[${i}]`;
    if (typeof stage !== "object" || stage === null || Array.isArray(stage)) throw invalidBody(`${where}: must be an object`);
    for (const key of Object.keys(stage)) {
      if (!["name", "deadline_days", "win_probability", "color"].includes(key)) throw invalidBody(`${where}: unknown field "${key}"`, `${where}.${key}`);
    }
    const { name, deadline_days, win_probability, color } = stage as Record<string, unknown>;
    if (typeof name !== "string" || name.trim() === "" || [...name.trim()].length > 200) {
      throw invalidBody(`${where}.name: must be 1 to 200 characters`);
    }
    if (deadline_days !== undefined && deadline_days !== null && !(Number.isInteger(deadline_days) && (deadline_days as number) >= 0)) {
      throw invalidBody(`${where}.deadline_days: must be an integer >= 0 or null`);
    }
    if (win_probability !== undefined && !(Number.isInteger(win_probability) && (win_probability as number) >= 0 && (win_probability as number) <= 100)) {
      throw invalidBody(`${where}.win_probability: must be an integer from 0 to 100`);
    }
    if (color !== undefined && (typeof color !== "string" || !COLOR.test(color))) {
      throw invalidBody(`${where}.color: must be #RGB or #RRGGBB`);
    }
    return {
      name: name.trim(),
      deadline_days: (deadline_days as number | null | undefined) ?? null,
      win_probability: (win_probability as number | undefined) ?? 0,
      color: (color as string | undefined) ?? DEFAULT_COLOR,
    };
  });
}

/** Inserts a flow and its stages; call inside a unit. `isDefault` takes the flag from the
 * type's current default flow (C4). */
export async function insertFlow(
  ctx: Context,
  organizationId: string,
  input: { type: FlowType; name: string; isDefault: boolean; stages: StageInput[] },
): Promise<Flow> {
  if (input.isDefault) await ctx.store.flows.clearDefault(organizationId, input.type);
  const id = newId();
  const flow: Flow = {
    id,
    organization_id: organizationId,
    name: input.name,
    type: input.type,
    is_default: input.isDefault,
    overdue_tasks: true,
    stages: input.stages.map((s, i) => ({
      id: newId(),
      flow_id: id,
      name: s.name,
      position: i + 1,
      deadline_days: s.deadline_days ?? null,
      win_probability: s.win_probability ?? 0,
      color: s.color ?? DEFAULT_COLOR,
    })),
  };
  await ctx.store.flows.insert({ ...flow, created_at: ctx.now().toISOString() });
  await writeIntakeAddress(ctx, organizationId, id);
  return flow;
}

export async function insertDefaultFlows(ctx: Context, organizationId: string): Promise<Flow[]> {
  const flows: Flow[] = [];
  for (const flow of DEFAULT_FLOWS) flows.push(await insertFlow(ctx, organizationId, { ...flow, isDefault: true }));
  return flows;
}

/** By name, then id, each with its stages. */
export function listFlows(ctx: Context, organizationId: string, query: { type?: FlowType; page: number; perPage: number }) {
  const { flows } = ctx.store;
  // Chained, not awaited: a GET that SQLite answers stays free of promises (src/awaitable.ts).
  return ctx.store.read(() =>
    chain(flows.count(organizationId, query.type), (total) =>
      chain(flows.page(organizationId, query.type, query.perPage, (query.page - 1) * query.perPage), (data) => ({ total, data })),
    ),
  );
}

/** The flow's stages by position, or null when the flow is not the organization's. */
export async function listStages(ctx: Context, organizationId: string, flowId: string): Promise<Stage[] | null> {
  const { flows } = ctx.store;
  return await ctx.store.read(async () => ((await flows.exists(organizationId, flowId)) ? (await flows.stagesOf(organizationId, flowId)) : null));
}

/** A flow's or a stage's name: 1 to 200 code points after trimming (C3), stored trimmed. */
function checkedName(name: string, field = "name"): string {
  const trimmed = name.trim();
  if (trimmed === "" || [...trimmed].length > 200) throw invalidBody(`${field}: must be 1 to 200 characters after trimming`);
  return trimmed;
}

/** POST /flows (C13): a flow with its stages, as `flow create` makes it. */
export function createFlow(ctx: Context, organizationId: string, body: Static<typeof CreateFlow>): Promise<Flow> {
  const name = checkedName(body.name);
  const stages = validateStages(body.stages);
  return ctx.store.write(() => insertFlow(ctx, organizationId, { type: body.type, name, stages, isDefault: body.is_default === true }));
}

/** The flow, or not_found when it is not the organization's. */
export async function getFlow(ctx: Context, organizationId: string, flowId: string): Promise<Flow> {
  const flow = await ctx.store.read(() => ctx.store.flows.byId(organizationId, flowId));
  if (!flow) throw notFound("flow not found");
  return flow;
}

/** PATCH /flows/{id} (C13, C20, C22): rename, turn overdue tasks on or off, or make it the default of its type (the flag moves). Each
 * type keeps a default, so `is_default: false` on the default is refused. */
export async function patchFlow(ctx: Context, organizationId: string, flowId: string, body: Static<typeof PatchFlow>): Promise<Flow> {
  const name = body.name === undefined ? undefined : checkedName(body.name);
  return await ctx.store.write(async () => {
    const { flows } = ctx.store;
    const flow = await flows.byId(organizationId, flowId);
    if (!flow) throw notFound("flow not found");
    if (body.is_default === false && flow.is_default) {
      throw invalidBody("is_default: each type keeps a default flow; make another flow the default instead");
    }
    if (name !== undefined && name !== flow.name) await flows.rename(organizationId, flowId, name);
    if (body.overdue_tasks !== undefined && body.overdue_tasks !== flow.overdue_tasks) await flows.setOverdueTasks(organizationId, flowId, body.overdue_tasks);
    if (body.is_default === true && !flow.is_default) {
      await flows.clearDefault(organizationId, flow.type);
      await flows.makeDefault(organizationId, flowId);
    }
    return (await flows.byId(organizationId, flowId))!;
  });
}

/** The stage, or not_found when it is not the organization's. */
export async function getStage(ctx: Context, organizationId: string, stageId: string): Promise<Stage> {
  const stage = await ctx.store.flows.stageById(organizationId, stageId);
  if (!stage) throw notFound("stage not found");
  return stage;
}

/** POST /flows/{id}/stages (C13, C20): at `position` (the stages from there on move one down), or last. */
export function addStage(ctx: Context, organizationId: string, flowId: string, body: Static<typeof CreateStage>): Promise<Stage> {
  const name = checkedName(body.name);
  return ctx.store.write(async () => {
    const { flows } = ctx.store;
    if (!(await flows.exists(organizationId, flowId))) throw notFound("flow not found");
    const count = await flows.stageCount(organizationId, flowId);
    const position = body.position ?? count + 1;
    if (position > count + 1) throw invalidBody(`position: must be from 1 to ${count + 1}`);
    if (position <= count) await flows.shiftStages(organizationId, flowId, position, count, 1);
    const stage: Stage = {
      id: newId(),
      flow_id: flowId,
      name,
      position,
      deadline_days: body.deadline_days ?? null,
      win_probability: body.win_probability ?? 0,
      color: body.color ?? DEFAULT_COLOR,
    };
    await flows.insertStage(organizationId, stage);
    return stage;
  });
}

/** PATCH /stages/{id} (C13, C20): its fields, and its place (the stages between its old and new place
 * shift by one, so positions stay 1..n). A PATCH that changes nothing writes nothing. */
export function patchStage(ctx: Context, organizationId: string, stageId: string, body: Static<typeof PatchStage>): Promise<Stage> {
  const name = body.name === undefined ? undefined : checkedName(body.name);
  return ctx.store.write(async () => {
    const { flows } = ctx.store;
    const stage = await getStage(ctx, organizationId, stageId);
    const count = await flows.stageCount(organizationId, stage.flow_id);
    if (body.position !== undefined && body.position > count) throw invalidBody(`position: must be from 1 to ${count}`);
    const next: Stage = {
      ...stage,
      ...(name === undefined ? {} : { name }),
      ...(body.deadline_days === undefined ? {} : { deadline_days: body.deadline_days }),
      ...(body.win_probability === undefined ? {} : { win_probability: body.win_probability }),
      ...(body.color === undefined ? {} : { color: body.color }),
      ...(body.position === undefined ? {} : { position: body.position }),
    };
    if (next.position !== stage.position) {
      await flows.placeStage(organizationId, stageId, 0);
      if (next.position < stage.position) await flows.shiftStages(organizationId, stage.flow_id, next.position, stage.position - 1, 1);
      else await flows.shiftStages(organizationId, stage.flow_id, stage.position + 1, next.position, -1);
    }
    const changed = (Object.keys(next) as (keyof Stage)[]).some((field) => next[field] !== stage[field]);
    if (changed) await flows.updateStage(organizationId, next);
    return next;
  });
}

/** DELETE /stages/{id} (C13, C20): a flow keeps at least one stage (checked first), and a stage that
 * any dossier is in, archived ones too, stays; the stages after it close up. */
export function deleteStage(ctx: Context, organizationId: string, stageId: string): Promise<{ id: string; deleted: true }> {
  return ctx.store.write(async () => {
    const { flows } = ctx.store;
    const stage = await getStage(ctx, organizationId, stageId);
    const count = await flows.stageCount(organizationId, stage.flow_id);
    if (count === 1) throw new ApiError("last_stage", "a flow keeps at least one stage: this is the flow's last");
    if ((await flows.stageHoldsDossiers(organizationId, stageId))) {
      throw new ApiError("stage_not_empty", "the stage holds dossiers (archived ones too): move them to another stage first");
    }
    await flows.deleteStage(organizationId, stageId);
    if (stage.position < count) await flows.shiftStages(organizationId, stage.flow_id, stage.position + 1, count, -1);
    return { id: stageId, deleted: true as const };
  });
}
