// The dossier's notes, newest first, and adding one.
import { useState, type FormEvent } from "react";
import { messageOf } from "../api/client";
import { Alert } from "../ui/alert";
import { Field } from "../ui/field";
import { useAddNote, useNotes } from "./queries";
import { when } from "./words";

export function NotesSection({ id, canWrite }: { id: string; canWrite: boolean }) {
  const notes = useNotes(id);
  return (
    <section className="notes" aria-labelledby="notes-heading">
      <h2 id="notes-heading">Notes</h2>
      {canWrite && <AddNote id={id} />}
      {notes.isPending && <p role="status">Loading the notes…</p>}
      <Alert error={notes.error} />
      {notes.data && notes.data.total === 0 && <p>No notes yet.</p>}
      {notes.data && notes.data.notes.length < notes.data.total && (
        <p className="hint">
          The newest {notes.data.notes.length} of {notes.data.total} notes.
        </p>
      )}
      {notes.data && notes.data.notes.length > 0 && (
        <ol className="note-list" aria-label="Notes, newest first">
          {notes.data.notes.map((note) => (
            <li key={note.id}>
              <p className="meta">
                <time dateTime={note.created_at}>{when(note.created_at)}</time>
                {note.is_internal ? " · internal" : " · shared"}
              </p>
              <p className="content">{note.content}</p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function AddNote({ id }: { id: string }) {
  const add = useAddNote(id);
  const [content, setContent] = useState("");
  const [internal, setInternal] = useState(true);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate({ content, is_internal: internal }, { onSuccess: () => setContent("") });
  };
  return (
    <form className="add-note" onSubmit={submit} noValidate>
      <Field label="New note" error={add.isError ? messageOf(add.error) : null}>
        {(control) => <textarea {...control} rows={3} value={content} onChange={(event) => setContent(event.target.value)} />}
      </Field>
      <label className="check">
        <input type="checkbox" checked={internal} onChange={(event) => setInternal(event.target.checked)} /> Internal (not shared)
      </label>
      <button type="submit" disabled={add.isPending}>
        {add.isPending ? "Adding…" : "Add note"}
      </button>
    </form>
  );
}
