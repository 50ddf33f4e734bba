// The dossiers' queries: every SQL statement of the dossier services, and nothing else (the rules,
// events and errors are the services'). Each method reads or writes rows of one organization.
import type { Static } from "@sinclair/typebox";
import type { Dossier as DossierRecord, DossierType } from "../schemas/dossiers";
import { dossierListWhere, listCaches, listRows, rememberable, rememberedAnswer, type Answer, type Boundary, type DossierFilters, type ListDossiersQuery } from "./dossier-page";
import { metadataOf, pairsOf, sortedKeys } from "./metadata";
import type { QueryDeps } from "./queries";
import { StampCache } from "./stamp-cache";

type Dossier = Static<typeof DossierRecord>;

/** A flow a new dossier may go into. */
export interface FlowRef {
  id: string;
  type: Static<typeof DossierType>;
}

/** A stage and its deadline, for stage_due_at. */
export interface StageDeadline {
  id: string;
  deadline_days: number | null;
}

/** The columns an update may set: a PATCH's fields, the stage's times, cv_url and updated_at. */
export type DossierChanges = Partial<
  Pick<
    Dossier,
    | "name" | "email" | "phone" | "company" | "role" | "contact_person" | "deal_size" | "deal_currency" | "status"
    | "assigned_to" | "intake_notes" | "current_stage_id" | "stage_entered_at" | "stage_due_at" | "cv_url" | "updated_at" | "metadata"
  >
>;

// The table's columns are named as the representation's fields, in its order: a row is a Dossier.
const FIELDS = [
  "id", "organization_id", "flow_id", "type", "name", "email", "phone", "company", "role", "contact_person", "status",
  "current_stage_id", "assigned_to", "deal_size", "deal_currency", "intake_notes", "cv_url", "contact_id",
  "stage_entered_at", "stage_due_at", "created_at", "updated_at", "metadata",
] as const satisfies readonly (keyof Dossier)[];
const COLUMNS = FIELDS.join(", ");
const UPDATABLE = new Set<string>([
  "name", "email", "phone", "company", "role", "contact_person", "deal_size", "deal_currency", "status", "assigned_to",
  "intake_notes", "current_stage_id", "stage_entered_at", "stage_due_at", "cv_url", "updated_at", "metadata",
] satisfies (keyof DossierChanges)[]);

// Rows as JSON text made by SQLite, for GET /dossiers: turning 25 rows of 22 columns into
// JS objects and then back into JSON was most of the list's cost. SQLite's json_object escapes text
// exactly as JSON.stringify does, but prints floating-point numbers its own way (15000.0,
// 0.33333333333333332), so deal_size, the one REAL column, is left out of the JSON made in SQL and
// printed by JSON.stringify between the two halves: the text is then the same as JSON.stringify of
// the row (test/services/dossier-json.test.ts).
// `metadata`, the last field, is stored as the JSON text it prints as (src/db/metadata.ts): it is
// put after the tail as it is.
const HEAD = FIELDS.slice(0, FIELDS.indexOf("deal_size"));
const TAIL = FIELDS.slice(FIELDS.indexOf("deal_size") + 1, FIELDS.indexOf("metadata"));
const object = (columns: readonly string[]) => `json_object(${columns.map((c) => `'${c}', ${c}`).join(", ")})`;
/** The select list of a JSON row; created_at and id come out plain too, for page boundaries. */
const JSON_COLUMNS = `${object(HEAD)} AS head, deal_size, ${object(TAIL)} AS tail, metadata, created_at, id`;

interface JsonRow extends Boundary {
  head: string;
  deal_size: number | null;
  tail: string;
  metadata: string;
}

/** One Dossier as JSON text, the same text as JSON.stringify(dossier). */
const rowJson = (row: JsonRow) =>
  `${row.head.slice(0, -1)},"deal_size":${JSON.stringify(row.deal_size)},${row.tail.slice(1, -1)},"metadata":${row.metadata}}`;

/** A row as read (metadata as its text) made the Dossier it stands for, in place. */
type StoredDossier = Omit<Dossier, "metadata"> & { metadata: string };
const dossierOf = (row: StoredDossier): Dossier => {
  (row as unknown as Dossier).metadata = metadataOf(row.metadata);
  return row as unknown as Dossier;
};

/** Dossiers a GET showed, kept while nothing is committed: about 1.5 KB each, at most 8 M
 * characters in all (long intake notes). */
const REMEMBERED = { maxEntries: 2048, maxWeight: 8 << 20 };

