// Settings → Flows and stages (C4, C13): the flows, a new flow with its stages, renaming, making a
// flow its type's default; a flow's stages added, renamed, reordered with Up and Down buttons (the
// keyboard way, the focus staying on the moved stage), deleted; a stage's deadline, win probability
// and colour edited under its Details (issue 39).
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { messageOf } from "../api/client";
import { useFlows } from "../board/queries";
import { Alert } from "../ui/alert";
import { Field } from "../ui/field";
import { Confirm, otherRefusal, refusalFor } from "./parts";
import { useAddStage, useCreateFlow, useDeleteStage, usePatchFlow, usePatchStage } from "./queries";
import type { Flow, FlowType, Stage } from "./types";

const FLOW_FIELDS = ["name", "type", "stages"] as const;
const NAME = ["name"] as const;

export function FlowsSettings() {
  const flows = useFlows();
  return (
    <>
      <h1>Flows and stages</h1>
      <p className="hint">A flow is the path a candidate or a deal takes, stage by stage; each type has a default flow for new dossiers.</p>
      <NewFlowForm />
      {flows.isPending && <p role="status">Loading the flows…</p>}
      {flows.isError && <p role="alert">{messageOf(flows.error)}</p>}
      {flows.data?.map((flow) => <FlowSection key={flow.id} flow={flow} />)}
    </>
  );
}

const lines = (text: string) =>
  text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);

function NewFlowForm() {
  const create = useCreateFlow();
  const [name, setName] = useState("");
  const [type, setType] = useState<FlowType>("candidate");
  const [stages, setStages] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { name, type, stages: lines(stages).map((stage) => ({ name: stage })) },
      {
        onSuccess: () => {
          setName("");
          setStages("");
        },
      },
    );
  };
  const error = (field: string) => refusalFor(create.error, field, FLOW_FIELDS);
  const other = otherRefusal(create.error, FLOW_FIELDS);
  return (
    <form className="settings-form" onSubmit={submit} aria-labelledby="new-flow-heading">
      <h2 id="new-flow-heading">Create a flow</h2>
      <div className="settings-fields">
        <Field label="Flow name" error={error("name")}>
          {(control) => <input {...control} required autoComplete="off" value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <Field label="Type" error={error("type")}>
          {(control) => (
            <select {...control} value={type} onChange={(e) => setType(e.target.value as FlowType)}>
              <option value="candidate">candidate</option>
              <option value="sales">sales</option>
            </select>
          )}
        </Field>
        <Field label="Stages" hint="One per line, in order; at least one." error={error("stages")}>
          {(control) => <textarea {...control} required rows={4} value={stages} onChange={(e) => setStages(e.target.value)} />}
        </Field>
      </div>
      <Alert message={other} />
      <button type="submit" disabled={create.isPending}>
        Create flow
      </button>
    </form>
  );
}

function FlowSection({ flow }: { flow: Flow }) {
  const patch = usePatchFlow();
  const add = useAddStage();
  const [name, setName] = useState(flow.name);
  const [stage, setStage] = useState("");
  // The stage just moved, and by which button: that button keeps the focus in its new place.
  const [moved, setMoved] = useState<{ id: string; up: boolean } | null>(null);
  const headingId = useId();
  const patchRefusal = otherRefusal(patch.error, NAME);
  const addRefusal = otherRefusal(add.error, NAME);
  const rename = (event: FormEvent) => {
    event.preventDefault();
    patch.mutate({ id: flow.id, name });
  };
  const addStage = (event: FormEvent) => {
    event.preventDefault();
    add.mutate({ flowId: flow.id, name: stage }, { onSuccess: () => setStage("") });
  };
  return (
    <section className="flow-settings" aria-labelledby={headingId}>
      <h2 id={headingId}>
        {flow.name} <span className="hint">({flow.type}{flow.is_default ? ", default" : ""})</span>
      </h2>
      <div className="actions">
        <form className="inline" onSubmit={rename}>
          <Field label="Name" error={refusalFor(patch.error, "name", NAME)}>
            {(control) => <input {...control} required autoComplete="off" value={name} onChange={(e) => setName(e.target.value)} />}
          </Field>
          <button type="submit" disabled={patch.isPending || name === flow.name}>
            Rename
          </button>
        </form>
        {!flow.is_default && (
          <button type="button" className="quiet" disabled={patch.isPending} onClick={() => patch.mutate({ id: flow.id, is_default: true })}>
            Make default for {flow.type}
          </button>
        )}
      </div>
      <Alert message={patchRefusal} />
      <h3>Stages</h3>
      <ol className="stages-list">
        {flow.stages.map((s) => (
          <StageRow key={s.id} stage={s} count={flow.stages.length} focus={moved?.id === s.id ? moved.up : null} onMoved={setMoved} />
        ))}
      </ol>
      <form className="inline" onSubmit={addStage}>
        <Field label="New stage" error={refusalFor(add.error, "name", NAME)}>
          {(control) => <input {...control} required autoComplete="off" value={stage} onChange={(e) => setStage(e.target.value)} />}
        </Field>
        <button type="submit" disabled={add.isPending}>
          Add stage
        </button>
      </form>
      <Alert message={addRefusal} />
    </section>
  );
}

interface StageRowProps {
  stage: Stage;
  count: number;
  /** Give the focus to the Up (true) or Down (false) button once drawn. */
  focus: boolean | null;
  onMoved: (moved: { id: string; up: boolean } | null) => void;
}

