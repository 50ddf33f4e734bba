// C7 durability with the real executable: a `dossier serve` process killed with SIGKILL while the
// receiver is down (some attempts in flight, others waiting for their retry) delivers every event
// after restart (at least once), on either store (the data folder's SQLite file, or PostgreSQL).
// Only 127.0.0.1.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { openConfiguredContext } from "../../src/context";
import { listDeliveries } from "../../src/services/deliveries";
import { dossierRun } from "../cli/helpers";
import { tempDir, until } from "../helpers";
import { startServerProcess, type ServerProcess } from "../helpers/process";
import { ENGINES, migratedDatabase } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const BOOTSTRAP_KEY = /API key \(shown once, store it now\): (svc_live_[A-Za-z0-9]{32})/;
const ENV = { DOSSIER_WEBHOOK_RETRY_SCHEDULE: "200ms,200ms,200ms,200ms,200ms,200ms", DOSSIER_WEBHOOK_TIMEOUT: "3s", DOSSIER_SYNC: "full" };

const running: ServerProcess[] = [];
const servers: { stop(force?: boolean): unknown }[] = [];
afterAll(() => {
  for (const server of running) if (server.proc.exitCode === null) server.proc.kill(9);
  for (const server of servers) server.stop(true);
});

describe.each(ENGINES)("on %s", (engine) => {
  test("C7: kill -9 while the receiver is down; after restart every event is delivered", async () => {
    const data = tempDir();
    // On PostgreSQL the killed node's lanes are taken by the next one once their leases pass: short ones.
    const database: Record<string, string> = engine === "postgres" ? { DOSSIER_DATABASE_URL: await migratedDatabase(), DOSSIER_LEASE: "3s" } : {};
    const dossier = (...args: string[]) => dossierRun([...args, "--data", data], database);
    // The receiver: "down" (503, or an answer that never comes before the kill) until `up`.
    let up = false;
    const attempts: string[] = [];
    const delivered = new Set<string>();
    const receiver = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch(request) {
        const id = request.headers.get("x-service-event-id")!;
        attempts.push(id);
        await request.text();
        if (!up) {
          if (attempts.length % 3 === 0) await Bun.sleep(5000); // in flight when the process dies
          return new Response("down", { status: 503 });
        }
        delivered.add(id);
        return new Response("ok");
      },
    });
    servers.push(receiver);

    const first = await startServerProcess(data, [], { ...ENV, ...database });
    running.push(first);
    const key = BOOTSTRAP_KEY.exec(first.stderr())![1];
    const orgId = dossier("org", "list", "--json").json.data[0].id;
    const set = dossier("webhook", "set", "--org", orgId, "--url", `http://127.0.0.1:${receiver.port}/hook`, "--json");
    expect(set.code).toBe(0);

    for (let i = 0; i < 12; i++) {
      const response = await fetch(`${first.url}/api/v1/dossiers`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ type: "candidate", name: `Candidate ${i}` }),
      });
      expect(response.status).toBe(201);
    }
    // Every third attempt hangs: when the sixth has arrived, two are in flight and others wait for a retry.
    await until(() => attempts.length >= 6, 60_000, "attempts against the down receiver");
    first.proc.kill(9);
    expect(await first.exited).not.toBe(0);

    // What the crash left: every delivery still pending (those in flight included).
    const ctx = await openConfiguredContext({ dataDir: data, env: database, config: { log: "off" } });
    const log = (await listDeliveries(ctx, orgId)).data;
    await ctx.store.close();
    expect(log).toHaveLength(12);
    expect(log.every((delivery) => delivery.status === "pending")).toBe(true);
    const ids = log.map((delivery) => delivery.event_id);
    expect(delivered.size).toBe(0);

    up = true;
    const second = await startServerProcess(data, [], { ...ENV, ...database });
    running.push(second);
    await until(() => delivered.size >= 12, 10_000, `12 events delivered (got ${delivered.size})`);
    expect(new Set(delivered)).toEqual(new Set(ids));
    second.proc.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  });
});
