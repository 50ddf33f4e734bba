// A real `dossier serve` process on 127.0.0.1, for tests of start-up, signals and crashes.
import { join } from "node:path";
import { onCleanup } from "./cleanup";

export const MAIN = join(import.meta.dir, "../../src/main.ts");

export interface ServerProcess {
  url: string;
  proc: ReturnType<typeof Bun.spawn>;
  /** Everything the process wrote on stderr so far. */
  stderr(): string;
  /** Resolves with the exit code. */
  exited: Promise<number>;
}

export interface StartOptions {
  /** A command the server runs under, e.g. `["strace", "-D", ..., "--"]`: it must exec the server
   * in the process it is given (strace -D does), so that `proc` stays the server itself. */
  wrap?: string[];
}

export async function startServerProcess(
  data: string,
  args: string[] = [],
  env: Record<string, string> = {},
  options: StartOptions = {},
): Promise<ServerProcess> {
  const proc = Bun.spawn([...(options.wrap ?? []), process.execPath, MAIN, "serve", "--port", "0", "--data", data, ...args], {
    env: { ...process.env, DOSSIER_LOG: "json", ...env },
    stdout: "ignore",
    stderr: "pipe",
  });
  // Killed after the test file if the test did not stop it (a failed assertion, a timeout).
  onCleanup(async () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill(9);
    await proc.exited;
  });
  let text = "";
  const reader = (proc.stderr as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const pump = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      text += decoder.decode(value, { stream: true });
    }
  })();
  const deadline = Date.now() + 15_000;
  let url: string | undefined;
  while (!url && Date.now() < deadline) {
    const match = /"msg":"listening","url":"([^"]+)"/.exec(text);
    if (match) url = match[1];
    else await Bun.sleep(20);
    if (proc.exitCode !== null) break;
  }
  if (!url) {
    proc.kill(9);
    throw new Error(`server did not start:\n${text}`);
  }
  return { url, proc, stderr: () => text, exited: proc.exited.then(async (code) => (await pump, code)) };
}

/** The API key that a first `serve` on an empty data folder prints, once, on stderr. */
export function bootstrapKey(server: ServerProcess): string {
  const match = /API key \(shown once, store it now\): (svc_live_[A-Za-z0-9]{32})/.exec(server.stderr());
  if (!match) throw new Error(`no bootstrap key in the server's output:\n${server.stderr()}`);
  return match[1];
}
