// Tasks (C22): follow-ups with a due date, an assignee and a reminder. The rules live here: lengths
// in code points, date-times, references that must be of the organization (400 naming the field),
// history items (task_created, task_done) on the task's dossier. Tasks emit no webhook events
// (api-v1 fixes the five).
import type { Static } from "@sinclair/typebox";
import { chain, type Awaitable } from "../awaitable";
import type { Context } from "../context";
import type { TaskChanges, TaskFilter, TaskRecord } from "../db/tasks";
import { invalidBody } from "../errors";
import { isUuid, newId } from "../ids";
import type { CreateTask, PatchTask, TaskQuery } from "../schemas/tasks";
import { offsetOf, pageEnd, positionOf, rowsToRead, type CursorPaging, type PagedAnswer } from "./cursor";
import { codePoints } from "./dossiers";
import { recordHistory } from "./history";

export type Task = TaskRecord;
export type Creator = Task["created_by"];

const TITLE_MAX = 500;
const NOTES_MAX = 20_000;
/** How many `dossier_id` a list takes at once (a board column's page is 50). */
const DOSSIER_IDS_MAX = 100;

/** ISO 8601 date-time with a zone: `2026-12-01T09:00:00Z`, `...T09:00:00.123+01:00`, `...T09:00Z`. */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/i;

/** A date-time as C3 stores it (UTC, milliseconds, Z), or a 400 naming `field`. */
export function checkDateTime(value: string, field: string): string {
  const match = DATE_TIME.exec(value);
  const ms = match ? Date.parse(value) : NaN;
  // Date.parse rolls 2026-02-30 over to March: a date that does not exist is refused.
  const real = match && Number(match[2]) >= 1 && Number(match[2]) <= 12 && Number(match[3]) >= 1 && Number(match[3]) <= daysIn(Number(match[1]), Number(match[2]));
  if (!match || !real || Number.isNaN(ms)) {
    throw invalidBody(`${field}: must be an ISO 8601 date-time with a time zone, e.g. 2026-12-01T09:00:00.000Z`, field);
  }
  return new Date(ms).toISOString();
}

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

function checkTitle(title: string): string {
  const length = codePoints(title.trim());
  if (length < 1) throw invalidBody("title: cannot be empty", "title");
  if (length > TITLE_MAX) throw invalidBody(`title: must be at most ${TITLE_MAX} characters`, "title");
  return title;
}

function checkNotes(notes: string | null): string | null {
  if (notes !== null && codePoints(notes) > NOTES_MAX) throw invalidBody(`notes: must be at most ${NOTES_MAX} characters`, "notes");
  return notes;
}

/** An id the body names: a uuid of something of the organization, or a 400 naming the field
 * (C22: never a 404, which would speak of the path). Inside the unit that writes it. */
async function checkReference(ctx: Context, organizationId: string, field: "dossier_id" | "contact_id" | "assigned_to", id: string | null): Promise<string | null> {
  if (id === null) return null;
  const what = field === "dossier_id" ? "dossier" : field === "contact_id" ? "contact" : "member";
  if (!isUuid(id)) throw invalidBody(`${field}: must be the id (a uuid) of a ${what} of the organization`, field);
  const lower = id.toLowerCase();
  const exists =
    field === "dossier_id"
      ? await ctx.store.tasks.dossierExists(organizationId, lower)
      : field === "contact_id"
        ? await ctx.store.tasks.contactExists(organizationId, lower)
        : await ctx.store.tasks.activeMemberExists(organizationId, lower);
  if (!exists) throw invalidBody(`${field}: no ${what}${field === "assigned_to" ? " (not disabled)" : ""} of the organization has this id`, field);
  return lower;
}

/** GET /tasks's filters, checked: `me` is the signed-in member (an API key has none: 400). */
export function taskFilter(ctx: Context, query: Static<typeof TaskQuery>, memberId: string | null): TaskFilter {
  let assignedTo: string | undefined;
  if (query.assigned_to !== undefined) {
    if (query.assigned_to === "me") {
      if (memberId === null) throw invalidBody("assigned_to: me means the signed-in member; an API key has none, send a member id", "assigned_to");
      assignedTo = memberId;
    } else if (isUuid(query.assigned_to)) assignedTo = query.assigned_to.toLowerCase();
    else throw invalidBody("assigned_to must be a uuid or me", "assigned_to");
  }
  const instant = (value: string | undefined, field: string) => {
    if (value === undefined) return undefined;
    try {
      return checkDateTime(value, field);
    } catch {
      throw invalidBody(`${field} must be an ISO 8601 date-time with a time zone, e.g. 2026-12-01T00:00:00.000Z`, field);
    }
  };
  const dossierIds = [...new Set(query.dossier_id ?? [])];
  if (dossierIds.length > DOSSIER_IDS_MAX) throw invalidBody(`dossier_id: at most ${DOSSIER_IDS_MAX} dossiers at once`, "dossier_id");
  return {
    assignedTo,
    status: query.status,
    dossierIds,
    contactId: query.contact_id,
    dueBefore: instant(query.due_before, "due_before"),
    dueAfter: instant(query.due_after, "due_after"),
    overdue: query.overdue,
    now: ctx.now().toISOString(),
  };
}

