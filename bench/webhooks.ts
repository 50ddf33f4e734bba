// Webhook delivery benchmark (issue 5): not a test. Run: node_modules/.bin/bun bench/webhooks.ts
//   1. throughput: a backlog of pending deliveries (one organization, then 20) drained by a fresh
//      dispatcher into a local receiver, in deliveries/s (each result committed to the log);
//   2. latency: a steady 200 events/s for 8 s, each committed in its own transaction;
//      commit-to-delivery latency (receiver's arrival time minus commit time) p50 / p99, with
//      synchronous=FULL (the default) and with DOSSIER_SYNC=normal.
// The receiver runs in a child process (this file with --receiver) so that it does not share the
// dispatcher's event loop. Targets: >= 2,000 deliveries/s, p99 < 50 ms. Only 127.0.0.1.
// Bounded: every wait has a limit, and a watchdog ends the run after DEADLINE_MS (exit 1). It
// prints the machine (CPU, cores, memory, kernel, load average before and after) with the figures.
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, freemem, loadavg, release, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { createApp, type DossierApp } from "../src/app";
import { createOrg } from "../src/services/orgs";
import { recordEvent } from "../src/services/outbox";
import { setEndpoint } from "../src/services/webhooks";

const wallNow = () => performance.timeOrigin + performance.now(); // ms, comparable across processes

