// The dossiers' queries on PostgreSQL, with the list of GET /dossiers: src/db/dossiers.ts's and
// src/db/dossier-page.ts's statements, the same answers. SQLite's modules keep caches (the
// dossiers shown, whole list answers, page boundaries under the dossiers' generation); this one
// reads the database each time it is called: the records and list answers a node remembers are
// kept by src/db/pg/answer-cache.ts, in front of it, against the generations the request's own
// bookkeeping statement read (C19). Every page is read by OFFSET, a cursor page (`after`,
// issue 38) by its key.
//
// The list's JSON text is JSON.stringify of the rows, keyed in the representation's order: SQLite
// builds it with json_object (deal_size, the one double, printed by JSON.stringify), which escapes
// text as JSON.stringify does, so the bytes are the same on both engines.
//
// The filters are one fixed WHERE whose clauses drop out when their value is NULL. The `q` filter
// lower-cases as JavaScript does (C10): lower() under the ICU root collation ("und-x-icu"), where
// SQLite calls js_lower, the function src/db/dossiers.ts registers; strpos is a plain substring
// test, as instr, so `%` and `_` mean themselves.
import type { Static } from "@sinclair/typebox";
import type { SQL } from "bun";
import type { DossierChanges, FlowRef, StageDeadline } from "../dossiers";
import type { DossierFilters, ListDossiersQuery, ListPage } from "../dossier-page";
import type { Dossier as DossierRecord } from "../../schemas/dossiers";
import { metadataOf, pairsOf, sortedKeys } from "../metadata";
import type { Db } from "./client";
import { holdOrganization } from "./events";
import type { EngineQueries } from "./queries";

type Dossier = Static<typeof DossierRecord>;

// The columns an update may set: a PATCH's fields, the stage's times, cv_url and updated_at.
const UPDATABLE = new Set<string>([
  "name", "email", "phone", "company", "role", "contact_person", "deal_size", "deal_currency", "status", "assigned_to",
  "intake_notes", "current_stage_id", "stage_entered_at", "stage_due_at", "cv_url", "updated_at", "metadata",
] satisfies (keyof DossierChanges)[]);

/** A dossier row's columns, in the representation's order (the list's JSON text keeps it). */
const columns = (sql: SQL) => sql`id, organization_id, flow_id, type, name, email, phone, company, role, contact_person, status, current_stage_id,
  assigned_to, deal_size, deal_currency, intake_notes, cv_url, contact_id, stage_entered_at, stage_due_at, created_at, updated_at, metadata`;

/** The same columns by name: a row read whole as JSON (src/db/pg/counters.ts's read ahead) is
 * picked in this order, so that its answer is byId's, byte for byte. */
const COLUMN_NAMES = [
  "id", "organization_id", "flow_id", "type", "name", "email", "phone", "company", "role", "contact_person", "status", "current_stage_id",
  "assigned_to", "deal_size", "deal_currency", "intake_notes", "cv_url", "contact_id", "stage_entered_at", "stage_due_at", "created_at", "updated_at", "metadata",
] as const;

/** A dossiers row as to_json gives it (every column) made the Dossier it stands for. */
export function dossierOfJson(row: Record<string, unknown>): Dossier {
  const picked: Record<string, unknown> = {};
  for (const name of COLUMN_NAMES) picked[name] = row[name];
  return dossierOf(picked as unknown as StoredDossier);
}

/** A row as read (metadata as its stored text, src/db/metadata.ts) made the Dossier it stands for, in place. */
type StoredDossier = Omit<Dossier, "metadata"> & { metadata: string };
const dossierOf = (row: StoredDossier): Dossier => {
  (row as unknown as Dossier).metadata = metadataOf(row.metadata);
  return row as unknown as Dossier;
};

/** The list's filters as its statements bind them: NULL where not asked for, `q` lower-cased as
 * JavaScript does (and NULL when empty). */
const filterValues = (filters: DossierFilters) => ({
  type: filters.type ?? null,
  status: filters.status ?? null,
  stage: filters.stageId ?? null,
  flow: filters.flowId ?? null,
  assigned: filters.assignedTo ?? null,
  overdue: filters.overdue ?? null,
  q: filters.q === undefined || filters.q === "" ? null : filters.q.toLowerCase(),
  since: filters.updatedSince ?? null,
  contact: filters.contactId ?? null,
  taskAssignee: filters.taskAssignedTo ?? null,
});

/** The list's WHERE (GET /dossiers, its total and the export): one fixed clause whose filters drop
 * out when NULL (see above), for a statement on `sql`. */
