// Parsing off the thread that answers HTTP (C20): worker threads (src/intake/parse-worker.ts, an
// extra entry point of the executable, see package.json's build) read the messages, one message at
// a time each and at most one thread per core (4 at most), so that the memory messages cost while
// they are read is bounded by the threads, not by how many arrive at once (issue 32: three 20 MB
// HTML messages read together once took 3.2 GB). Messages wait their turn in order, and a message's
// bytes are moved to its thread, not copied. Should a thread fail to start, messages are read here
// instead, as many at a time as there would have been threads, and the log says so once; should one
// die while it reads a message (the message's bytes went with it), that message fails as a storage
// failure would (500, or 451 over SMTP: the sender sends it again) and the next ones are read here.
import { availableParallelism } from "node:os";
import type { Logger } from "../log";
import { readApplication, UnreadableMessage, type Application } from "./message";
import type { ParseRequest, ParseResult } from "./parse-worker";

// In the executable the worker sits beside src/main.ts at the root of its virtual file system.
const WORKER = import.meta.url.includes("$bunfs") ? "./intake/parse-worker.ts" : new URL("./parse-worker.ts", import.meta.url).href;

/** Threads at most: one per core, and no more than 4 (each holds its own heap). */
export const PARSE_THREADS = Math.max(1, Math.min(availableParallelism(), 4));

interface Job {
  raw: Uint8Array;
  resolve(application: Application): void;
  reject(error: Error): void;
}

export class MessageParser {
  /** Threads that are ready and reading nothing. */
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, { id: number; job: Job }>();
  private readonly queue: Job[] = [];
  /** Threads started and not yet ended (ready or not). */
  private readonly workers = new Set<Worker>();
  /** Messages being read on this thread (once threads failed, or after close). */
  private readingHere = 0;
  private failed = false;
  private next = 0;

  constructor(
    private readonly logger?: Logger,
    /** How many messages are read at once. */
    readonly threads = PARSE_THREADS,
  ) {}

  /** The application in `raw`; rejects with UnreadableMessage for a message that cannot be read.
   * `raw`'s bytes may be moved to another thread: the caller must not read them afterwards. */
  parse(raw: Uint8Array): Promise<Application> {
    return new Promise<Application>((resolve, reject) => {
      this.queue.push({ raw, resolve, reject });
      this.pump();
    });
  }

  /** Messages being read now (at most `threads`). */
  get reading(): number {
    return this.busy.size + this.readingHere;
  }

  /** Ends the threads once they have read the message they hold; the others are read here. */
  close() {
    this.failed = true;
    for (const worker of this.workers) if (!this.busy.has(worker)) this.end(worker);
    this.pump();
  }

  /** Hands waiting messages to free threads, starting threads up to `threads`. */
  private pump() {
    while (this.queue.length > 0) {
      if (this.failed) {
        if (this.readingHere >= this.threads) return;
        const job = this.queue.shift()!;
        this.readingHere++;
        readApplication(job.raw)
          .then(job.resolve, job.reject)
          .finally(() => {
            this.readingHere--;
            this.pump();
          });
        continue;
      }
      const worker = this.idle.pop();
      if (!worker) {
        // A thread not yet ready takes the next message when it is.
        if (this.workers.size < this.threads) this.start();
        return;
      }
      const job = this.queue.shift()!;
      const id = this.next++;
      this.busy.set(worker, { id, job });
      worker.ref();
      // Moved, not copied: a 25 MB message is not held twice while it is read.
      const raw = job.raw.byteOffset === 0 && job.raw.byteLength === job.raw.buffer.byteLength ? job.raw : job.raw.slice();
      worker.postMessage({ id, raw } satisfies ParseRequest, [raw.buffer as ArrayBuffer]);
    }
  }

  private start() {
    const worker = new Worker(WORKER);
    this.workers.add(worker);
    worker.unref();
    worker.onmessage = (event: MessageEvent<ParseResult | "ready">) => {
      const result = event.data;
      if (result !== "ready") {
        const running = this.busy.get(worker);
        if (!running || running.id !== result.id) return;
        this.busy.delete(worker);
        if (result.ok) running.job.resolve(result.application);
        else running.job.reject(result.unreadable ? new UnreadableMessage(result.message) : new Error(result.message));
      }
      if (this.failed) this.end(worker);
      else {
        worker.unref();
        this.idle.push(worker);
      }
      this.pump();
    };
    worker.onerror = (event) => {
      const running = this.busy.get(worker);
      this.end(worker);
      running?.job.reject(new Error(`the intake parsing thread stopped while reading a message: ${event.message}`));
      if (!this.failed) {
        this.failed = true;
        this.logger?.log("warn", "the intake parsing thread failed: messages are parsed on the main thread", { error: event.message });
        for (const other of this.workers) if (!this.busy.has(other)) this.end(other);
      }
      this.pump();
    };
  }

  private end(worker: Worker) {
    this.workers.delete(worker);
    this.busy.delete(worker);
    const at = this.idle.indexOf(worker);
    if (at !== -1) this.idle.splice(at, 1);
    worker.terminate();
  }
}
