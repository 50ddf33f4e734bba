// A contact as the form holds it (text as typed), and the bodies of POST and PATCH /contacts made
// from it.
import type { Contact, ContactKind } from "./types";

/** What the form holds: every text field as typed, and the kinds ticked. */
export interface Typed {
  full_name: string;
  email: string;
  phone: string;
  company: string;
  role: string;
  city: string;
  linkedin_url: string;
  notes: string;
  /** The talent-pool window's days (YYYY-MM-DD), or "". */
  pool_added_at: string;
  pool_expires_at: string;
  kind: ContactKind[];
}

export type TextField = Exclude<keyof Typed, "kind">;
export const TEXT_FIELDS: TextField[] = ["full_name", "email", "phone", "company", "role", "city", "linkedin_url", "notes", "pool_added_at", "pool_expires_at"];
export const POOL_FIELDS: TextField[] = ["pool_added_at", "pool_expires_at"];

export const EMPTY: Typed = {
  full_name: "",
  email: "",
  phone: "",
  company: "",
  role: "",
  city: "",
  linkedin_url: "",
  notes: "",
  pool_added_at: "",
  pool_expires_at: "",
  kind: [],
};

/** A pool date is a day: the API's date-time at its start (UTC), and back. */
const dayOf = (iso: string | null) => iso?.slice(0, 10) ?? "";
const valueOf = (field: TextField, text: string) => (POOL_FIELDS.includes(field) ? `${text}T00:00:00.000Z` : text);

export const typedOf = (contact: Contact): Typed => ({
  full_name: contact.full_name,
  email: contact.email ?? "",
  phone: contact.phone ?? "",
  company: contact.company ?? "",
  role: contact.role ?? "",
  city: contact.city ?? "",
  linkedin_url: contact.linkedin_url ?? "",
  notes: contact.notes ?? "",
  pool_added_at: dayOf(contact.pool_added_at),
  pool_expires_at: dayOf(contact.pool_expires_at),
  kind: contact.kind,
});

/** The body of a create: the fields filled in. */
export function createBody(typed: Typed) {
  const body: Partial<Record<TextField, string>> & { full_name: string; kind?: ContactKind[] } = { full_name: typed.full_name };
  for (const field of TEXT_FIELDS) if (typed[field].trim() !== "") body[field] = valueOf(field, typed[field]);
  if (typed.kind.length > 0) body.kind = typed.kind;
  return body;
}

/** The body of an edit: only what changed from `base` (an emptied field becomes null). */
export function patchBody(base: Typed, typed: Typed) {
  const body: Partial<Record<TextField, string | null>> & { kind?: ContactKind[] } = {};
  for (const field of TEXT_FIELDS) {
    if (typed[field] === base[field]) continue;
    body[field] = typed[field].trim() === "" && field !== "full_name" ? null : valueOf(field, typed[field]);
  }
  if (typed.kind.join() !== base.kind.join()) body.kind = typed.kind;
  return body as { full_name?: string } & typeof body;
}
