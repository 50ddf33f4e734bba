// Runs WAL checkpoints on their own thread (src/db/wal.ts): a checkpoint fsyncs the WAL and then
// the database file, and neither may stall the thread that answers HTTP (C11).
import { Database } from "bun:sqlite";

declare const self: Worker;

/** A checkpoint of the database at `path`; or, with `close`, the end: this thread's connection is
 * closed, so that the server's own is the last one and its close folds the WAL back in. */
export interface CheckpointRequest {
  path: string;
  close?: boolean;
}
export type CheckpointResult = { ok: true; busy: number; log: number; checkpointed: number } | { ok: false; message: string };

let db: Database | null = null;

self.onmessage = (event: MessageEvent<CheckpointRequest>) => {
  if (event.data.close) {
    db?.close();
    db = null;
    self.postMessage({ ok: true, busy: 0, log: 0, checkpointed: 0 } satisfies CheckpointResult);
    return;
  }
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
