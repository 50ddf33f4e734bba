// The Contact record, the bodies of POST and PATCH /contacts, and the dossier-contact link shapes
// (api-v1 "Contact", "Dossier-contact link", C3, C6, C10). Request bodies use patterns rather than
// formats, so that validation does not depend on which formats are registered; the rules TypeBox
// cannot say (code points after trimming, URL and email forms, the pool window) are the service's.
import { Type as t } from "@sinclair/typebox";
import { closed, CreateMetadata, CursorPagingQuery, DateTime, Metadata, MetadataFilter, Nullable, PatchMetadata, UpdatedSince, Uuid } from "./common";

/** C3's one rule for `email`, the same on contacts and dossiers (bodies of POST and PATCH): "one
 * `@`, a dot in the domain". No blank anywhere; the domain is two or more dot-separated labels,
 * none empty (so no leading, trailing or doubled dot). The length limit (200) is checked apart. */
const EMAIL_ADDRESS = /^[^@\s]+@[^@\s.]+(?:\.[^@\s.]+)+$/;
export const isEmailAddress = (value: string): boolean => EMAIL_ADDRESS.test(value);

export const ContactKind = t.Union(
  [t.Literal("candidate"), t.Literal("prospect"), t.Literal("client"), t.Literal("supplier"), t.Literal("partner")],
);

export const LinkRole = t.Union([
  t.Literal("primary"),
  t.Literal("hiring_manager"),
  t.Literal("decision_maker"),
  t.Literal("champion"),
  t.Literal("gatekeeper"),
  t.Literal("introducer"),
  t.Literal("other"),
]);

export const PoolFilter = t.Union([t.Literal("in_pool"), t.Literal("expired")], {
  description: "in_pool: pool_added_at <= now < pool_expires_at (a missing date is open-ended); expired: pool_expires_at <= now",
});

/** The filters of GET /contacts (api-v1 "Contacts", C6), in the order they are checked. */
/** GET /contacts' filters, which its export takes too (C21). */
export const ContactFilterQuery = {
  kind: t.Array(ContactKind, { description: "Repeat to combine: contacts holding any of the kinds" }),
  pool: t.Optional(PoolFilter),
  search: t.Optional(t.String({ description: "Case-insensitive substring of full_name, email, company or role" })),
  updated_since: t.Optional(UpdatedSince),
  metadata: t.Optional(MetadataFilter),
};

export const ContactQuery = t.Object({ ...ContactFilterQuery, ...CursorPagingQuery });
/** GET /contacts/export: the list's filters, no paging (C21). */
export const ContactExportQuery = t.Object(ContactFilterQuery);

const EXAMPLE_CONTACT = {
  id: "9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
  full_name: "Jane Doe",
  email: "jane.doe@acme.example",
  phone: "+33 1 23 45 67 89",
  linkedin_url: "https://www.linkedin.com/in/janedoe",
  company: "Acme",
  role: "Head of procurement",
  city: "Lyon",
  kind: ["prospect", "client"],
  notes: null,
  dossier_count: 1,
  pool_added_at: null,
  pool_expires_at: null,
  created_at: "2026-11-22T04:21:26.123Z",
  updated_at: "2026-11-22T04:21:26.123Z",
  metadata: { crm_id: "003Dn00000XyZ12" },
};

/** Every contact representation (api-v1 "Contact", C6): `null` where unset. */
export const Contact = t.Object(
  {
    id: Uuid,
    full_name: t.String({ description: "Stored trimmed" }),
    email: Nullable(t.String({ description: "Unique per organization, compared case-insensitively; stored as given" })),
    phone: Nullable(t.String()),
    linkedin_url: Nullable(t.String({ description: "Public profile URL (http or https)" })),
    company: Nullable(t.String({ description: "Current employer or account" })),
    role: Nullable(t.String({ description: "Job title or role" })),
    city: Nullable(t.String({ description: "City of residence" })),
    kind: t.Array(ContactKind, { uniqueItems: true, description: "No duplicates, order of first appearance; [] by default" }),
    notes: Nullable(t.String({ description: "Free-form internal notes" })),
    dossier_count: t.Integer({ minimum: 0, description: "Linked dossiers, archived ones included" }),
    pool_added_at: Nullable(t.String({ format: "date-time", description: "Start of the talent-pool window" })),
    pool_expires_at: Nullable(t.String({ format: "date-time", description: "End of the talent-pool window" })),
    created_at: DateTime,
    updated_at: DateTime,
    metadata: Metadata,
  },
  { ...closed, examples: [EXAMPLE_CONTACT] },
);

