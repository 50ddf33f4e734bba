// The dossier's fields, its stage, status and assignee, edited in place: what is typed is a draft
// over the version shown until "Save changes" sends the changed fields with If-Match. A refusal
// shows beside its field, and a 412 (someone else saved first) offers to read the dossier again;
// the drafts stay through both.
import { useState, type FormEvent } from "react";
import { messageOf } from "../api/client";
import { errorFor, Field, fieldOf, type ControlProps } from "../ui/field";
import { TEXT_FIELDS, type TextField } from "./fields";
import { assignable, changedMeanwhile, useMembers, useSaveDossier, type Shown } from "./queries";
import type { Dossier, DossierStatus, Flow, PatchDossier } from "./types";

type Editable = keyof PatchDossier;

export const STATUSES: { value: DossierStatus; label: string }[] = [
  { value: "active", label: "Active" },
  { value: "won", label: "Won" },
  { value: "lost", label: "Lost" },
  { value: "archived", label: "Archived" },
];

const ALL_FIELDS: readonly string[] = [...TEXT_FIELDS.map((field) => field.name), "current_stage_id", "status", "assigned_to"];

const labelOf = (name: string) =>
  ({ current_stage_id: "stage", status: "status", assigned_to: "assignee" })[name] ?? TEXT_FIELDS.find((field) => field.name === name)?.label.toLowerCase() ?? name;

const fieldsOf = (dossier: Dossier) => TEXT_FIELDS.filter((field) => !field.salesOnly || dossier.type === "sales");

/** A field's value as the page shows it in a control. */
const textOf = (dossier: Dossier, name: Editable) => {
  const value = dossier[name];
  return value === null || value === undefined ? "" : String(value);
};

/** The PATCH body for the drafts that differ from the version shown. */
function changesOf(dossier: Dossier, drafts: Partial<Record<Editable, string>>): PatchDossier {
  const changes: Record<string, unknown> = {};
  for (const [name, draft] of Object.entries(drafts) as [Editable, string][]) {
    if (draft === textOf(dossier, name)) continue;
    if (name === "name" || name === "status" || name === "current_stage_id") changes[name] = draft;
    else if (draft.trim() === "") changes[name] = null;
    // Text that is no number goes as typed, for the API to refuse in its own words.
    else if (name === "deal_size") changes[name] = Number.isFinite(Number(draft)) ? Number(draft) : draft;
    else changes[name] = draft;
  }
  return changes as PatchDossier;
}

/** An assignee who can no longer sign in, by name when the members list still holds them. */
const formerName = (members: { id: string; name: string }[] | undefined, id: string) => {
  const name = members?.find((member) => member.id === id)?.name;
  return name ? `${name} (disabled)` : "A member no longer here";
};

interface Props {
  shown: Shown;
  flow: Flow | undefined;
  /** Reads the dossier again; the version now shown. */
  onReload: () => Promise<Shown | undefined>;
}

