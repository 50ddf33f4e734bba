// The notes of dossiers (api-v1 "Notes"): their rows, nothing else.
import type { Static } from "@sinclair/typebox";
import type { Note } from "../schemas/notes";
import type { QueryDeps } from "./queries";
import { StampCache } from "./stamp-cache";

type NoteRecord = Static<typeof Note>;
type NoteRow = Omit<NoteRecord, "is_internal"> & { is_internal: number };

/** Pages of notes a GET showed, kept while nothing is committed (src/db/stamp-cache.ts). */
const PAGES_REMEMBERED = 1024;

export function noteQueries({ sqlite }: QueryDeps) {
  const pages = new StampCache<{ data: NoteRecord[]; total: number }>(sqlite, PAGES_REMEMBERED);
  const page = (organizationId: string, dossierId: string, perPage: number, offset: number) => {
    const total = notes.countOfDossier(organizationId, dossierId);
    return { data: offset >= total ? [] : notes.pageOfDossier(organizationId, dossierId, perPage, offset), total };
  };
  const notes = {
    countOfDossier(organizationId: string, dossierId: string): number {
      return sqlite
        .query<{ n: number }, [string, string]>(`SELECT count(*) AS n FROM notes WHERE dossier_id = ? AND organization_id = ?`)
        .get(dossierId, organizationId)!.n;
    },

    /** Oldest first; notes of the same millisecond by id, the order they were made in (UUIDv7,
     * made with created_at), on both engines: PostgreSQL keeps no rowid. The index
     * notes_dossier_created (dossier_id, created_at, id) gives this order with no sort. */
    pageOfDossier(organizationId: string, dossierId: string, limit: number, offset: number): NoteRecord[] {
      return sqlite
        .query<NoteRow, [string, string, number, number]>(
          `SELECT id, dossier_id, content, is_internal, created_at FROM notes
           WHERE dossier_id = ? AND organization_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?`,
        )
        .all(dossierId, organizationId, limit, offset)
        .map((row) => ({ ...row, is_internal: row.is_internal === 1 }));
    },

    insert(organizationId: string, note: NoteRecord) {
      sqlite
        .query(`INSERT INTO notes (id, organization_id, dossier_id, content, is_internal, created_at) VALUES (?, ?, ?, ?, ?, ?)`)
        .run(note.id, organizationId, note.dossier_id, note.content, note.is_internal ? 1 : 0, note.created_at);
    },

    /** A page of the dossier's notes and their total, as GET /dossiers/{id}/notes shows them; with
     * `remember`, kept (frozen) while nothing is committed. Call it inside one read snapshot. */
    shownPage(organizationId: string, dossierId: string, perPage: number, offset: number, options: { remember: boolean }) {
      if (!options.remember) return page(organizationId, dossierId, perPage, offset);
      return pages.get(`${organizationId}\u0000${dossierId}\u0000${perPage}\u0000${offset}`, () => page(organizationId, dossierId, perPage, offset))!;
    },
  };
  return notes;
}