const text = (description: string) => Nullable(t.String({ description }));
const date = (description: string) => Nullable(t.String({ description: `${description}; ISO 8601 date-time, stored in UTC with milliseconds` }));

const optionalFields = {
  email: t.Optional(text("At most 200 characters, one @ and a dot in the domain; unique per organization, compared case-insensitively")),
  phone: t.Optional(text("At most 200 characters")),
  linkedin_url: t.Optional(text("http(s) URL, at most 500 characters")),
  company: t.Optional(text("At most 200 characters")),
  role: t.Optional(text("At most 200 characters")),
  city: t.Optional(text("At most 200 characters")),
  notes: t.Optional(text("At most 20,000 characters")),
  pool_added_at: t.Optional(date("Start of the talent-pool window")),
  pool_expires_at: t.Optional(date("End of the talent-pool window; later than pool_added_at")),
};

export const CreateContact = t.Object(
  {
    full_name: t.String({ description: "1 to 200 characters after trimming; stored trimmed" }),
    ...optionalFields,
    kind: t.Optional(Nullable(t.Array(ContactKind, { description: "Default []; duplicates are dropped" }))),
    metadata: t.Optional(CreateMetadata),
  },
  {
    additionalProperties: false,
    examples: [{ full_name: "Jane Doe", email: "jane.doe@acme.example", company: "Acme", kind: ["prospect"], pool_expires_at: "2027-06-30T00:00:00.000Z" }],
  },
);

export const PatchContact = t.Object(
  {
    full_name: t.Optional(t.String({ description: "1 to 200 characters after trimming; not null" })),
    ...optionalFields,
    kind: t.Optional(t.Array(ContactKind, { description: "Replaces the whole array; not null" })),
    metadata: t.Optional(PatchMetadata),
  },
  { additionalProperties: false, examples: [{ role: "CFO", kind: ["client"], notes: null }] },
);

export const DeletedContact = t.Object(
  { id: Uuid, deleted: t.Literal(true) },
  { ...closed, examples: [{ id: EXAMPLE_CONTACT.id, deleted: true }] },
);

export const UUID_PATTERN = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";

export const CreateLink = t.Object(
  {
    contact_id: t.String({ pattern: UUID_PATTERN, description: "A contact of the caller's organization" }),
    role_on_dossier: LinkRole,
    is_primary: t.Optional(t.Boolean({ description: "true demotes the dossier's previous primary; on a re-link, absent keeps the current value" })),
  },
  { additionalProperties: false, examples: [{ contact_id: EXAMPLE_CONTACT.id, role_on_dossier: "decision_maker", is_primary: true }] },
);

const EXAMPLE_DOSSIER_ID = "0b5c3a4e-8f1d-4c2a-9e6b-1d2f3a4b5c6d";

export const Link = t.Object(
  {
    dossier_id: Uuid,
    contact_id: Uuid,
    role_on_dossier: LinkRole,
    is_primary: t.Boolean({ description: "At most one primary per dossier" }),
  },
  { ...closed, examples: [{ dossier_id: EXAMPLE_DOSSIER_ID, contact_id: EXAMPLE_CONTACT.id, role_on_dossier: "decision_maker", is_primary: true }] },
);

export const LinkItem = t.Object(
  {
    contact_id: Uuid,
    full_name: t.String(),
    email: Nullable(t.String()),
    company: Nullable(t.String()),
    role_on_dossier: LinkRole,
    is_primary: t.Boolean(),
  },
  {
    ...closed,
    examples: [
      { contact_id: EXAMPLE_CONTACT.id, full_name: "Jane Doe", email: "jane.doe@acme.example", company: "Acme", role_on_dossier: "decision_maker", is_primary: true },
    ],
  },
);

export const Unlinked = t.Object(
  { dossier_id: Uuid, contact_id: Uuid, unlinked: t.Literal(true) },
  { ...closed, examples: [{ dossier_id: EXAMPLE_DOSSIER_ID, contact_id: EXAMPLE_CONTACT.id, unlinked: true }] },
);
