// A flow's figures over a period (C18, docs/figures.md).
import { Type as t } from "@sinclair/typebox";
import { closed, DateTime, Nullable, Uuid } from "./common";

export const StatsQuery = t.Object({
  from: t.Optional(t.String({ format: "date-time", description: "Start of the period, ISO 8601 (default: 90 days before `to`); inclusive", examples: ["2026-09-01T00:00:00Z"] })),
  to: t.Optional(t.String({ format: "date-time", description: "End of the period, ISO 8601 (default: now); inclusive", examples: ["2026-11-30T00:00:00Z"] })),
});

const count = (description: string) => t.Integer({ minimum: 0, description });

export const StageFigures = t.Object(
  {
    stage_id: Uuid,
    name: t.String(),
    position: t.Integer({ minimum: 1 }),
    active: count("Dossiers now in the stage whose status is active"),
    overdue: count("Of those, the ones whose stage_due_at has passed"),
    entered: count("Entries into the stage in the period (creation into the first stage included)"),
    left: count("Moves out of the stage to another stage in the period (not to no stage; becoming won or lost is not leaving)"),
    median_days: Nullable(t.Number({ description: "Median decimal days spent in the stage by the stays `left` counts; null when none" })),
    went_on: count("Of `left`, the moves to a stage of higher position"),
    went_on_share: Nullable(t.Number({ minimum: 0, maximum: 1, description: "went_on / left; null when left is 0" })),
  },
  closed,
);

export const Pipeline = t.Object(
  {
    currency: t.String({ description: "ISO 4217" }),
    open_value: t.Number({ description: "Sum of deal_size over the flow's active dossiers in this currency" }),
    weighted_value: t.Number({ description: "Sum of deal_size × the current stage's win_probability / 100" }),
  },
  closed,
);

export const FlowStats = t.Object(
  {
    flow_id: Uuid,
    from: DateTime,
    to: DateTime,
    stages: t.Array(StageFigures, { description: "By position" }),
    won: count("Dossiers of the flow now won whose last change to won falls in the period"),
    lost: count("Dossiers of the flow now lost whose last change to lost falls in the period"),
    win_rate: Nullable(t.Number({ minimum: 0, maximum: 1, description: "won / (won + lost); null when both are 0" })),
    pipeline: Nullable(t.Array(Pipeline, { description: "Sales flows only (null for a candidate flow), by currency" })),
  },
  closed,
);

export const FlowStatsAnswer = t.Object(
  { data: FlowStats },
  {
    ...closed,
    examples: [
      {
        data: {
          flow_id: "0b8e7a52-3c1d-4f7e-9a55-1c2d3e4f5a6b",
          from: "2026-09-01T00:00:00.000Z",
          to: "2026-11-30T00:00:00.000Z",
          stages: [
            {
              stage_id: "4f1c2d3e-5a6b-4c7d-8e9f-0a1b2c3d4e5f", name: "Qualified", position: 1, active: 12, overdue: 2, entered: 30,
              left: 20, median_days: 3.5, went_on: 15, went_on_share: 0.75,
            },
          ],
          won: 6,
          lost: 4,
          win_rate: 0.6,
          pipeline: [{ currency: "EUR", open_value: 120000, weighted_value: 36000 }],
        },
      },
    ],
  },
);
