// Screen 5 (C14): a new dossier: its type, its flow (of that type; `?flow=<id>` chooses one), its
// fields and, if given, its CV, sent together so that nothing is made unless all of it is taken.
// A refusal shows beside its field and everything typed stays.
import { useState, type FormEvent } from "react";
import { useLocation, useSearch } from "wouter";
import { messageOf } from "../api/client";
import { canWriteDossiers, useMember } from "../api/session";
import { useFlows } from "../board/queries";
import { Alert } from "../ui/alert";
import { errorFor, Field, fieldOf, type ControlProps } from "../ui/field";
import { refusalOf } from "./cv";
import { TEXT_FIELDS, type TextField, type TextName } from "./fields";
import { assignable, useCreateDossier, useMembers } from "./queries";
import type { CreateDossierForm, DossierType, Flow } from "./types";

const FIELDS: readonly string[] = ["type", "flow_id", "assigned_to", "cv", ...TEXT_FIELDS.map((field) => field.name)];

const TYPES: { value: DossierType; label: string }[] = [
  { value: "candidate", label: "Candidate (recruitment)" },
  { value: "sales", label: "Sales (a deal or an account)" },
];

export function NewDossier() {
  const member = useMember();
  const flows = useFlows();
  const search = useSearch();
  if (!canWriteDossiers(member)) {
    return (
      <>
        <h1>New dossier</h1>
        <p>Your role ({member.role}) can look at dossiers but cannot create them. An admin can change your role.</p>
      </>
    );
  }
  if (flows.isPending) return <p role="status">Loading the flows…</p>;
  if (flows.isError) return <p role="alert">{messageOf(flows.error)}</p>;
  const chosen = flows.data.find((flow) => flow.id === new URLSearchParams(search).get("flow"));
  return <NewDossierForm flows={flows.data} chosen={chosen} />;
}

/** The flow a type starts with: the one chosen if of that type, else the type's default. */
const flowFor = (flows: Flow[], type: DossierType, chosen?: Flow) =>
  chosen?.type === type ? chosen.id : (flows.find((flow) => flow.type === type && flow.is_default) ?? flows.find((flow) => flow.type === type))?.id ?? "";

function NewDossierForm({ flows, chosen }: { flows: Flow[]; chosen: Flow | undefined }) {
  const [, navigate] = useLocation();
  const create = useCreateDossier();
  const members = useMembers();
  const [type, setType] = useState<DossierType>(chosen?.type ?? "candidate");
  const [flowId, setFlowId] = useState(() => flowFor(flows, chosen?.type ?? "candidate", chosen));
  const [assignee, setAssignee] = useState("");
  const [texts, setTexts] = useState<Partial<Record<TextName, string>>>({});
  const [cv, setCv] = useState<File | null>(null);
  const [cvRefusal, setCvRefusal] = useState<string | null>(null);
  const ofType = flows.filter((flow) => flow.type === type);
  const error = (name: string) => errorFor(create.error, name, FIELDS);
  const unplaced = create.isError && fieldOf(create.error, FIELDS) === null;
  const fields = TEXT_FIELDS.filter((field) => !field.salesOnly || type === "sales");

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const why = cv ? await refusalOf(cv) : null;
    setCvRefusal(why);
    if (why) return;
    const body: CreateDossierForm = { type, name: texts.name ?? "" };
    if (flowId) body.flow_id = flowId;
    if (assignee) body.assigned_to = assignee;
    for (const field of fields) {
      const value = texts[field.name];
      if (field.name !== "name" && value !== undefined && value.trim() !== "") body[field.name] = value;
    }
    if (cv) body.cv = cv;
    create.mutate(body, { onSuccess: (dossier) => navigate(`/dossiers/${dossier.id}`) });
  };

  const text = (field: TextField) => (control: ControlProps) => {
    const props = { ...control, value: texts[field.name] ?? "", onChange: (event: { target: { value: string } }) => setTexts((before) => ({ ...before, [field.name]: event.target.value })) };
    return field.multiline ? (
      <textarea {...props} rows={4} />
    ) : (
      <input {...props} type={field.type ?? "text"} inputMode={field.numeric ? "decimal" : undefined} required={field.name === "name"} />
    );
  };

  return (
    <>
      <title>New dossier · Dossier</title>
      <h1>New dossier</h1>
      <form className="new-dossier" onSubmit={(event) => void submit(event)} noValidate aria-label="New dossier">
        <fieldset className="type">
          <legend>Type</legend>
          {TYPES.map((option) => (
            <label key={option.value} className="check">
              <input
                type="radio"
                name="type"
                value={option.value}
                checked={type === option.value}
                onChange={() => {
                  setType(option.value);
                  setFlowId(flowFor(flows, option.value, chosen));
                }}
              />{" "}
              {option.label}
            </label>
          ))}
          <Alert message={error("type")} />
        </fieldset>
        <Field label="Flow" error={error("flow_id")} hint={ofType.length === 0 ? "No flow of this type yet: the dossier gets none." : undefined}>
          {(control) => (
            <select {...control} value={flowId} onChange={(event) => setFlowId(event.target.value)}>
              {ofType.length === 0 && <option value="">No flow</option>}
              {ofType.map((flow) => (
                <option key={flow.id} value={flow.id}>
                  {flow.name}
                  {flow.is_default ? " (default)" : ""}
                </option>
              ))}
            </select>
          )}
        </Field>
        <div className="text-fields">
          {fields.map((field) => (
            <Field key={field.name} label={field.label} hint={field.hint} error={error(field.name)}>
              {text(field)}
            </Field>
          ))}
        </div>
        <Field label="Assigned to" error={error("assigned_to")}>
          {(control) => (
            <select {...control} value={assignee} onChange={(event) => setAssignee(event.target.value)}>
              <option value="">Nobody</option>
              {assignable(members.data).map((member) => (
                <option key={member.id} value={member.id}>
                  {member.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="CV (PDF, optional)" hint="At most 10 MB." error={cvRefusal ?? error("cv")}>
          {(control) => (
            <input
              {...control}
              type="file"
              accept="application/pdf,.pdf"
              onChange={(event) => {
                setCvRefusal(null);
                setCv(event.target.files?.[0] ?? null);
              }}
            />
          )}
        </Field>
        {unplaced && (
          <p className="error" role="alert">
            Not created: {messageOf(create.error)}
          </p>
        )}
        <div className="actions">
          <button type="submit" disabled={create.isPending}>
            {create.isPending ? "Creating…" : "Create dossier"}
          </button>
        </div>
      </form>
    </>
  );
}
