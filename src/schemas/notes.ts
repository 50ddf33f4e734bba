// The Note record and the body of POST /dossiers/{id}/notes (api-v1 "Notes", C3).
import { Type as t } from "@sinclair/typebox";
import { DateTime, Uuid } from "./common";
import "./dossiers"; // registers the uuid and date-time formats

export const Note = t.Object({
  id: Uuid,
  dossier_id: Uuid,
  content: t.String(),
  is_internal: t.Boolean(),
  created_at: DateTime,
});

export const CreateNote = t.Object(
  {
    content: t.String({ description: "Not empty: 1 to 20,000 characters after trimming; stored as given" }),
    is_internal: t.Optional(t.Boolean({ default: true, description: "Internal notes are not shared" })),
  },
  { additionalProperties: false },
);
