// The notes of dossiers on PostgreSQL: src/db/notes.ts's statements, the same answers. SQLite's
// module keeps the pages a GET showed (a StampCache, dropped by each commit); this one reads every
// time for now: on several nodes a kept page would need the commit stamp read from the shared
// database in the same round trip (C19's second step).
import type { Static } from "@sinclair/typebox";
import type { Note } from "../../schemas/notes";
import type { NoteKey } from "../notes";
import type { Db } from "./client";
import type { EngineQueries } from "./queries";

type NoteRecord = Static<typeof Note>;

export function pgNoteQueries(db: Db): EngineQueries<"notes"> {
  const notes: EngineQueries<"notes"> = {
    async countOfDossier(organizationId: string, dossierId: string) {
      const [row] = await db()<{ n: number }[]>`SELECT count(*)::integer AS n FROM notes WHERE dossier_id = ${dossierId} AND organization_id = ${organizationId}`;
      return row.n;
    },

    /** Oldest first; notes of the same millisecond by id, the order they were made in (as on SQLite:
     * the index notes_dossier_created). */
    async pageOfDossier(organizationId: string, dossierId: string, limit: number, offset: number, after?: NoteKey) {
      const sql = db();
      const seek = after === undefined ? sql`` : sql`AND (created_at, id) > (${after.created_at}::text, ${after.id}::text)`;
      return [
        ...(await sql<NoteRecord[]>`SELECT id, dossier_id, content, is_internal, created_at FROM notes
          WHERE dossier_id = ${dossierId} AND organization_id = ${organizationId} ${seek}
          ORDER BY created_at, id LIMIT ${limit}::bigint OFFSET ${offset}::bigint`),
      ];
    },

    async insert(organizationId: string, note: NoteRecord) {
      await db()`INSERT INTO notes (id, organization_id, dossier_id, content, is_internal, created_at)
        VALUES (${note.id}, ${organizationId}, ${note.dossier_id}, ${note.content}, ${note.is_internal}, ${note.created_at})`;
    },

    /** A page of the dossier's notes and their total, as GET /dossiers/{id}/notes shows them. Read
     * each time, `remember` or not (see above). Call it inside one read snapshot. */
    async shownPage(organizationId: string, dossierId: string, perPage: number, offset: number, _options: { remember: boolean }, after?: NoteKey) {
      const total = await notes.countOfDossier(organizationId, dossierId);
      return { data: offset >= total ? [] : await notes.pageOfDossier(organizationId, dossierId, perPage, offset, after), total };
    },
  };
  return notes;
}
