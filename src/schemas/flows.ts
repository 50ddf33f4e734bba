import { Type as t } from "@sinclair/typebox";
import { Nullable, Uuid } from "./common";

export const FlowType = t.Union([t.Literal("candidate"), t.Literal("sales")]);

export const Stage = t.Object({
  id: Uuid,
  flow_id: Uuid,
  name: t.String(),
  position: t.Integer({ minimum: 1 }),
  deadline_days: Nullable(t.Integer({ minimum: 0 })),
  win_probability: t.Integer({ minimum: 0, maximum: 100, description: "Percentage" }),
  color: t.String({ pattern: "^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$" }),
});

export const Flow = t.Object({
  id: Uuid,
  organization_id: Uuid,
  name: t.String(),
  type: FlowType,
  is_default: t.Boolean(),
  stages: t.Array(Stage),
});
