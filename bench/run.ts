// `npm run bench` (= bun bench/run.ts): the instrument of issues 6 and 18. See bench/README.md.
//
//   npm run bench                 N = 10,000 then 1,000,000; writes docs/performance.md
//   npm run bench -- --quick      N = 10,000 only, short rounds (< 3 min); last line `ratios: ...`
//   options: --n 10000,1000000  --seconds S  --rounds R  --connections C  --no-build  --reuse
//            --settle S (unmeasured load before each run: 1, or 0 with --quick)  --only NAME,NAME
//            --data-root DIR (default /tmp/dossier-bench)  --out FILE (default docs/performance.md)
//            --writes-before R (flat-out mixed writes / raw create of the run before the store rewrite)
//            --only stats [--stats-n 100000]: GET /flows/{id}/stats's work, in-process (bench/stats.ts)
//   npm run bench -- --engine postgres [--quick]: PostgreSQL (C19) product vs a raw Bun.SQL baseline,
//            and the SQLite path, on the same seeded rows (bench/postgres.ts)
//   npm run bench -- --against COMMIT[,COMMIT] [--quick]: this checkout's executable against
//            COMMIT's, built in a temporary worktree, alternately on the same data (bench/against.ts);
//            prints `vs SHA: list=R ...` and `vs SHA (cache off): ...` (new / old req/s). Takes
//            --quick --n --seconds --rounds --settle --connections --only --no-build --data-root --out
//
// Per N: seed a data folder (bench/seed.ts), measure the executable's start-up to a 200 on
// /healthz, start `dist/dossier serve` and bench/raw-server.ts pinned to CPU 0, probe every
// endpoint (a 404 or other failure is reported, not run), warm up, then R interleaved rounds
// (endpoint A, its raw baseline, endpoint B, its raw baseline, ...) of wrk pinned to CPU 1; the
// create runs with /healthz probed beside it. Then the mixed day: R rounds of the reads alone,
// the reads beside paced writes, the reads beside writes flat out (one wrk per role, all at once).
// Then the same server again with DOSSIER_CACHE=off: every read endpoint (with its raw baseline)
// and the mixed day once more. Medians over the rounds are reported; a ratio is the median of the
// per-round ratios of the endpoint to the raw run right after it (the mixed reads: to the reads
// alone of the same round).
import { cpus, totalmem } from "node:os";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { ensureWrk, freePort, hwmMb, median, runWrk, runWrkGroup, settle, stop, waitForRateRoom, waitHealthy, type RequestSpec, type Role, type WrkResult } from "./load";
import { replaceSection } from "./doc-section";
import { seed, type SeedResult } from "./seed";
import { runStatsBench } from "./stats";

