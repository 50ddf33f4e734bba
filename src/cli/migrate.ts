// `dossier migrate --to postgres://...` (C19 "Moving", issue 34): a stopped SQLite data folder's
// database into an empty PostgreSQL database (src/db/pg/move.ts does the copy). The source is
// opened read-only and the data folder is locked as a server locks it, so no server starts on it
// meanwhile; the CV files and master.key stay where they are, since the PostgreSQL store keeps
// them in the data folder too.
import { Database } from "bun:sqlite";
import { SQL } from "bun";
import { resolve } from "node:path";
import { databaseLabel, databasePath, parseDatabaseUrl } from "../config";
import { lockDataFolder } from "../data-lock";
import { embeddedMigrations } from "../db/migrate";
import { moveToPg } from "../db/pg/move";
import { checkDataDir, checkDataExists, firstLine, optional, output, parse, required, UsageError } from "./args";
import { progressLine } from "./progress";

export const MIGRATE_HELP = `dossier migrate --to URL [--data DIR] [--json]
  Moves a stopped data folder's database from SQLite to PostgreSQL: copies every table into the
  EMPTY database at URL (its schema is made first), sets its sequences past the copied rows, and
  checks that every table holds as many rows on both sides (printed). All rows are copied in one
  transaction: on any failure the target keeps no row, and the command can be run again. The
  SQLite file is only read; the CV files and master.key stay in the data folder, where the
  PostgreSQL store keeps them too. Then start the server with DOSSIER_DATABASE_URL=URL on the
  same data folder (docs/operations.md, "Moving a SQLite data folder to PostgreSQL").
  Refuses (exit 1, nothing written) while a server holds the data folder, when the folder holds
  no database, and when the target holds any of Dossier's rows or a newer schema.
  On a terminal it shows its progress on stderr (not with --json).
  --to URL    postgres://user:password@host:5432/database: the empty target (required)
  --data DIR  the data folder to move (default: env DOSSIER_DATA, else ./data)
  --json      print one JSON object on stdout (default: text):
              {"to","tables":{"<table>":rows...},"rows","seconds","verified":true}
  env: DOSSIER_DATA       the data folder when --data is not given (default ./data)
       DOSSIER_LOG_LEVEL  debug also prints the stack of an unexpected failure (default info)
       DOSSIER_DATABASE_URL is not read: the source is always the data folder's SQLite file`;

export async function migrateCommand(argv: string[]) {
  const parsed = parse(argv, { to: { type: "string" } });
  const to = required(parsed, "to");
  let url: string;
  try {
    url = parseDatabaseUrl(to);
  } catch {
    throw new UsageError("--to must be a postgres:// URL: postgres://user:password@host:5432/database");
  }
  // Not configOf: the other settings (DOSSIER_DATABASE_URL among them) are the server's, not read here.
  const dataDir = resolve(optional(parsed, "data") ?? process.env.DOSSIER_DATA ?? "./data");
  checkDataDir(dataDir);
  checkDataExists(dataDir);
  const lock = lockDataFolder(dataDir); // DataFolderInUseError while a server runs on it
  const progress = progressLine(!parsed.values.json && process.stderr.isTTY === true);
  const started = performance.now();
  let source: Database | undefined;
  let target: SQL | undefined;
  try {
    try {
      source = new Database(databasePath(dataDir), { readonly: true });
    } catch (error) {
      throw new Error(`cannot open the data folder ${dataDir}: ${firstLine(error)}`);
    }
    checkSourceSchema(source, dataDir);
    target = new SQL(url, { max: 1, connectionTimeout: 10 });
    // One read transaction over the whole copy: counts and rows from one state of the file.
    source.run("BEGIN");
    let drawnAt = -Infinity;
    const result = await moveToPg(source, target, (table, copied, total, copiedAll, totalAll) => {
      const now = performance.now();
      if (copied !== total && now - drawnAt < 100) return;
      drawnAt = now;
      progress.show(`migrate: ${table} ${copied.toLocaleString("en")} of ${total.toLocaleString("en")} rows (all tables: ${copiedAll.toLocaleString("en")} of ${totalAll.toLocaleString("en")})`);
    }, (phase) => progress.show(`migrate: ${phase}`)).catch((error) => {
      throw connectionFailure(error, url);
    });
    progress.end();
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    const label = databaseLabel(url);
    const width = Math.max(...Object.keys(result.tables).map((t) => t.length));
    const lines = Object.entries(result.tables).map(([table, rows]) => `  ${table.padEnd(width)}  ${rows}`);
    output(
      parsed,
      { to: label, tables: result.tables, rows: result.rows, seconds, verified: true },
      `rows per table, equal in SQLite and PostgreSQL:\n${lines.join("\n")}\n` +
        `moved ${result.rows} rows to ${label} in ${seconds} s and checked them. Start the server with DOSSIER_DATABASE_URL on this data folder.`,
    );
  } finally {
    progress.end();
    if (source?.inTransaction) source.run("ROLLBACK");
    source?.close();
    await target?.close();
    lock.release();
  }
}

/** The copy reads the columns of this program's schema: a database migrated by another version
 * would not have them. */
function checkSourceSchema(source: Database, dataDir: string) {
  let last: number | null = null;
  try {
    last = Number(source.query<{ created_at: number }, []>(`SELECT max(created_at) AS created_at FROM "__drizzle_migrations"`).get()?.created_at ?? NaN);
  } catch {
    last = null;
  }
  const newest = embeddedMigrations.at(-1)!.when;
  if (last === null || Number.isNaN(last)) throw new Error(`the data folder ${dataDir} holds no Dossier database`);
  if (last > newest) throw new Error(`the data folder's database was migrated by a newer dossier: move it with that version`);
  if (last < newest) {
    throw new Error(`the data folder's database has an older schema than this program's: open it once with this version (e.g. dossier org list --data ${dataDir}), then move it`);
  }
}

/** A target that cannot be reached is named without its password (exit 1). */
function connectionFailure(error: unknown, url: string): unknown {
  const code = String((error as { code?: unknown }).code ?? "");
  if (/^ERR_POSTGRES_CONNECTION|^ECONNREFUSED|^ERR_POSTGRES_SERVER_ERROR$/.test(code) && !(error as { errno?: unknown }).errno) {
    return new Error(`cannot reach the PostgreSQL database ${databaseLabel(url)}: ${firstLine(error)}`);
  }
  return error;
}
