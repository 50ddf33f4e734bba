// Flows and their stages (api-v1 "Flows", C4).
import type { Static } from "@sinclair/typebox";
import type { Context } from "../context";
import { invalidBody } from "../errors";
import { newId } from "../ids";
import type { Flow as FlowSchema, FlowType as FlowTypeSchema, Stage as StageSchema } from "../schemas/flows";

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

const COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/** Checks a stage list as given to `flow create` (C4, C10); throws invalid_body. */
export function validateStages(input: unknown): StageInput[] {
  if (!Array.isArray(input) || input.length === 0) throw invalidBody("stages: a flow needs at least one stage");
  return input.map((stage, i) => {
    const where = `stages[${i}]`;
    if (typeof stage !== "object" || stage === null || Array.isArray(stage)) throw invalidBody(`${where}: must be an object`);
    for (const key of Object.keys(stage)) {
      if (!["name", "deadline_days", "win_probability", "color"].includes(key)) throw invalidBody(`${where}: unknown field "${key}"`);
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
      color: (color as string | undefined) ?? "#9E9E9E",
    };
  });
}

/** Inserts a flow and its stages; call inside a unit. `isDefault` takes the flag from the
 * type's current default flow (C4). */
export function insertFlow(
  ctx: Context,
  organizationId: string,
  input: { type: FlowType; name: string; isDefault: boolean; stages: StageInput[] },
): Flow {
  if (input.isDefault) ctx.store.flows.clearDefault(organizationId, input.type);
  const id = newId();
  const flow: Flow = {
    id,
    organization_id: organizationId,
    name: input.name,
    type: input.type,
    is_default: input.isDefault,
    stages: input.stages.map((s, i) => ({
      id: newId(),
      flow_id: id,
      name: s.name,
      position: i + 1,
      deadline_days: s.deadline_days ?? null,
      win_probability: s.win_probability ?? 0,
      color: s.color ?? "#9E9E9E",
    })),
  };
  ctx.store.flows.insert({ ...flow, created_at: ctx.now().toISOString() });
  return flow;
}

export function insertDefaultFlows(ctx: Context, organizationId: string): Flow[] {
  return DEFAULT_FLOWS.map((f) => insertFlow(ctx, organizationId, { ...f, isDefault: true }));
}

/** By name, then id, each with its stages. */
export function listFlows(ctx: Context, organizationId: string, query: { type?: FlowType; page: number; perPage: number }) {
  const { flows } = ctx.store;
  return ctx.store.read(() => ({
    total: flows.count(organizationId, query.type),
    data: flows.page(organizationId, query.type, query.perPage, (query.page - 1) * query.perPage),
  }));
}

/** The flow's stages by position, or null when the flow is not the organization's. */
export function listStages(ctx: Context, organizationId: string, flowId: string): Stage[] | null {
  const { flows } = ctx.store;
  return ctx.store.read(() => (flows.exists(organizationId, flowId) ? flows.stagesOf(organizationId, flowId) : null));
}
