// The notes of dossiers (api-v1 "Notes"): their rows, nothing else.
import type { Static } from "@sinclair/typebox";
import type { Note } from "../schemas/notes";
import type { QueryDeps } from "./queries";

type NoteRecord = Static<typeof Note>;
type NoteRow = Omit<NoteRecord, "is_internal"> & { is_internal: number };

export function noteQueries({ sqlite }: QueryDeps) {
  return {
    countOfDossier(organizationId: string, dossierId: string): number {
      return sqlite
        .query<{ n: number }, [string, string]>(`SELECT count(*) AS n FROM notes WHERE dossier_id = ? AND organization_id = ?`)
        .get(dossierId, organizationId)!.n;
    },

    /** Oldest first; notes of the same millisecond in the order they were written in (rowid). */
    pageOfDossier(organizationId: string, dossierId: string, limit: number, offset: number): NoteRecord[] {
      return sqlite
        .query<NoteRow, [string, string, number, number]>(
          `SELECT id, dossier_id, content, is_internal, created_at FROM notes
           WHERE dossier_id = ? AND organization_id = ? ORDER BY created_at, rowid LIMIT ? OFFSET ?`,
        )
        .all(dossierId, organizationId, limit, offset)
        .map((row) => ({ ...row, is_internal: row.is_internal === 1 }));
    },

    insert(organizationId: string, note: NoteRecord) {
      sqlite
        .query(`INSERT INTO notes (id, organization_id, dossier_id, content, is_internal, created_at) VALUES (?, ?, ?, ?, ?, ?)`)
        .run(note.id, organizationId, note.dossier_id, note.content, note.is_internal ? 1 : 0, note.created_at);
    },
  };
}
