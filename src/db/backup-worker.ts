// Runs `VACUUM INTO` on its own thread: the statement blocks for as long as the copy takes, and
// the caller (src/db/backup.ts) keeps its thread free to show how far the copy has got.
import { Database } from "bun:sqlite";

declare const self: Worker;

export interface VacuumRequest {
  source: string;
  target: string;
}
export type VacuumResult = { ok: true } | { ok: false; message: string };

self.onmessage = (event: MessageEvent<VacuumRequest>) => {
  const { source, target } = event.data;
  let result: VacuumResult;
  try {
    const db = new Database(source);
    db.run("PRAGMA busy_timeout = 10000");
    db.query("VACUUM INTO ?").run(target);
    db.close();
    result = { ok: true };
  } catch (error) {
    result = { ok: false, message: (error as Error).message };
  }
  self.postMessage(result);
};
