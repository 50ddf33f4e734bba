import {
  accessSync, chmodSync, constants, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync,
  statSync, writeFileSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import { databasePath, filesLabel } from "../config";
import { copyDatabase } from "../db/backup";
import { syncPath } from "../files/sync";
import { configOf, open, output, parse, STORE_ENV_HELP, UsageError, type Parsed } from "./args";
import { backupParts, backupProblems, MANIFEST_FORMAT, readManifest, sha256File, type BackupManifest } from "./backup-manifest";
import { megabytes, progressLine, type Progress } from "./progress";

export const BACKUP_HELP = `dossier backup FILE [--data DIR] [--json]
dossier backup --verify FILE [--json]
  A consistent online copy (safe while a server runs): the database to FILE (which must not
  exist), the CV files to FILE.files/, the key that seals webhook secrets to FILE.key, and what
  they hold (counts, sizes, SHA-256) to FILE.manifest.json. All four are written under a
  FILE.incomplete-* folder first and appear only once the copy is whole; a backup that was cut
  short leaves only that folder (remove it). All are private whatever the umask: files 0600,
  folders 0700. Restore: stop the server, check the copy with --verify, put FILE at
  DIR/dossier.db, FILE.files at DIR/files and FILE.key at DIR/master.key.
  With DOSSIER_FILES_URL the CVs are in the bucket, not in the backup (the bucket's versioning or
  replication keeps them): the manifest names the bucket and --verify does not look for them.
  On a terminal it shows its progress on stderr (not with --json).
  --verify    check the backup at FILE against its manifest instead (the data folder is not
              read): exit 0 when it is whole, else exit 1 naming what is missing or differs
  --data DIR  the data folder to copy (default: env DOSSIER_DATA, else ./data)
  --json      print {"database","files"} as one JSON object on stdout (default: text); with
              --verify, {"database","files","key","manifest","verified":true}
${STORE_ENV_HELP}`;

export async function backupCommand(argv: string[]) {
  const parsed = parse(argv, { verify: { type: "boolean" } }, 1);
  const target = parsed.positionals[0];
  if (parsed.values.verify) return verifyCommand(parsed, target);
  if (!target) throw new UsageError("backup needs a FILE");
  const parts = backupParts(resolve(target));
  for (const path of Object.values(parts)) if (existsSync(path)) throw new UsageError(`${path} already exists`);
  checkFolder(dirname(parts.database), target);
  // C19: a PostgreSQL store is backed up by PostgreSQL's own tools, consistently with its WAL. After
  // the arguments' checks: a bad argument exits 2 whatever the engine (C10).
  if (configOf(parsed).databaseUrl !== null) {
    throw new Error("the data is in PostgreSQL (DOSSIER_DATABASE_URL): back it up with pg_dump (docs/operations.md), and the data folder's files and master.key with it");
  }
  const ctx = await open(parsed); // applies pending migrations first: the copy has the current schema
  const progress = progressLine(!parsed.values.json && process.stderr.isTTY === true);
  // Everything is written under a name that says it is not a backup yet, and moved into place
  // only once the database, the files and the key are all whole, so that an interrupted backup
  // never looks like one: a killed backup leaves FILE.incomplete-*, never a FILE that looks usable.
  const work = mkdtempSync(`${parts.database}.incomplete-`);
  const staged = { database: join(work, "database"), files: join(work, "files"), key: join(work, "key"), manifest: join(work, "manifest.json") };
  const placed: string[] = [];
  try {
    void ctx.masterKey; // C20: refuses when the key is missing while sealed secrets remain
    await vacuumInto(databasePath(ctx.config.dataDir), staged.database, progress);
    chmodSync(staged.database, PRIVATE_FILE); // SQLite made it as the umask says
    syncPath(staged.database);
    const files = copyFiles(ctx.filesDir, staged.files, progress);
    copyPrivate(ctx.config.masterKeyFile, staged.key);
    syncPath(staged.key);
    const manifest: BackupManifest = {
      format: MANIFEST_FORMAT,
      created_at: new Date().toISOString(),
      database: { bytes: statSync(staged.database).size, sha256: sha256File(staged.database) },
      files,
      key: { bytes: statSync(staged.key).size, sha256: sha256File(staged.key) },
      ...(ctx.config.files === null ? {} : { cvs: { bucket: filesLabel(ctx.config.files) } }),
    };
    writeFileSync(staged.manifest, JSON.stringify(manifest, null, 2) + "\n", { mode: PRIVATE_FILE });
    syncPath(staged.manifest);
    // The database last: the name the operator asked for appears only when the rest is in place.
    for (const part of ["key", "files", "manifest", "database"] as const) {
      renameSync(staged[part], parts[part]);
      placed.push(parts[part]);
    }
    syncPath(dirname(parts.database));
  } catch (error) {
    for (const path of placed) rmSync(path, { recursive: true, force: true });
    throw error;
  } finally {
    rmSync(work, { recursive: true, force: true });
    progress.end();
    await ctx.store.close();
  }
  // C19: CVs in a bucket are not copied; said on stderr in both modes (stdout stays C2's shape).
  if (ctx.config.files !== null) process.stderr.write(`${inBucket(filesLabel(ctx.config.files))}\n`);
  output(parsed, { database: target, files: `${target}.files` }, `database → ${parts.database}\nfiles → ${parts.files}\nkey → ${parts.key}\nmanifest → ${parts.manifest}`);
}

const inBucket = (bucket: string) =>
  `the CVs are in ${bucket} (DOSSIER_FILES_URL), not in this backup: the bucket's versioning or replication keeps them (docs/operations.md)`;

/** `backup --verify FILE`: the backup's parts against its manifest; exit 1 naming each problem. */
function verifyCommand(parsed: Parsed, target: string | undefined) {
  if (!target) throw new UsageError("backup --verify needs a FILE");
  const parts = backupParts(resolve(target));
  const problems = backupProblems(parts.database);
  if (problems.length > 0) throw new Error(`backup ${target} is not whole: ${problems.join("; ")}`);
  const shown = backupParts(target);
  const { cvs } = readManifest(parts.database);
  const text = `backup ${target} is whole: its database, files and key match ${shown.manifest}${cvs ? `; ${inBucket(cvs.bucket)}` : ""}`;
  output(parsed, { ...shown, verified: true }, text);
}

/** FILE's folder must exist and take writes: found out now, the answer is one line (C2), not a
 * failure from the copy's worker thread after the database has been opened. */
function checkFolder(folder: string, target: string) {
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new UsageError(`cannot write ${target}: the folder ${folder} does not exist`);
  try {
    accessSync(folder, constants.W_OK);
  } catch {
    throw new UsageError(`cannot write ${target}: the folder ${folder} is not writable`);
  }
}

const sizeOf = (path: string) => {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
};

/** Shows the copy's size against the source's while it runs (database and WAL: an upper bound,
 * since VACUUM drops free pages). */
async function vacuumInto(source: string, target: string, progress: Progress) {
  const estimate = sizeOf(source) + sizeOf(`${source}-wal`);
  const show = () => progress.show(`backup: database ${megabytes(sizeOf(target))} of about ${megabytes(estimate)}`);
  show();
  const timer = setInterval(show, 200);
  try {
    await copyDatabase(source, target);
  } finally {
    clearInterval(timer);
  }
}

// A backup holds what the data folder holds, so it is as private (docs/security.md), whatever the
// umask: files 0600, folders 0700. A copied file would otherwise take its source's mode, and what
// SQLite and mkdir create the umask's (issue 32).
const PRIVATE_FILE = 0o600;
const PRIVATE_FOLDER = 0o700;

function copyPrivate(from: string, to: string) {
  copyFileSync(from, to);
  chmodSync(to, PRIVATE_FILE);
}

const TEMPORARY = /^\.cv\.pdf\.[A-Za-z0-9]+\.tmp$/;
const gone = (error: unknown) => (error as NodeJS.ErrnoException).code === "ENOENT";

function entriesOf(dir: string) {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    if (gone(error)) return [];
    throw error;
  }
}

