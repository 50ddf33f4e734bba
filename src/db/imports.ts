// The imports' queries (C21): an import's record and progress, the rows it changed (for its
// revert), the stages a dossier row may name, and the savepoints that keep each row whole. Every
// statement is scoped by organization, but `unfinished`, which the job runner asks at start for every
// organization's imports that a stop or a crash left unfinished.
import type { QueryDeps } from "./queries";
import type { ImportedRecordRow, ImportRow } from "./schema";

export type { ImportedRecordRow, ImportRow } from "./schema";

/** What a batch changes in an import's record: its counts, its progress and its errors. */
export interface ImportProgress {
  status: ImportRow["status"];
  processed: number;
  created: number;
  updated: number;
  skipped: number;
  failed: number;
  lastRow: number;
  /** JSON */
  errors: string;
  failure?: string | null;
  file?: string | null;
  finishedAt?: string | null;
}

const COLUMNS = `id, organization_id AS organizationId, resource, status, dry_run AS dryRun, mode, match_on AS matchOn, emit_events AS emitEvents,
  settings, file_name AS fileName, file, actor_type AS actorType, actor_id AS actorId, rows, processed, created, updated, skipped, failed,
  last_row AS lastRow, errors, failure, revert_undone AS revertUndone, revert_skipped AS revertSkipped, created_at AS createdAt,
  finished_at AS finishedAt, reverted_at AS revertedAt`;

type Raw = Omit<ImportRow, "dryRun" | "emitEvents"> & { dryRun: number | boolean; emitEvents: number | boolean };
const rowOf = (raw: Raw): ImportRow => ({ ...raw, dryRun: Boolean(raw.dryRun), emitEvents: Boolean(raw.emitEvents) });

/** Savepoint names: fixed text, never input. */
export type Savepoint = "import_batch" | "import_row";

