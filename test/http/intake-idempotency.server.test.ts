// C16 and round2-notes "Idempotency" on POST /intake/{token}: the stored answer is written in the
// transaction that makes the dossier, so a server killed after that commit and before the answer
// gives the answer to the mail server's retry, not a second dossier. As idempotency.server.test.ts
// does for POST /dossiers: the real `dossier serve` under strace, which holds every answer it sends
// (sendto) for a minute; the test sees the commit in the database, kills the server with SIGKILL,
// starts it again and retries. The message has no Message-ID, so only the key can hold the retry.
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { onCleanup, tempDir, until } from "../helpers";
import { bootstrapKey, MAIN, startServerProcess } from "../helpers/process";

const STRACE = Bun.which("strace");
const STRACE_FLAGS = ["-D", "-f", "--seccomp-bpf", "-o", "/dev/null", "-e", "trace=sendto", "-e", "inject=sendto:delay_enter=60000000"];
const probe = STRACE ? Bun.spawnSync([STRACE, ...STRACE_FLAGS, "true"], { stderr: "pipe" }) : null;
const straceWorks = probe?.exitCode === 0;
if (!straceWorks) console.warn(`intake-idempotency.server: strace cannot trace here (${probe ? probe.stderr.toString().trim() : "no strace on the PATH"}); skipped`);

const MESSAGE = "From: Crash Proof <crash@example.com>\r\nSubject: Application\r\n\r\nOnce only.\r\n";

/** The token of the default candidate flow's intake address, asked of a server started for it. */
async function intakeToken(data: string): Promise<string> {
  const server = await startServerProcess(data);
  const auth = { authorization: `Bearer ${bootstrapKey(server)}` };
  const flows = (await (await fetch(`${server.url}/api/v1/flows?type=candidate`, { headers: auth })).json()) as { data: { id: string; is_default: boolean }[] };
  const flow = flows.data.find((f) => f.is_default)!;
  const intake = (await (await fetch(`${server.url}/api/v1/flows/${flow.id}/intake`, { headers: auth })).json()) as { data: { address: string } };
  server.proc.kill("SIGTERM");
  expect(await server.exited).toBe(0);
  return intake.data.address.slice(0, intake.data.address.indexOf("@"));
}

describe("C16: a crash between the commit and the answer, on POST /intake/{token}", () => {
  test.skipIf(!straceWorks)("kill -9 after the dossier's commit and before the answer; the retry with the same key replays the answer, one dossier, one event", async () => {
    const folder = tempDir();
    const data = join(folder, "data");
    const token = await intakeToken(data);
    const log = join(folder, "server.log");
    const held = Bun.spawn([STRACE!, ...STRACE_FLAGS, "--", process.execPath, MAIN, "serve", "--port", "0", "--data", data], {
      env: { ...process.env, DOSSIER_LOG: "json" },
      stdout: "ignore",
      stderr: Bun.file(log),
    });
    onCleanup(async () => {
      if (held.exitCode === null && held.signalCode === null) held.kill(9);
      await held.exited;
    });
    const url = await until(() => /"msg":"listening","url":"([^"]+)"/.exec(readFileSync(log, "utf8"))?.[1], 15_000, "the held server's start");
    const send = (base: string) =>
      fetch(`${base}/api/v1/intake/${token}`, { method: "POST", headers: { "content-type": "message/rfc822", "idempotency-key": "queue-1" }, body: MESSAGE });
    const lost = send(url).then(
      (response) => response.status,
      () => "no answer",
    );

    const db = new Database(join(data, "dossier.db"), { readonly: true });
    const stored = await until(
      () => db.query<{ status: number; body: string }, []>(`SELECT status, body FROM idempotency_keys WHERE key = 'queue-1'`).get() ?? undefined,
      30_000,
      "the committed answer",
    );
    db.close();
    held.kill(9);
    await held.exited;
    expect(await lost).toBe("no answer");
    expect(stored.status).toBe(201);

    const second = await startServerProcess(data);
    const retry = await send(second.url);
    expect([retry.status, retry.headers.get("idempotent-replayed")]).toEqual([201, "true"]);
    expect(await retry.text()).toBe(stored.body);
    second.proc.kill("SIGTERM");
    expect(await second.exited).toBe(0);
    const check = new Database(join(data, "dossier.db"), { readonly: true });
    const dossiers = check.query<{ id: string }, []>(`SELECT id FROM dossiers`).all();
    const events = check.query<{ type: string }, []>(`SELECT type FROM events WHERE type LIKE 'dossier.%'`).all();
    check.close();
    expect(dossiers.map((d) => d.id)).toEqual([JSON.parse(stored.body).data.id]);
    expect(events.map((e) => e.type)).toEqual(["dossier.created"]);
  });
});
