// The Dossier record (api-v1 "Dossier" + C5) and the bodies of POST and PATCH /dossiers (C3, C10).
// TypeBox checks types and unknown fields; the rules TypeBox cannot say (lengths in code points,
// trimming, email shape, currencies, sales-only fields) live in services/dossiers.ts.
import { Type as t } from "@sinclair/typebox";
import { DateTime, Nullable, Uuid } from "./common";

export const DossierType = t.Union([t.Literal("candidate"), t.Literal("sales")]);
export const DossierStatus = t.Union([t.Literal("active"), t.Literal("won"), t.Literal("lost"), t.Literal("archived")]);

// Lengths are counted in code points (C10), which JSON Schema's maxLength does not do: they are
// stated here for the reader and checked by the service.
const Short = t.String({ description: "At most 200 characters" });
const Name = t.String({ description: "1 to 200 characters after trimming; stored trimmed" });
const Email = t.String({ description: "At most 200 characters; one @, a dot in the domain; stored as given" });
const DealSize = t.Number({ description: "Sales only. A finite number >= 0, in the main currency unit" });
const Currency = t.String({ description: "Sales only. ISO 4217 code known to the runtime, upper case" });
const IntakeNotes = t.String({ description: "At most 20,000 characters" });

export const Dossier = t.Object({
  id: Uuid,
  organization_id: Uuid,
  flow_id: Nullable(Uuid),
  type: DossierType,
  name: t.String(),
  email: Nullable(t.String()),
  phone: Nullable(t.String()),
  company: Nullable(t.String()),
  role: Nullable(t.String()),
  contact_person: Nullable(t.String({ description: "Sales only" })),
  status: DossierStatus,
  current_stage_id: Nullable(Uuid),
  assigned_to: Nullable(Uuid),
  deal_size: Nullable(t.Number({ description: "Sales only" })),
  deal_currency: Nullable(t.String({ description: "Sales only. ISO 4217" })),
  intake_notes: Nullable(t.String()),
  cv_url: Nullable(t.String({ description: "<org_id>/dossiers/<dossier_id>/cv.pdf, null without a CV" })),
  contact_id: Nullable(Uuid),
  stage_entered_at: Nullable(DateTime),
  stage_due_at: Nullable(t.Union([DateTime], { description: "stage_entered_at + the stage's deadline_days days" })),
  created_at: DateTime,
  updated_at: DateTime,
});

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
    contact_person: t.Optional(Nullable(Short)),
    deal_size: t.Optional(Nullable(DealSize)),
    deal_currency: t.Optional(Nullable(Currency)),
  },
  { additionalProperties: false },
);

/** Multipart POST /dossiers: the same fields as form fields (numbers as decimal strings, an empty
 * string is an absent field), plus the optional file `cv`. Documents the form; the route checks it. */
const FormText = (description: string) => t.Optional(t.String({ description }));
export const CreateDossierForm = t.Object(
  {
    type: DossierType,
    name: Name,
    email: FormText("At most 200 characters; one @, a dot in the domain"),
    phone: FormText("At most 200 characters"),
    company: FormText("At most 200 characters"),
    role: FormText("At most 200 characters"),
    contact_id: FormText("uuid of an existing contact to link as primary"),
    flow_id: FormText("uuid; default: the organization's default flow for the type"),
    assigned_to: FormText("uuid"),
    intake_notes: FormText("At most 20,000 characters"),
    contact_person: FormText("Sales only. At most 200 characters"),
    deal_size: FormText("Sales only. A decimal number >= 0, e.g. 12500.50"),
    deal_currency: FormText("Sales only. ISO 4217 code, upper case"),
    cv: t.Optional(t.String({ format: "binary", description: "The CV: a PDF file of at most 10 MB (the whole body at most 11 MB)" })),
  },
  { additionalProperties: false },
);

export const PatchDossier = t.Object(
  {
    name: t.Optional(Name),
    email: t.Optional(Nullable(Email)),
    phone: t.Optional(Nullable(Short)),
    company: t.Optional(Nullable(Short)),
    role: t.Optional(Nullable(Short)),
    contact_person: t.Optional(Nullable(Short)),
    deal_size: t.Optional(Nullable(DealSize)),
    deal_currency: t.Optional(Nullable(Currency)),
    status: t.Optional(DossierStatus),
    assigned_to: t.Optional(Nullable(Uuid)),
    intake_notes: t.Optional(Nullable(IntakeNotes)),
    current_stage_id: t.Optional(Nullable(Uuid)),
  },
  { additionalProperties: false },
);

export const ArchivedDossier = t.Object({ id: Uuid, status: t.Literal("archived") });

export const CvForm = t.Object({ cv: t.String({ format: "binary", description: "PDF, at most 10 MB" }) }, { additionalProperties: false });
export const CvRaw = t.String({ format: "binary", description: "The PDF bytes, at most 10 MB" });