export function importQueries({ sqlite }: QueryDeps) {
  return {
    insert(row: ImportRow): void {
      sqlite
        .query(
          `INSERT INTO imports (id, organization_id, resource, status, dry_run, mode, match_on, emit_events, settings, file_name, file,
             actor_type, actor_id, rows, processed, created, updated, skipped, failed, last_row, errors, failure, revert_undone,
             revert_skipped, created_at, finished_at, reverted_at)
           VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27)`,
        )
        .run(
          row.id, row.organizationId, row.resource, row.status, row.dryRun ? 1 : 0, row.mode, row.matchOn, row.emitEvents ? 1 : 0, row.settings,
          row.fileName, row.file, row.actorType, row.actorId, row.rows, row.processed, row.created, row.updated, row.skipped, row.failed,
          row.lastRow, row.errors, row.failure, row.revertUndone, row.revertSkipped, row.createdAt, row.finishedAt, row.revertedAt,
        );
    },

    byId(organizationId: string, id: string): ImportRow | null {
      const raw = sqlite.query<Raw, [string, string]>(`SELECT ${COLUMNS} FROM imports WHERE id = ?1 AND organization_id = ?2`).get(id, organizationId);
      return raw ? rowOf(raw) : null;
    },

    /** A page of the organization's imports of the given resources, newest first, and the total.
     * `after`: a cursor page (issue 38), the imports older than that one (offset 0). */
    page(
      organizationId: string, resources: readonly string[], offset: number, limit: number, after?: { created_at: string; id: string },
    ): { rows: ImportRow[]; total: number } {
      const kinds = JSON.stringify(resources);
      const where = "organization_id = ?1 AND resource IN (SELECT value FROM json_each(?2))";
      const total = sqlite.query<{ n: number }, [string, string]>(`SELECT count(*) AS n FROM imports WHERE ${where}`).get(organizationId, kinds)!.n;
      const seek = after === undefined ? "" : "AND (created_at, id) < (?5, ?6)";
      const rows = sqlite
        .query<Raw, (string | number)[]>(`SELECT ${COLUMNS} FROM imports WHERE ${where} ${seek} ORDER BY created_at DESC, id DESC LIMIT ?3 OFFSET ?4`)
        .all(organizationId, kinds, limit, offset, ...(after === undefined ? [] : [after.created_at, after.id]))
        .map(rowOf);
      return { rows, total };
    },

    /** Every organization's imports that are queued or running, oldest first: what a job runner
     * takes up at start. Not scoped by organization: the runner serves them all. */
    unfinished(): { organizationId: string; id: string }[] {
      return sqlite
        .query<{ organizationId: string; id: string }, []>(
          `SELECT organization_id AS organizationId, id FROM imports WHERE status IN ('queued', 'running') ORDER BY created_at, id`,
        )
        .all();
    },

    /** Records a batch's outcome (or the end). */
    progress(organizationId: string, id: string, p: ImportProgress): void {
      sqlite
        .query(
          `UPDATE imports SET status = ?3, processed = ?4, created = ?5, updated = ?6, skipped = ?7, failed = ?8, last_row = ?9, errors = ?10,
             failure = coalesce(?11, failure), finished_at = coalesce(?12, finished_at), file = CASE WHEN ?13 THEN NULL ELSE file END
           WHERE id = ?1 AND organization_id = ?2`,
        )
        .run(
          id, organizationId, p.status, p.processed, p.created, p.updated, p.skipped, p.failed, p.lastRow, p.errors,
          p.failure ?? null, p.finishedAt ?? null, p.file === null ? 1 : 0,
        );
    },

    setStatus(organizationId: string, id: string, status: ImportRow["status"]): void {
      sqlite.query(`UPDATE imports SET status = ?3 WHERE id = ?1 AND organization_id = ?2`).run(id, organizationId, status);
    },

    /** The end of a revert. */
    reverted(organizationId: string, id: string, undone: number, skipped: number, at: string): void {
      sqlite
        .query(`UPDATE imports SET status = 'reverted', revert_undone = ?3, revert_skipped = ?4, reverted_at = ?5 WHERE id = ?1 AND organization_id = ?2`)
        .run(id, organizationId, undone, skipped, at);
    },

    /** What the rows of one batch changed. */
    insertRows(rows: readonly ImportedRecordRow[]): void {
      const insert = sqlite.query(
        `INSERT INTO import_rows (import_id, organization_id, row, resource_id, action, previous, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)`,
      );
      for (const r of rows) insert.run(r.importId, r.organizationId, r.row, r.resourceId, r.action, r.previous, r.updatedAt);
    },

    /** The rows an import changed, last first, below row `before` (keyset, for the revert's batches). */
    changedRows(organizationId: string, importId: string, before: number, limit: number): ImportedRecordRow[] {
      return sqlite
        .query<ImportedRecordRow, [string, string, number, number]>(
          `SELECT import_id AS importId, organization_id AS organizationId, row, resource_id AS resourceId, action, previous, updated_at AS updatedAt
             FROM import_rows WHERE import_id = ?1 AND organization_id = ?2 AND row < ?3 ORDER BY row DESC LIMIT ?4`,
        )
        .all(importId, organizationId, before, limit);
    },

    /** The stages of a flow of the organization, by position: a dossier row's `stage` names one. */
    stagesOfFlow(organizationId: string, flowId: string): { id: string; name: string }[] {
      return sqlite
        .query<{ id: string; name: string }, [string, string]>(`SELECT id, name FROM stages WHERE flow_id = ?1 AND organization_id = ?2 ORDER BY position`)
        .all(flowId, organizationId);
    },

    /** Inside a unit of work: a savepoint, so that one row (or a dry run's whole batch) can be
     * undone alone. The name is one of the fixed `Savepoint`s. */
    savepoint(name: Savepoint): void {
      sqlite.run(`SAVEPOINT ${checked(name)}`);
    },
    release(name: Savepoint): void {
      sqlite.run(`RELEASE ${checked(name)}`);
    },
    /** Undoes what was written since the savepoint, and ends it. */
    rollbackTo(name: Savepoint): void {
      sqlite.run(`ROLLBACK TO ${checked(name)}`);
      sqlite.run(`RELEASE ${checked(name)}`);
    },
  };
}

function checked(name: Savepoint): Savepoint {
  if (name !== "import_batch" && name !== "import_row") throw new Error(`imports: ${String(name)} is not a savepoint of the imports`);
  return name;
}
