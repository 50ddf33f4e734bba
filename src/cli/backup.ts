import { accessSync, constants, copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { databasePath } from "../config";
import { MASTER_KEY_FILE } from "../secrets";
import { open, output, parse, STORE_ENV_HELP, UsageError } from "./args";
import type { VacuumRequest, VacuumResult } from "./backup-worker";
import { megabytes, progressLine, type Progress } from "./progress";

export const BACKUP_HELP = `dossier backup FILE [--data DIR] [--json]
  A consistent online copy (safe while a server runs): the database to FILE (which must not
  exist), the CV files to FILE.files/, the key that seals webhook secrets to FILE.key. Restore:
  stop the server, put FILE at DIR/dossier.db, FILE.files at DIR/files and FILE.key at
  DIR/master.key. On a terminal it shows its progress on stderr (not with --json).
  --data DIR  the data folder to copy (default: env DOSSIER_DATA, else ./data)
  --json      print {"database","files"} as one JSON object on stdout (default: text)
${STORE_ENV_HELP}`;

/** VACUUM INTO reads one snapshot, so the copy is consistent while writers go on (C2). The files
 * are copied after it: every CV that the copied database names already exists by then. */
export async function backupCommand(argv: string[]) {
  const parsed = parse(argv, {}, 1);
  const target = parsed.positionals[0];
  if (!target) throw new UsageError("backup needs a FILE");
  const database = resolve(target);
  if (existsSync(database)) throw new UsageError(`${target} already exists`);
  checkFolder(dirname(database), target);
  const ctx = open(parsed); // applies pending migrations first: the copy has the current schema
  const progress = progressLine(!parsed.values.json && process.stderr.isTTY === true);
  try {
    await vacuumInto(databasePath(ctx.config.dataDir), database, progress);
    const files = `${database}.files`;
    rmSync(files, { recursive: true, force: true });
    const total = countFiles(ctx.filesDir);
    let copied = 0;
    let drawnAt = -Infinity;
    copyTree(ctx.filesDir, files, () => {
      copied++;
      const now = performance.now();
      // At most ~10 redraws a second, and always the last count.
      if (copied >= total || now - drawnAt >= 100) {
        drawnAt = now;
        progress.show(`backup: files ${copied} of ${total}`);
      }
    });
    copyFileSync(join(ctx.config.dataDir, MASTER_KEY_FILE), `${database}.key`);
  } finally {
    progress.end();
    ctx.store.sqlite.close();
  }
  output(parsed, { database: target, files: `${target}.files` }, `database → ${database}\nfiles → ${database}.files`);
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

// In the executable, src/main.ts and this worker are embedded side by side (package.json's build
// lists both entry points) at the root of its virtual file system, where this module has no path
// of its own; from source, the worker is this module's neighbour.
const WORKER = import.meta.url.includes("$bunfs")
  ? "./cli/backup-worker.ts"
  : new URL("./backup-worker.ts", import.meta.url).href;

const sizeOf = (path: string) => {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
};

/** The copy runs on a worker thread while this one reports the copy's size against the source's
 * (database and WAL: an upper bound, since VACUUM drops free pages). */
async function vacuumInto(source: string, target: string, progress: Progress) {
  const estimate = sizeOf(source) + sizeOf(`${source}-wal`);
  const worker = new Worker(WORKER);
  const done = new Promise<VacuumResult>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<VacuumResult>) => resolve(event.data);
    worker.onerror = (event) => reject(new Error(event.message));
  });
  const show = () => progress.show(`backup: database ${megabytes(sizeOf(target))} of about ${megabytes(estimate)}`);
  show();
  const timer = setInterval(show, 200);
  try {
    worker.postMessage({ source, target } satisfies VacuumRequest);
    const result = await done;
    if (!result.ok) throw new Error(`backup failed: ${result.message}`);
  } finally {
    clearInterval(timer);
    worker.terminate();
  }
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

/** Copies the files folder while a server writes to it: a CV's temporary file (renamed into place or
 * removed at any moment) is not copied, and an entry that disappears during the copy is skipped. */
function copyTree(from: string, to: string, onFile: () => void) {
  mkdirSync(to, { recursive: true });
  for (const entry of entriesOf(from)) {
    if (TEMPORARY.test(entry.name)) continue;
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) {
      copyTree(source, target, onFile);
      continue;
    }
    try {
      copyFileSync(source, target);
      onFile();
    } catch (error) {
      if (!gone(error)) throw error;
    }
  }
}
