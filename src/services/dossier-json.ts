// Dossier rows as JSON text made by SQLite, for GET /dossiers (issue 6): turning 25 rows of 22
// columns into JS objects and then back into JSON was most of the list's cost. SQLite's
// json_object escapes text exactly as JSON.stringify does, but prints floating-point numbers its own
// way (15000.0, 0.33333333333333332), so deal_size, the one REAL column, is left out of the JSON
// made in SQL and printed by JSON.stringify between the two halves: the text is then the same as
// JSON.stringify of the row (test/services/dossier-json.test.ts).
import type { Boundary } from "./dossier-page";

// The Dossier representation's fields, in its order, around deal_size (see COLUMNS in dossiers.ts).
const HEAD = [
  "id", "organization_id", "flow_id", "type", "name", "email", "phone", "company", "role", "contact_person", "status",
  "current_stage_id", "assigned_to",
];
const TAIL = [
  "deal_currency", "intake_notes", "cv_url", "contact_id", "stage_entered_at", "stage_due_at", "created_at", "updated_at",
];

const object = (columns: string[]) => `json_object(${columns.map((c) => `'${c}', ${c}`).join(", ")})`;

/** The select list of a JSON row; created_at and id come out plain too, for page boundaries. */
export const JSON_COLUMNS = `${object(HEAD)} AS head, deal_size, ${object(TAIL)} AS tail, created_at, id`;

export interface JsonRow extends Boundary {
  head: string;
  deal_size: number | null;
  tail: string;
}

/** One Dossier as JSON text, the same text as JSON.stringify(dossier). */
export const rowJson = (row: JsonRow) => `${row.head.slice(0, -1)},"deal_size":${JSON.stringify(row.deal_size)},${row.tail.slice(1)}`;
