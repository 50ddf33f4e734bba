// C16 and round2-notes "Idempotency" on POST /intake/{token}: the stored answer is written in the
// transaction that makes the dossier, so a server killed after that commit and before the answer
// gives the answer to the mail server's retry, not a second dossier. As idempotency.server.test.ts
// does for POST /dossiers: the real `dossier serve` holding its answers (test/helpers/held-answers.ts);
// the test sees the commit in the database, kills the server with SIGKILL,
// starts it again and retries. The message has no Message-ID, so only the key can hold the retry.
// On both engines (C19): SQLite in the data folder, PostgreSQL through DOSSIER_DATABASE_URL.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { tempDir } from "../helpers";
import { committedAnswer, holdingWorks, serverHoldingAnswers, whyNotHolding } from "../helpers/held-answers";
import { bootstrapKey, startServerProcess } from "../helpers/process";
import { ENGINES } from "../helpers/stores";
import { cliOn } from "../cli/helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

if (!holdingWorks) console.warn(`intake-idempotency.server: strace cannot trace here (${whyNotHolding}); skipped on SQLite`);

const MESSAGE = "From: Crash Proof <crash@example.com>\r\nSubject: Application\r\n\r\nOnce only.\r\n";

/** The token of the default candidate flow's intake address, asked of a server started for it. */
async function intakeToken(data: string, env: Record<string, string>): Promise<string> {
  const server = await startServerProcess(data, [], env);
  const auth = { authorization: `Bearer ${bootstrapKey(server)}` };
  const flows = (await (await fetch(`${server.url}/api/v1/flows?type=candidate`, { headers: auth })).json()) as { data: { id: string; is_default: boolean }[] };
  const flow = flows.data.find((f) => f.is_default)!;
  const intake = (await (await fetch(`${server.url}/api/v1/flows/${flow.id}/intake`, { headers: auth })).json()) as { data: { address: string } };
  server.proc.kill("SIGTERM");
  expect(await server.exited).toBe(0);
  return intake.data.address.slice(0, intake.data.address.indexOf("@"));
}

describe.each(ENGINES)("C16: a crash between the commit and the answer, on POST /intake/{token}, on %s", (engine) => {
  test.skipIf(engine === "sqlite" && !holdingWorks)("kill -9 after the dossier's commit and before the answer; the retry with the same key replays the answer, one dossier, one event", async () => {
    const folder = tempDir();
    const { data, env, rows } = await cliOn(engine, join(folder, "data"));
    const token = await intakeToken(data, env);
    const log = join(folder, "server.log");
    const held = await serverHoldingAnswers(data, log, env);
    const { url } = held;
    const send = (base: string) =>
      fetch(`${base}/api/v1/intake/${token}`, { method: "POST", headers: { "content-type": "message/rfc822", "idempotency-key": "queue-1" }, body: MESSAGE });
    const lost = send(url).then(
      (response) => response.status,
      () => "no answer",
    );

    const stored = await committedAnswer(rows, "queue-1");
    await held.kill();
    expect(await lost).toBe("no answer");
    expect(stored.status).toBe(201);

    const second = await startServerProcess(data, [], env);
    const retry = await send(second.url);
    expect([retry.status, retry.headers.get("idempotent-replayed")]).toEqual([201, "true"]);
    expect(await retry.text()).toBe(stored.body);
    second.proc.kill("SIGTERM");
    expect(await second.exited).toBe(0);
    const dossiers = await rows(`SELECT id FROM dossiers`);
    const events = await rows(`SELECT type FROM events WHERE type LIKE 'dossier.%'`);
    expect(dossiers.map((d) => d.id)).toEqual([JSON.parse(stored.body).data.id]);
    expect(events.map((e) => e.type)).toEqual(["dossier.created"]);
  });
});