const ROOT = resolve(import.meta.dir, "..");
const argv = process.argv.slice(2);
const has = (name: string) => argv.includes(`--${name}`);
const opt = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
// --against COMMIT: this checkout's executable against another commit's (bench/against.ts).
if (argv.some((arg) => arg === "--against" || arg.startsWith("--against="))) {
  const { runAgainst } = await import("./against");
  process.exit(await runAgainst(argv));
}
// --engine postgres: the same endpoints on PostgreSQL against a raw baseline, and on SQLite in the
// same run (bench/postgres.ts, issue 34 point 7); it exits when done.
if (opt("engine") !== undefined && opt("engine") !== "sqlite") {
  if (opt("engine") !== "postgres") {
    process.stderr.write(`--engine: postgres or sqlite, not ${opt("engine")}\n`);
    process.exit(2);
  }
  await import("./postgres");
}
const quick = has("quick");
const sizes = (opt("n") ?? (quick ? "10000" : "10000,1000000")).split(",").map(Number);
const seconds = Number(opt("seconds") ?? (quick ? "1" : "3"));
const rounds = Number(opt("rounds") ?? "3");
const connections = Number(opt("connections") ?? "16");
const only = opt("only")?.split(",");
const settleSeconds = Number(opt("settle") ?? (quick ? "0" : "1"));
const writesBefore = opt("writes-before") === undefined ? undefined : Number(opt("writes-before"));
const WARMUP_REQUESTS = { read: 300, write: 60 };
const WARMUP_MAX_MS = 700; // per endpoint
const dataRoot = resolve(opt("data-root") ?? "/tmp/dossier-bench");
const outFile = resolve(ROOT, opt("out") ?? "docs/performance.md");
const exe = join(ROOT, "dist", "dossier");
const SERVER_CPU = 0;
const LOAD_CPU = 1;
const started = performance.now();
const log = (line: string) => process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(1).padStart(5)}s] ${line}\n`);

// ---------------------------------------------------------------------------------------------
// Targets of issue 6.

const TARGET = { list: 0.85, filtered: 0.8, create: 0.6, search: 0.5, p99Growth: 1.5, rssMb: 150, startupMs: 300 };
// Issue 18's (the store rewrite, C11), all ratios within one run: POST /dossiers ≥ 4 × the raw
// one-create-per-transaction baseline; /healthz p99 beside it; the mixed day's reads beside paced
// writes (req/s and p99 against the same reads alone), its reads and writes flat out (writes
// against the figure of the run before the rewrite, --writes-before); the list with DOSSIER_CACHE=off.
const TARGET18 = { create: 4.0, healthzP99Ms: 20, pacedReads: 0.7, pacedP99: 3, flatReads: 0.3, flatWrites: 3, nocacheList: 0.85 };

interface Endpoint {
  name: string;
  label: string;
  /** Which raw run follows it, and what its ratio is checked against. */
  raw: "list" | "create";
  group: "list" | "filtered" | "create" | "search" | "other";
  expect: number;
  spec: (s: SeedResult) => RequestSpec;
  /** Measured with /healthz probed beside it (issue 18: its p99 under the create load). */
  healthz?: boolean;
}

const API = "/api/v1";
const ENDPOINTS: Endpoint[] = [
  { name: "list", label: "GET /dossiers (page 1)", raw: "list", group: "list", expect: 200, spec: () => ({ kind: "get", paths: [`${API}/dossiers`] }) },
  { name: "list_p1000", label: "GET /dossiers?page=1000", raw: "list", group: "other", expect: 200, spec: () => ({ kind: "get", paths: [`${API}/dossiers?page=1000`] }) },
  { name: "status", label: "GET /dossiers?status=won", raw: "list", group: "filtered", expect: 200, spec: () => ({ kind: "get", paths: [`${API}/dossiers?status=won`] }) },
  { name: "type", label: "GET /dossiers?type=sales", raw: "list", group: "filtered", expect: 200, spec: () => ({ kind: "get", paths: [`${API}/dossiers?type=sales`] }) },
  {
    name: "stage", label: "GET /dossiers?stage_id=(Screening)", raw: "list", group: "filtered", expect: 200,
    spec: (s) => ({ kind: "get", paths: [`${API}/dossiers?stage_id=${s.flows.candidate.stages[1].id}`] }),
  },
  {
    name: "get", label: "GET /dossiers/{id}", raw: "list", group: "other", expect: 200,
    spec: (s) => ({ kind: "get", paths: s.sampleIds.map((id) => `${API}/dossiers/${id}`) }),
  },
  {
    name: "create", label: "POST /dossiers (JSON)", raw: "create", group: "create", expect: 201, healthz: true,
    spec: () => ({ kind: "create", path: `${API}/dossiers` }),
  },
  {
    name: "patch_stage", label: "PATCH /dossiers/{id} (stage)", raw: "create", group: "other", expect: 200,
    spec: (s) => ({ kind: "patch-stage", prefix: `${API}/dossiers/`, ids: s.sampleCandidateIds, stages: s.flows.candidate.stages.map((st) => st.id) }),
  },
  {
    name: "search", label: "GET /contacts?search=(mid-word)", raw: "list", group: "search", expect: 200,
    spec: (s) => ({ kind: "get", paths: s.searchTerms.map((t) => `${API}/contacts?search=${t.term}`) }),
  },
  { name: "kind", label: "GET /contacts?kind=client", raw: "list", group: "other", expect: 200, spec: () => ({ kind: "get", paths: [`${API}/contacts?kind=client`] }) },
];
// The mixed day is selected by --only as `mixed`; the flow's figures (bench/stats.ts, measured
// in-process on a folder of its own) as `stats`.
const ENDPOINT_NAMES = [...ENDPOINTS.map((e) => e.name), "mixed", "stats"];
const unknownOnly = only?.filter((name) => !ENDPOINT_NAMES.includes(name)) ?? [];
if (unknownOnly.length > 0) {
  console.error(`bench: --only: unknown endpoint ${unknownOnly.join(", ")} (known: ${ENDPOINT_NAMES.join(", ")})`);
  process.exit(2);
}
if (writesBefore !== undefined && !(writesBefore > 0)) {
  console.error(`bench: --writes-before must be a number above 0 (a ratio of writes/s to the raw create), not "${opt("writes-before")}"`);
  process.exit(2);
}
const selected = (name: string) => !only || only.includes(name);
if (only?.includes("stats")) {
  await runStatsBench({ n: Number(opt("stats-n") ?? "100000"), rounds: Number(opt("rounds") ?? "20") });
  if (only.length === 1) process.exit(0);
}
const RAW: Record<"list" | "create", { label: string; spec: RequestSpec }> = {
  list: { label: "raw list (page 1 + COUNT)", spec: { kind: "get", paths: ["/list"] } },
  create: { label: "raw create (dossier+contact+link+event)", spec: { kind: "create", path: "/create" } },
};

// /healthz beside the create load: one connection pausing 5 ms before each request, so that the
// probe itself adds little work (at most ~200 requests/s) yet gives a p99 over hundreds of answers.
const HEALTHZ: Role = { spec: { kind: "get", paths: ["/healthz"] }, connections: 1, pauseMs: 5 };

// ---------------------------------------------------------------------------------------------
// The mixed day (issue 18): readers of the first page of GET /dossiers and of single dossiers, and
// writers that create dossiers and move seeded candidates to the next stage of their flow. The
// writers run twice: each connection pausing MIXED.pauseMs before each request (a heavy day, about
// 250 writes/s when a write takes little time), and flat out.

const MIXED = { listConnections: 16, getConnections: 16, creators: 4, movers: 2, pauseMs: 20 };

interface MixedRole extends Role {
  label: string;
  write: boolean;
}

function mixedRoles(s: SeedResult, pauseMs: number | undefined): MixedRole[] {
  return [
    { label: "GET /dossiers (page 1)", write: false, key: s.key, connections: MIXED.listConnections, spec: { kind: "get", paths: [`${API}/dossiers`] } },
    { label: "GET /dossiers/{id}", write: false, key: s.key, connections: MIXED.getConnections, spec: { kind: "get", paths: s.sampleIds.map((id) => `${API}/dossiers/${id}`) } },
    { label: "POST /dossiers (JSON)", write: true, key: s.key, connections: MIXED.creators, pauseMs, spec: { kind: "create", path: `${API}/dossiers` } },
    {
      label: "PATCH /dossiers/{id} (stage)", write: true, key: s.key, connections: MIXED.movers, pauseMs,
      spec: { kind: "patch-stage", prefix: `${API}/dossiers/`, ids: s.sampleCandidateIds, stages: s.flows.candidate.stages.map((st) => st.id) },
    },
  ];
}

const MIXED_LOADS = ["alone", "paced", "flat"] as const;
type MixedLoad = (typeof MIXED_LOADS)[number];

/** One load of the mixed day: the roles it runs (reads first) and their results, one per round. */
interface MixedRun {
  roles: MixedRole[];
  rounds: WrkResult[][];
}
interface MixedReport {
  loads: Record<MixedLoad, MixedRun>;
  /** A role's failures (> 1 % not 2xx makes the report failing). */
  notes: string[];
  failing: boolean;
}

// ---------------------------------------------------------------------------------------------
// Processes.

const SERVER_ENV = { ...process.env, DOSSIER_LOG: "off", DOSSIER_LOG_LEVEL: "warn" };

/** The app; `cache: false` starts it with DOSSIER_CACHE=off (every read answered from SQLite). */
function startApp(dataDir: string, port: number, cache = true) {
  return Bun.spawn(["taskset", "-c", String(SERVER_CPU), exe, "serve", "--no-bootstrap", "--port", String(port), "--data", dataDir], {
    env: { ...SERVER_ENV, DOSSIER_CACHE: cache ? "on" : "off" },
    stdout: "ignore",
    stderr: "pipe",
  });
}

/** Start-up of the compiled executable to its first 200 on /healthz (spawn to answer), median of 3. */
async function measureStartup(dataDir: string): Promise<{ first: number; times: number[] }> {
  const times: number[] = [];
  let first = 0;
  for (let i = 0; i < 4; i++) {
    const port = await freePort();
    const t0 = performance.now();
    const proc = startApp(dataDir, port);
    await waitHealthy(`http://127.0.0.1:${port}/healthz`, 30_000, proc);
    // The first start after a build or a seed pays for cold page-cache reads of the 100+ MB
    // executable and of the file: reported apart, not in the median.
    if (i === 0) first = performance.now() - t0;
    else times.push(performance.now() - t0);
    await stop(proc);
  }
  return { first, times };
}

