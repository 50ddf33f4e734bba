// The imports' queries (C21) on PostgreSQL: src/db/imports.ts's statements, the same answers. The
// camelCase names are quoted aliases (PostgreSQL folds unquoted ones to lower case). Every statement
// is scoped by organization, but `unfinished`, which the job runner asks at start for every
// organization's imports that a stop or a crash left unfinished. Savepoints are PostgreSQL's own,
// inside the unit's transaction: after a failed statement the transaction takes nothing but a
// ROLLBACK TO, which is what a refused row does.
import type { ImportedRecordRow, ImportProgress, ImportRow, Savepoint } from "../imports";
import type { Db } from "./client";
import { forgetHeldLocks } from "./events";
import type { EngineQueries } from "./queries";

/** Rows of import_rows per INSERT (7 parameters each, well under PostgreSQL's 65,535). */
const INSERT_CHUNK = 1_000;

export function pgImportQueries(db: Db): EngineQueries<"imports"> {
  return {
    async insert(row: ImportRow) {
      await db()`INSERT INTO imports (id, organization_id, resource, status, dry_run, mode, match_on, emit_events, settings, file_name, file,
          actor_type, actor_id, rows, processed, created, updated, skipped, failed, last_row, errors, failure, revert_undone,
          revert_skipped, created_at, finished_at, reverted_at)
        VALUES (${row.id}, ${row.organizationId}, ${row.resource}, ${row.status}, ${row.dryRun}, ${row.mode}, ${row.matchOn}, ${row.emitEvents},
          ${row.settings}, ${row.fileName}, ${row.file}, ${row.actorType}, ${row.actorId}, ${row.rows}::integer, ${row.processed}::integer,
          ${row.created}::integer, ${row.updated}::integer, ${row.skipped}::integer, ${row.failed}::integer, ${row.lastRow}::integer, ${row.errors},
          ${row.failure}, ${row.revertUndone}::integer, ${row.revertSkipped}::integer, ${row.createdAt}, ${row.finishedAt}, ${row.revertedAt})`;
    },

    async byId(organizationId: string, id: string) {
      const [row] = await db()<ImportRow[]>`SELECT id, organization_id AS "organizationId", resource, status, dry_run AS "dryRun", mode,
          match_on AS "matchOn", emit_events AS "emitEvents", settings, file_name AS "fileName", file, actor_type AS "actorType",
          actor_id AS "actorId", rows, processed, created, updated, skipped, failed, last_row AS "lastRow", errors, failure,
          revert_undone AS "revertUndone", revert_skipped AS "revertSkipped", created_at AS "createdAt", finished_at AS "finishedAt",
          reverted_at AS "revertedAt"
        FROM imports WHERE id = ${id} AND organization_id = ${organizationId}`;
      return row ?? null;
    },

    /** A page of the organization's imports of the given resources, newest first (ties by id,
     * descending), and the total. The resources are bound as one JSON array. */
    async page(organizationId: string, resources: readonly string[], offset: number, limit: number, after?: { created_at: string; id: string }) {
      const kinds = JSON.stringify(resources);
      const sql = db();
      const seek = after === undefined ? sql`` : sql`AND (imports.created_at, imports.id) < (${after.created_at}::text, ${after.id}::text)`;
      const [{ n: total }] = await db()<{ n: number }[]>`SELECT count(*)::integer AS n FROM imports
        WHERE organization_id = ${organizationId} AND resource IN (SELECT jsonb_array_elements_text(${kinds}::text::jsonb))`;
      const rows = await db()<ImportRow[]>`SELECT id, organization_id AS "organizationId", resource, status, dry_run AS "dryRun", mode,
          match_on AS "matchOn", emit_events AS "emitEvents", settings, file_name AS "fileName", file, actor_type AS "actorType",
          actor_id AS "actorId", rows, processed, created, updated, skipped, failed, last_row AS "lastRow", errors, failure,
          revert_undone AS "revertUndone", revert_skipped AS "revertSkipped", created_at AS "createdAt", finished_at AS "finishedAt",
          reverted_at AS "revertedAt"
        FROM imports
        WHERE organization_id = ${organizationId} AND resource IN (SELECT jsonb_array_elements_text(${kinds}::text::jsonb)) ${seek}
        ORDER BY imports.created_at DESC, imports.id DESC LIMIT ${limit}::bigint OFFSET ${offset}::bigint`;
      return { rows: [...rows], total };
    },

    /** Every organization's imports that are queued or running, oldest first: what a job runner
     * takes up at start. Not scoped by organization: the runner serves them all. */
    async unfinished() {
      return [
        ...(await db()<{ organizationId: string; id: string }[]>`SELECT organization_id AS "organizationId", id FROM imports
          WHERE status IN ('queued', 'running') ORDER BY created_at, id`),
      ];
    },

    /** Records a batch's outcome (or the end): failure and finished_at kept when not given, the file
     * forgotten when given as null. */
    async progress(organizationId: string, id: string, p: ImportProgress) {
      await db()`UPDATE imports SET status = ${p.status}, processed = ${p.processed}::integer, created = ${p.created}::integer,
          updated = ${p.updated}::integer, skipped = ${p.skipped}::integer, failed = ${p.failed}::integer, last_row = ${p.lastRow}::integer,
          errors = ${p.errors}, failure = coalesce(${p.failure ?? null}::text, failure), finished_at = coalesce(${p.finishedAt ?? null}::text, finished_at),
          file = CASE WHEN ${p.file === null}::boolean THEN NULL ELSE file END
        WHERE id = ${id} AND organization_id = ${organizationId}`;
    },

    async setStatus(organizationId: string, id: string, status: ImportRow["status"]) {
      await db()`UPDATE imports SET status = ${status} WHERE id = ${id} AND organization_id = ${organizationId}`;
    },

    /** The end of a revert. */
    async reverted(organizationId: string, id: string, undone: number, skipped: number, at: string) {
      await db()`UPDATE imports SET status = 'reverted', revert_undone = ${undone}::integer, revert_skipped = ${skipped}::integer, reverted_at = ${at}
        WHERE id = ${id} AND organization_id = ${organizationId}`;
    },

    /** What the rows of one batch changed: one INSERT per chunk of rows, each row's organization as given. */
    async insertRows(rows: readonly ImportedRecordRow[]) {
      const sql = db();
      for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
        const chunk = rows.slice(start, start + INSERT_CHUNK).map((r) => ({
          import_id: r.importId,
          organization_id: r.organizationId,
          row: r.row,
          resource_id: r.resourceId,
          action: r.action,
          previous: r.previous,
          updated_at: r.updatedAt,
        }));
        await sql`INSERT INTO import_rows ${sql(chunk, "import_id", "organization_id", "row", "resource_id", "action", "previous", "updated_at")}`;
      }
    },

    /** The rows an import changed, last first, below row `before` (keyset, for the revert's batches).
     * `before` is bound as bigint: the revert's first batch gives Number.MAX_SAFE_INTEGER, past an
     * integer's range (the integer column compares with it all the same, by the same index). */
    async changedRows(organizationId: string, importId: string, before: number, limit: number) {
      return [
        ...(await db()<ImportedRecordRow[]>`SELECT import_id AS "importId", organization_id AS "organizationId", "row", resource_id AS "resourceId",
            action, previous, updated_at AS "updatedAt"
          FROM import_rows WHERE import_id = ${importId} AND organization_id = ${organizationId} AND "row" < ${before}::bigint
          ORDER BY import_rows."row" DESC LIMIT ${limit}::bigint`),
      ];
    },

    /** The stages of a flow of the organization, by position: a dossier row's `stage` names one. */
    async stagesOfFlow(organizationId: string, flowId: string) {
      return [
        ...(await db()<{ id: string; name: string }[]>`SELECT id, name FROM stages WHERE flow_id = ${flowId} AND organization_id = ${organizationId}
          ORDER BY position`),
      ];
    },

    /** Inside a unit of work: a savepoint, so that one row (or a dry run's whole batch) can be undone
     * alone. The name is one of the fixed `Savepoint`s, each its own statement text. */
    async savepoint(name: Savepoint) {
      if (checked(name) === "import_batch") await db()`SAVEPOINT import_batch`;
      else await db()`SAVEPOINT import_row`;
    },

    async release(name: Savepoint) {
      if (checked(name) === "import_batch") await db()`RELEASE SAVEPOINT import_batch`;
      else await db()`RELEASE SAVEPOINT import_row`;
    },

    /** Undoes what was written since the savepoint, and ends it (with the organization's lock when
     * it was taken since: src/db/pg/events.ts). */
    async rollbackTo(name: Savepoint) {
      forgetHeldLocks(db());
      if (checked(name) === "import_batch") {
        await db()`ROLLBACK TO SAVEPOINT import_batch`;
        await db()`RELEASE SAVEPOINT import_batch`;
      } else {
        await db()`ROLLBACK TO SAVEPOINT import_row`;
        await db()`RELEASE SAVEPOINT import_row`;
      }
    },
  };
}

function checked(name: Savepoint): Savepoint {
  if (name !== "import_batch" && name !== "import_row") throw new Error(`imports: ${String(name)} is not a savepoint of the imports`);
  return name;
}
