// A real `dossier serve` whose answers never leave: it runs under strace, which holds every sendto
// (Bun's way of answering) for a minute, so a test can see a request's commit in the database and
// kill the server with SIGKILL while its answer waits (C16: the stored answer is written with the
// effect, so the retry replays it). The held server writes its log to a file: Bun.spawn's pipes are
// sockets, which Bun writes with sendto too.
// On PostgreSQL (C19) strace cannot hold the answers alone: Bun's PostgreSQL client sends its
// queries with sendto too, so the commit would wait with the answer. There the client speaks to the
// server through a loopback proxy that passes the requests and holds the answers: the client never
// has one, as when the server dies before answering.
import { connect, createServer } from "node:net";
import { readFileSync } from "node:fs";
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

/** `dossier serve` on `data` (made if new), its answers held: under strace on SQLite, behind a
 * holding proxy on PostgreSQL (`env` names the database); its log in `log`. Killed after the test. */
export async function serverHoldingAnswers(data: string, log: string, env: Record<string, string> = {}) {
  const onPostgres = env.DOSSIER_DATABASE_URL !== undefined;
  const held = Bun.spawn([...(onPostgres ? [] : [STRACE!, ...STRACE_FLAGS, "--"]), process.execPath, MAIN, "serve", "--port", "0", "--data", data], {
    env: { ...process.env, ...env, DOSSIER_LOG: "json" },
    stdout: "ignore",
    stderr: Bun.file(log),
  });
  onCleanup(async () => {
    if (held.exitCode === null && held.signalCode === null) held.kill(9);
    await held.exited;
  });
  const text = () => readFileSync(log, "utf8");
  const served = await until(() => /"msg":"listening","url":"([^"]+)"/.exec(text())?.[1], 60_000, "the held server's start");
  return {
    url: onPostgres ? await holdingProxy(new URL(served)) : served,
    text,
    /** SIGKILL, and wait for the process to be gone. */
    kill: async () => {
      held.kill(9);
      await held.exited;
    },
  };
}

/** A proxy on 127.0.0.1 to `target`'s port that forwards what clients send and nothing back: the
 * client's connection ends, answerless, when the server's does. Its URL; closed after the test. */
async function holdingProxy(target: URL): Promise<string> {
  const proxy = createServer((client) => {
    const server = connect(Number(target.port), target.hostname);
    client.pipe(server);
    server.on("data", () => {}); // the answer, held
    server.on("close", () => client.destroy());
    server.on("error", () => client.destroy());
    client.on("error", () => server.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  onCleanup(() => new Promise<void>((resolve) => proxy.close(() => resolve())));
  const { port } = proxy.address() as { port: number };
  return `http://127.0.0.1:${port}`;
}

type Rows = (text: string, ...values: unknown[]) => Promise<Record<string, unknown>[]>;

/** The answer stored under the Idempotency-Key `key`, once it is committed: `rows` reads the
 * server's database beneath (test/cli/helpers.ts cliOn). */
export async function committedAnswer(rows: Rows, key: string): Promise<{ status: number; body: string }> {
  const [row] = await until(
    async () => {
      const found = await rows("SELECT status, body FROM idempotency_keys WHERE key = ?", key);
      return found.length > 0 ? found : undefined;
    },
    30_000,
    "the committed answer",
  );
  return { status: Number(row.status), body: String(row.body) };
}
