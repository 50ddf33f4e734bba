// Notes on a dossier (api-v1 "Notes", C3, C10).
//   GET  /dossiers/:id/notes   oldest first, paged
//   POST /dossiers/:id/notes   add a note (archived dossiers too)
import { chain } from "../../awaitable";
import { CursorPageQuery, One, Paged } from "../../schemas/common";
import { CreateNote, Note } from "../../schemas/notes";
import { createNote, listNotes } from "../../services/notes";
import { defineRoute } from "../route";
import { cursorPaging, one, pagedAnswer } from "../request";
import { dossierId } from "./dossiers";

const ofDossier = "The dossier's id (archived dossiers too)";

export const noteRoutes = [
  defineRoute({
    id: "listNotes",
    method: "GET",
    path: "/dossiers/:id/notes",
    summary: "List a dossier's notes",
    tag: "Notes",
    description: "Oldest first.",
    scopes: ["notes:read"],
    params: { id: ofDossier },
    load: dossierId,
    query: CursorPageQuery,
    responses: { 200: { schema: Paged(Note), description: "A page of the dossier's notes, oldest first, with the total across all pages" } },
    handler: ({ ctx, principal, resource: id, query, request }) => {
      const paged = cursorPaging(query, request);
      return chain(listNotes(ctx, principal.organizationId, id, paged), (answer) => pagedAnswer(answer, paged));
    },
  }),
  defineRoute({
    id: "createNote",
    method: "POST",
    path: "/dossiers/:id/notes",
    summary: "Add a note to a dossier",
    tag: "Notes",
    description: "`content` must not be empty after trimming; `is_internal` defaults to true. Emits note.created.",
    scopes: ["notes:write"],
    params: { id: ofDossier },
    load: dossierId,
    body: CreateNote,
    responses: { 201: { schema: One(Note), description: "The note was added to the dossier; a note.created event is recorded" } },
    handler: async ({ ctx, principal, resource: id, body }) => one(await createNote(ctx, principal.organizationId, id, body)),
  }),
];
