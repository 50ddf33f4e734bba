// The Note record and the body of POST /dossiers/{id}/notes (api-v1 "Notes", C3).
import { Type as t } from "@sinclair/typebox";
import { closed, DateTime, Uuid } from "./common";
import "./dossiers"; // registers the uuid and date-time formats

export const Note = t.Object(
  {
    id: Uuid,
    dossier_id: Uuid,
    content: t.String({ minLength: 1 }),
    is_internal: t.Boolean({ description: "Internal notes are not shared" }),
    created_at: DateTime,
  },
  {
    ...closed,
    examples: [
      {
        id: "3e4f5a6b-7c8d-4e9f-8a0b-1c2d3e4f5a6b",
        dossier_id: "0b5c3a4e-8f1d-4c2a-9e6b-1d2f3a4b5c6d",
        content: "Called back, wants a proposal by Friday.",
        is_internal: true,
        created_at: "2026-11-22T04:21:26.123Z",
      },
    ],
  },
);

export const CreateNote = t.Object(
  {
    content: t.String({ description: "Not empty: 1 to 20,000 characters after trimming; stored as given" }),
    is_internal: t.Optional(t.Boolean({ default: true, description: "Internal notes are not shared" })),
  },
  { additionalProperties: false, examples: [{ content: "Called back, wants a proposal by Friday.", is_internal: false }] },
);