async function build() {
  log("building: npm run build");
  const proc = Bun.spawn(["npm", "run", "build"], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) {
    throw new Error(`npm run build failed (${code}):\n${(err || out).trim().split("\n").slice(-15).join("\n")}`);
  }
}

// ---------------------------------------------------------------------------------------------
// One N.

interface EndpointReport {
  endpoint: Endpoint;
  state: "ok" | "missing" | "failing";
  note?: string;
  runs: WrkResult[];
  raws: WrkResult[];
  ratios: number[];
  /** /healthz beside each measured run (the endpoints with `healthz`). */
  healthz: WrkResult[];
}
/** What one server (caches on, or DOSSIER_CACHE=off) measured. */
interface PhaseReport {
  endpoints: EndpointReport[];
  rawRuns: Record<"list" | "create", WrkResult[]>;
  mixed?: MixedReport;
  appHwmMb: number;
}
interface SizeReport extends PhaseReport {
  n: number;
  seed: SeedResult;
  firstStartMs: number;
  startupMs: number[];
  /** The read endpoints and the mixed day again with DOSSIER_CACHE=off. */
  nocache: PhaseReport;
  rawHwmMb: number;
  dbMb: number;
}

async function probe(base: string, key: string, endpoint: Endpoint, s: SeedResult): Promise<{ state: EndpointReport["state"]; note?: string }> {
  const spec = endpoint.spec(s);
  let method = "GET";
  let path: string;
  let body: string | undefined;
  if (spec.kind === "get") path = spec.paths[0];
  else if (spec.kind === "create") {
    method = "POST";
    path = spec.path;
    body = JSON.stringify({ type: "candidate", name: "Probe", email: `probe.${Date.now()}@example.com` });
  } else {
    method = "PATCH";
    path = spec.prefix + spec.ids[0];
    body = JSON.stringify({ current_stage_id: spec.stages[2] });
  }
  try {
    const res = await fetch(base + path, {
      method,
      body,
      headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}) },
    });
    const text = await res.text();
    if (res.status === endpoint.expect) {
      if (spec.kind === "get" && endpoint.name !== "get") {
        const json = JSON.parse(text);
        if (!json.meta || typeof json.meta.total !== "number") return { state: "failing", note: "no meta.total in the answer" };
        return { state: "ok", note: `total=${json.meta.total}` };
      }
      return { state: "ok" };
    }
    if (res.status === 404) return { state: "missing", note: `404 ${text.slice(0, 80)}` };
    return { state: "failing", note: `${res.status} ${text.slice(0, 120)}` };
  } catch (error) {
    return { state: "failing", note: (error as Error).message };
  }
}

async function warmUp(base: string, spec: RequestSpec, key?: string) {
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  const count = spec.kind === "get" ? WARMUP_REQUESTS.read : WARMUP_REQUESTS.write;
  const t0 = performance.now();
  for (let i = 0; i < count && performance.now() - t0 < WARMUP_MAX_MS; i++) {
    let res: Response;
    if (spec.kind === "get") res = await fetch(base + spec.paths[i % spec.paths.length], { headers });
    else if (spec.kind === "create") {
      const body = JSON.stringify({ type: "candidate", name: `Warm ${i}`, email: `warm.${Date.now()}.${i}@example.com` });
      res = await fetch(base + spec.path, { method: "POST", body, headers: { ...headers, "content-type": "application/json" } });
    } else {
      const body = JSON.stringify({ current_stage_id: spec.stages[i % spec.stages.length] });
      res = await fetch(base + spec.prefix + spec.ids[i % spec.ids.length], { method: "PATCH", body, headers: { ...headers, "content-type": "application/json" } });
    }
    await res.arrayBuffer();
  }
}

// Every size starts from the same memory state, a server started on a file that is not in the
// page cache (as after a reboot): the seed leaves gigabytes of just-written pages behind, which the
// kernel of this VM kind pages out once they are a minute old (bench/README.md, "Reading the
// numbers"), and that paging out would otherwise run during the N = 1,000,000 rounds.
// `dd iflag=nocache count=0` asks the kernel to drop the whole file (POSIX_FADV_DONTNEED).
async function dropFromPageCache(path: string) {
  const dd = Bun.spawn(["dd", `if=${path}`, "iflag=nocache", "count=0", "status=none"], { stdout: "ignore", stderr: "pipe" });
  const [err, code] = await Promise.all([new Response(dd.stderr).text(), dd.exited]);
  log(code === 0 ? `dropped ${path} from the page cache` : `could not drop ${path} from the page cache: ${err.trim()}`);
}

