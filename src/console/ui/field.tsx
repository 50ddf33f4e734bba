// A labelled control with the API's refusal shown beside it (C14: "every error answer of the API
// is shown in words in the page, next to what caused it"). The API names the field first in its
// message ("email must be an email address", "name is required"), which is how a refusal finds
// its field; a 404 that names one (C5: "flow_id: flow not found") is placed the same way.
import { useId, useState, type ReactNode } from "react";
import { ApiFailure, messageOf } from "../api/client";
import { fieldOfRefusal } from "./words";

/** The field of `fields` that an API refusal is about, or null when it names none of them. */
export function fieldOf(error: unknown, fields: readonly string[]): string | null {
  if (!(error instanceof ApiFailure) || (error.status !== 400 && error.status !== 404)) return null;
  const named = fieldOfRefusal(error.code, error.message, error.param) ?? error.message.split(/[\s:]/, 1)[0];
  const first = named.split(/[.[]/, 1)[0];
  return fields.find((field) => field === first) ?? null;
}

/** The refusal's words for `field` when it is about that field. */
export const errorFor = (error: unknown, field: string, fields: readonly string[]) => (fieldOf(error, fields) === field ? messageOf(error) : null);

/** The props a control needs to be named by its label and described by its error. */
export interface ControlProps {
  id: string;
  "aria-invalid": boolean | undefined;
  "aria-describedby": string | undefined;
}

interface FieldProps {
  label: string;
  error?: string | null;
  hint?: string;
  children: (control: ControlProps) => ReactNode;
}

/** A label, the control the children render with `control`'s props, a hint and the error. The
 * error goes once the control is changed (issue 39: it no longer stays under a field that was
 * fixed), and shows again if the next answer refuses the field again. */
export function Field({ label, error: refusal, hint, children }: FieldProps) {
  const id = useId();
  const [edited, setEdited] = useState<string | null>(null);
  // A new answer (no error while it is asked for) forgets the edit.
  if (!refusal && edited !== null) setEdited(null);
  const error = refusal && edited !== refusal ? refusal : null;
  const onEdit = () => {
    if (refusal) setEdited(refusal);
  };
  const described = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field" onInput={onEdit} onChange={onEdit}>
      <label htmlFor={id}>{label}</label>
      {children({ id, "aria-invalid": error ? true : undefined, "aria-describedby": described })}
      {hint && (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
