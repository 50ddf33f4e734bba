// Parses messages on their own thread (src/intake/parser.ts): a 25 MB message costs tens of
// milliseconds of decoding, which must not stall the thread that answers HTTP (C20).
import { readApplication, UnreadableMessage, type Application } from "./message";

declare const self: Worker;

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
};