/** The servers of one N and how a phase drives them. */
interface Bench {
  s: SeedResult;
  wrk: string;
  workDir: string;
  rawBase: string;
  rawPid: number;
}

/** One wrk run; afterwards, waits until the server has worked off what wrk left queued (a slow
 * endpoint can leave seconds of work behind), so that the next run measures only itself. */
async function run(b: Bench, base: string, spec: RequestSpec, key: string | undefined, pid: number, secs: number) {
  const result = await runWrk({ wrk: b.wrk, workDir: b.workDir, baseUrl: base, spec, key, seconds: secs, connections, cpu: LOAD_CPU, serverPid: pid });
  await (await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(300_000) })).arrayBuffer();
  return result;
}

/** Several wrk at once (runWrkGroup), then the same wait as `run`. */
async function runGroup(b: Bench, base: string, roles: Role[], pid: number, secs: number) {
  const results = await runWrkGroup({ wrk: b.wrk, workDir: b.workDir, baseUrl: base, roles, seconds: secs, cpu: LOAD_CPU, serverPid: pid });
  await (await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(300_000) })).arrayBuffer();
  return results;
}

/** Probes, warms up and runs R rounds of `endpoints` on the app at `appBase` (each measured run
 * after `settleSeconds` of the same load, then its raw baseline the same way), then the mixed day
 * when it is selected. */
async function runPhase(b: Bench, appBase: string, appPid: number, endpoints: Endpoint[], withMixed: boolean, tag: string): Promise<Omit<PhaseReport, "appHwmMb">> {
  const { s, rawBase, rawPid } = b;
  const reports: EndpointReport[] = [];
  for (const endpoint of endpoints) {
    const result = await probe(appBase, s.key, endpoint, s);
    reports.push({ endpoint, ...result, runs: [], raws: [], ratios: [], healthz: [] });
    log(`${tag}probe ${endpoint.label}: ${result.state}${result.note ? ` (${result.note})` : ""}`);
  }
  const live = reports.filter((r) => r.state === "ok");
  // The measured run comes right after `settleSeconds` of the same load, which is not measured.
  const settledRun = async (base: string, spec: RequestSpec, key: string | undefined, pid: number) => {
    if (settleSeconds > 0) await run(b, base, spec, key, pid, settleSeconds);
    return run(b, base, spec, key, pid, seconds);
  };
  // The same, with /healthz probed beside the measured run.
  const settledWithHealthz = async (spec: RequestSpec) => {
    if (settleSeconds > 0) await run(b, appBase, spec, s.key, appPid, settleSeconds);
    const [mine, healthz] = await runGroup(b, appBase, [{ spec, key: s.key, connections }, HEALTHZ], appPid, seconds);
    return { mine, healthz };
  };

  // Warm-up: sequential requests to each endpoint and each raw baseline, so that the JIT and the
  // page cache are hot before the first measured round.
  log(`${tag}warm-up`);
  for (const r of live) await warmUp(appBase, r.endpoint.spec(s), s.key);
  for (const kind of ["list", "create"] as const) await warmUp(rawBase, RAW[kind].spec);

  const rawRuns: Record<"list" | "create", WrkResult[]> = { list: [], create: [] };
  for (let round = 1; round <= rounds && live.length > 0; round++) {
    for (const r of live) {
      await waitForRateRoom(appBase, s.key, log);
      let mine: WrkResult;
      if (r.endpoint.healthz) {
        const both = await settledWithHealthz(r.endpoint.spec(s));
        mine = both.mine;
        r.healthz.push(both.healthz);
      } else {
        mine = await settledRun(appBase, r.endpoint.spec(s), s.key, appPid);
      }
      const base = await settledRun(rawBase, RAW[r.endpoint.raw].spec, undefined, rawPid);
      r.runs.push(mine);
      r.raws.push(base);
      rawRuns[r.endpoint.raw].push(base);
      r.ratios.push(mine.rps / base.rps);
      if (mine.requests === 0) r.note = `no answer within a ${seconds} s run (every request took longer)`;
      if (base.non2xx + base.socketErrors > 0) log(`raw ${r.endpoint.raw}: ${base.non2xx} non-2xx, ${base.socketErrors} socket errors${base.firstError ? `: ${base.firstError}` : ""}`);
      if (mine.non2xx > 0 || mine.socketErrors > 0) {
        // More than 1 % failed answers: the run measured errors, not the endpoint.
        if (mine.non2xx + mine.socketErrors > 0.01 * mine.requests) r.state = "failing";
        r.note = `${mine.non2xx} non-2xx, ${mine.socketErrors} socket errors in round ${round}${mine.firstError ? `: ${mine.firstError}` : ""}`;
        log(`${r.endpoint.label}: ${r.note}`);
      }
    }
    log(`${tag}round ${round}/${rounds}: ${live.map((r) => `${r.endpoint.name}=${r.runs.at(-1)!.rps.toFixed(0)}/${r.raws.at(-1)!.rps.toFixed(0)}`).join(" ")}`);
  }
  const mixed = withMixed ? await mixedDay(b, appBase, appPid, tag) : undefined;
  return { endpoints: reports, rawRuns, mixed };
}

/** R rounds of: the reads alone, the reads beside paced writes, the reads beside writes flat out,
 * each after `settleSeconds` of the same load. */
