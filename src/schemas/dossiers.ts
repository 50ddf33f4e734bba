// The Dossier record (api-v1 "Dossier" + C5) and the bodies of POST and PATCH /dossiers (C3, C10).
// TypeBox checks types and unknown fields; the rules TypeBox cannot say (lengths in code points,
// trimming, email shape, currencies, sales-only fields) live in services/dossiers.ts.
import { Type as t, type TSchema } from "@sinclair/typebox";
import { closed, CreateMetadata, CursorPagingQuery, DateTime, Metadata, MetadataFilter, Nullable, PatchMetadata, UpdatedSince, Uuid } from "./common";

export const DossierType = t.Union([t.Literal("candidate"), t.Literal("sales")]);
export const DossierStatus = t.Union([t.Literal("active"), t.Literal("won"), t.Literal("lost"), t.Literal("archived")]);

// Lengths are counted in code points (C10), which JSON Schema's maxLength does not do: they are
// stated here for the reader and checked by the service.
const Short = t.String({ description: "At most 200 characters" });
const SalesShort = t.String({ description: "Sales only. At most 200 characters" });
const Name = t.String({ description: "1 to 200 characters after trimming; stored trimmed" });
const Email = t.String({ description: "At most 200 characters; one @, a dot in the domain; stored as given" });
const DealSize = t.Number({ description: "Sales only. A finite number >= 0, in the main currency unit" });
const Currency = t.String({ description: "Sales only. ISO 4217 code known to the runtime, upper case" });
const IntakeNotes = t.String({ description: "At most 20,000 characters" });

const EXAMPLE_DOSSIER = {
  id: "0b5c3a4e-8f1d-4c2a-9e6b-1d2f3a4b5c6d",
  organization_id: "7e9a1c2b-3d4f-4a5b-8c6d-0e1f2a3b4c5d",
  flow_id: "2f6d8a1c-4b3e-4d5f-9a7b-8c9d0e1f2a3b",
  type: "sales",
  name: "Acme renewal 2027",
  email: "jane.doe@acme.example",
  phone: "+33 1 23 45 67 89",
  company: "Acme",
  role: "Head of procurement",
  contact_person: "Jane Doe",
  status: "active",
  current_stage_id: "5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
  assigned_to: null,
  deal_size: 12500.5,
  deal_currency: "EUR",
  intake_notes: "Met at the trade fair.",
  cv_url: null,
  contact_id: "9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
  stage_entered_at: "2026-11-22T04:21:26.123Z",
  stage_due_at: "2026-11-29T04:21:26.123Z",
  created_at: "2026-11-22T04:21:26.123Z",
  updated_at: "2026-11-22T04:21:26.123Z",
  metadata: { erp_id: "ACME-0042" },
};

/** Every dossier representation (C5): all the fields, `null` where unset. */
export const Dossier = t.Object(
  {
    id: Uuid,
    organization_id: Uuid,
    flow_id: Nullable(Uuid),
    type: DossierType,
    name: t.String({ description: "Candidate: the person's name. Sales: deal or account name. Stored trimmed" }),
    email: Nullable(t.String({ description: "Primary contact email, as given" })),
    phone: Nullable(t.String()),
    company: Nullable(t.String({ description: "Candidate: current employer. Sales: target company" })),
    role: Nullable(t.String({ description: "Candidate: role applied for. Sales: role of the contact" })),
    contact_person: Nullable(t.String({ description: "Sales only. Named contact at the target company" })),
    status: DossierStatus,
    current_stage_id: Nullable(t.String({ format: "uuid", description: "The stage the dossier is in" })),
    assigned_to: Nullable(t.String({ format: "uuid", description: "User id of the assigned member" })),
    deal_size: Nullable(t.Number({ minimum: 0, description: "Sales only. Expected contract value, in the main currency unit" })),
    deal_currency: Nullable(t.String({ pattern: "^[A-Z]{3}$", description: "Sales only. ISO 4217" })),
    intake_notes: Nullable(t.String()),
    cv_url: Nullable(t.String({ pattern: "^[0-9a-f-]{36}/dossiers/[0-9a-f-]{36}/cv\\.pdf$", description: "<org_id>/dossiers/<dossier_id>/cv.pdf; null without a CV" })),
    contact_id: Nullable(t.String({ format: "uuid", description: "The primary linked contact" })),
    stage_entered_at: Nullable(t.String({ format: "date-time", description: "When the dossier entered its current stage" })),
    stage_due_at: Nullable(t.String({ format: "date-time", description: "stage_entered_at + the stage's deadline_days days; null without a deadline" })),
    created_at: DateTime,
    updated_at: DateTime,
    metadata: Metadata,
  },
  { ...closed, examples: [EXAMPLE_DOSSIER] },
);

export const CreateDossier = t.Object(
  {
    type: DossierType,
    name: Name,
    email: t.Optional(Nullable(Email)),
    phone: t.Optional(Nullable(Short)),
    company: t.Optional(Nullable(Short)),
    role: t.Optional(Nullable(Short)),
    contact_id: t.Optional(Nullable(t.String({ format: "uuid", description: "An existing contact to link as primary; default: the contact with the same email, or a new one" }))),
    flow_id: t.Optional(Nullable(t.String({ format: "uuid", description: "Default: the organization's default flow for the type" }))),
    assigned_to: t.Optional(Nullable(Uuid)),
    intake_notes: t.Optional(Nullable(IntakeNotes)),
    contact_person: t.Optional(Nullable(SalesShort)),
    deal_size: t.Optional(Nullable(DealSize)),
    deal_currency: t.Optional(Nullable(Currency)),
    metadata: t.Optional(CreateMetadata),
  },
  {
    additionalProperties: false,
    examples: [
      {
        type: "sales",
        name: "Acme renewal 2027",
        email: "jane.doe@acme.example",
        company: "Acme",
        contact_person: "Jane Doe",
        deal_size: 12500.5,
        deal_currency: "EUR",
      },
    ],
  },
);

