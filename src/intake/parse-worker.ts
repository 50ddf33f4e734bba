// Parses messages on their own thread (src/intake/parser.ts): a 25 MB message costs tens of
// milliseconds of decoding, which must not stall the thread that answers HTTP (C20). One message at
// a time: the next comes once this one's result is sent.
import { readApplication, UnreadableMessage, type Application } from "./message";

declare const self: Worker;

/** A message this large is followed by a collection. */
const LARGE = 1_048_576;

export interface ParseRequest {
  id: number;
  raw: Uint8Array;
}
export type ParseResult = { id: number; ok: true; application: Application } | { id: number; ok: false; unreadable: boolean; message: string };

self.onmessage = async (event: MessageEvent<ParseRequest>) => {
  const { id, raw } = event.data;
  let result: ParseResult;
  try {
    result = { id, ok: true, application: await readApplication(raw) };
  } catch (error) {
    result = { id, ok: false, unreadable: error instanceof UnreadableMessage, message: (error as Error).message };
  }
  const cv = result.ok ? result.application.cv : null;
  self.postMessage(result, cv ? [cv.buffer as ArrayBuffer] : []);
  // What reading a large message left behind (its bytes, the pieces decoded) is given back now,
  // before the next message, rather than whenever the heap next grows (issue 32: memory).
  if (raw.byteLength >= LARGE) Bun.gc(true);
};

// The first message a thread sends, "ready": it runs and may be given messages, whose bytes are
// then moved to it, not copied (src/intake/parser.ts).
self.postMessage("ready");
