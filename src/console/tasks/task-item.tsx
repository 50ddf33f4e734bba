// One task in a list: a checkbox that completes it (Space: one key) or opens it again, its title, its
// due date (overdue ones say so), its reminder once its time has come (C22: a reminder shows in the
// console, by mail too when the server sends mail) and, on "My tasks", its dossier.
import { Link } from "wouter";
import { messageOf } from "../api/client";
import { useUpdateTask } from "./queries";
import type { Task } from "./types";
import { dueText } from "./words";

export function TaskItem({ task, canWrite, showDossier, now, assignee }: { task: Task; canWrite: boolean; showDossier?: boolean; now: Date; assignee?: string | null }) {
  const update = useUpdateTask();
  const done = task.status === "done";
  const overdue = !done && task.due_at !== null && Date.parse(task.due_at) < now.getTime();
  const toggle = () => update.mutate({ id: task.id, changes: { status: done ? "open" : "done" } });
  return (
    <li className={`task${done ? " done" : ""}`}>
      <label className="check">
        <input type="checkbox" checked={done} disabled={!canWrite || update.isPending} onChange={toggle} aria-describedby={`task-${task.id}-meta`} />
        <span className="task-title">{task.title}</span>
      </label>
      <p className="meta" id={`task-${task.id}-meta`}>
        {task.due_at ? (
          <>
            {overdue ? <strong className="overdue">Overdue</strong> : "Due"} <time dateTime={task.due_at}>{dueText(task.due_at)}</time>
          </>
        ) : (
          "No due date"
        )}
        {!done && task.remind_at !== null && Date.parse(task.remind_at) <= now.getTime() && (
          <>
            {" · "}
            <strong>Reminder</strong> since <time dateTime={task.remind_at}>{dueText(task.remind_at)}</time>
          </>
        )}
        {assignee && ` · ${assignee}`}
        {showDossier && task.dossier_id && (
          <>
            {" · "}
            <Link href={`/dossiers/${task.dossier_id}`}>Open the dossier</Link>
          </>
        )}
      </p>
      {update.isError && (
        <p className="error" role="alert">
          {messageOf(update.error)}
        </p>
      )}
    </li>
  );
}