/** A file's bytes in the document's examples: a PDF is not shown. */
const PDF_EXAMPLE = "%PDF-1.7 … (the bytes of the PDF file, at most 10 MB)";

/** A field of the multipart form: the JSON body's field as text (a number as a decimal string). */
function formText(field: TSchema): TSchema {
  const value = Array.isArray(field.anyOf) ? (field.anyOf as TSchema[]).find((member) => member.type !== "null")! : field;
  const description = value.type === "number" ? `${value.description}; as a decimal string, e.g. 12500.50` : value.description;
  return t.Optional(t.String({ ...(value.format ? { format: value.format } : {}), ...(description ? { description } : {}) }));
}

/** Multipart POST /dossiers: the fields of CreateDossier as form fields (an empty string is an
 * absent field), plus the optional file `cv`. Documents the form; the route checks it. */
export const CreateDossierForm = t.Object(
  {
    ...Object.fromEntries(
      Object.entries(CreateDossier.properties).map(([name, field]) => [name, (CreateDossier.required as string[] | undefined)?.includes(name) ? field : formText(field)]),
    ),
    metadata: t.Optional(t.String({ description: 'The metadata as JSON text, e.g. {"erp_id":"ACME-0042"} (the JSON body\'s rules)' })),
    cv: t.Optional(t.String({ format: "binary", description: "The CV: a PDF file of at most 10 MB (the whole body at most 11 MB)" })),
  },
  {
    additionalProperties: false,
    examples: [
      { type: "candidate", name: "Ada Lovelace", email: "ada@example.org", role: "Software Engineer", intake_notes: "Referred by Grace.", cv: PDF_EXAMPLE },
    ],
  },
);

export const PatchDossier = t.Object(
  {
    name: t.Optional(Name),
    email: t.Optional(Nullable(Email)),
    phone: t.Optional(Nullable(Short)),
    company: t.Optional(Nullable(Short)),
    role: t.Optional(Nullable(Short)),
    contact_person: t.Optional(Nullable(SalesShort)),
    deal_size: t.Optional(Nullable(DealSize)),
    deal_currency: t.Optional(Nullable(Currency)),
    status: t.Optional(DossierStatus),
    assigned_to: t.Optional(Nullable(Uuid)),
    intake_notes: t.Optional(Nullable(IntakeNotes)),
    current_stage_id: t.Optional(Nullable(t.String({ format: "uuid", description: "A stage of the dossier's flow; null leaves the dossier in no stage" }))),
    metadata: t.Optional(PatchMetadata),
  },
  { additionalProperties: false, examples: [{ status: "won", current_stage_id: "5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", assigned_to: null }] },
);

export const ArchivedDossier = t.Object(
  { id: Uuid, status: t.Literal("archived") },
  { ...closed, examples: [{ id: EXAMPLE_DOSSIER.id, status: "archived" }] },
);

export const CvForm = t.Object(
  { cv: t.String({ format: "binary", description: "PDF, at most 10 MB" }) },
  { additionalProperties: false, examples: [{ cv: PDF_EXAMPLE }] },
);
export const CvRaw = t.String({ format: "binary", description: "The PDF bytes, at most 10 MB", examples: [PDF_EXAMPLE] });

/** The filters of GET /dossiers (api-v1 "Dossiers", C3, C10), in the order they are checked; its
 * export takes them too (C21). */
export const DossierFilterQuery = {
  type: t.Optional(t.Union(DossierType.anyOf, { description: "Only dossiers of this type" })),
  status: t.Optional(t.Union(DossierStatus.anyOf, { description: "Only dossiers in this status; without it, archived dossiers are left out" })),
  stage_id: t.Optional(t.String({ format: "uuid", description: "Only dossiers currently in this stage; a non-uuid is 400" })),
  overdue: t.Optional(t.Boolean({ description: "true: only active dossiers whose stage_due_at has passed; false: all others" })),
  assigned_to: t.Optional(t.String({ format: "uuid", description: "Only dossiers assigned to this user; a non-uuid is 400" })),
  flow_id: t.Optional(t.String({ format: "uuid", description: "Only dossiers in this flow; a non-uuid is 400" })),
  q: t.Optional(t.String({ description: "Case-insensitive substring of name, email or company" })),
  contact_id: t.Optional(t.String({ format: "uuid", description: "Only dossiers linked to this contact, as primary or not; a non-uuid is 400" })),
  updated_since: t.Optional(UpdatedSince),
  metadata: t.Optional(MetadataFilter),
  task_assigned_to: t.Optional(t.String({ format: "uuid", description: "Only dossiers with an open task (C22) assigned to this member; a non-uuid is 400" })),
};

export const DossierQuery = t.Object({ ...DossierFilterQuery, ...CursorPagingQuery });
/** GET /dossiers/export: the list's filters, no paging (C21). */
export const DossierExportQuery = t.Object(DossierFilterQuery);