async function startReceiver() {
  const child = Bun.spawn([process.execPath, import.meta.path, "--receiver"], { stdout: "pipe", stderr: "inherit" });
  const reader = (child.stdout as ReadableStream<Uint8Array>).getReader();
  let text = "";
  const deadline = Date.now() + 10_000;
  while (!text.includes("\n") && Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  const port = Number(text.trim());
  if (!port) throw new Error("the receiver did not start");
  const base = `http://127.0.0.1:${port}`;
  return {
    url: `${base}/hook`,
    stats: async () => (await (await fetch(`${base}/stats`)).json()) as Record<string, number>,
    reset: () => fetch(`${base}/reset`),
    stop: () => child.kill(),
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const count = (app: DossierApp, status: string) =>
  app.dossier.store.sqlite.query<{ n: number }, [string]>(`SELECT count(*) AS n FROM events WHERE status = ?`).get(status)!.n;
// Cheap (an index probe), so that watching for the end does not slow the dispatcher down.
const anyPending = (app: DossierApp) =>
  app.dossier.store.sqlite.query<{ n: number }, []>(`SELECT EXISTS (SELECT 1 FROM events WHERE status = 'pending') AS n`).get()!.n === 1;

async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number) {
  const deadline = performance.now() + timeoutMs;
  while (!(await condition())) {
    if (performance.now() > deadline) throw new Error("timed out");
    await Bun.sleep(10);
  }
}

async function throughput(receiverUrl: string, total: number, orgCount: number) {
  const dataDir = mkdtempSync(join(tmpdir(), "dossier-bench-"));
  try {
    // The backlog, written with the dispatcher off.
    const seed = createApp({ dataDir, webhooks: false, config: { log: "off" } });
    const ctx = seed.dossier;
    const orgs: string[] = [];
    for (let i = 0; i < orgCount; i++) orgs.push((await createOrg(ctx, { name: `bench ${i}` })).id);
    for (const org of orgs) await setEndpoint(ctx, org, receiverUrl);
    const data = { id: crypto.randomUUID(), type: "candidate", name: "Benchmark Candidate", email: "bench@example.com", status: "active" };
    for (let i = 0; i < total; i += 1000) {
      await ctx.store.write(async () => {
        for (let j = i; j < Math.min(total, i + 1000); j++) await recordEvent(ctx, orgs[j % orgCount], "dossier.created", data);
      });
    }
    await seed.close();

    const started = performance.now();
    const app = createApp({ dataDir, webhooks: true, config: { log: "off" } });
    await until(() => !anyPending(app), 120_000);
    const seconds = (performance.now() - started) / 1000;
    const failed = total - count(app, "succeeded");
    await app.close();
    return { rate: total / seconds, seconds, failed };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function latency(receiver: Awaited<ReturnType<typeof startReceiver>>, perSecond: number, seconds: number, sync: "full" | "normal") {
  const dataDir = mkdtempSync(join(tmpdir(), "dossier-bench-"));
  const app = createApp({ dataDir, webhooks: true, config: { log: "off", sync } });
  try {
    const ctx = app.dossier;
    const org = (await createOrg(ctx, { name: "latency" })).id;
    await setEndpoint(ctx, org, receiver.url);
    await receiver.reset();
    const committed = new Map<string, number>();
    const total = perSecond * seconds;
    const interval = 1000 / perSecond;
    const start = performance.now();
    for (let i = 0; i < total; i++) {
      // A steady rate: event i is due at start + i * interval.
      const wait = start + i * interval - performance.now();
      if (wait > 0) await Bun.sleep(wait);
      const id = await ctx.store.write(() => recordEvent(ctx, org, "dossier.updated", { id: crypto.randomUUID(), i }));
      committed.set(id, wallNow());
    }
    const achieved = total / ((performance.now() - start) / 1000);
    await until(() => !anyPending(app), 10_000);
    const arrivals = await receiver.stats();
    const latencies = [...committed].map(([id, at]) => arrivals[id] - at);
    latencies.sort((a, b) => a - b);
    return { achieved, p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies[latencies.length - 1], n: latencies.length };
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const DEADLINE_MS = 5 * 60_000;
const load = () => loadavg().map((n) => n.toFixed(2)).join(" ");

function machine(): string {
  const cpu = cpus();
  const gib = (bytes: number) => (bytes / 2 ** 30).toFixed(1);
  return (
    `machine: ${cpu[0]?.model?.trim() ?? "unknown CPU"}, ${cpu.length} cores (${navigator.hardwareConcurrency} usable), ` +
    `${gib(totalmem())} GiB RAM (${gib(freemem())} free), ${process.platform} ${release()}, bun ${Bun.version}`
  );
}

async function main() {
  const receiver = await startReceiver();
  const watchdog = setTimeout(() => {
    console.error(`webhook benchmark: over ${DEADLINE_MS / 1000} s, stopped`);
    receiver.stop();
    process.exit(1);
  }, DEADLINE_MS);
  try {
    console.log(`webhook delivery benchmark (receiver in a child process, 127.0.0.1)`);
    console.log(machine());
    console.log(`load average before: ${load()}`);
    for (const [total, orgs] of [
      [20_000, 1],
      [20_000, 20],
    ] as const) {
      const result = await throughput(receiver.url, total, orgs);
      console.log(
        `throughput: ${total} deliveries, ${orgs} org${orgs > 1 ? "s" : ""}: ${result.rate.toFixed(0)} deliveries/s ` +
          `(${result.seconds.toFixed(2)} s${result.failed ? `, ${result.failed} not delivered` : ""})`,
      );
    }
    // The default (FULL: every commit, the requests' and the delivery log's, waits for fsync), and
    // DOSSIER_SYNC=normal, which shows what the disk's fsync adds to the tail.
    for (const sync of ["full", "normal"] as const) {
      const result = await latency(receiver, 200, 8, sync);
      console.log(
        `latency at ${result.achieved.toFixed(0)} events/s (${result.n} events, synchronous=${sync.toUpperCase()}): commit-to-delivery ` +
          `p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms, max ${result.max.toFixed(2)} ms`,
      );
    }
    console.log(`load average after: ${load()}`);
  } finally {
    clearTimeout(watchdog);
    receiver.stop();
  }
}

if (process.argv.includes("--receiver")) {
  const arrivals = new Map<string, number>();
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      if (url.pathname === "/stats") return Response.json(Object.fromEntries(arrivals));
      if (url.pathname === "/reset") {
        arrivals.clear();
        return new Response("ok");
      }
      await request.arrayBuffer();
      arrivals.set(request.headers.get("x-service-event-id")!, wallNow());
      return new Response("ok");
    },
  });
  process.stdout.write(`${server.port}\n`);
} else {
  await main();
}
