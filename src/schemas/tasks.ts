// The Task record and the bodies and query of the task calls (C22). TypeBox checks types and unknown
// fields; the rules it cannot say (lengths in code points, date-times, ids of the organization)
// live in services/tasks.ts.
import { Type as t } from "@sinclair/typebox";
import { closed, CursorPagingQuery, DateTime, Nullable, Uuid } from "./common";
import "./dossiers"; // registers the uuid and date-time formats

export const TaskStatus = t.Union([t.Literal("open"), t.Literal("done")]);

const Title = t.String({ description: "1 to 500 characters (code points) after trimming; stored as given" });
const Notes = t.String({ description: "At most 20,000 characters" });
const When = (what: string) =>
  t.String({ description: `${what}: an ISO 8601 date-time with a time zone (Z or ±hh:mm), stored in UTC with milliseconds`, examples: ["2026-12-01T09:00:00.000Z"] });

const EXAMPLE_TASK = {
  id: "6d2e8f1a-3b4c-4d5e-9f6a-7b8c9d0e1f2a",
  organization_id: "7e9a1c2b-3d4f-4a5b-8c6d-0e1f2a3b4c5d",
  dossier_id: "0b5c3a4e-8f1d-4c2a-9e6b-1d2f3a4b5c6d",
  contact_id: null,
  title: "Call Jane about the proposal",
  notes: "She asked for the price list first.",
  due_at: "2026-12-01T09:00:00.000Z",
  remind_at: "2026-12-01T08:30:00.000Z",
  assigned_to: "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
  status: "open",
  done_at: null,
  created_by: { kind: "member", id: "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d" },
  created_at: "2026-11-29T04:21:26.123Z",
  updated_at: "2026-11-29T04:21:26.123Z",
};

export const TaskCreator = t.Object(
  {
    kind: t.Union([t.Literal("key"), t.Literal("member"), t.Literal("system"), t.Literal("cli")], {
      description: "Who made the task: an API key, a signed-in member, the server (an overdue stage's follow-up) or the command line",
    }),
    id: Nullable(t.String({ description: "The key's or member's id; null for the server and the command line" })),
  },
  closed,
);

export const Task = t.Object(
  {
    id: Uuid,
    organization_id: Uuid,
    dossier_id: Nullable(Uuid),
    contact_id: Nullable(Uuid),
    title: t.String({ minLength: 1 }),
    notes: Nullable(t.String()),
    due_at: Nullable(DateTime),
    remind_at: Nullable(t.String({ format: "date-time", description: "When the assignee is sent a reminder by email (C22)" })),
    assigned_to: Nullable(t.String({ format: "uuid", description: "A member of the organization" })),
    status: TaskStatus,
    done_at: Nullable(t.String({ format: "date-time", description: "When the task was last marked done; null while open" })),
    created_by: TaskCreator,
    created_at: DateTime,
    updated_at: DateTime,
  },
  { ...closed, examples: [EXAMPLE_TASK] },
);

export const CreateTask = t.Object(
  {
    title: Title,
    notes: t.Optional(Nullable(Notes)),
    due_at: t.Optional(Nullable(When("When the task is due"))),
    remind_at: t.Optional(Nullable(When("When to email the assignee a reminder"))),
    assigned_to: t.Optional(Nullable(t.String({ description: "A member of the organization (uuid)" }))),
    dossier_id: t.Optional(Nullable(t.String({ description: "A dossier of the organization (uuid)" }))),
    contact_id: t.Optional(Nullable(t.String({ description: "A contact of the organization (uuid)" }))),
    status: t.Optional(TaskStatus),
  },
  {
    additionalProperties: false,
    examples: [{ title: "Call Jane about the proposal", due_at: "2026-12-01T09:00:00.000Z", dossier_id: EXAMPLE_TASK.dossier_id, assigned_to: EXAMPLE_TASK.assigned_to }],
  },
);

export const PatchTask = t.Object(
  {
    title: t.Optional(Title),
    notes: t.Optional(Nullable(Notes)),
    due_at: t.Optional(Nullable(When("When the task is due"))),
    remind_at: t.Optional(Nullable(When("When to email the assignee a reminder; a new time sends a new reminder"))),
    assigned_to: t.Optional(Nullable(t.String({ description: "A member of the organization (uuid)" }))),
    dossier_id: t.Optional(Nullable(t.String({ description: "A dossier of the organization (uuid)" }))),
    contact_id: t.Optional(Nullable(t.String({ description: "A contact of the organization (uuid)" }))),
    status: t.Optional(TaskStatus),
  },
  { additionalProperties: false, examples: [{ status: "done" }] },
);

export const DeletedTask = t.Object({ id: Uuid, deleted: t.Literal(true) }, { ...closed, examples: [{ id: EXAMPLE_TASK.id, deleted: true }] });

/** The filters of GET /tasks (C22). */
export const TaskQuery = t.Object({
  assigned_to: t.Optional(t.String({ description: "Only tasks assigned to this member (a uuid), or `me`: the signed-in member (a session only; with an API key 400)" })),
  status: t.Optional(t.Union(TaskStatus.anyOf, { description: "Only open or only done tasks" })),
  dossier_id: t.Array(t.String({ format: "uuid" }), {
    maxItems: 100,
    description: "Only the tasks of this dossier; repeat it (at most 100 times) for the tasks of any of these dossiers, as the board does for its cards' task marks. A non-uuid, or more than 100, is 400",
  }),
  contact_id: t.Optional(t.String({ format: "uuid", description: "Only the tasks of this contact; a non-uuid is 400" })),
  due_before: t.Optional(t.String({ description: "Only tasks due before this ISO 8601 date-time (due_at < due_before); anything else is 400" })),
  due_after: t.Optional(t.String({ description: "Only tasks due at or after this ISO 8601 date-time (due_at >= due_after); anything else is 400" })),
  overdue: t.Optional(t.Boolean({ description: "true: only open tasks whose due_at has passed; false: all others" })),
  ...CursorPagingQuery,
});

/** The filters of GET /dossiers/{id}/tasks. */
export const DossierTaskQuery = t.Object({
  status: t.Optional(t.Union(TaskStatus.anyOf, { description: "Only open or only done tasks" })),
  ...CursorPagingQuery,
});
