// CSV imports (C21).
//   POST /imports              multipart: file, resource, mapping, mode, match_on, dry_run, emit_events,
//                              and for dossiers flow_id, type, stage; 202 with the queued import
//   GET  /imports              newest first, paged: the imports of the resources the caller may read
//   GET  /imports/:id          one import, its progress and its first 1,000 errors
//   POST /imports/:id/revert   undoes what it did (C21), then `reverted`
// The resource is in the form, so the scopes are checked once it is read: the resource's `:write`
// (a dossiers import also `contacts:write`: its rows may create contacts), `:read` to see one.
import { ApiError, invalidBody, notFound } from "../../errors";
import type { Scope } from "../../services/keys";
import { IMPORT_FORM_LIMIT, parseImportForm, type CsvResource } from "../../csv";
import { CursorPageQuery, One, Paged } from "../../schemas/common";
import { Import, ImportForm } from "../../schemas/imports";
import { getImport, listImports, revertImport, startImport } from "../../services/imports";
import type { Principal } from "../auth";
import { defineRoute, type Asked } from "../route";
import { cursorPaging, one, pagedAnswer, readBytes } from "../request";

const TAG = "Imports";

/** The form's bytes: the file's 50 MB and room for the other fields; more is 413 before any row is
 * read (C21). */
const BODY_LIMIT = IMPORT_FORM_LIMIT;
const tooLarge = () => new ApiError("payload_too_large", "the import's body is larger than 51 MB: a file takes at most 50 MB");

const WRITE: Record<CsvResource, Scope[]> = { contacts: ["contacts:write"], dossiers: ["dossiers:write", "contacts:write"] };
const READ: Record<CsvResource, Scope> = { contacts: "contacts:read", dossiers: "dossiers:read" };

function lacking(principal: Principal, scopes: readonly Scope[]): never | void {
  const missing = scopes.filter((scope) => !principal.scopes.has(scope));
  if (missing.length > 0) {
    throw new ApiError("forbidden", `this ${principal.kind === "key" ? "key" : "member's role"} lacks the scope ${missing.join(" and ")}`);
  }
}

/** The resources whose imports the caller may see; none is 403. */
function readable(principal: Principal): CsvResource[] {
  const resources = (Object.keys(READ) as CsvResource[]).filter((resource) => principal.scopes.has(READ[resource]));
  if (resources.length === 0) lacking(principal, ["contacts:read"]);
  return resources;
}

async function readForm(request: Request): Promise<[string, string | Blob][]> {
  const type = request.headers.get("content-type")?.split(";")[0].trim().toLowerCase() ?? "";
  if (type !== "multipart/form-data") throw new ApiError("unsupported_media_type", "send the import as multipart/form-data");
  const bytes = await readBytes(request, BODY_LIMIT, tooLarge);
  try {
    return [...(await new Response(bytes, { headers: { "content-type": request.headers.get("content-type")! } }).formData()).entries()];
  } catch {
    throw invalidBody("the body is not valid multipart/form-data");
  }
}

/** The path's import, for a caller who holds one of `scopes` (else 403 before 404, as a route's
 * own scopes would be checked); the handler checks the import's own resource's scope. */
const loadImport =
  (scopes: readonly Scope[]) =>
  async ({ ctx, principal, params }: Asked<"id">) => {
    if (!scopes.some((scope) => principal.scopes.has(scope))) lacking(principal, [scopes[0]]);
    const found = await getImport(ctx, principal.organizationId, params.id);
    if (!found) throw notFound("import not found");
    return found;
  };

const ofImport = { id: "The import's id" };