async function mixedDay(b: Bench, appBase: string, appPid: number, tag: string): Promise<MixedReport> {
  const { s } = b;
  const roles: Record<MixedLoad, MixedRole[]> = {
    alone: mixedRoles(s, undefined).filter((r) => !r.write),
    paced: mixedRoles(s, MIXED.pauseMs),
    flat: mixedRoles(s, undefined),
  };
  const report: MixedReport = {
    loads: { alone: { roles: roles.alone, rounds: [] }, paced: { roles: roles.paced, rounds: [] }, flat: { roles: roles.flat, rounds: [] } },
    notes: [],
    failing: false,
  };
  log(`${tag}mixed day: warm-up`);
  for (const role of roles.flat) await warmUp(appBase, role.spec, s.key);
  for (let round = 1; round <= rounds; round++) {
    for (const load of MIXED_LOADS) {
      await waitForRateRoom(appBase, s.key, log);
      if (settleSeconds > 0) await runGroup(b, appBase, roles[load], appPid, settleSeconds);
      const results = await runGroup(b, appBase, roles[load], appPid, seconds);
      report.loads[load].rounds.push(results);
      results.forEach((result, i) => {
        const bad = result.non2xx + result.socketErrors;
        if (bad === 0) return;
        if (bad > 0.01 * result.requests) report.failing = true;
        const note = `${load}, ${roles[load][i].label}: ${result.non2xx} non-2xx, ${result.socketErrors} socket errors in round ${round}${result.firstError ? `: ${result.firstError}` : ""}`;
        report.notes.push(note);
        log(note);
      });
    }
    const rps = (load: MixedLoad) => report.loads[load].rounds.at(-1)!.map((r) => r.rps.toFixed(0)).join("/");
    log(`${tag}mixed round ${round}/${rounds}: alone ${rps("alone")}, paced ${rps("paced")}, flat ${rps("flat")} req/s (list/get/create/patch)`);
  }
  return report;
}

async function benchSize(n: number, wrk: string): Promise<SizeReport> {
  const dataDir = join(dataRoot, `n${n}`);
  let s: SeedResult;
  const cacheFile = join(dataRoot, `n${n}.seed.json`);
  if (has("reuse") && existsSync(cacheFile) && existsSync(join(dataDir, "dossier.db"))) {
    s = JSON.parse(readFileSync(cacheFile, "utf8"));
    log(`N=${n}: reusing ${dataDir}`);
  } else {
    log(`N=${n}: seeding ${dataDir}`);
    // The seed's progress line (phase and rows done, redrawn in place) on a terminal only: a log
    // file or a pipe gets the plain timestamped lines alone.
    s = await seed({ exe, dataDir, n, log, progress: process.stderr.isTTY === true });
    writeFileSync(cacheFile, JSON.stringify(s));
  }
  // About 1,000 overdue tasks a second are made: at N = 1,000,000 that takes minutes, once.
  log(`N=${n}: start-up work done (load.ts, settle) in ${(await settle(exe, dataDir, Math.max(180, n / 1000))).toFixed(1)} s`);
  const dbMb = Bun.file(s.dbPath).size / 1048576;
  await dropFromPageCache(s.dbPath);

  const { first: firstStartMs, times: startupMs } = await measureStartup(dataDir);
  log(`N=${n}: start-up to 200 on /healthz: first ${firstStartMs.toFixed(0)} ms, then ${startupMs.map((t) => t.toFixed(0)).join(", ")} ms`);

  const workDir = join(dataRoot, "lua");
  mkdirSync(workDir, { recursive: true });
  const chosen = ENDPOINTS.filter((e) => selected(e.name));
  const withMixed = selected("mixed");
  // The app as it runs by default, then with DOSSIER_CACHE=off for every read figure again. Each
  // phase starts the app and the raw baseline afresh and stops both (a server of one phase never
  // shares the file with a server of the other).
  const phases: (PhaseReport & { rawHwmMb: number })[] = [];
  for (const cache of [true, false]) {
    const endpoints = cache ? chosen : chosen.filter((e) => e.spec(s).kind === "get");
    if (!cache && endpoints.length === 0 && !withMixed) break; // --only left no read to measure
    const rawPort = await freePort();
    const appPort = await freePort();
    const raw = Bun.spawn(
      ["taskset", "-c", String(SERVER_CPU), process.execPath, join(ROOT, "bench", "raw-server.ts"), "--data", dataDir, "--org", s.organizationId, "--port", String(rawPort)],
      { env: SERVER_ENV, stdout: "ignore", stderr: "pipe" },
    );
    const app = startApp(dataDir, appPort, cache);
    try {
      const rawBase = `http://127.0.0.1:${rawPort}`;
      const appBase = `http://127.0.0.1:${appPort}`;
      await waitHealthy(`${rawBase}/healthz`, 30_000, raw);
      await waitHealthy(`${appBase}/healthz`, 30_000, app);
      const b: Bench = { s, wrk, workDir, rawBase, rawPid: raw.pid };
      const phase = await runPhase(b, appBase, app.pid, endpoints, withMixed, cache ? "" : "DOSSIER_CACHE=off: ");
      phases.push({ ...phase, appHwmMb: hwmMb(app.pid), rawHwmMb: hwmMb(raw.pid) });
    } finally {
      await stop(app);
      await stop(raw);
    }
  }
  const [on, off = { endpoints: [], rawRuns: { list: [], create: [] }, appHwmMb: 0 }] = phases;
  return { n, seed: s, firstStartMs, startupMs, ...on, nocache: off, dbMb };
}

// ---------------------------------------------------------------------------------------------
// Reporting.

const fmt = (x: number, digits = 0) => (Number.isFinite(x) ? x.toFixed(digits) : "n/a");

function targetOf(e: Endpoint): number | undefined {
  return e.group === "list" ? TARGET.list : e.group === "filtered" ? TARGET.filtered : e.group === "create" ? TARGET.create : e.group === "search" ? TARGET.search : undefined;
}