function listWhere(sql: SQL, organizationId: string, filters: DossierFilters, now: string) {
  const { type, status, stage, flow, assigned, overdue, q, since, contact, taskAssignee } = filterValues(filters);
  return sql`organization_id = ${organizationId}
    AND (${type}::text IS NULL OR type = ${type}::text)
    AND (CASE WHEN ${status}::text IS NOT NULL THEN status = ${status}::text
              WHEN ${overdue}::boolean IS TRUE THEN true ELSE status <> 'archived' END)
    AND (${stage}::text IS NULL OR current_stage_id = ${stage}::text)
    AND (${flow}::text IS NULL OR flow_id = ${flow}::text)
    AND (${assigned}::text IS NULL OR assigned_to = ${assigned}::text)
    AND (${overdue}::boolean IS NULL
      OR (${overdue}::boolean AND status = 'active' AND stage_due_at <= ${now}::text)
      OR (NOT ${overdue}::boolean AND (status <> 'active' OR stage_due_at IS NULL OR stage_due_at > ${now}::text)))
    AND (${q}::text IS NULL OR strpos(lower(name COLLATE "und-x-icu"), ${q}::text) > 0
      OR strpos(lower(email COLLATE "und-x-icu"), ${q}::text) > 0 OR strpos(lower(company COLLATE "und-x-icu"), ${q}::text) > 0)
    AND (${since}::text IS NULL OR updated_at >= ${since}::text)
    AND (${contact}::text IS NULL OR id IN (SELECT dossier_id FROM dossier_contacts WHERE organization_id = ${organizationId} AND contact_id = ${contact}::text))
    AND (${taskAssignee}::text IS NULL OR id IN (SELECT dossier_id FROM tasks WHERE organization_id = ${organizationId}
      AND assigned_to = ${taskAssignee}::text AND status = 'open' AND dossier_id IS NOT NULL))${metadataWhere(sql, organizationId, filters)}`;
}

/** Issue 38's `metadata[key]=value` filters: each pair an index lookup in dossier_metadata_lookup. */
const metadataWhere = (sql: SQL, organizationId: string, filters: DossierFilters) =>
  Object.entries(filters.metadata ?? {}).reduce(
    (clauses, [key, value]) =>
      sql`${clauses} AND id IN (SELECT dossier_id FROM dossier_metadata WHERE organization_id = ${organizationId} AND key = ${key} AND value = ${value})`,
    sql``,
  );