function countFiles(dir: string): number {
  let count = 0;
  for (const entry of entriesOf(dir)) {
    if (entry.isDirectory()) count += countFiles(join(dir, entry.name));
    else if (!TEMPORARY.test(entry.name)) count++;
  }
  return count;
}

/** Copies the files folder, showing how far it has got; gives what was copied, for the manifest. */
function copyFiles(from: string, to: string, progress: Progress): BackupManifest["files"] {
  const total = countFiles(from);
  const copied = { count: 0, bytes: 0 };
  let drawnAt = -Infinity;
  copyTree(from, to, (bytes) => {
    copied.count++;
    copied.bytes += bytes;
    const now = performance.now();
    // At most ~10 redraws a second, and always the last count.
    if (copied.count >= total || now - drawnAt >= 100) {
      drawnAt = now;
      progress.show(`backup: files ${copied.count} of ${total}`);
    }
  });
  return copied;
}

/** Copies the files folder while a server writes to it: a CV's temporary file (renamed into place or
 * removed at any moment) is not copied, and an entry that disappears during the copy is skipped. */
function copyTree(from: string, to: string, onFile: (bytes: number) => void) {
  mkdirSync(to, { recursive: true, mode: PRIVATE_FOLDER });
  chmodSync(to, PRIVATE_FOLDER);
  for (const entry of entriesOf(from)) {
    if (TEMPORARY.test(entry.name)) continue;
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) {
      copyTree(source, target, onFile);
      continue;
    }
    try {
      copyPrivate(source, target);
      onFile(statSync(target).size);
    } catch (error) {
      if (!gone(error)) throw error;
    }
  }
}

