// What a whole backup holds (`FILE.manifest.json`), written last by `dossier backup` and checked by
// `dossier backup --verify`: a backup cut short (killed, a full disk) has no manifest, or one that
// its parts do not match, so it can never pass for a complete one.
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import { cvUrlsIn } from "../db/backup";

export const MANIFEST_FORMAT = "dossier-backup/1";

export interface BackupManifest {
  format: typeof MANIFEST_FORMAT;
  created_at: string;
  /** FILE: the copy of the database. */
  database: { bytes: number; sha256: string };
  /** FILE.files/: the CV files, every one counted. */
  files: { count: number; bytes: number };
  /** FILE.key: the master key that seals the copy's webhook secrets. */
  key: { bytes: number; sha256: string };
  /** With DOSSIER_FILES_URL (C19): the bucket that holds the CVs the database names (its label,
   * never a secret). They are not in the backup: the bucket's own versioning or replication keeps
   * them, so --verify does not look for them in FILE.files/. */
  cvs?: { bucket: string };
}

/** The names beside FILE that make up one backup (C10: FILE.files/ and FILE.key). */
export const backupParts = (file: string) => ({
  database: file,
  files: `${file}.files`,
  key: `${file}.key`,
  manifest: `${file}.manifest.json`,
});

/** A file's SHA-256, read in chunks (a database may be larger than memory). */
export function sha256File(path: string): string {
  const hasher = new Bun.CryptoHasher("sha256");
  const chunk = Buffer.alloc(1 << 20);
  const fd = openSync(path, "r");
  try {
    for (;;) {
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      hasher.update(chunk.subarray(0, read));
    }
  } finally {
    closeSync(fd);
  }
  return hasher.digest("hex");
}

/** Every file under `dir`, counted with its bytes. */
export function measureTree(dir: string): { count: number; bytes: number } {
  const total = { count: 0, bytes: 0 };
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      const inner = measureTree(path);
      total.count += inner.count;
      total.bytes += inner.bytes;
    } else {
      total.count++;
      total.bytes += statSync(path).size;
    }
  }
  return total;
}

/** The manifest of the backup at FILE (one that backupProblems found whole). */
export const readManifest = (file: string): BackupManifest => JSON.parse(readFileSync(backupParts(file).manifest, "utf8"));

/** What is wrong with the backup at FILE, measured against its manifest (none: it is whole). */
export function backupProblems(file: string): string[] {
  const parts = backupParts(file);
  if (!existsSync(parts.manifest)) return [`no ${parts.manifest}: the backup is incomplete (interrupted before its end)`];
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(readFileSync(parts.manifest, "utf8"));
    if (manifest.format !== MANIFEST_FORMAT) throw new Error(`format ${JSON.stringify(manifest.format)}`);
  } catch (error) {
    return [`${parts.manifest} is not a backup manifest (${(error as Error).message})`];
  }
  const problems = [fileProblem("the database", parts.database, manifest.database), fileProblem("the key", parts.key, manifest.key)]
    .filter((problem) => problem !== null);
  if (!existsSync(parts.files)) {
    problems.push(`the files folder ${parts.files} is missing`);
  } else {
    const found = measureTree(parts.files);
    if (found.count !== manifest.files.count || found.bytes !== manifest.files.bytes) {
      problems.push(`the files folder ${parts.files} holds ${found.count} files of ${found.bytes} bytes, not ${manifest.files.count} of ${manifest.files.bytes}`);
    }
  }
  if (problems.length === 0 && manifest.cvs === undefined) problems.push(...missingCvs(parts.database, parts.files));
  return problems;
}

function fileProblem(what: string, path: string, expected: { bytes: number; sha256: string }): string | null {
  if (!existsSync(path)) return `${what} ${path} is missing`;
  const bytes = statSync(path).size;
  if (bytes !== expected.bytes) return `${what} ${path} has ${bytes} bytes, not ${expected.bytes}`;
  if (sha256File(path) !== expected.sha256) return `${what} ${path} differs from the one backed up (SHA-256)`;
  return null;
}

/** The CVs the copied database names that are not in the copied files folder (C5 in the copy). */
function missingCvs(database: string, files: string): string[] {
  const missing = cvUrlsIn(database).filter((url) => !existsSync(join(files, url)));
  return missing.length === 0 ? [] : [`${missing.length} CV files the database names are not in ${files} (first: ${missing[0]})`];
}
