// A real `dossier serve` whose answers never leave: it runs under strace, which holds every sendto
// (Bun's way of answering) for a minute, so a test can see a request's commit in the database and
// kill the server with SIGKILL while its answer waits (C16: the stored answer is written with the
// effect, so the retry replays it). The held server writes its log to a file: Bun.spawn's pipes are
// sockets, which Bun writes with sendto too.
import { Database } from "bun:sqlite";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { onCleanup, until } from "./index";
import { MAIN } from "./process";

const STRACE = Bun.which("strace");
// -D: strace is a detached grandchild, so the spawned process is the server itself; the seccomp
// filter stops the server only on the held syscall.
const STRACE_FLAGS = ["-D", "-f", "--seccomp-bpf", "-o", "/dev/null", "-e", "trace=sendto", "-e", "inject=sendto:delay_enter=60000000"];
const probe = STRACE ? Bun.spawnSync([STRACE, ...STRACE_FLAGS, "true"], { stderr: "pipe" }) : null;

/** Whether strace can hold answers here; when not, why (for the skipped test's message). */
export const holdingWorks = probe?.exitCode === 0;
export const whyNotHolding = holdingWorks ? null : probe ? probe.stderr.toString().trim() : "no strace on the PATH";

/** `dossier serve` on `data` (made if new), under strace; its log in `log`. Killed after the test. */
export async function serverHoldingAnswers(data: string, log: string) {
  const held = Bun.spawn([STRACE!, ...STRACE_FLAGS, "--", process.execPath, MAIN, "serve", "--port", "0", "--data", data], {
    env: { ...process.env, DOSSIER_LOG: "json" },
    stdout: "ignore",
    stderr: Bun.file(log),
  });
  onCleanup(async () => {
    if (held.exitCode === null && held.signalCode === null) held.kill(9);
    await held.exited;
  });
  const text = () => readFileSync(log, "utf8");
  const url = await until(() => /"msg":"listening","url":"([^"]+)"/.exec(text())?.[1], 15_000, "the held server's start");
  return {
    url,
    text,
    /** SIGKILL, and wait for the process to be gone. */
    kill: async () => {
      held.kill(9);
      await held.exited;
    },
  };
}

/** The answer stored under the Idempotency-Key `key` in `data`'s database, once it is committed. */
export async function committedAnswer(data: string, key: string): Promise<{ status: number; body: string }> {
  const db = new Database(join(data, "dossier.db"), { readonly: true });
  try {
    return await until(
      () => db.query<{ status: number; body: string }, [string]>("SELECT status, body FROM idempotency_keys WHERE key = ?").get(key) ?? undefined,
      30_000,
      "the committed answer",
    );
  } finally {
    db.close();
  }
}
