// Overdue stages make tasks (C22): when an active dossier's stage_due_at passes, one task "Follow up:
// <name> is overdue in <stage>" for its assignee (unassigned when the assignee is no member of the
// organization), once per stage visit (the task keeps the visit's id, unique), unless the flow's
// overdue_tasks is off. Found by query, not by timers alone: deadlines that passed while the server
// was down are found by the first run at start. The task is due at the stage's deadline, so it shows
// as overdue, and is added to the dossier's history (task_created, by no one: the server).
// The cost is the work found: the unit that makes a visit's task marks the visit handled on its
// dossier (overdue_task_visit_id; a move to another stage clears it), and the scan reads only the
// dossiers still to handle (the partial index dossiers_overdue_todo), a bounded batch at a time
// from a keyset cursor, the event loop let in between (docs/decisions.md, "C22's overdue scan").
import type { Context } from "../context";
import type { OverdueCursor } from "../db/tasks";
import { newId } from "../ids";
import { recordHistory } from "../services/history";
import type { Task } from "../services/tasks";
import type { Job } from "./runner";

/** Dossiers read per batch (one bounded query, and one unit of work when some are due), and
 * batches per run (the rest waits for the next run, soon). A batch holds SQLite's thread about a
 * millisecond at 1,000,000 dossiers (docs/performance.md, C22); the run lets the event loop in
 * between batches. */
const BATCH = 25;
const ROUNDS = 100;

export interface OverdueJobOptions {
  /** Tests and the bench: a smaller batch, fewer rounds. */
  batch?: number;
  rounds?: number;
}

/** Lets timers, requests and other jobs in between two batches. */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export function overdueTasksJob(ctx: Context, options: OverdueJobOptions = {}): Job {
  const batch = options.batch ?? BATCH;
  const rounds = options.rounds ?? ROUNDS;
  // Where the last run stopped with more to read: the next goes on from there (a keyset cursor over
  // (stage_due_at, id), never the first overdue dossier again), and starts from the first once a
  // pass is through. Handled dossiers leave the scan's index, so a new pass reads only what is left.
  let resume: OverdueCursor | null = null;
  return {
    name: "overdue-tasks",
    async run(now) {
      const at = now.toISOString();
      let after = resume;
      resume = null;
      for (let round = 0; round < rounds; round++) {
        if (round > 0) await yieldToEventLoop();
        // A look first, on a read connection: most batches (the steady state's one) find nothing
        // due, and write nothing.
        let { visits, next } = await ctx.store.read(() => ctx.store.tasks.overdueVisits(at, batch, after));
        if (visits.length > 0) {
          next = await ctx.store.write(async () => {
            const found = await ctx.store.tasks.overdueVisits(at, batch, after);
            for (const visit of found.visits) {
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
              // Made, or made by another process first: the visit is handled either way.
              if (await ctx.store.tasks.insertForVisit(task, visit.visit_id)) {
                await recordHistory(ctx, task.organization_id, visit.dossier_id, "task_created", { task_id: [null, task.id], title: [null, task.title] });
              }
            }
            return found.next;
          });
        }
        if (next === null) return null;
        after = next;
      }
      resume = after;
      return now.getTime(); // more to do: again soon
    },
  };
}
