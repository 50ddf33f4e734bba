// A dossier's tasks (C22): open ones first, each completed or opened again by its checkbox; a form
// adds one with a due date and an assignee.
import { useState, type FormEvent } from "react";
import { assignable, useMembers } from "../dossier/queries";
import { Alert } from "../ui/alert";
import { errorFor, Field } from "../ui/field";
import { useAddTask, useDossierTasks } from "./queries";
import { TaskItem } from "./task-item";
import { fromLocalInput } from "./words";

const FIELDS = ["title", "due_at", "assigned_to"] as const;

export function DossierTasks({ id, canWrite }: { id: string; canWrite: boolean }) {
  const tasks = useDossierTasks(id);
  const members = useMembers();
  const nameOf = (memberId: string | null) => (memberId ? (members.data?.find((m) => m.id === memberId)?.name ?? null) : null);
  const now = new Date();
  return (
    <section className="tasks" aria-labelledby="tasks-heading">
      <h2 id="tasks-heading">Tasks</h2>
      {canWrite && <AddTask id={id} />}
      {tasks.isPending && <p role="status">Loading the tasks…</p>}
      <Alert error={tasks.error} />
      {tasks.data && tasks.data.length === 0 && <p>No tasks yet.</p>}
      {tasks.data && tasks.data.length > 0 && (
        <ul className="task-list" aria-label="Tasks, open first">
          {tasks.data.map((task) => (
            <TaskItem key={task.id} task={task} canWrite={canWrite} now={now} assignee={nameOf(task.assigned_to)} />
          ))}
        </ul>
      )}
    </section>
  );
}

function AddTask({ id }: { id: string }) {
  const add = useAddTask();
  const members = useMembers();
  const [title, setTitle] = useState("");
  const [due, setDue] = useState("");
  const [assignee, setAssignee] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate(
      { title, dossier_id: id, due_at: fromLocalInput(due), assigned_to: assignee || null },
      {
        onSuccess: () => {
          setTitle("");
          setDue("");
        },
      },
    );
  };
  return (
    <form className="add-task" aria-label="Add a task" onSubmit={submit} noValidate>
      <Field label="New task" error={errorFor(add.error, "title", FIELDS)}>
        {(control) => <input {...control} value={title} onChange={(event) => setTitle(event.target.value)} />}
      </Field>
      <Field label="Due" error={errorFor(add.error, "due_at", FIELDS)}>
        {(control) => <input {...control} type="datetime-local" value={due} onChange={(event) => setDue(event.target.value)} />}
      </Field>
      <Field label="Assignee" error={errorFor(add.error, "assigned_to", FIELDS)}>
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
      {add.isError && FIELDS.every((field) => errorFor(add.error, field, FIELDS) === null) && <Alert error={add.error} />}
      <button type="submit" disabled={add.isPending}>
        {add.isPending ? "Adding…" : "Add task"}
      </button>
    </form>
  );
}