export function DetailsForm({ shown, flow, onReload }: Props) {
  const { dossier } = shown;
  const save = useSaveDossier(dossier.id);
  const members = useMembers();
  const choices = assignable(members.data);
  const [drafts, setDrafts] = useState<Partial<Record<Editable, string>>>({});
  const [outcome, setOutcome] = useState<string | null>(null);
  const [reloading, setReloading] = useState(false);
  const value = (name: Editable) => drafts[name] ?? textOf(dossier, name);
  const set = (name: Editable) => (event: { target: { value: string } }) => {
    setOutcome(null);
    setDrafts((before) => ({ ...before, [name]: event.target.value }));
  };
  const changes = changesOf(dossier, drafts);
  const changed = Object.keys(changes).length > 0;
  const error = (name: string) => errorFor(save.error, name, ALL_FIELDS);
  const unplaced = save.isError && !changedMeanwhile(save.error) && fieldOf(save.error, ALL_FIELDS) === null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!changed) return;
    setOutcome(null);
    const sent = drafts;
    save.mutate(changes, {
      onSuccess: () => {
        // What was typed while the save was on its way stays a draft.
        setDrafts((now) => Object.fromEntries(Object.entries(now).filter(([name, draft]) => sent[name as Editable] !== draft)));
        setOutcome("Saved.");
      },
    });
  };
  const reload = async () => {
    setReloading(true);
    const after = await onReload().finally(() => setReloading(false));
    save.reset();
    const theirs = after ? ALL_FIELDS.filter((name) => textOf(after.dossier, name as Editable) !== textOf(dossier, name as Editable)).map(labelOf) : [];
    const what = theirs.length ? ` (they changed ${theirs.join(", ")})` : "";
    setOutcome(`This page now shows their version${what}; what you typed is still here. Save again to apply it.`);
  };

  const text = (field: TextField) => (control: ControlProps) =>
    field.multiline ? (
      <textarea {...control} rows={4} value={value(field.name)} onChange={set(field.name)} />
    ) : (
      <input
        {...control}
        type={field.type ?? "text"}
        inputMode={field.numeric ? "decimal" : undefined}
        value={value(field.name)}
        onChange={set(field.name)}
        required={field.name === "name"}
      />
    );

  const assignee = dossier.assigned_to;
  const unknownAssignee = assignee !== null && !choices.some((member) => member.id === assignee);
  const stageKnown = flow?.stages.some((stage) => stage.id === dossier.current_stage_id) ?? false;

  return (
    <form className="edit-details" onSubmit={submit} noValidate aria-label="Dossier details">
      <div className="pipeline">
        <Field label="Stage" error={error("current_stage_id")}>
          {(control) => (
            <select {...control} value={value("current_stage_id")} onChange={set("current_stage_id")}>
              {!stageKnown && <option value={textOf(dossier, "current_stage_id")}>{dossier.current_stage_id ? "Another flow's stage" : "No stage"}</option>}
              {flow?.stages.map((stage) => (
                <option key={stage.id} value={stage.id}>
                  {stage.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Status" error={error("status")}>
          {(control) => (
            <select {...control} value={value("status")} onChange={set("status")}>
              {STATUSES.map((status) => (
                <option key={status.value} value={status.value}>
                  {status.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Assigned to" error={error("assigned_to") ?? (members.isError ? `The members could not be listed: ${messageOf(members.error)}` : null)}>
          {(control) => (
            <select {...control} value={value("assigned_to")} onChange={set("assigned_to")}>
              <option value="">Nobody</option>
              {unknownAssignee && <option value={assignee}>{formerName(members.data, assignee)}</option>}
              {choices.map((member) => (
                <option key={member.id} value={member.id}>
                  {member.name}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <div className="fields">
        {fieldsOf(dossier).map((field) => (
          <Field key={field.name} label={field.label} hint={field.hint} error={error(field.name)}>
            {text(field)}
          </Field>
        ))}
      </div>
      {save.isError && changedMeanwhile(save.error) && (
        <div className="conflict" role="alert">
          <p>Someone else changed this dossier first: nothing was saved. Reload it to see their change; what you typed stays.</p>
          <button type="button" onClick={() => void reload()} disabled={reloading}>
            {reloading ? "Reloading…" : "Reload the dossier"}
          </button>
        </div>
      )}
      {unplaced && (
        <p className="error" role="alert">
          Not saved: {messageOf(save.error)}
        </p>
      )}
      <div className="actions">
        <button type="submit" disabled={!changed || save.isPending}>
          {save.isPending ? "Saving…" : "Save changes"}
        </button>
        {changed && (
          <button
            type="button"
            className="secondary"
            onClick={() => {
              setDrafts({});
              save.reset();
            }}
          >
            Discard changes
          </button>
        )}
        <span role="status" className="saved">
          {outcome}
        </span>
      </div>
    </form>
  );
}

/** The same fields as text, for a role that only reads. */
export function DetailsText({ shown, flow, memberName }: { shown: Shown; flow: Flow | undefined; memberName: (id: string) => string | undefined }) {
  const { dossier } = shown;
  const stage = flow?.stages.find((s) => s.id === dossier.current_stage_id)?.name ?? (dossier.current_stage_id ? "Another flow's stage" : "No stage");
  const status = STATUSES.find((s) => s.value === dossier.status)?.label ?? dossier.status;
  const assignee = dossier.assigned_to ? (memberName(dossier.assigned_to) ?? "A member no longer here") : "Nobody";
  const rows: [string, string][] = [
    ["Stage", stage],
    ["Status", status],
    ["Assigned to", assignee],
    ...fieldsOf(dossier).map((field): [string, string] => [field.label, textOf(dossier, field.name) || "—"]),
  ];
  return (
    <dl className="read-details">
      {rows.map(([label, text]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{text}</dd>
        </div>
      ))}
    </dl>
  );
}
