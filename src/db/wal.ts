// The server's WAL, kept off the thread that answers HTTP (C11): `flush` fdatasyncs it on libuv's
// thread pool after a group's commit (the connection commits at synchronous=NORMAL, which writes
// the WAL without waiting for the disk), and `checkpointIfDue` copies it into the database file on
// a worker thread (src/db/checkpoint-worker.ts), between groups, never while a flush is pending.
//
// SQLite's own automatic checkpoint is off on this connection (wal_autocheckpoint=0): it would run
// inside a COMMIT, with two fsyncs, on this thread. Writes wait while a checkpoint runs (reads do
// not): with no write beside it a PASSIVE checkpoint copies the whole WAL, and the next commit
// starts the WAL over from its beginning. The file keeps its size (overwriting allocated blocks
// costs fdatasync no metadata: truncating it after each checkpoint measured slower), so how much
// awaits a checkpoint is read from the wal-index instead (pendingFrames).
import type { Database } from "bun:sqlite";
import { closeSync, openSync, readSync, statSync } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { dirname } from "node:path";
import type { CheckpointRequest, CheckpointResult } from "./checkpoint-worker";

/** SQLite's default automatic checkpoint: about 1,000 pages of 4 KiB. 16 MB was tried: a quarter
 * less CPU per create under 16 writers, but each checkpoint, during which writes wait, copies four
 * times as many pages, and at 1M rows (random pages) PATCH's p99 grew 2.03x from 10k rows against
 * 1.36x with 4 MB (docs/performance.md). */
const CHECKPOINT_BYTES = 4 * 1024 * 1024;
/** A WAL frame: a 24-byte header and a 4 KiB page. */
const FRAME_BYTES = 24 + 4096;

// In the executable, src/main.ts and this worker are embedded side by side (package.json's build
// lists both entry points) at the root of its virtual file system; from source, the worker is
// this module's neighbour.
const WORKER = import.meta.url.includes("$bunfs") ? "./db/checkpoint-worker.ts" : new URL("./checkpoint-worker.ts", import.meta.url).href;

export class WalKeeper {
  private handle: FileHandle | null = null;
  private shm: number | null = null;
  private shmFailed = false;
  private readonly header = Buffer.alloc(100);
  private worker: Worker | null = null;
  private workerFailed = false;
  /** The WAL's size at which the next checkpoint is tried. */
  private checkpointAt = CHECKPOINT_BYTES;

  constructor(
    private readonly sqlite: Database,
    private readonly path: string,
    private readonly warn: (msg: string, fields: Record<string, unknown>) => void,
  ) {
    sqlite.run("PRAGMA wal_autocheckpoint = 0");
  }

  /** Makes every commit so far durable. */
  async flush(): Promise<void> {
    if (!this.handle) {
      this.handle = await open(`${this.path}-wal`, "r+");
      // The WAL's name in its folder must survive a power loss too, once.
      const folder = await open(dirname(this.path), "r");
      try {
        await folder.sync();
      } finally {
        await folder.close();
      }
    }
    await this.handle.datasync();
  }

  /** Frames in the WAL that no checkpoint has copied yet, from the wal-index header at the start
   * of the -shm file (https://sqlite.org/walformat.html: mxFrame at byte 16, nBackfill at 96; the
   * file is SQLite's shared memory, so a read sees what the connection last wrote there). */
  private pendingFrames(): number {
    try {
      this.shm ??= openSync(`${this.path}-shm`, "r");
      readSync(this.shm, this.header, 0, 100, 0);
      return Math.max(0, this.header.readUInt32LE(16) - this.header.readUInt32LE(96));
    } catch (error) {
      // Never seen; if it happens, the WAL file's size stands in (it over-counts: more checkpoints).
      if (!this.shmFailed) this.warn("cannot read the WAL index: checkpoints follow the WAL's size", { error: String(error) });
      this.shmFailed = true;
      return Math.ceil((statSync(`${this.path}-wal`, { throwIfNoEntry: false })?.size ?? 0) / FRAME_BYTES);
    }
  }

  /** Checkpoints when the WAL holds enough frames that no checkpoint has copied. */
  async checkpointIfDue(): Promise<void> {
    const size = this.pendingFrames() * FRAME_BYTES;
    if (size < this.checkpointAt) return;
    const result = await this.checkpoint();
    // A reader elsewhere (a backup, the CLI) can hold part of the WAL: try again after as much again.
    const complete = result.ok && result.busy === 0 && result.log === result.checkpointed;
    this.checkpointAt = complete ? CHECKPOINT_BYTES : size + CHECKPOINT_BYTES;
    if (!result.ok) this.warn("WAL checkpoint failed", { error: result.message });
  }

  private checkpoint(): Promise<CheckpointResult> {
    if (this.workerFailed) return Promise.resolve(this.checkpointHere());
    this.worker ??= new Worker(WORKER);
    this.worker.unref();
    return this.ask(this.worker, { path: this.path });
  }

  private ask(worker: Worker, request: CheckpointRequest): Promise<CheckpointResult> {
    return new Promise<CheckpointResult>((resolve) => {
      worker.onmessage = (event: MessageEvent<CheckpointResult>) => resolve(event.data);
      worker.onerror = (event) => {
        // Without its thread the checkpoint runs here (it stalls requests, but the WAL stays bounded).
        this.workerFailed = true;
        this.worker = null;
        worker.terminate();
        this.warn("WAL checkpoint thread failed: checkpoints run on the main thread", { error: event.message });
        resolve(this.checkpointHere());
      };
      worker.postMessage(request);
    });
  }

  private checkpointHere(): CheckpointResult {
    try {
      const row = this.sqlite.query<{ busy: number; log: number; checkpointed: number }, []>("PRAGMA wal_checkpoint(PASSIVE)").get()!;
      return { ok: true, ...row };
    } catch (error) {
      return { ok: false, message: (error as Error).message };
    }
  }

  /** Closes the checkpoint thread's connection: call before closing the server's, which then is
   * the last one and folds the WAL back into the database file. */
  async closeThread() {
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    await this.ask(worker, { path: this.path, close: true });
    worker.terminate();
  }

  /** Closes the files; after the server's connection is closed (see client.ts). */
  async close() {
    await this.handle?.close();
    this.handle = null;
    if (this.shm !== null) closeSync(this.shm);
    this.shm = null;
  }
}