function sizeTable(r: PhaseReport): string {
  const rows: string[] = [
    `| endpoint | req/s | p50 ms | p99 ms | RSS MB | ratio to raw | target | |`,
    `|---|---:|---:|---:|---:|---:|---:|---|`,
  ];
  for (const e of r.endpoints) {
    if (e.state !== "ok") {
      rows.push(`| ${e.endpoint.label} | ${e.state === "missing" ? "missing (404)" : "failing"} | | | | | | ${e.note ?? ""} |`);
      continue;
    }
    const ratio = median(e.ratios);
    const target = targetOf(e.endpoint);
    const verdict = target === undefined ? "" : ratio >= target ? "met" : `**not met** (${fmt((ratio / target) * 100)} % of target)`;
    rows.push(
      `| ${e.endpoint.label} | ${fmt(median(e.runs.map((x) => x.rps)))} | ${fmt(median(e.runs.map((x) => x.p50ms)), 2)} | ` +
        `${fmt(median(e.runs.map((x) => x.p99ms)), 2)} | ${fmt(Math.max(...e.runs.map((x) => x.rssMaxMb)))} | ` +
        `${fmt(ratio, 2)} vs raw ${e.endpoint.raw} | ${target === undefined ? "" : "≥ " + target} | ${verdict}${e.note ? ` ${e.note}` : ""} |`,
    );
    if (e.healthz.length > 0) {
      const p99 = median(e.healthz.map((x) => x.p99ms));
      const failed = e.healthz.reduce((sum, x) => sum + x.non2xx + x.socketErrors, 0);
      rows.push(
        `| GET /healthz beside it (1 connection, ${HEALTHZ.pauseMs} ms pauses) | ${fmt(median(e.healthz.map((x) => x.rps)))} | ` +
          `${fmt(median(e.healthz.map((x) => x.p50ms)), 2)} | ${fmt(p99, 2)} | | | p99 ≤ ${TARGET18.healthzP99Ms} ms | ` +
          `${p99 <= TARGET18.healthzP99Ms ? "met" : "**not met**"}${failed > 0 ? ` ${failed} failed answers` : ""} |`,
      );
    }
  }
  for (const kind of ["list", "create"] as const) {
    const runs = r.rawRuns[kind];
    if (runs.length === 0) continue;
    rows.push(
      `| *${RAW[kind].label}* | ${fmt(median(runs.map((x) => x.rps)))} | ${fmt(median(runs.map((x) => x.p50ms)), 2)} | ` +
        `${fmt(median(runs.map((x) => x.p99ms)), 2)} | ${fmt(Math.max(...runs.map((x) => x.rssMaxMb)))} | 1 | | |`,
    );
  }
  return rows.join("\n");
}

function groupRatio(r: PhaseReport, group: Endpoint["group"]): number {
  const values = r.endpoints.filter((e) => e.endpoint.group === group).map((e) => (e.state === "ok" ? median(e.ratios) : 0));
  return values.length === 0 ? 0 : Math.min(...values);
}

/** Median over the rounds of a read role's figure under `load` against the same role alone. */
function mixedVsAlone(m: MixedReport, load: "paced" | "flat", role: number, figure: "rps" | "p99ms"): number {
  const rounds = m.loads[load].rounds;
  return median(rounds.map((results, i) => results[role][figure] / m.loads.alone.rounds[i][role][figure]));
}

/** Writes per second under `load` (creates and stage moves together), median over the rounds. */
function mixedWrites(m: MixedReport, load: "paced" | "flat"): number {
  const { roles, rounds } = m.loads[load];
  return median(rounds.map((results) => results.reduce((sum, x, i) => sum + (roles[i].write ? x.rps : 0), 0)));
}

const READ_ROLES = [0, 1]; // mixedRoles puts the two readers first

/** The `mixed` ratio: the worse reader's req/s beside paced writes against alone (0 when not run). */
function mixedRatio(m: MixedReport | undefined): number {
  if (!m || m.failing || m.loads.alone.rounds.length === 0) return 0;
  return Math.min(...READ_ROLES.map((role) => mixedVsAlone(m, "paced", role, "rps")));
}

function mixedTable(m: MixedReport): string {
  const rows = [
    `| load | request | connections | req/s | p50 ms | p99 ms | req/s vs alone | p99 vs alone |`,
    `|---|---|---:|---:|---:|---:|---:|---:|`,
  ];
  const title: Record<MixedLoad, string> = {
    alone: "reads alone",
    paced: `beside paced writes (${MIXED.pauseMs} ms pause per connection)`,
    flat: "beside writes flat out",
  };
  for (const load of MIXED_LOADS) {
    const { roles, rounds } = m.loads[load];
    roles.forEach((role, i) => {
      const results = rounds.map((x) => x[i]);
      const vs = load !== "alone" && !role.write
        ? `${fmt(mixedVsAlone(m, load, i, "rps"), 2)} | ${fmt(mixedVsAlone(m, load, i, "p99ms"), 2)}×`
        : " | ";
      rows.push(
        `| ${title[load]} | ${role.label} | ${role.connections} | ${fmt(median(results.map((x) => x.rps)))} | ` +
          `${fmt(median(results.map((x) => x.p50ms)), 2)} | ${fmt(median(results.map((x) => x.p99ms)), 2)} | ${vs} |`,
      );
    });
    if (load !== "alone") rows.push(`| ${title[load]} | *writes (creates + stage moves)* | ${MIXED.creators + MIXED.movers} | ${fmt(mixedWrites(m, load))} | | | | |`);
  }
  return rows.join("\n") + (m.notes.length > 0 ? `\n\n${m.failing ? "**failing** (over 1 % failed answers): " : ""}${m.notes.join("; ")}` : "");
}

