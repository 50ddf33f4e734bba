// The Contact record, the bodies of POST and PATCH /contacts, and the dossier-contact link shapes
// (api-v1 "Contact", "Dossier-contact link", C3, C6, C10). Request bodies use patterns rather than
// formats, so that validation does not depend on which formats are registered; the rules TypeBox
// cannot say (code points after trimming, URL and email forms, the pool window) are the service's.
import { Type as t } from "@sinclair/typebox";
import { DateTime, Nullable, Uuid } from "./common";

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

export const Contact = t.Object({
  id: Uuid,
  full_name: t.String(),
  email: Nullable(t.String()),
  phone: Nullable(t.String()),
  linkedin_url: Nullable(t.String()),
  company: Nullable(t.String()),
  role: Nullable(t.String()),
  city: Nullable(t.String()),
  kind: t.Array(ContactKind, { description: "No duplicates, order of first appearance" }),
  notes: Nullable(t.String()),
  dossier_count: t.Integer({ minimum: 0, description: "Linked dossiers, archived ones included" }),
  pool_added_at: Nullable(DateTime),
  pool_expires_at: Nullable(DateTime),
  created_at: DateTime,
  updated_at: DateTime,
});

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
  },
  { additionalProperties: false },
);

export const PatchContact = t.Object(
  {
    full_name: t.Optional(t.String({ description: "1 to 200 characters after trimming; not null" })),
    ...optionalFields,
    kind: t.Optional(t.Array(ContactKind, { description: "Replaces the whole array; not null" })),
  },
  { additionalProperties: false },
);

export const DeletedContact = t.Object({ id: Uuid, deleted: t.Literal(true) });

export const UUID_PATTERN = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";

export const CreateLink = t.Object(
  {
    contact_id: t.String({ pattern: UUID_PATTERN, description: "A contact of the caller's organization" }),
    role_on_dossier: LinkRole,
    is_primary: t.Optional(t.Boolean({ description: "true demotes the dossier's previous primary; on a re-link, absent keeps the current value" })),
  },
  { additionalProperties: false },
);

export const Link = t.Object({
  dossier_id: Uuid,
  contact_id: Uuid,
  role_on_dossier: LinkRole,
  is_primary: t.Boolean(),
});

export const LinkItem = t.Object({
  contact_id: Uuid,
  full_name: t.String(),
  email: Nullable(t.String()),
  company: Nullable(t.String()),
  role_on_dossier: LinkRole,
  is_primary: t.Boolean(),
});

export const Unlinked = t.Object({ dossier_id: Uuid, contact_id: Uuid, unlinked: t.Literal(true) });
