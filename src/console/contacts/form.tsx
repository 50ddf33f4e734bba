// A contact's fields as a form, for creating one and for editing one. The API's refusal is shown
// beside the field it is about (a duplicate email beside the email), and what was typed stays.
import { useState, type FormEvent, type ReactNode } from "react";
import { ApiFailure, messageOf } from "../api/client";
import { Field, fieldOf } from "../ui/field";
import { capitalizedKind } from "./words";
import { POOL_FIELDS, TEXT_FIELDS, type TextField, type Typed } from "./body";
import { KINDS, type ContactKind } from "./types";

const FIELDS: readonly string[] = [...TEXT_FIELDS, "kind"];

/** The field an API refusal is about: a 400 that names it, or a duplicate email (409). */
function refusedField(error: unknown): string | null {
  if (error instanceof ApiFailure && error.code === "duplicate_contact") return "email";
  return fieldOf(error, FIELDS);
}

const LABELS: Record<TextField, string> = {
  full_name: "Full name",
  email: "Email",
  phone: "Phone",
  company: "Company",
  role: "Role",
  city: "City",
  linkedin_url: "LinkedIn profile",
  notes: "Notes",
  pool_added_at: "In the talent pool from",
  pool_expires_at: "In the talent pool until",
};

const INPUT_TYPES: Partial<Record<TextField, string>> = { email: "email", phone: "tel", linkedin_url: "url", pool_added_at: "date", pool_expires_at: "date" };

interface ContactFormProps {
  initial: Typed;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  /** Words above the fields for a refusal that is about none of them (e.g. a 412). */
  notice?: ReactNode;
  onSubmit: (typed: Typed) => void;
  onCancel?: () => void;
}

export function ContactForm({ initial, submitLabel, pending, error, notice, onSubmit, onCancel }: ContactFormProps) {
  const [typed, setTyped] = useState(initial);
  const refused = refusedField(error);
  const set = (field: TextField) => (value: string) => setTyped((before) => ({ ...before, [field]: value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(typed);
  };
  const toggle = (kind: ContactKind, on: boolean) =>
    setTyped((before) => ({ ...before, kind: on ? KINDS.filter((k) => k === kind || before.kind.includes(k)) : before.kind.filter((k) => k !== kind) }));
  const errorOf = (field: string) => (refused === field ? messageOf(error) : null);
  return (
    <form className="contact-form" onSubmit={submit} noValidate>
      {notice}
      {error !== null && error !== undefined && refused === null && !notice && (
        <p className="error" role="alert">
          {messageOf(error)}
        </p>
      )}
      <div className="contact-fields">
        {TEXT_FIELDS.filter((field) => field !== "notes" && !POOL_FIELDS.includes(field)).map((field) => (
          <Field key={field} label={LABELS[field]} error={errorOf(field)} hint={field === "full_name" ? "Required" : undefined}>
            {(control) => (
              <input
                {...control}
                type={INPUT_TYPES[field] ?? "text"}
                value={typed[field]}
                onChange={(event) => set(field)(event.target.value)}
                required={field === "full_name"}
                // The form opens on a click of New contact or Edit: typing starts at once.
                autoFocus={field === "full_name"}
                autoComplete="off"
              />
            )}
          </Field>
        ))}
      </div>
      <fieldset className="kinds" aria-describedby={errorOf("kind") ? "kind-error" : undefined}>
        <legend>Kind</legend>
        {KINDS.map((kind) => (
          <label key={kind}>
            <input type="checkbox" checked={typed.kind.includes(kind)} onChange={(event) => toggle(kind, event.target.checked)} /> {capitalizedKind(kind)}
          </label>
        ))}
        {errorOf("kind") && (
          <p id="kind-error" className="error" role="alert">
            {errorOf("kind")}
          </p>
        )}
      </fieldset>
      <div className="contact-fields">
        {POOL_FIELDS.map((field) => (
          <Field key={field} label={LABELS[field]} error={errorOf(field)} hint={field === "pool_expires_at" ? "Later than the first day; either may stay empty" : undefined}>
            {(control) => <input {...control} type="date" value={typed[field]} onChange={(event) => set(field)(event.target.value)} />}
          </Field>
        ))}
      </div>
      <Field label={LABELS.notes} error={errorOf("notes")}>
        {(control) => <textarea {...control} rows={4} value={typed.notes} onChange={(event) => set("notes")(event.target.value)} />}
      </Field>
      <div className="actions">
        <button type="submit" disabled={pending}>
          {pending ? "Saving…" : submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="secondary" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
