// Dossiers and their CVs (api-v1 "Dossiers", C3, C5, C9, C10).
//   GET    /dossiers              list (filters, newest first, paged)
//   POST   /dossiers              create: JSON, or multipart with an optional `cv` file
//   GET    /dossiers/:id          one dossier
//   PATCH  /dossiers/:id          partial update (PATCH table + C10)
//   DELETE /dossiers/:id          archive
//   POST   /dossiers/:id/cv       attach a CV: multipart `cv`, or the raw application/pdf body
//   GET    /dossiers/:id/cv       download the CV
// Bodies are read here, after the path's dossier is loaded, so that C3's order of checks holds.
import { Type as t } from "@sinclair/typebox";
import { Elysia } from "elysia";
import type { Context } from "../../context";
import { ApiError, invalidBody, notFound } from "../../errors";
import { CV_LIMIT, cvFile, isPdf } from "../../files/cv";
import { List, One, PagingQuery } from "../../schemas/common";
import {
  ArchivedDossier, CreateDossier, CreateDossierForm, CvForm, CvRaw, Dossier, DossierStatus, DossierType, PatchDossier,
} from "../../schemas/dossiers";
import {
  archiveDossier, attachCv, createDossier, cvOf, getDossier, listDossiersJson, updateDossier, type CreateDossierInput,
} from "../../services/dossiers";
import type { Auth } from "../auth";
import { operation } from "../openapi-doc";
import { enumParam, one, page, paging, pathId, readBytes, readJson, searchParams, uuidParam, validate } from "../request";

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

/** Multipart POST /dossiers (C5, C10): unknown or repeated fields 400; an empty string is an absent
 * field; `cv` must be a file (a browser's empty file input, no name and no bytes, counts as absent);
 * `deal_size` is a decimal string. */
async function readCreateForm(request: Request): Promise<{ input: CreateDossierInput; cv?: Uint8Array }> {
  const form = await readForm(request);
  const fields: Record<string, unknown> = {};
  const seen = new Set<string>();
  let cvFileField: Blob | undefined;
  for (const [name, value] of form.entries()) {
    if (!FORM_FIELDS.has(name)) throw invalidBody(`unknown field "${name}"`);
    if (seen.has(name)) throw invalidBody(`${name}: given more than once`);
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
    } else {
      fields[name] = value;
    }
  }
  const cv = cvFileField ? await pdfOf(cvFileField) : undefined;
  return { input: validate(CreateDossier, fields), cv };
}

function overdueParam(params: URLSearchParams): boolean | undefined {
  const raw = params.get("overdue");
  if (raw === null) return undefined;
  if (raw === "true") return true;
  if (raw === "false") return false;
  throw invalidBody("overdue must be true or false");
}

