// A flow's figures (C18), listed with the flow routes.
//   GET /flows/:id/stats   per stage and for the flow, over from/to (default the last 90 days)
import { notFound } from "../../errors";
import { FlowStatsAnswer, StatsQuery } from "../../schemas/stats";
import { flowExists, flowStats, period } from "../../services/stats";
import { defineRoute } from "../route";

export const statsRoutes = [
  defineRoute({
    id: "getFlowStats",
    method: "GET",
    path: "/flows/:id/stats",
    summary: "A flow's pipeline figures",
    tag: "Flows",
    description:
      "Per stage: active and overdue (now), entered and left in the period, the median days of the stays that left, and the share that went on to a later stage; " +
      "for the flow: won, lost and the win rate in the period; for sales flows the open pipeline value and its value weighted by win_probability, per currency. " +
      "Each figure is defined in docs/figures.md. `from` after `to`, or a value that is not ISO 8601: 400.",
    scopes: ["flows:read", "dossiers:read"],
    params: { id: "The flow's id" },
    load: async ({ ctx, principal, params }) => {
      if (!(await flowExists(ctx, principal.organizationId, params.id))) throw notFound("flow not found");
    },
    query: StatsQuery,
    responses: { 200: { schema: FlowStatsAnswer, description: "The flow's figures over the period" } },
    handler: async ({ ctx, principal, params, query }) => {
      const stats = await flowStats(ctx, principal.organizationId, params.id, period(ctx, query));
      if (!stats) throw notFound("flow not found");
      return { data: stats };
    },
  }),
];