/** Issue 18's targets against this N's figures. */
function targets18(r: SizeReport): string {
  const verdict = (ok: boolean) => (ok ? "met" : "**not met**");
  const rows = [`| target (issue 18) | result | |`, `|---|---|---|`];
  const create = r.endpoints.find((e) => e.endpoint.name === "create");
  if (create?.state === "ok") {
    const ratio = median(create.ratios);
    rows.push(`| POST /dossiers at ${connections} connections ≥ ${TARGET18.create} × the raw create (one per transaction, synchronous=FULL) | ${fmt(ratio, 2)} | ${verdict(ratio >= TARGET18.create)} |`);
    const p99 = median(create.healthz.map((x) => x.p99ms));
    rows.push(`| /healthz p99 under that load ≤ ${TARGET18.healthzP99Ms} ms | ${fmt(p99, 2)} ms | ${verdict(p99 <= TARGET18.healthzP99Ms)} |`);
  } else rows.push(`| POST /dossiers ≥ ${TARGET18.create} × the raw create; /healthz p99 ≤ ${TARGET18.healthzP99Ms} ms | ${create ? create.state : "not run"} | |`);
  const m = r.mixed;
  if (m && !m.failing && m.loads.alone.rounds.length > 0) {
    const each = (load: "paced" | "flat", figure: "rps" | "p99ms") => READ_ROLES.map((role) => mixedVsAlone(m, load, role, figure));
    const pacedRps = each("paced", "rps");
    const pacedP99 = each("paced", "p99ms");
    const flatRps = each("flat", "rps");
    const both = (values: number[], unit = "") => `list ${fmt(values[0], 2)}${unit}, get ${fmt(values[1], 2)}${unit}`;
    rows.push(`| mixed, paced writes: reads ≥ ${TARGET18.pacedReads} × alone (req/s) | ${both(pacedRps)} | ${verdict(Math.min(...pacedRps) >= TARGET18.pacedReads)} |`);
    rows.push(`| mixed, paced writes: read p99 ≤ ${TARGET18.pacedP99} × alone | ${both(pacedP99, "×")} | ${verdict(Math.max(...pacedP99) <= TARGET18.pacedP99)} |`);
    rows.push(`| mixed, writes flat out: reads ≥ ${TARGET18.flatReads} × alone (req/s) | ${both(flatRps)} | ${verdict(Math.min(...flatRps) >= TARGET18.flatReads)} |`);
    const rawCreate = median(r.rawRuns.create.map((x) => x.rps));
    const writes = mixedWrites(m, "flat");
    const vsRaw = writes / rawCreate;
    const before = writesBefore === undefined
      ? "the run before the store rewrite: give its ratio with `--writes-before`"
      : verdict(vsRaw >= TARGET18.flatWrites * writesBefore) + ` (before: ${writesBefore} × raw create)`;
    rows.push(
      `| mixed, writes flat out ≥ ${TARGET18.flatWrites} × today's | ${fmt(writes)} writes/s (${fmt(mixedWrites(m, "paced"))} paced) = ${fmt(vsRaw, 2)} × the raw create's ${fmt(rawCreate)} req/s | ${before} |`,
    );
  } else rows.push(`| mixed day | ${m ? "**failing**" : "not run"} | |`);
  const list = r.nocache.endpoints.find((e) => e.endpoint.name === "list");
  if (list?.state === "ok") {
    const ratio = median(list.ratios);
    rows.push(`| GET /dossiers with DOSSIER_CACHE=off ≥ ${TARGET18.nocacheList} × the raw list | ${fmt(ratio, 2)} | ${verdict(ratio >= TARGET18.nocacheList)} |`);
  } else rows.push(`| GET /dossiers with DOSSIER_CACHE=off ≥ ${TARGET18.nocacheList} × the raw list | ${list ? list.state : "not run"} | |`);
  return rows.join("\n");
}

async function machine(): Promise<string> {
  const model = cpus()[0]?.model ?? "unknown";
  const cpuinfo = readFileSync("/proc/cpuinfo", "utf8");
  const mhz = /cpu MHz\s*:\s*([\d.]+)/.exec(cpuinfo)?.[1];
  const nproc = (await new Response(Bun.spawn(["nproc"], { stdout: "pipe" }).stdout).text()).trim();
  const kernel = readFileSync("/proc/version", "utf8").split(" ").slice(0, 3).join(" ");
  let commit = "unknown";
  try {
    const out = await new Response(Bun.spawn(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], { stdout: "pipe", stderr: "ignore" }).stdout).text();
    const dirty = (await new Response(Bun.spawn(["git", "-C", ROOT, "status", "--porcelain"], { stdout: "pipe", stderr: "ignore" }).stdout).text()).trim();
    commit = out.trim() + (dirty ? " (with uncommitted changes)" : "");
  } catch {
    // not a git checkout
  }
  const { Database } = await import("bun:sqlite");
  const sqliteVersion = (new Database(":memory:").query("SELECT sqlite_version() AS v").get() as { v: string }).v;
  return [
    `- Machine: ${nproc} CPUs (nproc), ${model}${mhz ? ` @ ${Number(mhz).toFixed(0)} MHz` : ""}, ${(totalmem() / 1073741824).toFixed(1)} GB RAM; ${kernel}`,
    `- Bun ${Bun.version}, SQLite ${sqliteVersion}, wrk (1 thread, ${connections} connections); commit ${commit}`,
    `- Server (\`dist/dossier serve\`, DOSSIER_LOG=off) and raw baseline pinned to CPU ${SERVER_CPU}; wrk pinned to CPU ${LOAD_CPU}; 127.0.0.1`,
    `- ${rounds} interleaved rounds of ${seconds} s per endpoint (each followed by its raw baseline), after a warm-up of up to ${WARMUP_REQUESTS.read} sequential requests per read endpoint (${WARMUP_REQUESTS.write} per write, at most ${WARMUP_MAX_MS} ms each)${settleSeconds > 0 ? `; every measured run, the app's and the raw baseline's, right after ${settleSeconds} s of the same load that is not measured` : ""}; medians`,
    `- Mixed day: one wrk per role at once (${MIXED.listConnections} connections on GET /dossiers, ${MIXED.getConnections} on GET /dossiers/{id}, ${MIXED.creators} creating, ${MIXED.movers} moving stages), ${rounds} rounds of ${seconds} s of the reads alone, beside writes pausing ${MIXED.pauseMs} ms per connection, beside writes flat out`,
    `- Then the same server with DOSSIER_CACHE=off (one server at a time on the data folder): every read endpoint with its raw baseline, and the mixed day, again`,
  ].join("\n");
}

