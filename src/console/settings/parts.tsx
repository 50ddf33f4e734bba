// What the settings screens share: a secret shown once with a Copy button, a destructive action
// with a confirmation step, and a refusal matched to the field it is about.
import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { ApiFailure, messageOf } from "../api/client";
import { fieldOf } from "../ui/field";
import { formatMoment } from "../ui/format";

/** The words of a refusal about `field`: a 400 naming it (ui/field.tsx), or one of the codes that
 * `codes` ties to it (409 duplicate_member is about the email, say). */
export function refusalFor(error: unknown, field: string, fields: readonly string[], codes: Record<string, string> = {}): string | null {
  if (fieldOf(error, fields) === field) return messageOf(error);
  if (error instanceof ApiFailure && codes[error.code] === field) return messageOf(error);
  return null;
}

/** A refusal about none of the fields, shown once for the whole form. */
export function otherRefusal(error: unknown, fields: readonly string[], codes: Record<string, string> = {}): string | null {
  if (!error) return null;
  if (fieldOf(error, fields) !== null) return null;
  if (error instanceof ApiFailure && codes[error.code] !== undefined) return null;
  return messageOf(error);
}

interface ShownOnceProps {
  /** What it is, e.g. "Setup link for Ada". */
  label: string;
  value: string;
  /** Why it matters that it is copied now. */
  children: ReactNode;
  onDone: () => void;
}

/** A secret or link the API shows this once: read-only, selectable, with a Copy button. */
export function ShownOnce({ label, value, children, onDone }: ShownOnceProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState("");
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, [value]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied("Copied.");
    } catch {
      input.current?.select();
      setCopied("This browser did not let the page copy: the text is selected, copy it with Ctrl+C (⌘C).");
    }
  };
  return (
    <section className="shown-once" aria-labelledby={`${id}-label`}>
      <p className="hint" id={`${id}-note`}>
        {children}
      </p>
      <label id={`${id}-label`} htmlFor={id}>
        {label}
      </label>
      <div className="shown-once-row">
        <input id={id} ref={input} readOnly value={value} aria-describedby={`${id}-note`} onFocus={(event) => event.target.select()} />
        <button type="button" onClick={() => void copy()}>
          Copy
        </button>
        <button type="button" className="quiet" onClick={onDone}>
          Done
        </button>
      </div>
      <p role="status" className="copied">
        {copied}
      </p>
    </section>
  );
}

interface ConfirmProps {
  /** The button's words, e.g. "Revoke". */
  action: string;
  /** What the button acts on, for its accessible description, e.g. the key's name. */
  subject: string;
  /** What the second step asks, e.g. "Revoke this key? Programs using it stop at once." */
  question: string;
  pending: boolean;
  onConfirm: () => void;
}

/** A destructive action in two steps: the button opens the question; answering it (Escape is
 * Cancel) gives the focus back to the button. */
export function Confirm({ action, subject, question, pending, onConfirm }: ConfirmProps) {
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const yes = useRef<HTMLButtonElement>(null);
  const id = useId();
  useEffect(() => {
    if (open) yes.current?.focus();
  }, [open]);
  if (!open) {
    return (
      <button ref={opener} type="button" className="danger" aria-label={`${action} ${subject}`} onClick={() => setOpen(true)}>
        {action}
      </button>
    );
  }
  const close = () => {
    setOpen(false);
    requestAnimationFrame(() => opener.current?.focus());
  };
  return (
    <span
      className="confirm"
      role="group"
      aria-labelledby={id}
      onKeyDown={(event) => {
        if (event.key === "Escape") close();
      }}
    >
      <span id={id}>{question}</span>
      <button
        ref={yes}
        type="button"
        className="danger"
        disabled={pending}
        onClick={() => {
          close();
          onConfirm();
        }}
      >
        Yes, {action.toLowerCase()}
      </button>
      <button type="button" className="quiet" onClick={close}>
        Cancel
      </button>
    </span>
  );
}

/** A date-time for a table cell, in the reader's locale; "never" for null. */
/** A moment in the console's one format (ui/format.ts), or `never`. */
export const when = (iso: string | null, never = "never") => (iso ? formatMoment(iso) : never);
