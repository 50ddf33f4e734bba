// Parsing off the thread that answers HTTP (C20): one worker thread (src/intake/parse-worker.ts,
// an extra entry point of the executable, see package.json's build) reads every message. Should
// it fail to start or die, messages are read here instead and the log says so once.
import type { Logger } from "../log";
import { readApplication, UnreadableMessage, type Application } from "./message";
import type { ParseRequest, ParseResult } from "./parse-worker";

// In the executable the worker sits beside src/main.ts at the root of its virtual file system.
const WORKER = import.meta.url.includes("$bunfs") ? "./intake/parse-worker.ts" : new URL("./parse-worker.ts", import.meta.url).href;

interface Pending {
  raw: Uint8Array;
  resolve(application: Application): void;
  reject(error: Error): void;
}

export class MessageParser {
  private worker: Worker | null = null;
  private failed = false;
  private next = 0;
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly logger?: Logger) {}

  /** The application in `raw`; rejects with UnreadableMessage for a message that cannot be read. */
  parse(raw: Uint8Array): Promise<Application> {
    if (this.failed) return readApplication(raw);
    const worker = this.start();
    const id = this.next++;
    return new Promise<Application>((resolve, reject) => {
      this.pending.set(id, { raw, resolve, reject });
      worker.ref();
      worker.postMessage({ id, raw } satisfies ParseRequest);
    });
  }

  /** Ends the thread; messages still being read are read here. */
  close() {
    const worker = this.worker;
    this.worker = null;
    worker?.terminate();
    this.readHere();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER);
    worker.onmessage = (event: MessageEvent<ParseResult>) => {
      const result = event.data;
      const waiting = this.pending.get(result.id);
      this.pending.delete(result.id);
      if (this.pending.size === 0) worker.unref();
      if (!waiting) return;
      if (result.ok) waiting.resolve(result.application);
      else waiting.reject(result.unreadable ? new UnreadableMessage(result.message) : new Error(result.message));
    };
    worker.onerror = (event) => {
      this.failed = true;
      this.worker = null;
      worker.terminate();
      this.logger?.log("warn", "the intake parsing thread failed: messages are parsed on the main thread", { error: event.message });
      this.readHere();
    };
    this.worker = worker;
    return worker;
  }

  private readHere() {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const { raw, resolve, reject } of waiting) readApplication(raw).then(resolve, reject);
  }
}
