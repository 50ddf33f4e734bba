// An exclusive lock on a file, held by the operating system for as long as the process keeps it
// (src/data-lock.ts, C20). The lock is SQLite's own: an open write transaction on a small database
// of its own, which SQLite holds with an fcntl lock, so the kernel releases it when the process
// dies however it dies (kill -9 included), and SQLite refuses it to a second connection of the same
// process too.
import { Database } from "bun:sqlite";
import { createPrivately } from "./client";

/** The open lock handles. bun:sqlite closes a Database it garbage-collects, which would free the
 * lock while it is meant to be held; held here, a handle lives until release() whatever its
 * caller keeps. */
const held = new Set<Database>();

export interface FileLock {
  /** Frees the lock; again: nothing. */
  release(): void;
}

/** Takes the lock on `path` (created 0600, its folder 0700, when missing), or answers null at once
 * when another connection holds it (no wait). */
export function lockFile(path: string): FileLock | null {
  createPrivately(path);
  const holder = new Database(path, { create: true });
  try {
    holder.run("PRAGMA journal_mode = MEMORY"); // nothing is written: no journal file beside it
    holder.run("BEGIN EXCLUSIVE");
  } catch (error) {
    holder.close();
    if ((error as { code?: string }).code === "SQLITE_BUSY") return null;
    throw error;
  }
  held.add(holder);
  return {
    release() {
      if (held.delete(holder)) holder.close(); // rolls the empty transaction back: the lock is free
    },
  };
}
