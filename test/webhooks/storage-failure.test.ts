// C11 for the webhook dispatcher: when recording its attempts fails for lack of space (a real
// SQLITE_FULL: PRAGMA max_page_count caps the file), the process is in the storage-unavailable
// state (/healthz 503, one log line) and the dispatcher starts no more attempts, which it could not
// record; the deliveries stay pending for the restart.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { recordEvent } from "../../src/services/outbox";
import { setEndpoint } from "../../src/services/webhooks";
import { call, makeApp, makeOrg, until } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const servers: { stop(force?: boolean): unknown }[] = [];
afterAll(() => {
  for (const server of servers.splice(0)) server.stop(true);
});

test("C11: a failed write of the dispatcher turns /healthz to storage_unavailable and stops further attempts", async () => {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let received = 0;
  // Each answer carries 1 KB, which the dispatcher keeps as the attempt's snippet: the attempts
  // need new pages of the file soon.
  const receiver = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      await request.text();
      received++;
      await gate;
      return new Response("x".repeat(1024));
    },
  });
  servers.push(receiver);

  const app = makeApp({ webhooks: true, config: { log: "json", logLevel: "error", webhookRetrySchedule: [50, 100], webhookTimeoutMs: 2_000 } });
  const org = await makeOrg(app);
  await setEndpoint(app.dossier, org.id, `http://127.0.0.1:${receiver.port}/hook`);
  const lines: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string) => (lines.push(String(chunk)), true)) as typeof process.stderr.write;
  try {
    for (let i = 0; i < 20; i++) await app.dossier.store.write(() => recordEvent(app.dossier, org.id, "dossier.created", { id: crypto.randomUUID() }));
    await until(() => received > 0, 60_000, "a first attempt");
    const { sqlite } = app.dossier.store;
    sqlite.run(`PRAGMA max_page_count = ${sqlite.query<{ page_count: number }, []>("PRAGMA page_count").get()!.page_count}`);
    open();

    await until(() => app.dossier.store.failure !== null, 60_000, "the dispatcher's failed write");
    expect(app.dossier.store.failure).toContain("SQLITE_FULL");
    const health = await call(app, "GET", "/healthz");
    expect(health.status).toBe(503);
    expect(health.json).toEqual({ status: "storage_unavailable" });

    // Attempts already sent may still come back; after that, nothing new starts, though the
    // dispatcher's error back-off (1 s) and the retry schedule (50 ms) would have started more.
    await Bun.sleep(300);
    const after = received;
    await Bun.sleep(1_500);
    expect(received).toBe(after);
  } finally {
    process.stderr.write = write;
    open();
  }
  const failures = lines.flatMap((chunk) => chunk.split("\n")).filter((line) => line.includes("refusing writes until a restart"));
  expect(failures).toHaveLength(1);
}, 30_000);
