// `dossier migrate --to postgres://...` (C19 "Moving", issue 34): a stopped SQLite data folder's
// database into an empty PostgreSQL database (src/db/pg/move.ts does the copy). The source is
// opened read-only and the data folder is locked as a server locks it, so no server starts on it
// meanwhile; the CV files and master.key stay where they are, since the PostgreSQL store keeps
// them in the data folder too.
import { SQL } from "bun";
import { databaseLabel, databasePath, parseDatabaseUrl } from "../config";
import { lockDataFolder } from "../data-lock";
import { moveDataFolder } from "../db/pg/move";
import { checkDataDir, checkDataExists, configOf, firstLine, output, parse, required, UsageError } from "./args";
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
  // The source is the data folder's SQLite file, whatever DOSSIER_DATABASE_URL says.
  const { dataDir } = configOf(parsed);
  checkDataDir(dataDir);
  checkDataExists(dataDir);
  const lock = lockDataFolder(dataDir); // DataFolderInUseError while a server runs on it
  const progress = progressLine(!parsed.values.json && process.stderr.isTTY === true);
  const started = performance.now();
  let target: SQL | undefined;
  try {
    target = new SQL(url, { max: 1, connectionTimeout: 10 });
    let drawnAt = -Infinity;
    const result = await moveDataFolder(databasePath(dataDir), dataDir, target, (table, copied, total, copiedAll, totalAll) => {
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
    await target?.close();
    lock.release();
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
