// A dossier's history (C18), listed with the dossier routes.
//   GET /dossiers/:id/history   every item, oldest first, and the stays in stages (not paged)
import { notFound } from "../../errors";
import { DossierHistory } from "../../schemas/history";
import { dossierHistory } from "../../services/history";
import { dossierExists } from "../../services/links";
import { defineRoute } from "../route";

export const historyRoutes = [
  defineRoute({
    id: "getDossierHistory",
    method: "GET",
    path: "/dossiers/:id/history",
    summary: "What happened to a dossier",
    tag: "Dossiers",
    description:
      "Every change, oldest first, with who made it and each field's [old, new]; one item per kind of change per request. " +
      "Not paginated: a dossier's history grows only with what is done to it, and meta.stages (the time spent in each stage, by entered_at) needs it whole.",
    scopes: ["dossiers:read"],
    params: { id: "The dossier's id (archived dossiers too)" },
    load: async ({ ctx, principal, params }) => {
      if (!(await dossierExists(ctx, principal.organizationId, params.id))) throw notFound("dossier not found");
      return params.id;
    },
    responses: { 200: { schema: DossierHistory, description: "The dossier's history, oldest first, and its stays in stages" } },
    handler: ({ ctx, principal, resource: id }) => dossierHistory(ctx, principal.organizationId, id),
  }),
];
