// A flow's figures over a period (C18 GET /flows/{id}/stats, C20 "Stats definitions", "Stats edge
// cases", "Stats left, active"). Each figure is defined in docs/figures.md as computed here.
import type { Static } from "@sinclair/typebox";
import type { Context } from "../context";
import type { PipelineRow } from "../db/stats";
import { invalidBody } from "../errors";
import type { FlowStats as FlowStatsSchema, StageFigures as StageFiguresSchema } from "../schemas/stats";

export type StageFigures = Static<typeof StageFiguresSchema>;
export type FlowStats = Static<typeof FlowStatsSchema>;

const DEFAULT_DAYS = 90;
const DAY_MS = 86_400_000;
/** A date, or a date and time with its zone (ISO 8601). */
const ISO = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

function instant(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (!ISO.test(value) || Number.isNaN(ms)) throw invalidBody(`${name}: must be an ISO 8601 timestamp, e.g. 2026-01-31T00:00:00Z`);
  return ms;
}

/** The period asked for: `to` defaults to now, `from` to 90 days before `to`. */
export function period(ctx: Context, query: { from?: string; to?: string }): { from: string; to: string } {
  const to = instant(query.to, "to") ?? ctx.now().getTime();
  const from = instant(query.from, "from") ?? to - DEFAULT_DAYS * DAY_MS;
  if (from > to) throw invalidBody("from: must not be after to");
  return { from: new Date(from).toISOString(), to: new Date(to).toISOString() };
}

export const flowExists = async (ctx: Context, organizationId: string, flowId: string): Promise<boolean> => (await ctx.store.stats.flow(organizationId, flowId)) !== null;

/** The flow's figures, or null when the flow is not the organization's. */
export async function flowStats(ctx: Context, organizationId: string, flowId: string, asked: { from: string; to: string }): Promise<FlowStats | null> {
  const now = ctx.now().toISOString();
  const { from, to } = asked;
  const q = ctx.store.stats;
  return await ctx.store.read(async () => {
    const flow = await q.flow(organizationId, flowId);
    if (!flow) return null;
    const groups = await q.activeByStage(organizationId, flowId, now);
    const active = new Map<string | null, number>();
    const overdue = new Map<string | null, number>();
    const pipeline = new Map<string, PipelineRow>();
    for (const group of groups) {
      active.set(group.stage_id, (active.get(group.stage_id) ?? 0) + group.active);
      overdue.set(group.stage_id, (overdue.get(group.stage_id) ?? 0) + group.overdue);
      if (group.currency === null || group.open_value === null) continue;
      const sum = pipeline.get(group.currency) ?? { currency: group.currency, open_value: 0, weighted_value: 0 };
      sum.open_value += group.open_value;
      sum.weighted_value += group.weighted_value ?? 0;
      pipeline.set(group.currency, sum);
    }
    const stages: StageFigures[] = [];
    for (const stage of await q.stages(organizationId, flowId)) {
      const { days, went_on } = await q.staysLeft(organizationId, flowId, stage.id, stage.position, from, to);
      const left = days.length;
      stages.push({
        stage_id: stage.id,
        name: stage.name,
        position: stage.position,
        active: active.get(stage.id) ?? 0,
        overdue: overdue.get(stage.id) ?? 0,
        entered: await q.entered(organizationId, stage.id, from, to),
        left,
        median_days: left === 0 ? null : median(days),
        went_on,
        went_on_share: left === 0 ? null : went_on / left,
      });
    }
    const { won, lost } = await q.outcomes(organizationId, flowId, from, to);
    return {
      flow_id: flowId,
      from,
      to,
      stages,
      won,
      lost,
      win_rate: won + lost === 0 ? null : won / (won + lost),
      pipeline: flow.type === "sales" ? [...pipeline.values()].sort((a, b) => (a.currency < b.currency ? -1 : 1)) : null,
    };
  });
}

/** The middle one of an odd count, the mean of the middle two of an even one (sorts `values`). */
function median(values: Float64Array): number {
  values.sort();
  const mid = Math.floor((values.length - 1) / 2);
  return values.length % 2 ? values[mid] : (values[mid] + values[mid + 1]) / 2;
}
