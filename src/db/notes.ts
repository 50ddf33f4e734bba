// The notes of dossiers (api-v1 "Notes"): their rows, nothing else.
import type { Static } from "@sinclair/typebox";
import type { Note } from "../schemas/notes";
import type { QueryDeps } from "./queries";
import { StampCache } from "./stamp-cache";

type NoteRecord = Static<typeof Note>;
type NoteRow = Omit<NoteRecord, "is_internal"> & { is_internal: number };
/** A cursor page's position: the note before it (issue 38). */
export type NoteKey = Pick<NoteRecord, "created_at" | "id">;

/** Pages of notes a GET showed, kept while nothing is committed (src/db/stamp-cache.ts): most
 * dossiers' pages hold a few short notes, so more pages than records fit in the same 8 M
 * characters; a page of 100 long notes (2 M characters) takes a quarter of them. */
const REMEMBERED = { maxEntries: 4096, maxWeight: 8 << 20 };

export function noteQueries({ sqlite }: QueryDeps) {
  const pages = new StampCache<{ data: NoteRecord[]; total: number }>(sqlite, REMEMBERED);
  const page = (organizationId: string, dossierId: string, perPage: number, offset: number, after?: NoteKey) => {
    const total = notes.countOfDossier(organizationId, dossierId);
    return { data: offset >= total ? [] : notes.pageOfDossier(organizationId, dossierId, perPage, offset, after), total };
  };
  const notes = {
    countOfDossier(organizationId: string, dossierId: string): number {
      return sqlite
        .query<{ n: number }, [string, string]>(`SELECT count(*) AS n FROM notes WHERE dossier_id = ? AND organization_id = ?`)
        .get(dossierId, organizationId)!.n;
    },

    /** Oldest first; notes of the same millisecond by id, the order they were made in (UUIDv7,
     * made with created_at), on both engines: PostgreSQL keeps no rowid. The index
     * notes_dossier_created (dossier_id, created_at, id) gives this order with no sort, and seeks
     * to `after` (a cursor page, issue 38: the notes after that one). */
    pageOfDossier(organizationId: string, dossierId: string, limit: number, offset: number, after?: NoteKey): NoteRecord[] {
      const seek = after === undefined ? "" : "AND (created_at, id) > (?5, ?6)";
      return sqlite
        .query<NoteRow, (string | number)[]>(
          `SELECT id, dossier_id, content, is_internal, created_at FROM notes
           WHERE dossier_id = ?1 AND organization_id = ?2 ${seek} ORDER BY created_at, id LIMIT ?3 OFFSET ?4`,
        )
        .all(dossierId, organizationId, limit, offset, ...(after === undefined ? [] : [after.created_at, after.id]))
        .map((row) => ({ ...row, is_internal: row.is_internal === 1 }));
    },

    insert(organizationId: string, note: NoteRecord) {
      sqlite
        .query(`INSERT INTO notes (id, organization_id, dossier_id, content, is_internal, created_at) VALUES (?, ?, ?, ?, ?, ?)`)
        .run(note.id, organizationId, note.dossier_id, note.content, note.is_internal ? 1 : 0, note.created_at);
    },

    /** A page of the dossier's notes and their total, as GET /dossiers/{id}/notes shows them; with
     * `remember`, kept (frozen) while nothing is committed (the cursor in the key). Call it inside
     * one read snapshot. */
    shownPage(organizationId: string, dossierId: string, perPage: number, offset: number, options: { remember: boolean }, after?: NoteKey) {
      if (!options.remember) return page(organizationId, dossierId, perPage, offset, after);
      const position = after === undefined ? `${offset}` : `${after.created_at}\u0000${after.id}`;
      return pages.get(`${organizationId}\u0000${dossierId}\u0000${perPage}\u0000${position}`, () => page(organizationId, dossierId, perPage, offset, after))!;
    },
  };
  return notes;
}
