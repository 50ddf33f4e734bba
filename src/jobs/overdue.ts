// Overdue stages make tasks (C22): when an active dossier's stage_due_at passes, one task "Follow up:
// <name> is overdue in <stage>" for its assignee (unassigned when the assignee is no member of the
// organization), once per stage visit (the task keeps the visit's id, unique), unless the flow's
// overdue_tasks is off. Found by query, not by timers alone: deadlines that passed while the server
// was down are found by the first run at start. The task is due at the stage's deadline, so it shows
// as overdue, and is added to the dossier's history (task_created, by no one: the server).
import type { Context } from "../context";
import { newId } from "../ids";
import { recordHistory } from "../services/history";
import type { Task } from "../services/tasks";
import type { Job } from "./runner";

/** Visits handled per unit of work, and units per run (the rest waits for the next run, soon). */
const BATCH = 200;
const ROUNDS = 50;

export function overdueTasksJob(ctx: Context): Job {
  return {
    name: "overdue-tasks",
    async run(now) {
      const at = now.toISOString();
      for (let round = 0; round < ROUNDS; round++) {
        // A look first, on a read connection: most scans find nothing, and write nothing.
        if ((await ctx.store.read(() => ctx.store.tasks.overdueVisits(at, 1))).length === 0) return null;
        const made = await ctx.store.write(async () => {
          const visits = await ctx.store.tasks.overdueVisits(at, BATCH);
          for (const visit of visits) {
            const task: Task = {
              id: newId(),
              organization_id: visit.organization_id,
              dossier_id: visit.dossier_id,
              contact_id: null,
              title: `Follow up: ${visit.dossier_name} is overdue in ${visit.stage_name}`,
              notes: null,
              due_at: visit.stage_due_at,
              remind_at: null,
              assigned_to: visit.assignee,
              status: "open",
              done_at: null,
              created_by: { kind: "system", id: null },
              created_at: at,
              updated_at: at,
            };
            if (await ctx.store.tasks.insertForVisit(task, visit.visit_id)) {
              await recordHistory(ctx, task.organization_id, visit.dossier_id, "task_created", { task_id: [null, task.id], title: [null, task.title] });
            }
          }
          return visits.length;
        });
        if (made < BATCH) return null;
      }
      return now.getTime(); // more to do: again soon
    },
  };
}
