// Flows and their stages (api-v1 "Flows", C3, C4).
//   GET /flows               sorted by name, paged; type
//   GET /flows/:id/stages    by position, not paged
import { notFound } from "../../errors";
import { List } from "../../schemas/common";
import { Flow, FlowQuery, Stage } from "../../schemas/flows";
import { listFlows, listStages } from "../../services/flows";
import { defineRoute } from "../route";
import { all, page, paging } from "../request";
import { statsRoutes } from "./stats";

export const flowRoutes = [
  defineRoute({
    id: "listFlows",
    method: "GET",
    path: "/flows",
    summary: "List flows with their stages",
    tag: "Flows",
    description: "Sorted by name; each flow's stages by position.",
    scopes: ["flows:read"],
    query: FlowQuery,
    responses: { 200: { schema: List(Flow), description: "A page of the organization's flows, each with its stages sorted by position" } },
    handler: ({ ctx, principal, query }) => {
      const paged = paging(query);
      const { data, total } = listFlows(ctx, principal.organizationId, { type: query.type, ...paged });
      return page(data, total, paged);
    },
  }),
  defineRoute({
    id: "listStages",
    method: "GET",
    path: "/flows/:id/stages",
    summary: "List a flow's stages",
    tag: "Flows",
    description: "Not paginated: meta is {total: n, page: 1, per_page: n}.",
    scopes: ["flows:read"],
    params: { id: "The flow's id" },
    responses: { 200: { schema: List(Stage), description: "Every stage of the flow, sorted by position (not paginated: meta.per_page is the number of stages)" } },
    handler: ({ ctx, principal, params }) => {
      const stages = listStages(ctx, principal.organizationId, params.id);
      if (!stages) throw notFound("flow not found");
      return all(stages);
    },
  }),
  ...statsRoutes,
];
