// Dossiers and their CVs (api-v1 "Dossiers", C3, C5, C9, C10).
//   GET    /dossiers              list (filters, newest first, paged)
//   POST   /dossiers              create: JSON, or multipart with an optional `cv` file
//   GET    /dossiers/:id          one dossier
//   PATCH  /dossiers/:id          partial update (PATCH table + C10)
//   DELETE /dossiers/:id          archive
//   POST   /dossiers/:id/cv       attach a CV: multipart `cv`, or the raw application/pdf body
//   GET    /dossiers/:id/cv       download the CV
import type { Static } from "@sinclair/typebox";
import { chain, type Awaitable } from "../../awaitable";
import { ApiError, invalidBody, notFound } from "../../errors";
import { CV_LIMIT, isPdf } from "../../files";
import { One, Paged } from "../../schemas/common";
import {
  ArchivedDossier, CreateDossier, CreateDossierForm, CvForm, CvRaw, Dossier, DossierExportQuery, DossierQuery, PatchDossier,
} from "../../schemas/dossiers";
import {
  archiveDossier, attachCv, createDossier, cvOf, listDossiersJson, showDossier, updateDossier, type CreateDossierInput,
} from "../../services/dossiers";
import { cursorOf } from "../../services/cursor";
import { dossierExists } from "../../services/links";
import { defineRoute, type Asked } from "../route";
import { cursorPaging, one, pagedAnswer, readBytes, validate } from "../request";
import { sendsKept } from "../one-write";
import { historyRoutes } from "./history";

const MULTIPART_LIMIT = 11_534_336; // 11 MB (C8, C10)
const fileTooLarge = () => new ApiError("file_too_large", "the CV is larger than 10 MB");
const bodyTooLarge = () => new ApiError("file_too_large", "the multipart body is larger than 11 MB");

const mediaType = (request: Request) => request.headers.get("content-type")?.split(";")[0].trim().toLowerCase() ?? "";

/** A multipart body, read with the 11 MB limit before any field is looked at (C10). */
async function readForm(request: Request) {
  const bytes = await readBytes(request, MULTIPART_LIMIT, bodyTooLarge);
  try {
    return await new Response(bytes, { headers: { "content-type": request.headers.get("content-type")! } }).formData();
  } catch {
    throw invalidBody("the body is not valid multipart/form-data");
  }
}

/** The PDF of a `cv` file field: 413 over 10 MB, 400 when it does not begin with `%PDF-` (C5). */
async function pdfOf(file: Blob): Promise<Uint8Array> {
  if (file.size > CV_LIMIT) throw fileTooLarge();
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (!isPdf(bytes)) throw invalidBody("cv: not a PDF file");
  return bytes;
}

const FORM_FIELDS = new Set(Object.keys(CreateDossierForm.properties));
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The multipart form's `metadata` field: the JSON body's value as JSON text (issue 38). */
function metadataField(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    throw invalidBody('metadata: must be JSON text, e.g. {"erp_id":"ACME-0042"}');
  }
}

/** POST /dossiers's body, JSON or multipart: the dossier, and its CV when one came. */
interface NewDossier {
  input: CreateDossierInput;
  cv?: Uint8Array;
}

/** Multipart POST /dossiers (C5, C10): unknown or repeated fields 400; an empty string is an absent
 * field; `cv` must be a file (a browser's empty file input, no name and no bytes, counts as absent);
 * `deal_size` is a decimal string. */
async function readCreateForm(request: Request): Promise<NewDossier> {
  const form = await readForm(request);
  const fields: Record<string, unknown> = {};
  const seen = new Set<string>();
  let cvFileField: Blob | undefined;
  for (const [name, value] of form.entries()) {
    if (!FORM_FIELDS.has(name)) throw invalidBody(`unknown field "${name}"`, name);
    if (seen.has(name)) throw invalidBody(`${name}: given more than once`, name);
    seen.add(name);
    if (name === "cv") {
      if (typeof value === "string") throw invalidBody("cv: must be a file, not a text field");
      if (!(value.size === 0 && !(value as Partial<File>).name)) cvFileField = value;
      continue;
    }
    if (typeof value !== "string") throw invalidBody(`${name}: must be a text field, not a file`);
    if (value === "") continue;
    if (name === "deal_size") {
      if (!DECIMAL.test(value.trim())) throw invalidBody("deal_size: must be a decimal number");
      fields[name] = Number(value.trim());
    } else if (name === "metadata") {
      fields[name] = metadataField(value);
    } else {
      fields[name] = value;
    }
  }
  const cv = cvFileField ? await pdfOf(cvFileField) : undefined;
  return { input: validate(CreateDossier, fields), cv };
}

