// "My tasks" (C22): the signed-in member's open tasks, overdue first, then today's, the upcoming ones
// and those without a date. A checkbox completes a task (Space, one key); the list then drops it.
import { canWriteDossiers, useMember } from "../api/session";
import { Alert } from "../ui/alert";
import { useMyTasks } from "./queries";
import { TaskItem } from "./task-item";
import { GROUPS, groupOf } from "./words";

export function MyTasks() {
  const member = useMember();
  const tasks = useMyTasks();
  const now = new Date();
  return (
    <>
      <title>My tasks · Dossier</title>
      <h1>My tasks</h1>
      {tasks.isPending && <p role="status">Loading your tasks…</p>}
      <Alert error={tasks.error} />
      {tasks.data && tasks.data.total === 0 && <p>No open tasks. Tasks assigned to you, and those an overdue stage makes for your dossiers, show here.</p>}
      {tasks.data && tasks.data.tasks.length < tasks.data.total && (
        <p className="hint">
          The first {tasks.data.tasks.length} of {tasks.data.total} open tasks.
        </p>
      )}
      {tasks.data &&
        GROUPS.map(({ group, label }) => {
          const mine = tasks.data.tasks.filter((task) => groupOf(task, now) === group);
          if (mine.length === 0) return null;
          return (
            <section key={group} aria-labelledby={`tasks-${group}`} className="task-group">
              <h2 id={`tasks-${group}`}>
                {label} ({mine.length})
              </h2>
              <ul className="task-list" aria-label={label}>
                {mine.map((task) => (
                  <TaskItem key={task.id} task={task} canWrite={canWriteDossiers(member)} showDossier now={now} />
                ))}
              </ul>
            </section>
          );
        })}
    </>
  );
}
