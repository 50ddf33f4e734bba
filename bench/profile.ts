// Where a request's time goes (issue 33): the server run from source under Bun's sampling CPU
// profiler while wrk sends one request over and over, and every sample of the server's thread put
// in one stage of the request by the frames on its stack.
//
//   bun bench/profile.ts --data DIR --key KEY --path /api/v1/dossiers [--seconds 5] [--interval 100] [--top N]
//   bun bench/profile.ts --data DIR --key KEY --path /api/v1/dossiers --patch IDS_FILE --stages S1,S2,...
//
// A sample's stage is that of the innermost frame of ours that names one (a SQLite call made by
// the key check counts as authentication; the page's own statements as query). Samples with no
// frame of ours are the runtime's: Bun's HTTP server reading and writing sockets, the event loop,
// and garbage collection. The profiler takes no sample while the thread waits for work. Prints one line per stage: share of the busy
// samples, and microseconds per request (busy time over the requests wrk counted).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ensureWrk, freePort, runWrk, stop, waitHealthy, type RequestSpec } from "./load";

const ROOT = resolve(process.env.DOSSIER_PROFILE_ROOT ?? resolve(import.meta.dir, ".."));

interface CallFrame {
  functionName: string;
  url: string;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The stages of a request, each recognised by a frame of ours, in order of precedence: a sample
 * whose stack holds frames of several stages counts for the first of them here (the key check's
 * SQL is authentication, not query). */
const STAGES: { stage: string; match: (frame: CallFrame) => boolean }[] = [
  { stage: "ETag", match: (f) => f.url.endsWith("/http/etag.ts") },
  { stage: "rate limit", match: (f) => f.url.endsWith("/http/rate-limiter.ts") },
  { stage: "authentication", match: (f) => f.url.endsWith("/http/auth.ts") || f.url.endsWith("/services/keys.ts") || f.url.endsWith("/db/principals.ts") || f.url.endsWith("/services/sessions.ts") },
  { stage: "parse (URL, query, path)", match: (f) => f.url.endsWith("/http/request.ts") || f.url.endsWith("/http/url.ts") || f.url.includes("memoirist") },
  { stage: "headers (request id, compression)", match: (f) => f.url.endsWith("/http/request-id.ts") || f.url.endsWith("/http/compress.ts") || f.url.endsWith("/http/body-memory.ts") },
  { stage: "query (and the caches' checks)", match: (f) => (f.url.includes("/src/db/") && !f.url.endsWith("/db/snapshot.ts")) || f.url.includes("/src/services/") },
  { stage: "serialisation (JSON, Response)", match: (f) => f.functionName === "mapResponse" || f.url.includes("elysia/dist/adapter") },
  { stage: "route and handler", match: (f) => f.url.includes("/src/http/") || f.url.endsWith("/src/app.ts") || f.url.endsWith("/src/server.ts") },
  { stage: "Elysia", match: (f) => f.url.includes("node_modules/elysia") },
];
/** BEGIN and COMMIT of the request's read snapshot: a sample whose innermost frame of ours is
 * readSnapshot's own (every read runs inside it, so only its own statements count here). */
const SNAPSHOT = "read snapshot (BEGIN, COMMIT)";
const ours = (f: CallFrame) => f.url.includes("/src/") || f.url.includes("node_modules/elysia") || f.url.includes("memoirist");
const RUNTIME = "socket, event loop and GC (no frame of ours)";
const IDLE = new Set(["(idle)"]);

/** Busy microseconds per stage, from the profile's samples. */
export function stagesOf(profile: CpuProfile, intervalUs: number): { busyUs: number; byStage: Map<string, number> } {
  const parent = new Map<number, number>();
  const byId = new Map<number, ProfileNode>();
  for (const node of profile.nodes) {
    byId.set(node.id, node);
    for (const child of node.children ?? []) parent.set(child, node.id);
  }
  const stageOfNode = new Map<number, string | null>();
  const stageOf = (leaf: number): string | null => {
    if (stageOfNode.has(leaf)) return stageOfNode.get(leaf)!;
    let best = STAGES.length;
    let innermost: CallFrame | null = null;
    for (let id: number | undefined = leaf; id !== undefined; id = parent.get(id)) {
      const frame = byId.get(id)!.callFrame;
      if (innermost === null && ours(frame)) innermost = frame;
      const rank = STAGES.findIndex((s) => s.match(frame));
      if (rank >= 0 && rank < best) best = rank;
    }
    const stage = innermost?.url.endsWith("/db/snapshot.ts") ? SNAPSHOT : best < STAGES.length ? STAGES[best].stage : null;
    stageOfNode.set(leaf, stage);
    return stage;
  };
  const byStage = new Map<string, number>();
  let busyUs = 0;
  profile.samples.forEach((id, i) => {
    // The time until the next sample is this one's, except across a pause: the profiler takes no
    // sample while the thread waits for work, so the sample before a pause stands for at most two
    // intervals (samples come a little later than asked for under load).
    const delta = Math.min(profile.timeDeltas[i + 1] ?? 0, 2 * intervalUs);
    const name = byId.get(id)!.callFrame.functionName;
    if (IDLE.has(name)) return;
    busyUs += delta;
    const stage = stageOf(id) ?? RUNTIME;
    byStage.set(stage, (byStage.get(stage) ?? 0) + delta);
  });
  return { busyUs, byStage };
}

/** The functions with the most busy time of their own (self time) and, among ours, the most in
 * all (self and callees): where to look inside a stage. */
export function heaviest(profile: CpuProfile, intervalUs: number, top: number): { self: [string, number][]; total: [string, number][] } {
  const parent = new Map<number, number>();
  const byId = new Map<number, ProfileNode>();
  for (const node of profile.nodes) {
    byId.set(node.id, node);
    for (const child of node.children ?? []) parent.set(child, node.id);
  }
  const name = (f: CallFrame) => `${f.functionName || "(anonymous)"} ${f.url.replace(/^.*\/(src|node_modules)\//, "$1/")}`;
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const delta = Math.min(profile.timeDeltas[i + 1] ?? 0, 2 * intervalUs);
    const leaf = byId.get(id)!.callFrame;
    if (IDLE.has(leaf.functionName)) return;
    self.set(name(leaf), (self.get(name(leaf)) ?? 0) + delta);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)!.callFrame;
      if (!ours(frame) || seen.has(name(frame))) continue;
      seen.add(name(frame));
      total.set(name(frame), (total.get(name(frame)) ?? 0) + delta);
    }
  });
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top);
  return { self: sorted(self), total: sorted(total) };
}

