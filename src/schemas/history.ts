// A dossier's history (C18): its items and its stays in stages.
import { Type as t } from "@sinclair/typebox";
import { closed, DateTime, Nullable, Uuid } from "./common";

export const Actor = t.Object(
  {
    type: t.Union([t.Literal("key"), t.Literal("member"), t.Literal("email"), t.Literal("cli"), t.Literal("import")]),
    id: t.String({ description: "The key's or member's id, the sender's address, the system user who ran the command, or the CSV import's id (C21)" }),
    name: Nullable(t.String()),
  },
  { ...closed, description: "Who made the change" },
);

export const HistoryItem = t.Object(
  {
    at: DateTime,
    kind: t.Union(
      ["created", "updated", "stage_changed", "cv_attached", "note_added", "archived", "contact_linked", "contact_unlinked", "task_created", "task_done"].map((kind) => t.Literal(kind)),
    ),
    actor: Nullable(Actor),
    changes: t.Record(t.String(), t.Array(t.Unknown(), { minItems: 2, maxItems: 2 }), { description: "field → [old, new]" }),
  },
  closed,
);

export const StageStay = t.Object(
  {
    stage_id: Uuid,
    entered_at: DateTime,
    left_at: Nullable(DateTime),
    days: t.Number({ description: "Decimal days spent in the stage (up to now while still there)" }),
  },
  closed,
);

export const DossierHistory = t.Object(
  { data: t.Array(HistoryItem), meta: t.Object({ stages: t.Array(StageStay) }, closed) },
  {
    ...closed,
    examples: [
      {
        data: [
          {
            at: "2026-11-22T04:21:26.123Z",
            kind: "created",
            actor: { type: "key", id: "0b8e7a52-3c1d-4f7e-9a55-1c2d3e4f5a6b", name: "ATS sync" },
            changes: { name: [null, "Jane Doe"], status: [null, "active"] },
          },
        ],
        meta: { stages: [{ stage_id: "4f1c2d3e-5a6b-4c7d-8e9f-0a1b2c3d4e5f", entered_at: "2026-11-22T04:21:26.123Z", left_at: null, days: 1.5 }] },
      },
    ],
  },
);
