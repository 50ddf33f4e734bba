// The API's refusals in words for people (issue 39, point 5): every error code the API can answer
// (api-v1 "Errors") has a sentence here, and a refusal about a field names the field by the label
// the screen shows, never by its API name ("Leaves the pool must be later than Joined the pool.",
// not "pool_expires_at: must be later than pool_added_at").
import type { components } from "../api/schema";

/** Every code of the API's error envelope, as the OpenAPI document lists them. */
export type ErrorCode = components["schemas"]["Error"]["error"]["code"];

/** What a refusal of each code means for the person in front of the page. A code whose API
 * message already says what to fix about a field (invalid_body, not_found) uses it, worded again
 * by `explain`; these sentences are for when it names none. */
export const ERROR_WORDS: Record<ErrorCode, string> = {
  invalid_body: "Something in the form is not right. Check the fields and try again.",
  unauthorized: "You are signed out. Sign in again to go on.",
  plan_required: "Your organization's plan does not include this. An owner can change the plan.",
  forbidden: "Your role does not allow this. Ask an admin if you need it.",
  not_found: "This was not found: it may have been deleted. Reload the page to see what is there now.",
  request_timeout: "The request took too long to arrive. Check your connection and try again.",
  duplicate_contact: "A contact with this email already exists.",
  file_too_large: "The file is too large: a CV may be at most 10 MB.",
  payload_too_large: "What you sent is too large. Make it shorter and try again.",
  unsupported_media_type: "This kind of file cannot be used here: send a PDF.",
  rate_limited: "Too many attempts in a short time. Wait a minute and try again.",
  internal: "Something went wrong on the server. Nothing is lost: try again.",
  storage_unavailable: "The server cannot save changes right now; nothing was saved. Try again in a moment.",
  insufficient_storage: "The server has no space left to store this; nothing was saved. Tell your admin.",
  invalid_setup_link: "This setup link is unknown, already used or expired. Ask an admin for a new one.",
  invalid_credentials: "The email or password is wrong.",
  csrf_failed: "Your session could not be checked. Reload the page and try again.",
  duplicate_member: "A member with this email already exists.",
  last_owner: "The organization must keep at least one owner: make someone else owner first.",
  stage_not_empty: "This stage still holds dossiers (archived ones too). Move them to another stage first.",
  last_stage: "A flow keeps at least one stage, and this is its last.",
  delivery_not_failed: "Only a delivery that failed can be sent again.",
  idempotency_key_in_use: "The same change is still being saved. Wait a moment and try again.",
  cursor_expired: "The list is out of date. Reload the page.",
  precondition_failed: "Someone else changed this since you opened it. Reload to see their changes, then try again.",
  idempotency_key_reused: "This change was already sent as another one. Reload the page and try again.",
  server_busy: "The server is busy. Try again in a moment.",
  import_not_revertable: "Only a finished import that changed something can be reverted, and only once.",
};

/** Labels of the API's field names, as the console's screens show them. */
export const FIELD_LABELS: Record<string, string> = {
  name: "Name",
  full_name: "Full name",
  email: "Email",
  phone: "Phone",
  company: "Company",
  role: "Role",
  title: "Job title",
  contact_person: "Contact person",
  deal_size: "Deal size",
  deal_currency: "Currency",
  status: "Status",
  assigned_to: "Assigned to",
  intake_notes: "Intake notes",
  current_stage_id: "Stage",
  stage_id: "Stage",
  updated_since: "Changed since",
  per_page: "Rows per page",
  page: "Page",
  q: "Search",
  overdue: "Deadline",
  flow_id: "Flow",
  type: "Type",
  contact_id: "Contact",
  content: "New note",
  password: "Password",
  url: "URL",
  scopes: "Scopes",
  expires_at: "Expires",
  linkedin_url: "LinkedIn profile",
  city: "City",
  kind: "Kind",
  kinds: "Kinds",
  notes: "Notes",
  pool_added_at: "In the talent pool from",
  pool_expires_at: "In the talent pool until",
  stages: "Stages",
  color: "Colour",
  deadline_days: "Deadline (days)",
  win_probability: "Win probability",
  position: "Position",
  role_on_dossier: "Role on the dossier",
  is_primary: "Primary contact",
  from: "From",
  to: "To",
  cv: "CV",
};

/** The scopes of C13 in words. */
export const SCOPE_WORDS: Record<string, string> = {
  "dossiers:read": "read dossiers",
  "contacts:read": "read contacts",
  "flows:read": "read flows and stages",
  "notes:read": "read notes",
  "dossiers:write": "change dossiers",
  "contacts:write": "change contacts",
  "notes:write": "write notes",
  "flows:write": "change flows and stages",
  "members:manage": "manage members",
  "keys:manage": "manage API keys",
  "webhooks:manage": "manage the webhook",
  "events:read": "read the event feed",
  "tasks:read": "read tasks",
  "tasks:write": "change tasks",
  "mail:read": "read the mail log",
};

/** A field's label: its screen's label, or the API name made readable ("stages[2].color" → "Colour"). */
export function labelOf(field: string): string {
  const last = field.split(/[.[\]]/).filter((part) => part && !/^\d+$/.test(part)).at(-1) ?? field;
  return FIELD_LABELS[last] ?? FIELD_LABELS[field] ?? capital(last.replaceAll("_", " "));
}

const capital = (text: string) => (text ? text[0].toUpperCase() + text.slice(1) : text);
const sentence = (text: string) => {
  const trimmed = capital(text.trim());
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
};

/** A message's leading `field: ` (as the API writes a refusal about one), and the rest. */
const LEADING_FIELD = /^([a-z_][a-z0-9_]*(?:\[\d+\]|\.[a-z_][a-z0-9_]*)*): (.*)$/s;
/** An API field name inside a message (snake_case, or a known single word after "than"/"to"...). */
const FIELD_NAME = /\b[a-z]+(?:_[a-z0-9]+)+\b/g;

/** The field a refusal is about: the envelope's `param`, else its message's leading `field: `. */
export function fieldOfRefusal(code: string, message: string, param?: string | null): string | null {
  if (param) return param;
  if (code !== "invalid_body" && code !== "not_found") return null;
  return LEADING_FIELD.exec(message)?.[1] ?? null;
}

/** One refusal in words for people: a field's refusal led by its label, any other by its code's
 * sentence (a missing scope named in words). */
export function explain(code: string, message: string, param?: string | null): string {
  const field = fieldOfRefusal(code, message, param);
  if (field) {
    const rest = (LEADING_FIELD.exec(message)?.[2] ?? message.replace(new RegExp(`^${field.replace(/[.[\]]/g, "\\$&")}\\b:?\\s*`), "")).replace(
      FIELD_NAME,
      (name) => (FIELD_LABELS[name] ? `“${FIELD_LABELS[name]}”` : name.replaceAll("_", " ")),
    );
    return sentence(`${labelOf(field)}: ${rest}`);
  }
  if (code === "forbidden") {
    const scopes = Object.keys(SCOPE_WORDS).filter((scope) => message.includes(scope));
    if (scopes.length > 0) return `Your role does not allow this: it needs permission to ${scopes.map((scope) => SCOPE_WORDS[scope]).join(" and ")}. Ask an admin if you need it.`;
  }
  if (code === "not_found" && /^[a-z ]+ not found$/.test(message)) return sentence(`This ${message.replace(/ not found$/, "")} was not found: it may have been deleted`);
  return (ERROR_WORDS as Record<string, string>)[code] ?? sentence(message);
}
