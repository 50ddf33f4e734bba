import { copyFileSync, cpSync, existsSync, rmSync } from "node:fs";
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
  cpSync(ctx.filesDir, files, { recursive: true });
  copyFileSync(join(ctx.config.dataDir, MASTER_KEY_FILE), `${database}.key`);
  output(parsed, { database: target, files: `${target}.files` }, `database → ${database}\nfiles → ${files}`);
}
