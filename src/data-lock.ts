// One server per data folder (C20). A second `serve` on a live folder would sweep the first one's
// CV files away while they are being written (C5), so `serve` holds an exclusive lock on
// `DIR/serve.lock` from before it touches anything until it stops: an operating system lock, freed
// when the process dies however it dies (src/db/file-lock.ts). The holder's process id is written
// beside it (`DIR/serve.pid`), after the lock is taken, for the message the second server prints.
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { lockFile } from "./db/file-lock";

export const LOCK_FILE = "serve.lock";
export const PID_FILE = "serve.pid";

export class DataFolderInUseError extends Error {
  constructor(dataDir: string, pid: number | null) {
    super(`data folder ${dataDir} is in use by ${pid === null ? "another process" : `process ${pid}`}`);
  }
}

export interface DataFolderLock {
  /** Removes the process id file, then releases the lock. */
  release(): void;
}

/** Takes the data folder's lock, or throws DataFolderInUseError at once (no wait). Creates the
 * folder when there is none, as the first start does anyway. */
export function lockDataFolder(dataDir: string): DataFolderLock {
  // The data folder too is made here when missing, 0700 (docs/security.md).
  const held = lockFile(join(dataDir, LOCK_FILE));
  if (held === null) throw new DataFolderInUseError(dataDir, holderPid(dataDir));
  const pidFile = join(dataDir, PID_FILE);
  let released = false;
  const lock: DataFolderLock = {
    release() {
      if (released) return;
      released = true;
      rmSync(pidFile, { force: true });
      held.release();
    },
  };
  try {
    const temp = `${pidFile}.${process.pid}.tmp`;
    writeFileSync(temp, `${process.pid}\n`, { mode: 0o600 });
    renameSync(temp, pidFile); // a reader sees the old id or the new one, never a part
  } catch (error) {
    lock.release();
    throw error;
  }
  return lock;
}

/** The process id the holder wrote. It writes it just after taking the lock, and a file left by a
 * killed holder names a process that is gone: wait a little (bounded) for a live one. */
function holderPid(dataDir: string): number | null {
  let pid: number | null = null;
  for (let tries = 0; tries < 20; tries++) {
    pid = readPid(join(dataDir, PID_FILE));
    if (pid !== null && isAlive(pid)) return pid;
    Bun.sleepSync(50);
  }
  return pid;
}

function readPid(path: string): number | null {
  try {
    const pid = Number(readFileSync(path, "utf8").trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"; // alive, another user's
  }
}
