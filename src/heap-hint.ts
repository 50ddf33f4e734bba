// How much garbage the server lets pile up between full collections (issue 33 point 4: RSS under
// 150 MB). JavaScriptCore sizes its collections by the machine's memory: on the bench's host (24 GB)
// a full collection came when the heap reached three to four times what the last one kept, 55-70 MB
// of a 14-22 MB live heap under load, whatever the requests were (a bare `new Response` as well);
// told the machine has 8 GB or less, about half that, at no cost in requests a second measured
// (docs/performance.md). The runtime reads that figure from BUN_JSC_forceRAMSize when the process
// starts, before any code of ours, so `serve` of the compiled executable starts again as itself
// (the same process, by execve) with it set, before the commands' modules load (an entry point of
// their own in the executable: loaded with the rest, they made the exec cost 65-75 ms of start-up
// instead of 25-35). An operator's own value is kept (src/config.ts).
import { totalmem } from "node:os";
import { heapHintedEnvironment } from "./config";

/** The memory the runtime is told the machine has, at most (the machine's own when it has less). */
export const HEAP_HINT_BYTES = 4 * 1024 ** 3;

/** The hint `argv` (the command's arguments) runs with, or null when it runs as it is: only `serve`
 * of the compiled executable. */
export const heapHintFor = (argv: string[], compiled: boolean, machineBytes: number): string | null =>
  compiled && argv[0] === "serve" ? String(Math.min(machineBytes, HEAP_HINT_BYTES)) : null;

/** Replaces this process with itself and the hint when heapHintFor and the operator's settings say
 * so (never returns then); a failed execve leaves it running as it is. */
export function withHeapHint() {
  const args = process.argv.slice(2);
  const hint = heapHintFor(args, import.meta.url.includes("$bunfs"), totalmem());
  const env = hint === null ? null : heapHintedEnvironment(hint);
  if (env === null || typeof process.execve !== "function") return;
  try {
    process.execve(process.execPath, [process.execPath, ...args], env);
  } catch {
    // Served without the hint: more memory between collections, nothing else.
  }
}