export function pgDossierQueries(db: Db, inUnit: () => boolean): EngineQueries<"dossiers"> {
  // Inside a unit the row is locked to its commit: SQLite's one writer runs a unit's checks and
  // its change with no other unit between them (an If-Match checked again in the unit, C16), and
  // so does this lock for units on one dossier. NO KEY: a note or a link may still reference it.
  const byId = async (organizationId: string, id: string): Promise<Dossier | null> => {
    const sql = db();
    // The organization's write order before the row's lock (src/db/pg/events.ts, holdOrganization).
    if (inUnit()) await holdOrganization(sql, organizationId);
    const [row] = inUnit()
      ? await sql<StoredDossier[]>`SELECT ${columns(sql)}
      FROM dossiers WHERE id = ${id} AND organization_id = ${organizationId} FOR NO KEY UPDATE`
      : await sql<StoredDossier[]>`SELECT ${columns(sql)}
      FROM dossiers WHERE id = ${id} AND organization_id = ${organizationId}`;
    return row ? dossierOf(row) : null;
  };

  /** The dossier's metadata pairs as dossier_metadata holds them: replaced whole. */
  async function setPairs(organizationId: string, id: string, metadata: Dossier["metadata"], replace: boolean) {
    const sql = db();
    if (replace) await sql`DELETE FROM dossier_metadata WHERE dossier_id = ${id} AND organization_id = ${organizationId}`;
    const rows = pairsOf(metadata).map(([key, value]) => ({ dossier_id: id, organization_id: organizationId, key, value }));
    if (rows.length > 0) await sql`INSERT INTO dossier_metadata ${sql(rows)}`;
  }

  /** The page's rows and the exact total, in one statement (one round trip, one snapshot): the
   * total, then the page joined to it, read only when it is not past the total (a row of NULLs, and
   * the total, when it is or when the page is empty). Call inside one read snapshot (store.read), as
   * on SQLite. */
  async function listRows(organizationId: string, query: ListDossiersQuery, now: string): Promise<ListPage<Dossier>> {
    const sql = db();
    const { type, status, stage, flow, assigned, overdue, q, since, contact, taskAssignee } = filterValues(query);
    const counted =
      overdue !== null || assigned !== null || q !== null || since !== null || contact !== null || taskAssignee !== null || query.metadata !== undefined
        ? sql`SELECT count(*)::integer AS n FROM dossiers WHERE ${listWhere(sql, organizationId, query, now)}`
        : // The filters are among the counts' key (migration 0003's triggers keep them).
          sql`SELECT coalesce(sum(n), 0)::integer AS n FROM dossier_counts
        WHERE organization_id = ${organizationId}
          AND (CASE WHEN ${status}::text IS NULL THEN status <> 'archived' ELSE status = ${status}::text END)
          AND (${type}::text IS NULL OR type = ${type}::text)
          AND (${stage}::text IS NULL OR stage_id = ${stage}::text)
          AND (${flow}::text IS NULL OR flow_id = ${flow}::text)`;
    // A cursor page (issue 38) seeks past its key and reads one row more, to know whether rows follow.
    const offset = query.after === undefined ? (query.page - 1) * query.perPage : 0;
    const limit = query.after === undefined ? query.perPage : query.perPage + 1;
    const seek = query.after === undefined ? sql`` : sql`AND (created_at, id) < (${query.after.created_at}::text, ${query.after.id}::text)`;
    const found = await sql<(StoredDossier & { list_total: number })[]>`SELECT page.*, total.n AS list_total
      FROM (${counted}) total LEFT JOIN LATERAL (
        SELECT ${columns(sql)} FROM dossiers WHERE total.n > ${offset}::bigint AND ${listWhere(sql, organizationId, query, now)}
          ${seek}
        ORDER BY created_at DESC, id DESC LIMIT ${limit}::bigint OFFSET ${offset}::bigint) page ON true`;
    const total = found[0].list_total;
    // The total is the last column: the rest keeps the representation's order (the list's JSON).
    const read = found[0].id === null ? [] : found.map(({ list_total: _, ...row }) => dossierOf(row));
    const rows = read.slice(0, query.perPage);
    const last = rows.at(-1);
    // The count and the rows are one statement: on an offset page rows follow when it ends before the total.
    const more = query.after === undefined ? offset + rows.length < total : read.length > query.perPage;
    return { rows, total, next: more && last !== undefined ? { created_at: last.created_at, id: last.id } : null };
  }

  return {
    byId,

    /** The dossier as a GET shows it; read each time, `remember` or not (see above). */
    shown: (organizationId: string, id: string, _options: { remember: boolean }) => byId(organizationId, id),

    /** Where the dossier's CV lies (its cv_url); null without a dossier or a CV. */
    async cvUrl(organizationId: string, id: string) {
      const [row] = await db()<{ cv_url: string | null }[]>`SELECT cv_url FROM dossiers WHERE id = ${id} AND organization_id = ${organizationId}`;
      return row?.cv_url ?? null;
    },

    /** The flow a new dossier goes in (a create's first check). Inside a unit, the organization's
     * write order first (src/db/pg/events.ts, holdOrganization): the create's checks (its flow, its
     * stage, its contact by id or by email) then hold until it commits, as under SQLite's one writer.
     * Before, a contact or a stage deleted between the check and the insert failed the insert on a
     * foreign key (a 500 where SQLite answers 201, or 404 for a contact_id that is gone). */
    async flow(organizationId: string, flowId: string) {
      if (inUnit()) await holdOrganization(db(), organizationId);
      const [row] = await db()<FlowRef[]>`SELECT id, type FROM flows WHERE id = ${flowId} AND organization_id = ${organizationId}`;
      return row ?? null;
    },

    /** The type's default flow; inside a unit, after the organization's write order (see flow). */
    async defaultFlow(organizationId: string, type: FlowRef["type"]) {
      if (inUnit()) await holdOrganization(db(), organizationId);
      const [row] = await db()<FlowRef[]>`SELECT id, type FROM flows WHERE organization_id = ${organizationId} AND type = ${type} AND is_default`;
      return row ?? null;
    },

    /** The flow's first stage (lowest position); null when it has none. */
    async firstStage(organizationId: string, flowId: string) {
      const [row] = await db()<StageDeadline[]>`SELECT id, deadline_days FROM stages WHERE flow_id = ${flowId} AND organization_id = ${organizationId}
        ORDER BY position LIMIT 1`;
      return row ?? null;
    },

    /** The stage, if it is one of the flow's. */
    async stageOfFlow(organizationId: string, flowId: string, stageId: string) {
      const [row] = await db()<StageDeadline[]>`SELECT id, deadline_days FROM stages
        WHERE id = ${stageId} AND flow_id = ${flowId} AND organization_id = ${organizationId}`;
      return row ?? null;
    },

    async contactExists(organizationId: string, contactId: string) {
      return (await db()`SELECT 1 AS ok FROM contacts WHERE id = ${contactId} AND organization_id = ${organizationId}`).length > 0;
    },

    /** Inserts the row and returns it as stored. */
    async insert(row: Dossier) {
      const sql = db();
      await holdOrganization(sql, row.organization_id);
      const [stored] = await sql<Dossier[]>`INSERT INTO dossiers (id, organization_id, flow_id, type, name, email, phone, company, role,
          contact_person, status, current_stage_id, assigned_to, deal_size, deal_currency, intake_notes, cv_url, contact_id, stage_entered_at,
          stage_due_at, created_at, updated_at, metadata)
        VALUES (${row.id}, ${row.organization_id}, ${row.flow_id}, ${row.type}, ${row.name}, ${row.email}, ${row.phone}, ${row.company}, ${row.role},
          ${row.contact_person}, ${row.status}, ${row.current_stage_id}, ${row.assigned_to}, ${row.deal_size}, ${row.deal_currency},
          ${row.intake_notes}, ${row.cv_url}, ${row.contact_id}, ${row.stage_entered_at}, ${row.stage_due_at}, ${row.created_at}, ${row.updated_at},
          ${JSON.stringify(row.metadata)})
        RETURNING ${columns(sql)}`;
      await setPairs(row.organization_id, row.id, row.metadata, false);
      return dossierOf(stored as unknown as StoredDossier);
    },

    /** Sets the given columns of the dossier (at least one). */
    async update(organizationId: string, id: string, changes: DossierChanges) {
      // Column names go into the SQL: only the fixed set, never a name from elsewhere.
      const set: Record<string, unknown> = {};
      for (const column of Object.keys(changes) as (keyof DossierChanges)[]) {
        if (!UPDATABLE.has(column)) throw new Error(`dossiers: ${column} is not an updatable column`);
        set[column] = column === "metadata" ? JSON.stringify(changes.metadata) : (changes[column] ?? null);
      }
      const sql = db();
      await holdOrganization(sql, organizationId);
      // A move to another stage begins a new stage visit, not handled yet by the overdue-tasks job
      // (C22): its marker goes in the same statement (a move to the same stage keeps it).
      const reset =
        "current_stage_id" in changes
          ? sql`, overdue_task_visit_id = CASE WHEN current_stage_id IS NOT DISTINCT FROM ${changes.current_stage_id ?? null}::text THEN overdue_task_visit_id END`
          : sql``;
      await sql`UPDATE dossiers SET ${sql(set)}${reset} WHERE id = ${id} AND organization_id = ${organizationId}`;
      if (changes.metadata !== undefined) await setPairs(organizationId, id, changes.metadata, true);
    },

    /** A page of GET /dossiers and the exact total. Call it inside one read snapshot (store.read). */
    async page(organizationId: string, query: ListDossiersQuery, now: string, _options: { remember: boolean }) {
      const { rows, total, next } = await listRows(organizationId, query, now);
      return { data: rows, total, next };
    },

    /** One batch of the export (C21): the list's filters and order, the rows after `after` (the
     * previous batch's last row; undefined for the first), at most `limit`. Each batch is its own
     * short read, as on SQLite. */
    async exportPage(organizationId: string, filters: DossierFilters, now: string, after: { created_at: string; id: string } | undefined, limit: number) {
      const sql = db();
      const afterCreated = after?.created_at ?? null;
      const afterId = after?.id ?? null;
      return [
        ...(await sql<StoredDossier[]>`SELECT ${columns(sql)}
          FROM dossiers WHERE ${listWhere(sql, organizationId, filters, now)}
            AND (${afterCreated}::text IS NULL OR (created_at, id) < (${afterCreated}::text, ${afterId}::text))
          ORDER BY created_at DESC, id DESC LIMIT ${limit}::bigint`),
      ].map(dossierOf);
    },

    /** The metadata keys of the dossiers an export with these filters holds, sorted (as on SQLite). */
    async metadataKeys(organizationId: string, filters: DossierFilters, now: string) {
      const sql = db();
      const rows = await sql<{ key: string }[]>`SELECT DISTINCT key FROM dossier_metadata
        WHERE organization_id = ${organizationId} AND dossier_id IN (SELECT id FROM dossiers WHERE ${listWhere(sql, organizationId, filters, now)})`;
      return sortedKeys(rows.map((row) => row.key));
    },

    /** The same page as `page`, with the array as JSON text (the same text as on SQLite). Call it
     * inside one read snapshot (store.read). */
    async pageJson(organizationId: string, query: ListDossiersQuery, now: string, _options: { remember: boolean }) {
      const { rows, total, next } = await listRows(organizationId, query, now);
      return { json: JSON.stringify(rows), total, next };
    },
  };
}
