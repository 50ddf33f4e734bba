// What a data folder holds is its user's alone (docs/security.md): files 0600, folders 0700.
// Dossier creates them so, but a folder restored from a backup or copied under the usual umask 022
// arrives with 0644 files and 0755 folders, and SQLite keeps the mode of a database it opens (its
// -wal and -shm take the database's). So `serve` takes group and others' permissions off what it
// finds looser, before it opens anything (issue 32), and logs what it changed.
// The data folder itself keeps the mode its operator gave it (docs/operations.md: chmod 700 it);
// symbolic links and anything but files and folders are left alone, and never followed.
import { chmodSync, lstatSync, readdirSync, type Stats } from "node:fs";
import { join, relative } from "node:path";
import { databasePath, filesPath } from "./config";
import { LOCK_FILE, PID_FILE } from "./data-lock";
import { MASTER_KEY_FILE } from "./secrets";

const OTHERS = 0o077;

export interface Tightened {
  /** What was made private, relative to the data folder. */
  changed: string[];
  /** What could not be (not ours to change, say), with why. */
  failed: { path: string; error: string }[];
}

function statOf(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null; // not there (a database without -wal yet), or gone meanwhile
  }
}

/** Takes the permissions of group and others off each file and folder of the data folder that has
 * any: the database, its -wal and -shm, master.key, the lock files, and the CV folder (`files/`)
 * with everything in it. */
export function tightenDataFolder(dataDir: string): Tightened {
  const result: Tightened = { changed: [], failed: [] };
  const tighten = (path: string, stats: Stats) => {
    if ((stats.mode & OTHERS) === 0) return;
    try {
      chmodSync(path, stats.mode & 0o700);
      result.changed.push(relative(dataDir, path));
    } catch (error) {
      result.failed.push({ path: relative(dataDir, path), error: (error as Error).message });
    }
  };
  const database = databasePath(dataDir);
  for (const path of [database, `${database}-wal`, `${database}-shm`, join(dataDir, MASTER_KEY_FILE), join(dataDir, LOCK_FILE), join(dataDir, PID_FILE)]) {
    const stats = statOf(path);
    if (stats?.isFile()) tighten(path, stats);
  }
  const walk = (folder: string, stats: Stats) => {
    tighten(folder, stats);
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(folder, name);
      const entry = statOf(path);
      if (entry?.isDirectory()) walk(path, entry);
      else if (entry?.isFile()) tighten(path, entry);
    }
  };
  const files = statOf(filesPath(dataDir));
  if (files?.isDirectory()) walk(filesPath(dataDir), files);
  return result;
}
