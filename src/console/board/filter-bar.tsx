// The board's filters (C14): whose dossiers (anyone, me, a member), overdue only, those with my open
// tasks (C22), and a text that
// a dossier's name, email or company contains. Typing waits for a pause before the columns reload.
import { useEffect, useEffectEvent, useState } from "react";
import type { Member } from "../api/client";
import { Field } from "../ui/field";
import { isFiltered, NO_FILTER, type BoardFilter } from "./filters";

const TYPING_PAUSE_MS = 300;

interface FilterBarProps {
  filter: BoardFilter;
  onChange: (filter: BoardFilter) => void;
  member: Member;
  names: Map<string, string> | undefined;
}

export function FilterBar({ filter, onChange, member, names }: FilterBarProps) {
  const [text, setText] = useState(filter.q);
  // The address can change the text too (clearing, going back): the box follows it.
  useEffect(() => setText((typed) => (typed.trim() === filter.q ? typed : filter.q)), [filter.q]);
  // The other filters as they are when the pause ends, not as they were at the last key.
  const search = useEffectEvent((q: string) => onChange({ ...filter, q }));
  useEffect(() => {
    if (text.trim() === filter.q) return;
    const timer = setTimeout(() => search(text), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text, filter.q]);

  const others = [...(names ?? [])].filter(([id]) => id !== member.id).sort(([, a], [, b]) => a.localeCompare(b));
  // A member id from the address that the list does not hold (yet) stays selectable.
  const unknown = filter.assignee && filter.assignee !== "me" && !names?.has(filter.assignee) ? filter.assignee : null;
  return (
    <form className="filters board-filters" role="search" aria-label="Filter the board" onSubmit={(event) => event.preventDefault()}>
      <Field label="Assigned to">
        {(control) => (
          <select {...control} value={filter.assignee ?? ""} onChange={(event) => onChange({ ...filter, assignee: event.target.value || null })}>
            <option value="">Anyone</option>
            <option value="me">Me</option>
            {others.map(([id, name]) => (
              <option key={id} value={id}>
                {name}
              </option>
            ))}
            {unknown && <option value={unknown}>{names ? "Someone no longer a member" : "Loading the members…"}</option>}
          </select>
        )}
      </Field>
      <Field label="Search">
        {(control) => <input {...control} type="search" value={text} placeholder="Name, email or company" onChange={(event) => setText(event.target.value)} />}
      </Field>
      <label className="overdue-only">
        <input type="checkbox" checked={filter.overdue} onChange={(event) => onChange({ ...filter, overdue: event.target.checked })} />
        Overdue only
      </label>
      <label className="overdue-only">
        <input type="checkbox" checked={filter.myTasks} onChange={(event) => onChange({ ...filter, myTasks: event.target.checked })} />
        With my open tasks
      </label>
      {isFiltered(filter) && (
        <button
          type="button"
          className="clear"
          onClick={() => {
            setText("");
            onChange(NO_FILTER);
          }}
        >
          Clear filters
        </button>
      )}
    </form>
  );
}