/** POST /dossiers/:id/cv's body: the multipart file field `cv` alone, or the raw PDF (C5). */
async function readCv(request: Request): Promise<Uint8Array> {
  const type = mediaType(request);
  if (type === "multipart/form-data") {
    const form = await readForm(request);
    for (const name of form.keys()) if (name !== "cv") throw invalidBody(`unknown field "${name}"`, name);
    const files = form.getAll("cv");
    if (files.length === 0) throw invalidBody("cv is required", "cv");
    if (files.length > 1) throw invalidBody("cv: given more than once");
    if (typeof files[0] === "string") throw invalidBody("cv: must be a file, not a text field");
    return pdfOf(files[0]);
  }
  if (type === "application/pdf") {
    const bytes = await readBytes(request, CV_LIMIT, fileTooLarge);
    if (!isPdf(bytes)) throw invalidBody("the body is not a PDF file");
    return bytes;
  }
  throw new ApiError("unsupported_media_type", "send the CV as multipart/form-data (field cv) or as application/pdf");
}

/** GET /dossiers' filters as the services take them (its export's too, C21). */
export const dossierFiltersOf = (query: Static<typeof DossierExportQuery>) => ({
  type: query.type,
  status: query.status,
  stageId: query.stage_id,
  overdue: query.overdue,
  assignedTo: query.assigned_to,
  flowId: query.flow_id,
  q: query.q,
  contactId: query.contact_id?.toLowerCase(),
  taskAssignedTo: query.task_assigned_to?.toLowerCase(),
  updatedSince: query.updated_since,
  metadata: query.metadata,
});

/** The path's dossier, archived or not. */
function dossier({ ctx, principal, params }: Asked<"id">) {
  return chain(showDossier(ctx, principal.organizationId, params.id), (found) => {
    if (!found) throw notFound("dossier not found");
    return found;
  });
}

/** The path's dossier id, once the dossier (archived or not) is known to be the organization's:
 * for the routes below a dossier (notes, links). */
export function dossierId({ ctx, principal, params }: Asked<"id">): Awaitable<string> {
  return chain(dossierExists(ctx, principal.organizationId, params.id), (exists) => {
    if (!exists) throw notFound("dossier not found");
    return params.id;
  });
}

const TAG = "Dossiers";
const ofDossier = { id: "The dossier's id (archived dossiers too)" };