/** A page of tasks in C22's order: due_at ascending, no due date last, then created_at, then id;
 * C3's page or a cursor page (issue 38). */
export function listTasks(ctx: Context, organizationId: string, filter: TaskFilter, paging: CursorPaging): Awaitable<PagedAnswer<Task>> {
  const after = paging.after === undefined ? undefined : positionOf("tasks", paging.after);
  const listed = ctx.store.read(() => ctx.store.tasks.page(organizationId, filter, rowsToRead(paging), offsetOf(paging), after));
  return chain(listed, ({ data, total }) => pageEnd("tasks", paging, data, total, (task) => ({ due_at: task.due_at, created_at: task.created_at, id: task.id })));
}

export const showTask = (ctx: Context, organizationId: string, id: string): Awaitable<Task | null> => ctx.store.tasks.byId(organizationId, id);

/** POST /tasks: 201 with the task; task_created in its dossier's history. */
export function createTask(ctx: Context, organizationId: string, creator: Creator, input: Static<typeof CreateTask>): Promise<Task> {
  const title = checkTitle(input.title);
  const notes = checkNotes(input.notes ?? null);
  const dueAt = input.due_at == null ? null : checkDateTime(input.due_at, "due_at");
  const remindAt = input.remind_at == null ? null : checkDateTime(input.remind_at, "remind_at");
  return ctx.store.write(async () => {
    const now = ctx.now().toISOString();
    const status = input.status ?? "open";
    const task: Task = {
      id: newId(),
      organization_id: organizationId,
      dossier_id: await checkReference(ctx, organizationId, "dossier_id", input.dossier_id ?? null),
      contact_id: await checkReference(ctx, organizationId, "contact_id", input.contact_id ?? null),
      title,
      notes,
      due_at: dueAt,
      remind_at: remindAt,
      assigned_to: await checkReference(ctx, organizationId, "assigned_to", input.assigned_to ?? null),
      status,
      done_at: status === "done" ? now : null,
      created_by: creator,
      created_at: now,
      updated_at: now,
    };
    return await writeTask(ctx, task);
  });
}

/** A new task's unit of work: the row and its dossier's history item. */
export async function writeTask(ctx: Context, task: Task, stageVisitId: number | null = null): Promise<Task> {
  await ctx.store.tasks.insert(task, stageVisitId);
  if (task.dossier_id) await recordHistory(ctx, task.organization_id, task.dossier_id, "task_created", { task_id: [null, task.id], title: [null, task.title] });
  return task;
}

const PATCHABLE = ["title", "notes", "due_at", "remind_at", "assigned_to", "dossier_id", "contact_id", "status"] as const;

/** PATCH /tasks/{id}: only the keys sent change; null clears a nullable field; a PATCH that changes
 * nothing keeps updated_at. Becoming done sets done_at and adds task_done to the dossier's history;
 * a new remind_at sends a new reminder. Null when the task is gone. */
export function updateTask(ctx: Context, organizationId: string, id: string, input: Static<typeof PatchTask>): Promise<Task | null> {
  const checked: Partial<Record<(typeof PATCHABLE)[number], string | null>> = {};
  if (input.title !== undefined) checked.title = checkTitle(input.title);
  if (input.notes !== undefined) checked.notes = checkNotes(input.notes);
  if (input.due_at !== undefined) checked.due_at = input.due_at === null ? null : checkDateTime(input.due_at, "due_at");
  if (input.remind_at !== undefined) checked.remind_at = input.remind_at === null ? null : checkDateTime(input.remind_at, "remind_at");
  if (input.status !== undefined) checked.status = input.status;
  return ctx.store.write(async () => {
    const before = await ctx.store.tasks.byId(organizationId, id);
    if (!before) return null;
    for (const field of ["dossier_id", "contact_id", "assigned_to"] as const) {
      if (input[field] !== undefined) checked[field] = await checkReference(ctx, organizationId, field, input[field]);
    }
    const changes: TaskChanges = {};
    for (const field of PATCHABLE) {
      if (field in checked && checked[field] !== before[field]) (changes as Record<string, unknown>)[field] = checked[field];
    }
    if (Object.keys(changes).length === 0) return before;
    const now = ctx.now().toISOString();
    if (changes.status === "done") changes.done_at = now;
    if (changes.status === "open") changes.done_at = null;
    if ("remind_at" in changes) changes.reminded_at = null;
    changes.updated_at = now;
    await ctx.store.tasks.update(organizationId, id, changes);
    const after = { ...before, ...changes } as Task & { reminded_at?: unknown };
    delete after.reminded_at;
    if (changes.status === "done" && after.dossier_id) {
      await recordHistory(ctx, organizationId, after.dossier_id, "task_done", { task_id: [id, id], status: ["open", "done"] });
    }
    return after as Task;
  });
}

/** DELETE /tasks/{id}: false when it was gone already. No history: the task's creation stays told. */
export const deleteTask = (ctx: Context, organizationId: string, id: string): Promise<boolean> =>
  ctx.store.write(() => ctx.store.tasks.delete(organizationId, id));
