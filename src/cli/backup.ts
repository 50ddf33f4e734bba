import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { MASTER_KEY_FILE } from "../secrets";
import { open, output, parse, UsageError } from "./args";

export const BACKUP_HELP = `dossier backup FILE
  A consistent online copy (safe while a server runs): the database to FILE, the CV files to
  FILE.files/, the key that seals webhook secrets to FILE.key. Restore: stop the server, put FILE
  at DIR/dossier.db, FILE.files at DIR/files and FILE.key at DIR/master.key.`;

/** VACUUM INTO reads one snapshot, so the copy is consistent while writers go on (C2). The files
 * are copied after it: every CV that the copied database names already exists by then. */
export function backupCommand(argv: string[]) {
  const parsed = parse(argv, {}, 1);
  const target = parsed.positionals[0];
  if (!target) throw new UsageError("backup needs a FILE");
  const database = resolve(target);
  if (existsSync(database)) throw new UsageError(`${target} already exists`);
  const ctx = open(parsed);
  ctx.store.sqlite.query("VACUUM INTO ?").run(database);
  const files = `${database}.files`;
  rmSync(files, { recursive: true, force: true });
  copyTree(ctx.filesDir, files);
  copyFileSync(join(ctx.config.dataDir, MASTER_KEY_FILE), `${database}.key`);
  output(parsed, { database: target, files: `${target}.files` }, `database → ${database}\nfiles → ${files}`);
}

const TEMPORARY = /^\.cv\.pdf\.[A-Za-z0-9]+\.tmp$/;
const gone = (error: unknown) => (error as NodeJS.ErrnoException).code === "ENOENT";

/** Copies the files folder while a server writes to it: a CV's temporary file (renamed into place or
 * removed at any moment) is not copied, and an entry that disappears during the copy is skipped. */
function copyTree(from: string, to: string) {
  mkdirSync(to, { recursive: true });
  let entries;
  try {
    entries = readdirSync(from, { withFileTypes: true });
  } catch (error) {
    if (gone(error)) return;
    throw error;
  }
  for (const entry of entries) {
    if (TEMPORARY.test(entry.name)) continue;
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) {
      copyTree(source, target);
      continue;
    }
    try {
      copyFileSync(source, target);
    } catch (error) {
      if (!gone(error)) throw error;
    }
  }
}