export const dossierRoutes = [
  defineRoute({
    id: "listDossiers",
    method: "GET",
    path: "/dossiers",
    summary: "List dossiers",
    tag: TAG,
    description:
      "Newest first (created_at desc, then id desc). Without `status`, archived dossiers are left out. " +
      "`overdue=true`: active dossiers whose stage_due_at has passed; `overdue=false`: all others. " +
      "`q`: case-insensitive substring over name, email and company. `metadata[key]=value`: only dossiers whose metadata holds that value " +
      "under that key (several AND together).",
    scopes: ["dossiers:read"],
    query: DossierQuery,
    responses: {
      200: {
        schema: Paged(Dossier),
        description: "A page of the organization's dossiers that match every filter given (archived ones only with status=archived), with the total across all pages",
      },
    },
    handler: ({ ctx, principal, query, request, set }) => {
      const paged = cursorPaging(query, request);
      const listed = listDossiersJson(ctx, principal.organizationId, { ...dossierFiltersOf(query), ...paged });
      // The rows come as JSON text; the envelope is the one `pagedAnswer` makes, with the content type
      // Elysia gives an object. It is made once per remembered answer (its query, paging and cursor included,
      // is the answer's key), so that a remembered answer is sent as one flat string.
      set.headers["content-type"] = "application/json;charset=utf-8";
      return chain(listed, (answer) => {
        if (answer.envelope === undefined) {
          const meta = pagedAnswer({ data: [], total: answer.total, next_after: answer.next && cursorOf("dossiers", answer.next) }, paged).meta;
          const text = `{"data":${answer.json},"meta":${JSON.stringify(meta)}}`;
          answer.envelope = { text, length: Buffer.byteLength(text) };
        }
        // Kept for inOneWrite, which writes a long answer from its bytes, encoded once, rather
        // than read them back out of the Response (src/http/one-write.ts).
        set.headers["content-length"] = String(answer.envelope.length);
        sendsKept(request, answer.envelope);
        return answer.envelope.text;
      });
    },
  }),
  defineRoute({
    id: "createDossier",
    location: (created) => `/dossiers/${created.id}`,
    method: "POST",
    path: "/dossiers",
    summary: "Create a dossier",
    tag: TAG,
    description:
      "Into the first stage of `flow_id` (default: the organization's default flow for the type; its type must match). " +
      "Linked as primary to `contact_id`, else to the contact with the same email, else to a new contact. " +
      "As multipart/form-data: the same fields as form fields (numbers as decimal strings, `metadata` as JSON text, empty = absent) plus an " +
      "optional PDF file `cv` (at most 10 MB; body at most 11 MB); the dossier and its CV are created atomically. " +
      "A flow_id or contact_id that is not the organization's: 404 naming the field. A JSON body over 1 MB: 413 " +
      "payload_too_large; a CV over 10 MB: 413 file_too_large. Emits dossier.created.",
    scopes: ["dossiers:write"],
    body: CreateDossier,
    bodies: { "multipart/form-data": CreateDossierForm },
    read: async (request, json): Promise<NewDossier> => (mediaType(request) === "multipart/form-data" ? (await readCreateForm(request)) : { input: await json() }),
    responses: {
      201: {
        schema: One(Dossier),
        description:
          "The dossier was created (with its CV, for a multipart body) in the flow's first stage; the answer is the whole new dossier. A dossier.created event is recorded",
      },
    },
    errors: ["not_found", "file_too_large", "insufficient_storage"],
    handler: async ({ ctx, principal, body }) => one(await createDossier(ctx, principal.organizationId, body.input, body.cv)),
  }),
  defineRoute({
    id: "getDossier",
    conditional: true,
    method: "GET",
    path: "/dossiers/:id",
    summary: "Retrieve a dossier",
    tag: TAG,
    scopes: ["dossiers:read"],
    params: ofDossier,
    load: dossier,
    readsAhead: "dossier",
    responses: { 200: { schema: One(Dossier), description: "The dossier, archived or not" } },
    handler: ({ resource }) => one(resource),
  }),
  defineRoute({
    id: "updateDossier",
    conditional: true,
    method: "PATCH",
    path: "/dossiers/:id",
    summary: "Update a dossier",
    tag: TAG,
    description:
      "Any subset of the fields; `null` clears a nullable field. `current_stage_id` must be a stage of the dossier's " +
      "flow; a new stage emits dossier.stage_changed, then dossier.updated. Any change emits dossier.updated with " +
      "`previous_attributes`. A PATCH that changes nothing answers 200 and emits nothing.",
    scopes: ["dossiers:write"],
    params: ofDossier,
    load: dossier,
    body: PatchDossier,
    responses: { 200: { schema: One(Dossier), description: "The dossier after the change (unchanged, with its old updated_at, when the body changes nothing)" } },
    handler: async ({ ctx, principal, resource, body }) => one(await updateDossier(ctx, principal.organizationId, resource.id, body)),
  }),
  defineRoute({
    id: "archiveDossier",
    conditional: true,
    method: "DELETE",
    path: "/dossiers/:id",
    summary: "Archive a dossier",
    tag: TAG,
    description: "Soft delete: status becomes archived, the data is kept. Emits dossier.deleted (nothing when already archived).",
    scopes: ["dossiers:write"],
    params: { id: "The dossier's id" },
    load: dossier,
    responses: { 200: { schema: One(ArchivedDossier), description: "The dossier is archived (soft delete: it can still be read); a dossier.deleted event is recorded" } },
    handler: async ({ ctx, principal, resource }) => one(await archiveDossier(ctx, principal.organizationId, resource.id)),
  }),
  defineRoute({
    id: "attachCv",
    conditional: true,
    method: "POST",
    path: "/dossiers/:id/cv",
    summary: "Attach a CV",
    tag: TAG,
    description:
      "A PDF of at most 10 MB, as multipart/form-data (the file field `cv` alone) or as the raw application/pdf body. " +
      "Replaces any earlier CV. Answers the whole updated dossier. Emits dossier.updated.",
    scopes: ["dossiers:write"],
    params: ofDossier,
    load: dossier,
    bodies: { "multipart/form-data": CvForm, "application/pdf": CvRaw },
    read: readCv,
    responses: {
      200: { schema: One(Dossier), description: "The CV is stored, replacing any earlier one; the answer is the whole dossier with its cv_url. A dossier.updated event is recorded" },
    },
    errors: ["invalid_body", "file_too_large", "unsupported_media_type", "insufficient_storage"],
    handler: async ({ ctx, principal, resource, body }) => one(await attachCv(ctx, principal.organizationId, resource.id, body)),
  }),
  defineRoute({
    id: "downloadCv",
    method: "GET",
    path: "/dossiers/:id/cv",
    summary: "Download the CV",
    tag: TAG,
    description: 'The PDF itself, as an attachment named "cv.pdf"; 404 when the dossier has no CV.',
    scopes: ["dossiers:read"],
    params: { id: "The dossier's id" },
    load: dossier,
    // With CVs on S3 (C19), a bucket that cannot be reached.
    errors: ["storage_unavailable"],
    responses: {
      200: {
        description: 'The CV last attached to the dossier: the PDF\'s bytes exactly as uploaded, as an attachment named "cv.pdf"',
        mediaType: "application/pdf",
        schema: CvRaw,
        headers: {
          "Content-Disposition": { description: "Always this value", required: true, schema: { type: "string", const: 'attachment; filename="cv.pdf"' } },
          "Cache-Control": { description: "Always this value: no cache may keep a CV", required: true, schema: { type: "string", const: "private, no-store" } },
        },
      },
    },
    handler: async ({ ctx, principal, resource }) => {
      const url = await cvOf(ctx, principal.organizationId, resource.id);
      // The bytes or a stream from the bucket (src/files/), never a file: Bun would answer a Range
      // header itself (206, or a 416 without the error envelope).
      const body = url ? await ctx.files.open(url) : null;
      if (!body) throw notFound("the dossier has no CV");
      // A candidate's CV is personal data: no shared cache may keep it, nor the browser's disk.
      return new Response(body, {
        headers: { "content-type": "application/pdf", "content-disposition": 'attachment; filename="cv.pdf"', "cache-control": "private, no-store" },
      });
    },
  }),
  ...historyRoutes,
];
