// C16 and round2-notes "Idempotency": the stored answer is written in the transaction of the
// request's effect, so a server killed after the commit and before the answer gives that answer to
// the client's retry. The real `dossier serve` holds its answers (test/helpers/held-answers.ts):
// the test sees the commit in the database, kills the server with SIGKILL while the answer waits,
// starts it again and retries. On both engines (C19): SQLite in the data folder, PostgreSQL through
// DOSSIER_DATABASE_URL (its answers held by a proxy: test/helpers/held-answers.ts).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { tempDir } from "../helpers";
import { committedAnswer, holdingWorks, serverHoldingAnswers, whyNotHolding } from "../helpers/held-answers";
import { startServerProcess } from "../helpers/process";
import { ENGINES } from "../helpers/stores";
import { cliOn } from "../cli/helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

if (!holdingWorks) console.warn(`idempotency.server: strace cannot trace here (${whyNotHolding}); skipped on SQLite`);

describe.each(ENGINES)("C16: a crash between the commit and the answer, on %s", (engine) => {
  test.skipIf(engine === "sqlite" && !holdingWorks)("kill -9 after the commit and before the answer; the retry with the same key replays the answer, one dossier, one event", async () => {
    const folder = tempDir();
    const { data, env, rows } = await cliOn(engine, join(folder, "data"));
    const log = join(folder, "server.log");
    const body = JSON.stringify({ type: "candidate", name: "Crash-proof" });
    const held = await serverHoldingAnswers(data, log, env);
    const { url } = held;
    const key = /API key \(shown once, store it now\): (svc_live_[A-Za-z0-9]{32})/.exec(held.text())![1];
    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json", "idempotency-key": "crash-1" };
    const lost = fetch(`${url}/api/v1/dossiers`, { method: "POST", headers, body }).then(
      (response) => response.status,
      () => "no answer",
    );

    const stored = await committedAnswer(rows, "crash-1");
    await held.kill();
    expect(await lost).toBe("no answer");

    const second = await startServerProcess(data, [], env);
    const retry = await fetch(`${second.url}/api/v1/dossiers`, { method: "POST", headers, body });
    expect(retry.status).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    const answer = await retry.text();
    expect(answer).toBe(stored.body);
    const { data: created } = JSON.parse(answer);
    const list = (await (await fetch(`${second.url}/api/v1/dossiers`, { headers: { authorization: `Bearer ${key}` } })).json()) as { data: { id: string }[] };
    expect(list.data.map((d: { id: string }) => d.id)).toEqual([created.id]);
    const events = await rows(`SELECT type FROM events WHERE type LIKE 'dossier.%'`);
    expect(events.map((e) => e.type)).toEqual(["dossier.created"]);
    second.proc.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  });
});
