// Tasks (C22).
//   GET    /tasks                 filters assigned_to (an id or me), status, dossier_id (may repeat: any of), contact_id,
//                                 due_before, due_after, overdue; due_at ascending, no due date last
//   POST   /tasks                 create (201)
//   GET    /tasks/:id
//   PATCH  /tasks/:id             only the keys sent change; null clears
//   DELETE /tasks/:id
//   GET    /dossiers/:id/tasks    the dossier's tasks, in the same order
import { notFound } from "../../errors";
import { One, Paged } from "../../schemas/common";
import { CreateTask, DeletedTask, DossierTaskQuery, PatchTask, Task, TaskQuery } from "../../schemas/tasks";
import { createTask, deleteTask, listTasks, showTask, taskFilter, updateTask, type Creator } from "../../services/tasks";
import type { Principal } from "../auth";
import { defineRoute, type Asked } from "../route";
import { cursorPaging, one, pagedAnswer } from "../request";
import { dossierId } from "./dossiers";

const TAG = "Tasks";
const ofTask = { id: "The task's id" };
const ORDER = "Sorted by due_at ascending (tasks without a due date last), then created_at, then id.";

async function task({ ctx, principal, params }: Asked<"id">) {
  const found = await showTask(ctx, principal.organizationId, params.id);
  if (!found) throw notFound("task not found");
  return found;
}

const creatorOf = (principal: Principal): Creator =>
  principal.kind === "member" ? { kind: "member", id: principal.memberId } : { kind: "key", id: principal.keyId };

export const taskRoutes = [
  defineRoute({
    id: "listTasks",
    method: "GET",
    path: "/tasks",
    summary: "List tasks",
    tag: TAG,
    description: `${ORDER} \`assigned_to=me\` is the signed-in member (with an API key: 400). \`dossier_id\` may repeat (up to 100): the tasks of any of these dossiers. \`overdue=true\`: open tasks whose due_at has passed.`,
    scopes: ["tasks:read"],
    query: TaskQuery,
    responses: { 200: { schema: Paged(Task), description: "A page of the organization's tasks that match every filter given, with the total across all pages" } },
    handler: async ({ ctx, principal, query, request }) => {
      const filter = taskFilter(ctx, query, principal.kind === "member" ? principal.memberId : null);
      const paged = cursorPaging(query, request);
      return pagedAnswer(await listTasks(ctx, principal.organizationId, filter, paged), paged);
    },
  }),
  defineRoute({
    id: "createTask",
    location: (created) => `/tasks/${created.id}`,
    method: "POST",
    path: "/tasks",
    summary: "Create a task",
    tag: TAG,
    description:
      "`dossier_id`, `contact_id` and `assigned_to` (a member) must be of the organization, else 400 invalid_body naming the field. " +
      "A task with a dossier adds task_created to the dossier's history. No webhook event.",
    scopes: ["tasks:write"],
    body: CreateTask,
    responses: { 201: { schema: One(Task), description: "The task was created; no webhook event is recorded" } },
    handler: async ({ ctx, principal, body }) => one(await createTask(ctx, principal.organizationId, creatorOf(principal), body)),
  }),
  defineRoute({
    id: "getTask",
    conditional: true,
    method: "GET",
    path: "/tasks/:id",
    summary: "Retrieve a task",
    tag: TAG,
    scopes: ["tasks:read"],
    params: ofTask,
    load: task,
    responses: { 200: { schema: One(Task), description: "The task, with its ETag (C16)" } },
    handler: ({ resource }) => one(resource),
  }),
  defineRoute({
    id: "updateTask",
    conditional: true,
    method: "PATCH",
    path: "/tasks/:id",
    summary: "Update a task",
    tag: TAG,
    description:
      "Only the keys sent change; `null` clears a field other than title and status. `status: done` sets done_at and adds task_done to the dossier's history; " +
      "a new remind_at sends a new reminder. A PATCH that changes nothing keeps updated_at.",
    scopes: ["tasks:write"],
    params: ofTask,
    load: task,
    body: PatchTask,
    responses: { 200: { schema: One(Task), description: "The task after the change" } },
    handler: async ({ ctx, principal, resource, body }) => {
      const updated = await updateTask(ctx, principal.organizationId, resource.id, body);
      if (!updated) throw notFound("task not found");
      return one(updated);
    },
  }),
  defineRoute({
    id: "deleteTask",
    conditional: true,
    method: "DELETE",
    path: "/tasks/:id",
    summary: "Delete a task",
    tag: TAG,
    scopes: ["tasks:write"],
    params: ofTask,
    load: task,
    responses: { 200: { schema: One(DeletedTask), description: "The task is deleted for good" } },
    handler: async ({ ctx, principal, params }) => {
      if (!(await deleteTask(ctx, principal.organizationId, params.id))) throw notFound("task not found");
      return one({ id: params.id, deleted: true as const });
    },
  }),
  defineRoute({
    id: "listDossierTasks",
    method: "GET",
    path: "/dossiers/:id/tasks",
    summary: "List a dossier's tasks",
    tag: TAG,
    description: ORDER,
    scopes: ["tasks:read"],
    params: { id: "The dossier's id (archived dossiers too)" },
    load: dossierId,
    query: DossierTaskQuery,
    responses: { 200: { schema: Paged(Task), description: "A page of the dossier's tasks, with the total across all pages" } },
    handler: async ({ ctx, principal, resource: id, query, request }) => {
      const paged = cursorPaging(query, request);
      return pagedAnswer(await listTasks(ctx, principal.organizationId, { dossierIds: [id], status: query.status, now: ctx.now().toISOString() }, paged), paged);
    },
  }),
];
