// The Stage and Flow records (api-v1 "Stage", "Flow", C4, C10).
import { Type as t } from "@sinclair/typebox";
import { closed, Nullable, PagingQuery, Uuid } from "./common";

export const FlowType = t.Union([t.Literal("candidate"), t.Literal("sales")]);

/** The filter of GET /flows (api-v1 "Flows"). */
export const FlowQuery = t.Object({ type: t.Optional(t.Union(FlowType.anyOf, { description: "Only flows of this type" })), ...PagingQuery });

const EXAMPLE_STAGE = {
  id: "5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
  flow_id: "2f6d8a1c-4b3e-4d5f-9a7b-8c9d0e1f2a3b",
  name: "Lead",
  position: 1,
  deadline_days: 7,
  win_probability: 10,
  color: "#90CAF9",
};

export const Stage = t.Object(
  {
    id: Uuid,
    flow_id: Uuid,
    name: t.String(),
    position: t.Integer({ minimum: 1, description: "1-based order within the flow" }),
    deadline_days: Nullable(t.Integer({ minimum: 0, description: "Days a dossier may stay in the stage; 0 means due on entry" })),
    win_probability: t.Integer({ minimum: 0, maximum: 100, description: "Percentage" }),
    color: t.String({ pattern: "^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$", description: "#RGB or #RRGGBB" }),
  },
  { ...closed, examples: [EXAMPLE_STAGE] },
);

export const Flow = t.Object(
  {
    id: Uuid,
    organization_id: Uuid,
    name: t.String(),
    type: FlowType,
    is_default: t.Boolean({ description: "The flow used when a dossier of this type is created without flow_id; at most one per type" }),
    overdue_tasks: t.Boolean({ description: "Whether a dossier overdue in one of its stages gets a follow-up task, once per stage visit (C22); default true" }),
    stages: t.Array(Stage, { minItems: 1, description: "Ordered by position" }),
  },
  {
    ...closed,
    examples: [
      { id: EXAMPLE_STAGE.flow_id, organization_id: "7e9a1c2b-3d4f-4a5b-8c6d-0e1f2a3b4c5d", name: "Sales", type: "sales", is_default: true, overdue_tasks: true, stages: [EXAMPLE_STAGE] },
    ],
  },
);

// The bodies of the settings calls (C13, C20). Lengths are counted in code points (C10), which JSON
// Schema's maxLength does not do: they are stated here and checked by services/flows.ts.
const StageName = t.String({ description: "1 to 200 characters after trimming; stored trimmed" });
const DeadlineDays = Nullable(t.Integer({ minimum: 0, description: "Days a dossier may stay in the stage; 0 means due on entry; null: no deadline" }));
const WinProbability = t.Integer({ minimum: 0, maximum: 100, description: "Percentage" });
const Color = t.String({ pattern: "^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$", description: "#RGB or #RRGGBB" });

/** A stage of POST /flows: its place is its place in the array. */
export const NewFlowStage = t.Object(
  {
    name: StageName,
    deadline_days: t.Optional(DeadlineDays),
    win_probability: t.Optional(t.Integer({ minimum: 0, maximum: 100, description: "Percentage (default 0)" })),
    color: t.Optional(t.String({ pattern: Color.pattern, description: "#RGB or #RRGGBB (default #9E9E9E)" })),
  },
  closed,
);

export const CreateFlow = t.Object(
  {
    type: FlowType,
    name: t.String({ description: "1 to 200 characters after trimming; stored trimmed" }),
    is_default: t.Optional(t.Boolean({ description: "Make it the default flow of its type, taking the flag from the current one (default false)" })),
    stages: t.Array(NewFlowStage, { minItems: 1, description: "At least one, in order: position is the 1-based place in the array" }),
  },
  {
    ...closed,
    examples: [
      {
        type: "candidate",
        name: "Engineering hiring",
        is_default: false,
        stages: [{ name: "Applied", deadline_days: 3, win_probability: 10, color: "#90CAF9" }, { name: "Hired" }],
      },
    ],
  },
);

export const PatchFlow = t.Object(
  {
    name: t.Optional(t.String({ description: "1 to 200 characters after trimming; stored trimmed" })),
    is_default: t.Optional(
      t.Boolean({ description: "true makes it the default of its type (the flag moves); false on the default is refused: make another flow the default instead" }),
    ),
    overdue_tasks: t.Optional(t.Boolean({ description: "false: an overdue stage no longer makes a follow-up task (C22)" })),
  },
  { ...closed, examples: [{ name: "Engineering hiring 2027", is_default: true, overdue_tasks: false }] },
);

export const CreateStage = t.Object(
  {
    name: StageName,
    deadline_days: t.Optional(DeadlineDays),
    win_probability: t.Optional(t.Integer({ minimum: 0, maximum: 100, description: "Percentage (default 0)" })),
    color: t.Optional(t.String({ pattern: Color.pattern, description: "#RGB or #RRGGBB (default #9E9E9E)" })),
    position: t.Optional(t.Integer({ minimum: 1, description: "1 to n + 1 (n stages now); the stages from there on move one down. Default: last" })),
  },
  { ...closed, examples: [{ name: "Technical test", deadline_days: 5, win_probability: 40, color: "#FFB74D", position: 3 }] },
);

export const PatchStage = t.Object(
  {
    name: t.Optional(StageName),
    deadline_days: t.Optional(DeadlineDays),
    win_probability: t.Optional(WinProbability),
    color: t.Optional(Color),
    position: t.Optional(t.Integer({ minimum: 1, description: "1 to n (n stages of the flow); the stages between its old and new place shift by one" })),
  },
  { ...closed, examples: [{ name: "Phone screen", position: 1 }] },
);

export const DeletedStage = t.Object(
  { id: Uuid, deleted: t.Literal(true) },
  { ...closed, examples: [{ id: EXAMPLE_STAGE.id, deleted: true }] },
);
