// GET /flows, GET /flows/{id}/stages (api-v1 "Flows", C3, C4).
import { Type as t } from "@sinclair/typebox";
import { Elysia } from "elysia";
import type { Context } from "../../context";
import { notFound } from "../../errors";
import { List, PagingQuery } from "../../schemas/common";
import { Flow, FlowType, Stage } from "../../schemas/flows";
import { listFlows, listStages } from "../../services/flows";
import type { Auth } from "../auth";
import { operation } from "../openapi-doc";
import { all, enumParam, page, paging, pathId, searchParams } from "../request";

export const flowRoutes = (ctx: Context, auth: Auth) =>
  new Elysia()
    .use(auth)
    .get(
      "/flows",
      ({ request, principal }) => {
        const params = searchParams(request);
        const type = enumParam(params, "type", ["candidate", "sales"] as const);
        const paged = paging(params);
        const { data, total } = listFlows(ctx, principal.organizationId, { type, ...paged });
        return page(data, total, paged);
      },
      {
        scopes: ["flows:read"],
        detail: operation({
          id: "listFlows",
          summary: "List flows with their stages",
          tag: "Flows",
          scopes: ["flows:read"],
          description: "Sorted by name; each flow's stages by position.",
          query: { type: t.Union(FlowType.anyOf, { description: "Only flows of this type" }), ...PagingQuery },
          responses: { 200: List(Flow) },
          errors: ["invalid_body"],
        }),
      },
    )
    .get(
      "/flows/:id/stages",
      ({ params, principal }) => {
        const stages = listStages(ctx, principal.organizationId, pathId(params.id));
        if (!stages) throw notFound("flow not found");
        return all(stages);
      },
      {
        scopes: ["flows:read"],
        detail: operation({
          id: "listStages",
          summary: "List a flow's stages",
          params: { id: "The flow's id" },
          tag: "Flows",
          scopes: ["flows:read"],
          description: "Not paginated: meta is {total: n, page: 1, per_page: n}.",
          responses: { 200: List(Stage) },
          errors: ["not_found"],
        }),
      },
    );
