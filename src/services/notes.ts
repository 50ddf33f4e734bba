// Notes on a dossier (api-v1 "Notes", C3, C7, C10). The routes check that the dossier is the
// organization's first (404), then call these.
import type { Context } from "../context";
import { invalidBody } from "../errors";
import { newId } from "../ids";
import { codePoints } from "./dossiers";
import { recordEvent } from "./outbox";

export interface Note {
  id: string;
  dossier_id: string;
  content: string;
  is_internal: boolean;
  created_at: string;
}

type NoteRow = Omit<Note, "is_internal"> & { is_internal: number };
const present = (row: NoteRow): Note => ({ ...row, is_internal: row.is_internal === 1 });

/** Oldest first (C3); notes written in the same millisecond keep the order they were written in. */
export function listNotes(
  ctx: Context,
  organizationId: string,
  dossierId: string,
  paging: { page: number; perPage: number },
): { data: Note[]; total: number } {
  const { sqlite } = ctx.store;
  const total = sqlite
    .query<{ n: number }, [string, string]>(`SELECT count(*) AS n FROM notes WHERE dossier_id = ? AND organization_id = ?`)
    .get(dossierId, organizationId)!.n;
  const offset = (paging.page - 1) * paging.perPage;
  const data =
    offset >= total
      ? []
      : sqlite
          .query<NoteRow, [string, string, number, number]>(
            `SELECT id, dossier_id, content, is_internal, created_at FROM notes
             WHERE dossier_id = ? AND organization_id = ? ORDER BY created_at, rowid LIMIT ? OFFSET ?`,
          )
          .all(dossierId, organizationId, paging.perPage, offset)
          .map(present);
  return { data, total };
}

/** A note: content not empty and at most 20,000 characters after trimming, stored as given (C3,
 * C10); `is_internal` defaults to true; `note.created` carries the Note. Archived dossiers take
 * notes too (C10). */
export function createNote(
  ctx: Context,
  organizationId: string,
  dossierId: string,
  input: { content: string; is_internal?: boolean },
): Promise<Note> {
  const note = checkedNote(ctx, dossierId, input);
  return ctx.store.write(() => writeNote(ctx, organizationId, note));
}

/** createNote's unit of work; `note` from checkedNote. */
export function writeNote(ctx: Context, organizationId: string, note: Note): Note {
  ctx.store.sqlite
    .query(`INSERT INTO notes (id, organization_id, dossier_id, content, is_internal, created_at) VALUES (?, ?, ?, ?, ?, ?)`)
    .run(note.id, organizationId, note.dossier_id, note.content, note.is_internal ? 1 : 0, note.created_at);
  recordEvent(ctx, organizationId, "note.created", note);
  return note;
}

/** The note a request asks for, checked (C3, C10). */
export function checkedNote(ctx: Context, dossierId: string, input: { content: string; is_internal?: boolean }): Note {
  const length = codePoints(input.content.trim());
  if (length < 1) throw invalidBody("content: cannot be empty");
  if (length > 20_000) throw invalidBody("content: must be at most 20000 characters");
  const note: Note = {
    id: newId(),
    dossier_id: dossierId,
    content: input.content,
    is_internal: input.is_internal ?? true,
    created_at: ctx.now().toISOString(),
  };
  return note;
}
