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
    stages: t.Array(Stage, { minItems: 1, description: "Ordered by position" }),
  },
  {
    ...closed,
    examples: [
      { id: EXAMPLE_STAGE.flow_id, organization_id: "7e9a1c2b-3d4f-4a5b-8c6d-0e1f2a3b4c5d", name: "Sales", type: "sales", is_default: true, stages: [EXAMPLE_STAGE] },
    ],
  },
);
