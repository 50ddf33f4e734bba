// Notes on a dossier (api-v1 "Notes", C3, C7, C10). The routes check that the dossier is the
// organization's first (404), then call these.
import { chain, type Awaitable } from "../awaitable";
import type { Static } from "@sinclair/typebox";
import type { Context } from "../context";
import { invalidBody } from "../errors";
import { newId } from "../ids";
import type { CreateNote, Note as NoteSchema } from "../schemas/notes";
import { createdKey, offsetOf, pageEnd, positionOf, rowsToRead, type CursorPaging, type PagedAnswer } from "./cursor";
import { codePoints } from "./dossiers";
import { recordHistory } from "./history";
import { recordEvent } from "./outbox";

export type Note = Static<typeof NoteSchema>;
type NoteInput = Static<typeof CreateNote>;

/** Oldest first (C3); notes written in the same millisecond keep the order they were written in.
 * C3's page, or the page after a cursor (issue 38). */
export function listNotes(ctx: Context, organizationId: string, dossierId: string, paging: CursorPaging): Awaitable<PagedAnswer<Note>> {
  const after = paging.after === undefined ? undefined : positionOf("notes", paging.after);
  const listed = ctx.store.read(() =>
    ctx.store.notes.shownPage(organizationId, dossierId, rowsToRead(paging), offsetOf(paging), { remember: ctx.config.cache }, after),
  );
  return chain(listed, ({ data, total }) => pageEnd("notes", paging, data, total, createdKey));
}

/** A note: content not empty and at most 20,000 characters after trimming, stored as given (C3,
 * C10); `is_internal` defaults to true; `note.created` carries the Note. Archived dossiers take
 * notes too (C10). */
export function createNote(ctx: Context, organizationId: string, dossierId: string, input: NoteInput): Promise<Note> {
  const note = checkedNote(ctx, dossierId, input);
  return ctx.store.write(() => writeNote(ctx, organizationId, note));
}

/** createNote's unit of work; `note` from checkedNote. */
export async function writeNote(ctx: Context, organizationId: string, note: Note): Promise<Note> {
  await ctx.store.notes.insert(organizationId, note);
  await recordEvent(ctx, organizationId, "note.created", note);
  await recordHistory(ctx, organizationId, note.dossier_id, "note_added", { note_id: [null, note.id] });
  return note;
}

/** The note a request asks for, checked (C3, C10). */
export function checkedNote(ctx: Context, dossierId: string, input: NoteInput): Note {
  const length = codePoints(input.content.trim());
  if (length < 1) throw invalidBody("content: cannot be empty");
  if (length > 20_000) throw invalidBody("content: must be at most 20000 characters");
  return {
    id: newId(),
    dossier_id: dossierId,
    content: input.content,
    is_internal: input.is_internal ?? true,
    created_at: ctx.now().toISOString(),
  };
}
