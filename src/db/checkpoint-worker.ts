// Runs WAL checkpoints on their own thread (src/db/wal.ts): a checkpoint fsyncs the WAL and then
// the database file, and neither may stall the thread that answers HTTP (C11).
import { Database } from "bun:sqlite";

declare const self: Worker;

export interface CheckpointRequest {
  path: string;
}
export type CheckpointResult = { ok: true; busy: number; log: number; checkpointed: number } | { ok: false; message: string };

let db: Database | null = null;

self.onmessage = (event: MessageEvent<CheckpointRequest>) => {
  let result: CheckpointResult;
  try {
    db ??= new Database(event.data.path);
    const row = db.query<{ busy: number; log: number; checkpointed: number }, []>("PRAGMA wal_checkpoint(PASSIVE)").get()!;
    result = { ok: true, ...row };
  } catch (error) {
    result = { ok: false, message: (error as Error).message };
  }
  self.postMessage(result);
};
