// C16 and round2-notes "Idempotency": the stored answer is written in the transaction of the
// request's effect, so a server killed after the commit and before the answer gives that answer to
// the client's retry. The real `dossier serve` runs under strace, which holds every answer it sends
// (sendto, Bun's way of answering) for a minute: the test sees the commit in the database, kills
// the server with SIGKILL while the answer waits, starts it again and retries. The held server
// writes its log to a file: Bun.spawn's pipes are sockets, which Bun writes with sendto too.
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { onCleanup, tempDir, until } from "../helpers";
import { MAIN, startServerProcess } from "../helpers/process";

const STRACE = Bun.which("strace");
// -D: strace is a detached grandchild, so the spawned process is the server itself; the seccomp
// filter stops the server only on the held syscall.
const STRACE_FLAGS = ["-D", "-f", "--seccomp-bpf", "-o", "/dev/null", "-e", "trace=sendto", "-e", "inject=sendto:delay_enter=60000000"];
const probe = STRACE ? Bun.spawnSync([STRACE, ...STRACE_FLAGS, "true"], { stderr: "pipe" }) : null;
const straceWorks = probe?.exitCode === 0;
if (!straceWorks) console.warn(`idempotency.server: strace cannot trace here (${probe ? probe.stderr.toString().trim() : "no strace on the PATH"}); skipped`);

describe("C16: a crash between the commit and the answer", () => {
  test.skipIf(!straceWorks)("kill -9 after the commit and before the answer; the retry with the same key replays the answer, one dossier, one event", async () => {
    const folder = tempDir();
    const data = join(folder, "data");
    const log = join(folder, "server.log");
    const body = JSON.stringify({ type: "candidate", name: "Crash-proof" });
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
    const key = /API key \(shown once, store it now\): (svc_live_[A-Za-z0-9]{32})/.exec(text())![1];
    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json", "idempotency-key": "crash-1" };
    const lost = fetch(`${url}/api/v1/dossiers`, { method: "POST", headers, body }).then(
      (response) => response.status,
      () => "no answer",
    );

    const db = new Database(join(data, "dossier.db"), { readonly: true });
    const stored = await until(
      () => db.query<{ status: number; body: string }, []>(`SELECT status, body FROM idempotency_keys WHERE key = 'crash-1'`).get() ?? undefined,
      30_000,
      "the committed answer",
    );
    db.close();
    held.kill(9);
    await held.exited;
    expect(await lost).toBe("no answer");

    const second = await startServerProcess(data);
    const retry = await fetch(`${second.url}/api/v1/dossiers`, { method: "POST", headers, body });
    expect(retry.status).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    const answer = await retry.text();
    expect(answer).toBe(stored.body);
    const { data: created } = JSON.parse(answer);
    const list = (await (await fetch(`${second.url}/api/v1/dossiers`, { headers: { authorization: `Bearer ${key}` } })).json()) as { data: { id: string }[] };
    expect(list.data.map((d: { id: string }) => d.id)).toEqual([created.id]);
    const check = new Database(join(data, "dossier.db"), { readonly: true });
    const events = check.query<{ type: string }, []>(`SELECT type FROM events WHERE type LIKE 'dossier.%'`).all();
    check.close();
    expect(events.map((e) => e.type)).toEqual(["dossier.created"]);
    second.proc.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  });
});