function StageRow({ stage, count, focus, onMoved }: StageRowProps) {
  const patch = usePatchStage();
  const remove = useDeleteStage();
  const [name, setName] = useState(stage.name);
  const nameId = useId();
  const up = useRef<HTMLButtonElement>(null);
  const down = useRef<HTMLButtonElement>(null);
  const first = stage.position === 1;
  const last = stage.position === count;
  useEffect(() => {
    if (focus === null) return;
    // At the top (or bottom) its button is disabled: the other one takes the focus.
    const button = (focus && !first) || (!focus && last) ? up.current : down.current;
    button?.focus();
    onMoved(null);
  }, [focus, first, last, onMoved]);
  const move = (by: -1 | 1) => patch.mutate({ id: stage.id, position: stage.position + by }, { onSuccess: () => onMoved({ id: stage.id, up: by < 0 }) });
  const rename = (event: FormEvent) => {
    event.preventDefault();
    patch.mutate({ id: stage.id, name });
  };
  const refusal = patch.error ?? remove.error;
  const nameError = refusalFor(patch.error, "name", NAME);
  const busy = patch.isPending || remove.isPending;
  return (
    <li>
      <form className="inline stage-row" onSubmit={rename}>
        <span className="swatch" style={{ backgroundColor: stage.color }} aria-hidden="true" />
        <label htmlFor={nameId} className="sr-only">
          Name of stage {stage.name}
        </label>
        <input
          id={nameId}
          required
          autoComplete="off"
          value={name}
          onChange={(e) => setName(e.target.value)}
          aria-invalid={nameError ? true : undefined}
          aria-describedby={nameError ? `${nameId}-error` : undefined}
        />
        <button type="submit" className="quiet" disabled={busy || name === stage.name} aria-label={`Rename ${stage.name}`}>
          Rename
        </button>
        <button ref={up} type="button" className="quiet" disabled={busy || first} aria-label={`Move ${stage.name} up`} onClick={() => move(-1)}>
          Up
        </button>
        <button ref={down} type="button" className="quiet" disabled={busy || last} aria-label={`Move ${stage.name} down`} onClick={() => move(1)}>
          Down
        </button>
        <Confirm
          action="Delete"
          subject={`stage ${stage.name}`}
          question={`Delete ${stage.name}?`}
          pending={remove.isPending}
          onConfirm={() => remove.mutate(stage.id)}
        />
      </form>
      {refusal && (
        <p className="error" role="alert" id={`${nameId}-error`}>
          {nameError ?? messageOf(refusal)}
        </p>
      )}
      <StageDetails stage={stage} />
    </li>
  );
}

const DETAILS = ["deadline_days", "win_probability", "color"] as const;

/** A stage's deadline, win probability and colour (issue 39, point 8), behind a disclosure. */
function StageDetails({ stage }: { stage: Stage }) {
  const patch = usePatchStage();
  const [open, setOpen] = useState(false);
  const [deadline, setDeadline] = useState(stage.deadline_days === null ? "" : String(stage.deadline_days));
  const [probability, setProbability] = useState(String(stage.win_probability));
  const [color, setColor] = useState(normalColour(stage.color));
  const [saved, setSaved] = useState(false);
  const formId = useId();
  const save = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    patch.mutate(
      { id: stage.id, deadline_days: deadline.trim() === "" ? null : Number(deadline), win_probability: Number(probability), color },
      { onSuccess: () => setSaved(true) },
    );
  };
  return (
    <div className="stage-details">
      <button type="button" className="quiet" aria-expanded={open} aria-controls={formId} onClick={() => setOpen(!open)}>
        {open ? "Hide details" : "Details"}
        <span className="sr-only"> of {stage.name}</span>
      </button>
      {!open && (
        <span className="muted">
          {" "}
          {stage.deadline_days === null ? "No deadline" : `${stage.deadline_days} ${stage.deadline_days === 1 ? "day" : "days"} to act`} · {stage.win_probability}% win
        </span>
      )}
      {open && (
        <form id={formId} className="settings-fields stage-details-form" onSubmit={save} aria-label={`Details of ${stage.name}`} noValidate>
          <Field label="Deadline (days)" hint="Days a dossier may stay before it is overdue; empty for none." error={refusalFor(patch.error, "deadline_days", DETAILS)}>
            {(control) => <input {...control} type="number" min={0} step={1} inputMode="numeric" value={deadline} onChange={(e) => setDeadline(e.target.value)} />}
          </Field>
          <Field label="Win probability (%)" error={refusalFor(patch.error, "win_probability", DETAILS)}>
            {(control) => <input {...control} type="number" min={0} max={100} step={1} inputMode="numeric" value={probability} onChange={(e) => setProbability(e.target.value)} />}
          </Field>
          <Field label="Colour" error={refusalFor(patch.error, "color", DETAILS)}>
            {(control) => <input {...control} type="color" value={color} onChange={(e) => setColor(e.target.value)} />}
          </Field>
          <div className="actions">
            <button type="submit" disabled={patch.isPending}>
              Save details<span className="sr-only"> of {stage.name}</span>
            </button>
            <span role="status" className="saved">
              {saved ? "Saved." : ""}
            </span>
          </div>
          <Alert message={otherRefusal(patch.error, DETAILS)} />
        </form>
      )}
    </div>
  );
}

/** #RGB as #RRGGBB, which a colour input needs. */
const normalColour = (color: string) => (/^#[0-9a-f]{3}$/i.test(color) ? `#${[...color.slice(1)].map((c) => c + c).join("")}` : color).toLowerCase();