export const importRoutes = [
  defineRoute({
    id: "createImport",
    method: "POST",
    path: "/imports",
    summary: "Import a CSV file",
    tag: TAG,
    description:
      "Needs the resource's write scope: `contacts:write` for contacts; `dossiers:write` and `contacts:write` for dossiers (a row may create " +
      "its contact). The file is checked whole before anything is queued: over 50 MB or 200,000 rows 413; empty, binary, without a header row, " +
      "with mixed delimiters, or a `mapping` naming an unknown field or column: 400 naming it. Then the import runs in the background in " +
      "batches of at most 500 rows, each validated as the API validates one create or update: a bad row is refused with its reason, the others " +
      "go in. `mode`: create (default), update or upsert, matching rows on `match_on` (email for contacts by default, or id). `dry_run=true` " +
      "validates every row and writes none. `emit_events=false`: the rows record no event. Follow it with GET /imports/{id}.",
    scopes: [],
    bodies: { "multipart/form-data": ImportForm },
    read: readForm,
    bodyLimit: { bytes: BODY_LIMIT, tooLarge },
    responses: { 202: { schema: One(Import), description: "The file is accepted and the import queued; it runs in the background (GET /imports/{id} shows its progress)" } },
    errors: ["forbidden", "not_found", "payload_too_large", "unsupported_media_type", "invalid_body"],
    handler: async ({ ctx, principal, body }) => {
      const resource = body.find(([name]) => name === "resource")?.[1];
      if (resource === "contacts" || resource === "dossiers") lacking(principal, WRITE[resource]);
      else if (!principal.scopes.has("contacts:write")) lacking(principal, ["contacts:write"]);
      const form = parseImportForm(body);
      const actor = principal.kind === "member" ? { type: "member" as const, id: principal.memberId, name: null } : { type: "key" as const, id: principal.keyId, name: null };
      return one(await startImport(ctx, principal.organizationId, form, actor));
    },
  }),
  defineRoute({
    id: "listImports",
    method: "GET",
    path: "/imports",
    summary: "List imports",
    tag: TAG,
    description: "Newest first. The imports of contacts need `contacts:read`, those of dossiers `dossiers:read`: the list shows those the caller may read.",
    scopes: [],
    query: CursorPageQuery,
    responses: { 200: { schema: Paged(Import), description: "A page of the organization's imports, newest first, with the total across all pages" } },
    errors: ["forbidden"],
    handler: async ({ ctx, principal, query, request }) => {
      const paged = cursorPaging(query, request);
      return pagedAnswer(await listImports(ctx, principal.organizationId, readable(principal), paged), paged);
    },
  }),
  defineRoute({
    id: "getImport",
    method: "GET",
    path: "/imports/:id",
    summary: "Retrieve an import",
    tag: TAG,
    description: "Its status, its counts so far and its first 1,000 errors by row. Needs `contacts:read` or `dossiers:read`, as its resource.",
    scopes: [],
    params: ofImport,
    load: loadImport(["contacts:read", "dossiers:read"]),
    responses: { 200: { schema: One(Import), description: "The import, with its progress so far" } },
    errors: ["forbidden"],
    handler: ({ principal, resource }) => {
      lacking(principal, [READ[resource.resource]]);
      return one(resource);
    },
  }),
  defineRoute({
    id: "revertImport",
    method: "POST",
    path: "/imports/:id/revert",
    summary: "Revert an import",
    tag: TAG,
    description:
      "Deletes the contacts and archives the dossiers the import created, and puts back the fields it updated, except where a later change " +
      "touched the record (those rows are skipped and counted in `revert`); then the import is `reverted`. Only a succeeded import that is " +
      "not a dry run: else 409 import_not_revertable. Needs `contacts:write` for contacts; `dossiers:write` for dossiers. Emits the events " +
      "of the changes (dossier.deleted, dossier.updated).",
    scopes: [],
    params: ofImport,
    load: loadImport(["contacts:write", "dossiers:write"]),
    responses: { 200: { schema: One(Import), description: "The import is reverted; `revert` counts the rows undone and those left as they were" } },
    errors: ["forbidden", "import_not_revertable"],
    handler: async ({ ctx, principal, resource }) => {
      lacking(principal, [resource.resource === "contacts" ? "contacts:write" : "dossiers:write"]);
      return one(await revertImport(ctx, principal.organizationId, resource.id));
    },
  }),
];
