// `dossier migrate --to postgres://... [--files s3://bucket/prefix]` (C19 "Moving", issues 34, 35):
// a stopped SQLite data folder's database into an empty PostgreSQL database (src/db/pg/move.ts does
// the copy), and with --files its CVs into an empty bucket prefix (src/files/move.ts), inside the
// same transaction. The source is opened read-only and the data folder is locked as a server locks
// it, so no server starts on it meanwhile. Without --files the CV files stay in the data folder,
// where the PostgreSQL store keeps them too; master.key stays there either way.
import { SQL } from "bun";
import { databaseLabel, databasePath, filesLabel, filesPath, parseDatabaseUrl, parseFilesUrl, type S3Files } from "../config";
import { lockDataFolder } from "../data-lock";
import { moveDataFolder } from "../db/pg/move";
import { checkBucketEmpty, cvCopier, type CvCopy } from "../files/move";
import { checkDataDir, checkDataExists, configOf, firstLine, optional, output, parse, required, UsageError } from "./args";
import { progressLine } from "./progress";

export const MIGRATE_HELP = `dossier migrate --to URL [--files S3URL] [--data DIR] [--json]
  Moves a stopped data folder's database from SQLite to PostgreSQL: copies every table into the
  EMPTY database at URL (its schema is made first), sets its sequences past the copied rows, and
  checks that every table holds as many rows on both sides (printed). All rows are copied in one
  transaction: on any failure the target keeps no row, and the command can be run again. The
  SQLite file is only read; master.key stays in the data folder, and so do the CV files unless
  --files is given: then they are copied to the bucket, each read back and its SHA-256 checked,
  inside the same transaction (a failure deletes what was put and keeps no row). Then start the
  server with DOSSIER_DATABASE_URL=URL (and DOSSIER_FILES_URL=S3URL) on the same data folder
  (docs/operations.md, "Moving a SQLite data folder to PostgreSQL").
  Refuses (exit 1, nothing written) while a server holds the data folder, when the folder holds
  no database, when the target holds any of Dossier's rows or a newer schema, and when the
  bucket prefix of --files holds any object.
  On a terminal it shows its progress on stderr (not with --json).
  --to URL      postgres://user:password@host:5432/database: the empty target (required)
  --files S3URL s3://bucket/prefix: copy the CVs into this empty prefix too (default: none, they stay)
  --data DIR    the data folder to move (default: env DOSSIER_DATA, else ./data)
  --json        print one JSON object on stdout (default: text):
                {"to","tables":{"<table>":rows...},"rows","seconds","verified":true}, and with
                --files "files":{"to","copied","bytes","verified":true}
  env: DOSSIER_DATA                the data folder when --data is not given (default ./data)
       DOSSIER_LOG_LEVEL           debug also prints the stack of an unexpected failure (default info)
       DOSSIER_S3_ENDPOINT         with --files: the S3 endpoint (default: AWS's for DOSSIER_S3_REGION)
       DOSSIER_S3_REGION           with --files: the bucket's region (default us-east-1)
       AWS_ACCESS_KEY_ID           with --files: the bucket's key id, and AWS_SECRET_ACCESS_KEY its secret (default: none, required)
       DOSSIER_DATABASE_URL is not read: the source is always the data folder's SQLite file`;

export async function migrateCommand(argv: string[]) {
  const parsed = parse(argv, { to: { type: "string" }, files: { type: "string" } });
  const to = required(parsed, "to");
  let url: string;
  try {
    url = parseDatabaseUrl(to);
  } catch {
    throw new UsageError("--to must be a postgres:// URL: postgres://user:password@host:5432/database");
  }
  const filesFlag = optional(parsed, "files");
  let files: S3Files | null = null;
  try {
    files = filesFlag === undefined ? null : parseFilesUrl(filesFlag, undefined, "--files");
  } catch (error) {
    throw new UsageError(firstLine(error));
  }
  // The source is the data folder's SQLite file, whatever DOSSIER_DATABASE_URL says.
  const { dataDir } = configOf(parsed);
  checkDataDir(dataDir);
  checkDataExists(dataDir);
  const lock = lockDataFolder(dataDir); // DataFolderInUseError while a server runs on it
  const progress = progressLine(!parsed.values.json && process.stderr.isTTY === true);
  const started = performance.now();
  let target: SQL | undefined;
  const phase = (text: string) => progress.show(`migrate: ${text}`);
  const copier = files && cvCopier(filesPath(dataDir), files, phase);
  let copiedCvs: CvCopy | null = null;
  try {
    if (files) await checkBucketEmpty(files, filesLabel(files)).catch((error) => {
      throw bucketFailure(error, files);
    });
    target = new SQL(url, { max: 1, connectionTimeout: 10 });
    let drawnAt = -Infinity;
    const result = await moveDataFolder(databasePath(dataDir), dataDir, target, (table, copied, total, copiedAll, totalAll) => {
      const now = performance.now();
      if (copied !== total && now - drawnAt < 100) return;
      drawnAt = now;
      progress.show(`migrate: ${table} ${copied.toLocaleString("en")} of ${total.toLocaleString("en")} rows (all tables: ${copiedAll.toLocaleString("en")} of ${totalAll.toLocaleString("en")})`);
    }, phase, copier ? async (cvUrls) => {
      copiedCvs = await copier.copy(cvUrls).catch((error) => {
        throw bucketFailure(error, files!);
      });
    } : undefined).catch(async (error) => {
      await copier?.undo();
      throw connectionFailure(error, url);
    });
    progress.end();
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    const label = databaseLabel(url);
    const width = Math.max(...Object.keys(result.tables).map((t) => t.length));
    const lines = Object.entries(result.tables).map(([table, rows]) => `  ${table.padEnd(width)}  ${rows}`);
    const cvs = copiedCvs as CvCopy | null;
    const filesOut = files && cvs ? { files: { to: filesLabel(files), copied: cvs.copied, bytes: cvs.bytes, verified: true } } : {};
    output(
      parsed,
      { to: label, tables: result.tables, rows: result.rows, seconds, verified: true, ...filesOut },
      `rows per table, equal in SQLite and PostgreSQL:\n${lines.join("\n")}\n` +
        (files && cvs ? `copied ${cvs.copied} CVs (${cvs.bytes} bytes) to ${filesLabel(files)}, each read back with the same SHA-256.\n` : "") +
        `moved ${result.rows} rows to ${label} in ${seconds} s and checked them. Start the server with DOSSIER_DATABASE_URL${files ? " and DOSSIER_FILES_URL" : ""} on this data folder.`,
    );
  } finally {
    progress.end();
    await target?.close();
    lock.release();
  }
}

/** A bucket that cannot be reached is named without its keys (exit 1). */
function bucketFailure(error: unknown, files: S3Files): unknown {
  if ((error as Error)?.name !== "S3Error") return error;
  return new Error(`cannot use the bucket ${filesLabel(files)}: ${firstLine(error)} (${(error as { code?: string }).code ?? "S3 error"})`);
}

/** A target that cannot be reached is named without its password (exit 1). */
function connectionFailure(error: unknown, url: string): unknown {
  const code = String((error as { code?: unknown }).code ?? "");
  if (/^ERR_POSTGRES_CONNECTION|^ECONNREFUSED|^ERR_POSTGRES_SERVER_ERROR$/.test(code) && !(error as { errno?: unknown }).errno) {
    return new Error(`cannot reach the PostgreSQL database ${databaseLabel(url)}: ${firstLine(error)}`);
  }
  return error;
}
