// Cursor pages of the paged lists (issue 38): `?after=<cursor>` with the cursor taken from the
// previous page's `meta.next_after`. A cursor is the sort key of the last row shown, so the next
// page is a keyset page ("rows after this key, in the list's order") rather than OFFSET rows
// further on: a row inserted or archived before the position moves no row across it, which is
// what made a sync by `page` repeat and miss rows while others wrote.
//
// The text is opaque to clients: `v1.` then base64url of a JSON array [list, ...key]. The version
// lets the form change later; the list's name makes a cursor of another list a 400, not a page of
// nonsense. Its values are checked before they reach SQL (where they are bound parameters anyway).
import { invalidBody } from "../errors";
import { isUuid } from "../ids";

/** The lists that take `after`, each with its own key (its ORDER BY's columns). */
export type CursorList = "dossiers" | "contacts" | "notes" | "webhook-deliveries" | "imports" | "tasks";

/** (created_at, id): dossiers, contacts and imports newest first, notes oldest first. */
export interface CreatedKey {
  created_at: string;
  id: string;
}

/** Tasks (C22): due_at ascending with no due date last, then created_at, then id. */
export interface TaskKey extends CreatedKey {
  due_at: string | null;
}

/** A row's (created_at, id) key. */
export const createdKey = (row: CreatedKey): CreatedKey => ({ created_at: row.created_at, id: row.id });

/** The delivery log: events.seq, newest first. */
export interface SeqKey {
  seq: number;
}

interface Keys {
  dossiers: CreatedKey;
  contacts: CreatedKey;
  notes: CreatedKey;
  imports: CreatedKey;
  tasks: TaskKey;
  "webhook-deliveries": SeqKey;
}

const VERSION = "v1.";
/** Stored timestamps: toISOString's form (C3). */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** Far longer than any cursor we make; refused before decoding. */
const MAX_LENGTH = 200;

const isTimestamp = (value: unknown): value is string => typeof value === "string" && TIMESTAMP.test(value);

/** The key's values in the cursor's array, and back (null when they are not such a key). */
const FORMS: { [L in CursorList]: { values: (key: Keys[L]) => unknown[]; key: (values: unknown[]) => Keys[L] | null } } = {
  dossiers: createdForm(),
  contacts: createdForm(),
  notes: createdForm(),
  imports: createdForm(),
  tasks: {
    values: (key) => [key.due_at, key.created_at, key.id],
    key: ([dueAt, createdAt, id, ...rest]) =>
      rest.length === 0 && (dueAt === null || isTimestamp(dueAt)) && isTimestamp(createdAt) && isUuid(id)
        ? { due_at: dueAt, created_at: createdAt, id: id.toLowerCase() }
        : null,
  },
  "webhook-deliveries": {
    values: (key) => [key.seq],
    key: ([seq, ...rest]) => (rest.length === 0 && Number.isSafeInteger(seq) && (seq as number) > 0 ? { seq: seq as number } : null),
  },
};

function createdForm() {
  return {
    values: (key: CreatedKey) => [key.created_at, key.id],
    key: ([createdAt, id, ...rest]: unknown[]): CreatedKey | null =>
      rest.length === 0 && isTimestamp(createdAt) && isUuid(id) ? { created_at: createdAt, id: id.toLowerCase() } : null,
  };
}

/** The cursor of a position in `list`: what meta.next_after carries. */
export function cursorOf<L extends CursorList>(list: L, key: Keys[L]): string {
  return VERSION + Buffer.from(JSON.stringify([list, ...FORMS[list].values(key)])).toString("base64url");
}

/** The position an `after` names in `list`; a cursor that is malformed, of another version or of
 * another list is 400 invalid_body naming `after`. */
export function positionOf<L extends CursorList>(list: L, cursor: string): Keys[L] {
  const refused = () => invalidBody(`after: not a cursor of this list; pass meta.next_after of a previous page of ${list}`, "after");
  if (cursor.length > MAX_LENGTH || !cursor.startsWith(VERSION) || !BASE64URL.test(cursor.slice(VERSION.length))) throw refused();
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(cursor.slice(VERSION.length), "base64url").toString("utf8"));
  } catch {
    throw refused();
  }
  if (!Array.isArray(values) || values[0] !== list) throw refused();
  const key = FORMS[list].key(values.slice(1));
  if (key === null) throw refused();
  return key;
}

/** The paging a list asks for: C3's page and per_page, or `after` (then `page` is not sent). */
export interface CursorPaging {
  page: number;
  perPage: number;
  /** The cursor as sent (decoded by the list's service). */
  after?: string;
}

/** What a page of a paged list says besides its rows. */
export interface PagedAnswer<T> {
  data: T[];
  total: number;
  /** The cursor of the page that follows; null when no row follows. */
  next_after: string | null;
}

/**
 * The end of a page, on either way of paging: `rows` as read and the list's total. An offset page
 * (no `after`) read at most perPage rows in the snapshot that counted `total`, so rows follow when
 * offset + rows < total. A cursor page read perPage + 1 rows: the extra one, dropped here, says
 * that rows follow. The cursor names the last row shown.
 */
export function pageEnd<T, L extends CursorList>(
  list: L, paging: CursorPaging, rows: T[], total: number, keyOf: (row: T) => Keys[L],
): PagedAnswer<T> {
  const data = paging.after === undefined ? rows : rows.slice(0, paging.perPage);
  const more = paging.after === undefined ? (paging.page - 1) * paging.perPage + rows.length < total : rows.length > paging.perPage;
  const last = data.at(-1);
  return { data, total, next_after: more && last !== undefined ? cursorOf(list, keyOf(last)) : null };
}

/** How many rows a page reads: one more on a cursor page, to tell whether rows follow. */
export const rowsToRead = (paging: CursorPaging) => (paging.after === undefined ? paging.perPage : paging.perPage + 1);

/** The offset of an offset page (0 on a cursor page). */
export const offsetOf = (paging: CursorPaging) => (paging.after === undefined ? (paging.page - 1) * paging.perPage : 0);