export const dossierRoutes = (ctx: Context, auth: Auth) => {
  const load = (organizationId: string, id: string) => {
    const dossier = getDossier(ctx, organizationId, pathId(id));
    if (!dossier) throw notFound("dossier not found");
    return dossier;
  };

  return new Elysia()
    .use(auth)
    .get(
      "/dossiers",
      ({ request, principal, set }) => {
        const params = searchParams(request);
        const query = {
          type: enumParam(params, "type", ["candidate", "sales"] as const),
          status: enumParam(params, "status", ["active", "won", "lost", "archived"] as const),
          stageId: uuidParam(params, "stage_id"),
          overdue: overdueParam(params),
          assignedTo: uuidParam(params, "assigned_to"),
          flowId: uuidParam(params, "flow_id"),
          q: params.get("q") ?? undefined,
          ...paging(params),
        };
        // The rows come as JSON text from SQLite (services/dossier-json.ts); the envelope is the one
        // `page` makes, with the content type Elysia gives an object.
        const { json, total } = listDossiersJson(ctx, principal.organizationId, query);
        set.headers["content-type"] = "application/json;charset=utf-8";
        return `{"data":${json},"meta":${JSON.stringify(page([], total, query).meta)}}`;
      },
      {
        scopes: ["dossiers:read"],
        detail: operation({
          id: "listDossiers",
          summary: "List dossiers",
          tag: "Dossiers",
          scopes: ["dossiers:read"],
          description:
            "Newest first (created_at desc, then id desc). Without `status`, archived dossiers are left out. " +
            "`overdue=true`: active dossiers whose stage_due_at has passed; `overdue=false`: all others. " +
            "`q`: case-insensitive substring over name, email and company.",
          query: {
            type: t.Union(DossierType.anyOf, { description: "Only dossiers of this type" }),
            status: t.Union(DossierStatus.anyOf, { description: "Only dossiers in this status; without it, archived dossiers are left out" }),
            stage_id: t.String({ format: "uuid", description: "Only dossiers currently in this stage; a non-uuid is 400" }),
            overdue: t.Boolean({ description: "true: only active dossiers whose stage_due_at has passed; false: all others" }),
            assigned_to: t.String({ format: "uuid", description: "Only dossiers assigned to this user; a non-uuid is 400" }),
            flow_id: t.String({ format: "uuid", description: "Only dossiers in this flow; a non-uuid is 400" }),
            q: t.String({ description: "Case-insensitive substring of name, email or company" }),
            ...PagingQuery,
          },
          responses: { 200: List(Dossier) },
          errors: ["invalid_body"],
        }),
      },
    )
    .post(
      "/dossiers",
      async ({ request, principal, set }) => {
        let dossier;
        if (mediaType(request) === "multipart/form-data") {
          const { input, cv } = await readCreateForm(request);
          dossier = await createDossier(ctx, principal.organizationId, input, cv);
        } else {
          dossier = await createDossier(ctx, principal.organizationId, await readJson(request, CreateDossier));
        }
        set.status = 201;
        return one(dossier);
      },
      {
        parse: "none",
        scopes: ["dossiers:write"],
        detail: operation({
          id: "createDossier",
          summary: "Create a dossier",
          tag: "Dossiers",
          scopes: ["dossiers:write"],
          description:
            "Into the first stage of `flow_id` (default: the organization's default flow for the type; its type must match). " +
            "Linked as primary to `contact_id`, else to the contact with the same email, else to a new contact. " +
            "As multipart/form-data: the same fields as form fields (numbers as decimal strings, empty = absent) plus an " +
            "optional PDF file `cv` (at most 10 MB; body at most 11 MB); the dossier and its CV are created atomically. " +
            "A flow_id or contact_id that is not the organization's: 404 naming the field. A JSON body over 1 MB: 413 " +
            "payload_too_large; a CV over 10 MB: 413 file_too_large. Emits dossier.created.",
          body: CreateDossier,
          bodies: { "multipart/form-data": CreateDossierForm },
          responses: { 201: One(Dossier) },
          errors: ["invalid_body", "not_found", "payload_too_large", "file_too_large", "storage_unavailable", "insufficient_storage"],
        }),
      },
    )
    .get("/dossiers/:id", ({ params, principal }) => one(load(principal.organizationId, params.id)), {
      scopes: ["dossiers:read"],
      detail: operation({
        id: "getDossier",
        summary: "Retrieve a dossier",
        params: { id: "The dossier's id (archived dossiers too)" },
        tag: "Dossiers",
        scopes: ["dossiers:read"],
        responses: { 200: One(Dossier) },
        errors: ["not_found"],
      }),
    })
    .patch(
      "/dossiers/:id",
      async ({ params, request, principal }) => {
        const { id } = load(principal.organizationId, params.id);
        const patch = await readJson(request, PatchDossier);
        return one(await updateDossier(ctx, principal.organizationId, id, patch));
      },
      {
        parse: "none",
        scopes: ["dossiers:write"],
        detail: operation({
          id: "updateDossier",
          summary: "Update a dossier",
          params: { id: "The dossier's id (archived dossiers too)" },
          tag: "Dossiers",
          scopes: ["dossiers:write"],
          description:
            "Any subset of the fields; `null` clears a nullable field. `current_stage_id` must be a stage of the dossier's " +
            "flow; a new stage emits dossier.stage_changed, then dossier.updated. Any change emits dossier.updated with " +
            "`previous_attributes`. A PATCH that changes nothing answers 200 and emits nothing.",
          body: PatchDossier,
          responses: { 200: One(Dossier) },
          errors: ["not_found", "invalid_body", "payload_too_large", "storage_unavailable"],
        }),
      },
    )
    .delete(
      "/dossiers/:id",
      async ({ params, principal }) => one(await archiveDossier(ctx, principal.organizationId, load(principal.organizationId, params.id).id)),
      {
        scopes: ["dossiers:write"],
        detail: operation({
          id: "archiveDossier",
          summary: "Archive a dossier",
          params: { id: "The dossier's id" },
          tag: "Dossiers",
          scopes: ["dossiers:write"],
          description: "Soft delete: status becomes archived, the data is kept. Emits dossier.deleted (nothing when already archived).",
          responses: { 200: One(ArchivedDossier) },
          errors: ["not_found", "storage_unavailable"],
        }),
      },
    )
    .post(
      "/dossiers/:id/cv",
      async ({ params, request, principal }) => {
        const { id } = load(principal.organizationId, params.id);
        const type = mediaType(request);
        let bytes: Uint8Array;
        if (type === "multipart/form-data") {
          const form = await readForm(request);
          for (const name of form.keys()) if (name !== "cv") throw invalidBody(`unknown field "${name}"`);
          const files = form.getAll("cv");
          if (files.length === 0) throw invalidBody("cv is required");
          if (files.length > 1) throw invalidBody("cv: given more than once");
          if (typeof files[0] === "string") throw invalidBody("cv: must be a file, not a text field");
          bytes = await pdfOf(files[0]);
        } else if (type === "application/pdf") {
          bytes = await readBytes(request, CV_LIMIT, fileTooLarge);
          if (!isPdf(bytes)) throw invalidBody("the body is not a PDF file");
        } else {
          throw new ApiError("unsupported_media_type", "send the CV as multipart/form-data (field cv) or as application/pdf");
        }
        return one(await attachCv(ctx, principal.organizationId, id, bytes));
      },
      {
        parse: "none",
        scopes: ["dossiers:write"],
        detail: operation({
          id: "attachCv",
          summary: "Attach a CV",
          params: { id: "The dossier's id (archived dossiers too)" },
          tag: "Dossiers",
          scopes: ["dossiers:write"],
          description:
            "A PDF of at most 10 MB, as multipart/form-data (the file field `cv` alone) or as the raw application/pdf body. " +
            "Replaces any earlier CV. Answers the whole updated dossier. Emits dossier.updated.",
          bodies: { "multipart/form-data": CvForm, "application/pdf": CvRaw },
          responses: { 200: One(Dossier) },
          errors: ["not_found", "invalid_body", "file_too_large", "unsupported_media_type", "storage_unavailable", "insufficient_storage"],
        }),
      },
    )
    .get(
      "/dossiers/:id/cv",
      async ({ params, principal }) => {
        const url = cvOf(ctx, principal.organizationId, load(principal.organizationId, params.id).id);
        const file = url ? Bun.file(cvFile(ctx, url)) : null;
        if (!file || !(await file.exists())) throw notFound("the dossier has no CV");
        // The bytes, not the file: Bun would answer a Range header itself (206, or a 416 without
        // the error envelope). A CV is at most 10 MB, and a server may ignore Range (RFC 9110 §14.2).
        // A candidate's CV is personal data: no shared cache may keep it, nor the browser's disk.
        return new Response(await file.bytes(), {
          headers: { "content-type": "application/pdf", "content-disposition": 'attachment; filename="cv.pdf"', "cache-control": "private, no-store" },
        });
      },
      {
        scopes: ["dossiers:read"],
        detail: operation({
          id: "downloadCv",
          summary: "Download the CV",
          tag: "Dossiers",
          scopes: ["dossiers:read"],
          params: { id: "The dossier's id" },
          description: 'The PDF itself, as an attachment named "cv.pdf"; 404 when the dossier has no CV.',
          responses: {
            200: {
              description: "The PDF",
              mediaType: "application/pdf",
              schema: CvRaw,
              headers: {
                "Content-Disposition": { description: "Always this value", required: true, schema: { type: "string", const: 'attachment; filename="cv.pdf"' } },
                "Cache-Control": { description: "Always this value: no cache may keep a CV", required: true, schema: { type: "string", const: "private, no-store" } },
              },
            },
          },
          errors: ["not_found"],
        }),
      },
    );
};