async function main() {
  const argv = process.argv.slice(2);
  const opt = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const data = opt("data");
  const key = opt("key");
  const path = opt("path") ?? "/api/v1/dossiers";
  const seconds = Number(opt("seconds") ?? "5");
  const interval = Number(opt("interval") ?? "100");
  const top = Number(opt("top") ?? "0");
  if (!data || !key) throw new Error("usage: bun bench/profile.ts --data DIR --key KEY --path /api/v1/... [--seconds 5]");
  const log = (line: string) => process.stderr.write(line + "\n");
  const wrk = await ensureWrk(log);
  const dir = mkdtempSync(join(tmpdir(), "dossier-profile-"));
  try {
    const port = await freePort();
    const server = Bun.spawn(
      ["taskset", "-c", "0", process.execPath, "--cpu-prof", `--cpu-prof-dir=${dir}`, `--cpu-prof-interval=${interval}`, join(ROOT, "src/main.ts"), "serve", "--no-bootstrap", "--port", String(port), "--data", resolve(data)],
      { env: { ...process.env, DOSSIER_LOG: "off", DOSSIER_LOG_LEVEL: "warn" }, stdout: "ignore", stderr: "pipe" },
    );
    const base = `http://127.0.0.1:${port}`;
    await waitHealthy(`${base}/healthz`, 15_000, server);
    // --patch IDS_FILE STAGES: PATCH /dossiers/{id} moving ids of the file (one a line) through
    // the comma-separated stage ids, as the bench's patch figure does; otherwise GET path.
    const patch = opt("patch");
    const spec: RequestSpec = patch
      ? { kind: "patch-stage", prefix: `${path.replace(/\/$/, "")}/`, ids: readFileSync(patch, "utf8").split("\n").filter(Boolean), stages: (opt("stages") ?? "").split(",") }
      : { kind: "get", paths: [path] };
    await runWrk({ wrk, workDir: dir, baseUrl: base, spec, key, seconds: 1, connections: 16, cpu: 1, serverPid: server.pid }); // warm-up, profiled too
    const warm = await runWrk({ wrk, workDir: dir, baseUrl: base, spec, key, seconds: 1, connections: 16, cpu: 1, serverPid: server.pid });
    const run = await runWrk({ wrk, workDir: dir, baseUrl: base, spec, key, seconds, connections: 16, cpu: 1, serverPid: server.pid });
    server.kill("SIGINT"); // the profile is written as the process exits
    await Promise.race([server.exited, Bun.sleep(10_000)]);
    await stop(server);
    const file = readdirSync(dir).find((name) => name.endsWith(".cpuprofile"));
    if (!file) throw new Error("the server wrote no profile");
    const profile = JSON.parse(readFileSync(join(dir, file), "utf8")) as CpuProfile;
    const { busyUs, byStage } = stagesOf(profile, interval);
    const requests = run.requests + warm.requests * 2; // the profile covers the warm-ups too (two runs of 1 s, about the same rate)
    console.log(`${path}: ${run.rps.toFixed(0)} req/s under the profiler; ${(busyUs / requests).toFixed(1)} µs of the server's thread per request`);
    for (const [stage, us] of [...byStage].sort((a, b) => b[1] - a[1])) {
      console.log(`  ${stage.padEnd(48)} ${((100 * us) / busyUs).toFixed(1).padStart(5)} %  ${(us / requests).toFixed(1).padStart(6)} µs`);
    }
    if (top > 0) {
      const { self, total } = heaviest(profile, interval, top);
      const show = (title: string, rows: [string, number][]) => {
        console.log(title);
        for (const [fn, us] of rows) console.log(`  ${(us / requests).toFixed(2).padStart(6)} µs  ${fn}`);
      };
      show("heaviest by self time:", self);
      show("ours, by total time (self and callees):", total);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) await main();
