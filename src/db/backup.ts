// The database side of `dossier backup` (src/cli/backup.ts): the online copy, and what a copy holds.
import { Database } from "bun:sqlite";
import type { VacuumRequest, VacuumResult } from "./backup-worker";

// In the executable, src/main.ts and this worker are embedded side by side (package.json's build
// lists both entry points) at the root of its virtual file system, where this module has no path
// of its own; from source, the worker is this module's neighbour.
const WORKER = import.meta.url.includes("$bunfs")
  ? "./db/backup-worker.ts"
  : new URL("./backup-worker.ts", import.meta.url).href;

/** A consistent copy of the database at `source` (safe while a server writes to it) to the new
 * file `target`: VACUUM INTO, on a worker thread, since it blocks for as long as the copy takes and
 * the caller's thread stays free (to show how far the copy has got). */
export async function copyDatabase(source: string, target: string): Promise<void> {
  const worker = new Worker(WORKER);
  try {
    const done = new Promise<VacuumResult>((resolve, reject) => {
      worker.onmessage = (event: MessageEvent<VacuumResult>) => resolve(event.data);
      worker.onerror = (event) => reject(new Error(event.message));
    });
    worker.postMessage({ source, target } satisfies VacuumRequest);
    const result = await done;
    if (!result.ok) throw new Error(`backup failed: ${result.message}`);
  } finally {
    worker.terminate();
  }
}

/** The cv_url of every dossier, every organization's, in the database file at `path` (a backup's
 * copy, opened read-only). */
export function cvUrlsIn(path: string): string[] {
  const db = new Database(path, { readonly: true });
  try {
    return db.query<{ cv_url: string }, []>("SELECT cv_url FROM dossiers WHERE cv_url IS NOT NULL").all().map((row) => row.cv_url);
  } finally {
    db.close();
  }
}