export function dossierQueries({ sqlite, generations }: QueryDeps) {
  // The list's `q` compares both sides lower-cased as JavaScript does (C10), which SQLite's lower() does not.
  sqlite.function("js_lower", { deterministic: true }, (value: unknown) => (typeof value === "string" ? value.toLowerCase() : null));

  const caches = listCaches(sqlite, generations);
  const byId = (organizationId: string, id: string): Dossier | null => {
    const row = sqlite.query<StoredDossier, [string, string]>(`SELECT ${COLUMNS} FROM dossiers WHERE id = ? AND organization_id = ?`).get(id, organizationId);
    return row ? dossierOf(row) : null;
  };
  /** The dossier's metadata pairs as dossier_metadata holds them: replaced whole. */
  const setPairs = (organizationId: string, id: string, metadata: Dossier["metadata"], replace: boolean) => {
    if (replace) sqlite.query(`DELETE FROM dossier_metadata WHERE dossier_id = ? AND organization_id = ?`).run(id, organizationId);
    const insert = sqlite.query(`INSERT INTO dossier_metadata (dossier_id, organization_id, key, value) VALUES (?, ?, ?, ?)`);
    for (const [key, value] of pairsOf(metadata)) insert.run(id, organizationId, key, value);
  };

  const shown = new StampCache<Dossier>(sqlite, REMEMBERED);
  return {
    byId,

    /** The dossier as a GET shows it; with `remember`, kept (frozen) while nothing is committed
     * (src/db/stamp-cache.ts). */
    shown: (organizationId: string, id: string, options: { remember: boolean }): Dossier | null =>
      options.remember ? shown.get(`${organizationId}\u0000${id}`, () => byId(organizationId, id)) : byId(organizationId, id),

    /** Where the dossier's CV lies (its cv_url); null without a dossier or a CV. */
    cvUrl: (organizationId: string, id: string): string | null =>
      sqlite.query<{ cv_url: string | null }, [string, string]>(`SELECT cv_url FROM dossiers WHERE id = ? AND organization_id = ?`)
        .get(id, organizationId)?.cv_url ?? null,

    flow: (organizationId: string, flowId: string): FlowRef | null =>
      sqlite.query<FlowRef, [string, string]>(`SELECT id, type FROM flows WHERE id = ? AND organization_id = ?`).get(flowId, organizationId) ?? null,

    defaultFlow: (organizationId: string, type: FlowRef["type"]): FlowRef | null =>
      sqlite.query<FlowRef, [string, string]>(`SELECT id, type FROM flows WHERE organization_id = ? AND type = ? AND is_default = 1`)
        .get(organizationId, type) ?? null,

    /** The flow's first stage (lowest position); null when it has none. */
    firstStage: (organizationId: string, flowId: string): StageDeadline | null =>
      sqlite.query<StageDeadline, [string, string]>(`SELECT id, deadline_days FROM stages WHERE flow_id = ? AND organization_id = ? ORDER BY position LIMIT 1`)
        .get(flowId, organizationId) ?? null,

    /** The stage, if it is one of the flow's. */
    stageOfFlow: (organizationId: string, flowId: string, stageId: string): StageDeadline | null =>
      sqlite.query<StageDeadline, [string, string, string]>(`SELECT id, deadline_days FROM stages WHERE id = ? AND flow_id = ? AND organization_id = ?`)
        .get(stageId, flowId, organizationId) ?? null,

    contactExists: (organizationId: string, contactId: string): boolean =>
      sqlite.query(`SELECT 1 FROM contacts WHERE id = ? AND organization_id = ?`).get(contactId, organizationId) !== null,

    /** Inserts the row (and its metadata pairs) and returns it as stored. */
    insert: (row: Dossier): Dossier => {
      const stored = sqlite.query<StoredDossier, (string | number | null)[]>(
        `INSERT INTO dossiers (${COLUMNS}) VALUES (${FIELDS.map(() => "?").join(", ")}) RETURNING ${COLUMNS}`,
      ).get(...FIELDS.map((field) => (field === "metadata" ? JSON.stringify(row.metadata) : row[field])))!;
      setPairs(row.organization_id, row.id, row.metadata, false);
      return dossierOf(stored);
    },

    /** Sets the given columns of the dossier (at least one). */
    update(organizationId: string, id: string, changes: DossierChanges): void {
      const columns = Object.keys(changes) as (keyof DossierChanges)[];
      // Column names go into the SQL: only the fixed set, never a name from elsewhere.
      for (const column of columns) if (!UPDATABLE.has(column)) throw new Error(`dossiers: ${column} is not an updatable column`);
      // A move to another stage begins a new stage visit, not handled yet by the overdue-tasks job
      // (C22): its marker goes in the same statement (a move to the same stage keeps it).
      const moved = "current_stage_id" in changes;
      sqlite
        .query(
          `UPDATE dossiers SET ${columns.map((c) => `${c} = ?`).join(", ")}${moved ? ", overdue_task_visit_id = CASE WHEN current_stage_id IS ? THEN overdue_task_visit_id END" : ""}
           WHERE id = ? AND organization_id = ?`,
        )
        .run(
          ...columns.map((c) => (c === "metadata" ? JSON.stringify(changes.metadata) : (changes[c] ?? null))),
          ...(moved ? [changes.current_stage_id ?? null] : []), id, organizationId,
        );
      if (changes.metadata !== undefined) setPairs(organizationId, id, changes.metadata, true);
    },

    /** A page of GET /dossiers and the exact total. `now` (ISO): the clock for `overdue`;
     * `remember`: page boundaries may be kept while the organization's dossiers are unchanged
     * (src/db/dossier-page.ts). Call it inside one read snapshot (store.read). */
    page(organizationId: string, query: ListDossiersQuery, now: string, options: { remember: boolean }): { data: Dossier[]; total: number; next: Boundary | null } {
      const { rows, total, next } = listRows<StoredDossier>(sqlite, organizationId, query, COLUMNS, now, options.remember && rememberable(query) ? caches.boundaries : null);
      return { data: rows.map(dossierOf), total, next };
    },

    /** One batch of the export (C21): the list's filters and order, the rows after `after` (the
     * previous batch's last row; undefined for the first), at most `limit`. Each batch is its own
     * short read (round 3 notes: a snapshot held for a whole export stops WAL checkpoints). */
    exportPage(organizationId: string, filters: DossierFilters, now: string, after: Boundary | undefined, limit: number): Dossier[] {
      const { where, params } = dossierListWhere(filters, organizationId, now);
      const seek = after === undefined ? "" : " AND (created_at, id) < (?, ?)";
      const values = after === undefined ? [...params, limit] : [...params, after.created_at, after.id, limit];
      return sqlite
        .query<StoredDossier, (string | number)[]>(`SELECT ${COLUMNS} FROM dossiers WHERE ${where}${seek} ORDER BY created_at DESC, id DESC LIMIT ?`)
        .all(...values)
        .map(dossierOf);
    },

    /** The metadata keys of the dossiers an export with these filters holds (its metadata.<key>
     * columns, C21 and issue 38), sorted. The organization's pairs are walked, each dossier tested
     * by its id: no list of the organization's dossiers is built (an export may hold a million). */
    metadataKeys(organizationId: string, filters: DossierFilters, now: string): string[] {
      const { where, params } = dossierListWhere(filters, organizationId, now);
      // The WHERE's own parameters first (it may number them), the pairs' organization after.
      const rows = sqlite
        .query<{ key: string }, (string | number)[]>(
          `SELECT DISTINCT key FROM dossier_metadata m
            WHERE EXISTS (SELECT 1 FROM dossiers WHERE dossiers.id = m.dossier_id AND ${where}) AND m.organization_id = ?`,
        )
        .all(...params, organizationId);
      return sortedKeys(rows.map((row) => row.key));
    },

    /**
     * The same page as `page`, with the array as JSON text (the same text as JSON.stringify of
     * page(...).data), made without building the rows as objects. `remember`: the answer and the
     * page boundaries may be kept while the organization's dossiers are unchanged; an answer with
     * `overdue` or `contactId` never is, since it changes with the clock or the links, not the dossiers. Call it inside one read
     * snapshot (store.read).
     */
    pageJson(organizationId: string, query: ListDossiersQuery, now: string, options: { remember: boolean }): Answer {
      const answer = () => {
        const { rows, total, next } = listRows<JsonRow>(sqlite, organizationId, query, JSON_COLUMNS, now, options.remember && rememberable(query) ? caches.boundaries : null);
        return { json: `[${rows.map(rowJson).join(",")}]`, total, next };
      };
      if (!options.remember || !rememberable(query)) return answer();
      return rememberedAnswer(caches.answers, organizationId, JSON.stringify([organizationId, query]), answer);
    },
  };
}
