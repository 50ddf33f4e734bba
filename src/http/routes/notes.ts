// Notes on a dossier (api-v1 "Notes", C3, C10).
//   GET  /dossiers/:id/notes   oldest first, paged
//   POST /dossiers/:id/notes   add a note (archived dossiers too)
import { Elysia } from "elysia";
import type { Context } from "../../context";
import { notFound } from "../../errors";
import { List, One, PagingQuery } from "../../schemas/common";
import { CreateNote, Note } from "../../schemas/notes";
import { getDossier } from "../../services/dossiers";
import { createNote, listNotes } from "../../services/notes";
import type { Auth } from "../auth";
import { operation } from "../openapi-doc";
import { one, page, paging, pathId, readJson, searchParams } from "../request";

export const noteRoutes = (ctx: Context, auth: Auth) => {
  const dossierId = (organizationId: string, id: string) => {
    const dossier = getDossier(ctx, organizationId, pathId(id));
    if (!dossier) throw notFound("dossier not found");
    return dossier.id;
  };

  return new Elysia()
    .use(auth)
    .get(
      "/dossiers/:id/notes",
      ({ params, request, principal }) => {
        const id = dossierId(principal.organizationId, params.id);
        const paged = paging(searchParams(request));
        const { data, total } = listNotes(ctx, principal.organizationId, id, paged);
        return page(data, total, paged);
      },
      {
        scopes: ["notes:read"],
        detail: operation({
          id: "listNotes",
          summary: "List a dossier's notes",
          params: { id: "The dossier's id (archived dossiers too)" },
          tag: "Notes",
          scopes: ["notes:read"],
          description: "Oldest first.",
          query: { ...PagingQuery },
          responses: { 200: List(Note) },
          errors: ["not_found", "invalid_body"],
        }),
      },
    )
    .post(
      "/dossiers/:id/notes",
      async ({ params, request, principal, set }) => {
        const id = dossierId(principal.organizationId, params.id);
        const input = await readJson(request, CreateNote);
        const note = await createNote(ctx, principal.organizationId, id, input);
        set.status = 201;
        return one(note);
      },
      {
        parse: "none",
        scopes: ["notes:write"],
        detail: operation({
          id: "createNote",
          summary: "Add a note to a dossier",
          params: { id: "The dossier's id (archived dossiers too)" },
          tag: "Notes",
          scopes: ["notes:write"],
          description: "`content` must not be empty after trimming; `is_internal` defaults to true. Emits note.created.",
          body: CreateNote,
          responses: { 201: One(Note) },
          errors: ["not_found", "invalid_body", "payload_too_large", "storage_unavailable"],
        }),
      },
    );
};
