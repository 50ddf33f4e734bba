// Flows and their stages (api-v1 "Flows", C3, C4, C13, C20).
//   GET    /flows               sorted by name, paged; type
//   POST   /flows               a flow with its stages
//   PATCH  /flows/:id           rename, make the default
//   GET    /flows/:id/stages    by position, not paged
//   POST   /flows/:id/stages    add a stage (last, or at a position)
//   PATCH  /stages/:id          edit a stage, move it
//   DELETE /stages/:id          delete a stage
import { chain } from "../../awaitable";
import { notFound } from "../../errors";
import { List, One } from "../../schemas/common";
import { CreateFlow, CreateStage, DeletedStage, Flow, FlowQuery, PatchFlow, PatchStage, Stage } from "../../schemas/flows";
import { addStage, createFlow, deleteStage, getFlow, getStage, listFlows, listStages, patchFlow, patchStage } from "../../services/flows";
import { defineRoute, type Asked } from "../route";
import { all, one, page, paging } from "../request";
import { statsRoutes } from "./stats";

const flowExists = async ({ ctx, principal, params }: Asked<"id">) => (await getFlow(ctx, principal.organizationId, params.id)).id;
const stageId = async ({ ctx, principal, params }: Asked<"id">) => (await getStage(ctx, principal.organizationId, params.id)).id;

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
      return chain(listFlows(ctx, principal.organizationId, { type: query.type, ...paged }), ({ data, total }) => page(data, total, paged));
    },
  }),
  defineRoute({
    id: "createFlow",
    location: (created) => `/flows/${created.id}`,
    method: "POST",
    path: "/flows",
    summary: "Create a flow with its stages",
    tag: "Flows",
    description:
      "Stages take their position from their place in the array; `win_probability` defaults to 0, `color` to #9E9E9E. With `is_default: true` the flag moves from the type's current default flow.",
    scopes: ["flows:write"],
    body: CreateFlow,
    responses: { 201: { schema: One(Flow), description: "The flow was created, with its stages in the order given" } },
    handler: async ({ ctx, principal, body }) => one(await createFlow(ctx, principal.organizationId, body)),
  }),
  defineRoute({
    id: "patchFlow",
    method: "PATCH",
    path: "/flows/:id",
    summary: "Rename a flow or make it the default",
    tag: "Flows",
    description:
      "`is_default: true` moves the flag from the type's current default flow. Each type keeps a default: `is_default: false` on the default flow is 400 invalid_body (make another flow the default instead).",
    scopes: ["flows:write"],
    params: { id: "The flow's id" },
    load: flowExists,
    body: PatchFlow,
    responses: { 200: { schema: One(Flow), description: "The flow as it is now, with its stages" } },
    handler: async ({ ctx, principal, resource: id, body }) => one(await patchFlow(ctx, principal.organizationId, id, body)),
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
    handler: async ({ ctx, principal, params }) => {
      const stages = await listStages(ctx, principal.organizationId, params.id);
      if (!stages) throw notFound("flow not found");
      return all(stages);
    },
  }),
  ...statsRoutes,
  defineRoute({
    id: "createStage",
    location: (created) => `/stages/${created.id}`,
    method: "POST",
    path: "/flows/:id/stages",
    summary: "Add a stage to a flow",
    tag: "Flows",
    description:
      "Without `position` the stage goes last; with one (1 to n + 1), the stages from there on move one down, so positions stay 1..n.",
    scopes: ["flows:write"],
    params: { id: "The flow's id" },
    load: flowExists,
    body: CreateStage,
    responses: { 201: { schema: One(Stage), description: "The stage was added to the flow" } },
    handler: async ({ ctx, principal, resource: id, body }) => one(await addStage(ctx, principal.organizationId, id, body)),
  }),
  defineRoute({
    id: "patchStage",
    method: "PATCH",
    path: "/stages/:id",
    summary: "Edit or move a stage",
    tag: "Flows",
    description:
      "A new `position` (1 to n) moves the stage: the stages between its old and new place shift by one, so positions stay 1..n. A new `deadline_days` applies to dossiers that enter the stage from then on.",
    scopes: ["flows:write"],
    params: { id: "The stage's id" },
    load: stageId,
    body: PatchStage,
    responses: { 200: { schema: One(Stage), description: "The stage as it is now" } },
    handler: async ({ ctx, principal, resource: id, body }) => one(await patchStage(ctx, principal.organizationId, id, body)),
  }),
  defineRoute({
    id: "deleteStage",
    method: "DELETE",
    path: "/stages/:id",
    summary: "Delete a stage",
    tag: "Flows",
    description:
      "A flow keeps at least one stage (409 last_stage, checked first); a stage that any dossier is in, archived ones too, cannot be deleted (409 stage_not_empty). The stages after it close up.",
    scopes: ["flows:write"],
    params: { id: "The stage's id" },
    load: stageId,
    responses: { 200: { schema: One(DeletedStage), description: "The stage was deleted; the flow's other stages moved up to close the gap" } },
    errors: ["last_stage", "stage_not_empty"],
    handler: async ({ ctx, principal, resource: id }) => one(await deleteStage(ctx, principal.organizationId, id)),
  }),
];