function sizeSection(r: SizeReport): string {
  const s = r.seed;
  return [
    `### N = ${r.n.toLocaleString("en-US")}`,
    "",
    `Seeded in ${s.seconds.total.toFixed(1)} s (rows ${s.seconds.rows.toFixed(1)} s, indexes ${s.seconds.indexes.toFixed(1)} s): ` +
      `${Object.entries(s.counts).map(([t, c]) => `${t} ${c.toLocaleString("en-US")}`).join(", ")}; database file ${r.dbMb.toFixed(0)} MB. ` +
      `Search terms (matches): ${s.searchTerms.map((t) => `\`${t.term}\` (${t.matches})`).join(", ")}.`,
    "",
    `Start-up of \`dist/dossier serve\` to a 200 on /healthz: ${r.startupMs.map((t) => t.toFixed(0)).join(", ")} ms ` +
      `(median ${median(r.startupMs).toFixed(0)} ms; the very first start after the seed took ${r.firstStartMs.toFixed(0)} ms; target < ${TARGET.startupMs} ms with the 1M file). ` +
      `Server VmHWM after the run: ${r.appHwmMb.toFixed(0)} MB (raw baseline ${r.rawHwmMb.toFixed(0)} MB); target RSS < ${TARGET.rssMb} MB.`,
    "",
    sizeTable(r),
    "",
    ...(r.mixed ? [`#### Mixed day`, "", mixedTable(r.mixed), ""] : []),
    ...(r.nocache.endpoints.length > 0 ? [`#### Reads with DOSSIER_CACHE=off`, "", `Server VmHWM after these runs: ${r.nocache.appHwmMb.toFixed(0)} MB.`, "", sizeTable(r.nocache), ""] : []),
    ...(r.nocache.mixed ? [`#### Mixed day with DOSSIER_CACHE=off`, "", mixedTable(r.nocache.mixed), ""] : []),
    `#### Issue 18's targets`,
    "",
    targets18(r),
    "",
  ].join("\n");
}

function growthTable(reports: SizeReport[]): string {
  const small = reports.find((r) => r.n === Math.min(...reports.map((x) => x.n)))!;
  const big = reports.find((r) => r.n === Math.max(...reports.map((x) => x.n)))!;
  if (small === big) return "";
  const rows = [
    `### p99 at N = ${big.n.toLocaleString("en-US")} vs N = ${small.n.toLocaleString("en-US")} (target ≤ ${TARGET.p99Growth}×)`,
    "",
    `| endpoint | p99 ms (${small.n}) | p99 ms (${big.n}) | growth | |`,
    `|---|---:|---:|---:|---|`,
  ];
  for (const e of big.endpoints) {
    const other = small.endpoints.find((x) => x.endpoint.name === e.endpoint.name)!;
    if (e.state !== "ok" || other.state !== "ok") {
      rows.push(`| ${e.endpoint.label} | ${other.state} | ${e.state} | | |`);
      continue;
    }
    const a = median(other.runs.map((x) => x.p99ms));
    const b = median(e.runs.map((x) => x.p99ms));
    const none = (runs: WrkResult[]) => runs.some((x) => x.requests === 0);
    if (none(e.runs) || none(other.runs)) {
      rows.push(`| ${e.endpoint.label} | ${none(other.runs) ? "no answer" : fmt(a, 2)} | ${none(e.runs) ? "no answer within the run" : fmt(b, 2)} | | **not met** |`);
      continue;
    }
    rows.push(`| ${e.endpoint.label} | ${fmt(a, 2)} | ${fmt(b, 2)} | ${fmt(b / a, 2)}× | ${b / a <= TARGET.p99Growth ? "met" : "**not met**"} |`);
  }
  return rows.join("\n") + "\n";
}

function writeReport(section: string, body: string) {
  const doc = existsSync(outFile)
    ? readFileSync(outFile, "utf8")
    : "# Performance\n\nMeasured with `npm run bench` (bench/README.md). Issue 6's targets: list ≥ 0.85 of the raw list, filtered lists ≥ 0.80, create ≥ 0.60 of the raw create, contact search ≥ 0.50 of the raw list; p99 at 1M ≤ 1.5 × p99 at 10k; RSS < 150 MB; start-up < 300 ms.\n\n";
  writeFileSync(outFile, replaceSection(doc, section, body));
}

// ---------------------------------------------------------------------------------------------

try {
  const wrk = await ensureWrk(log);
  if (!has("no-build")) await build();
  if (!existsSync(exe)) throw new Error(`${exe} is missing: run npm run build`);
  mkdirSync(dataRoot, { recursive: true });
  const reports: SizeReport[] = [];
  for (const n of sizes) reports.push(await benchSize(n, wrk));

  const when = new Date().toISOString();
  const body = [
    `## ${quick ? "Quick run" : "Full run"} (${when}, ${((performance.now() - started) / 1000).toFixed(0)} s)`,
    "",
    await machine(),
    "",
    ...reports.map(sizeSection),
    growthTable(reports),
  ].join("\n");
  writeReport(quick ? "quick" : "full", body);
  process.stdout.write("\n" + body + "\n");
  log(`written to ${outFile}`);
  // One ratios line per N, the largest N's last (with --quick the only one, N = 10,000). `filtered`
  // is the worst of the three filters; an endpoint that is missing counts as 0.
  // `mixed`: the worse reader beside paced writes against the same reads alone; `nocache_list`: the
  // list with DOSSIER_CACHE=off against the raw list.
  const ratios = (r: SizeReport) =>
    `list=${fmt(groupRatio(r, "list"), 2)} filtered=${fmt(groupRatio(r, "filtered"), 2)} create=${fmt(groupRatio(r, "create"), 2)} search=${fmt(groupRatio(r, "search"), 2)} ` +
    `mixed=${fmt(mixedRatio(r.mixed), 2)} nocache_list=${fmt(groupRatio(r.nocache, "list"), 2)}`;
  for (const r of reports.slice(0, -1)) process.stdout.write(`ratios at N=${r.n}: ${ratios(r)}\n`);
  process.stdout.write(`ratios: ${ratios(reports.at(-1)!)}\n`);
} catch (error) {
  process.stderr.write(`bench: ${(error as Error).message}\n`);
  process.exit(1);
}
