// `npm run bench -- --against <commit>` (issue 33, point 1): a regression guard. Builds the other
// commit's executable in a temporary git worktree (its own `npm ci` unless its lockfile is this
// checkout's, its own `npm run build`) and measures it and this checkout's `dist/dossier` on the
// same data in one run, alternately, endpoint by endpoint. Prints `vs <sha>: name=new/old ...` and
// `vs <sha> (cache off): ...`, and writes a table between `bench:against-<sha>` markers of
// docs/performance.md. See bench/README.md, "Against a release".
//
// The same data: the other commit's own bench/seed.ts seeds one folder into its own schema (the
// seed writes SQLite directly, so today's seed would not fit an older schema); each executable
// then gets a copy of that folder, which the newer one migrates when it starts. Same rows, same
// ids, same API key in both. The executable and the seeded folder are kept under the data root by
// commit hash (`against-<sha>/dossier`, `against-<sha>/nN`) and reused by later runs; the worktree
// is removed at the end. This checkout's copy is migrated once and its start-up work done before
// the phases (settledCopy): what a running server has done once, not what every request pays.
import { chmodSync, copyFileSync, cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { replaceSection } from "./doc-section";
import { ensureWrk, freePort, median, runWrkGroup, settle, stop, waitForRateRoom, waitHealthy, type RequestSpec, type Role, type WrkResult } from "./load";
import type { SeedResult } from "./seed";

const ROOT = resolve(import.meta.dir, "..");
const API = "/api/v1";
const SERVER_CPU = 0;
const LOAD_CPU = 1;

/** The releases docs/performance.md names. */
export const RELEASES: Record<string, string> = { "59a0f0d": "the end of round 1", "28fc124": "the end of round 2" };

/** The commits of every `--against C` or `--against=C` (repeated, or comma lists), in order, once each. */
export function parseAgainst(argv: string[]): string[] {
  const commits: string[] = [];
  argv.forEach((arg, i) => {
    let value: string | undefined;
    if (arg === "--against") value = argv[i + 1];
    else if (arg.startsWith("--against=")) value = arg.slice("--against=".length);
    else return;
    if (!value || value.startsWith("--")) throw new Error("--against needs a commit (a hash, a tag or a branch)");
    for (const commit of value.split(",").map((c) => c.trim()).filter(Boolean)) if (!commits.includes(commit)) commits.push(commit);
  });
  return commits;
}

/** `vs LABEL: a=1.02 b=0.97 ...`; a figure not measured (missing, failing, not selected) is `n/a`. */
export function ratioLine(label: string, ratios: [string, number | undefined][]): string {
  const fmt = (r: number | undefined) => (r === undefined || !Number.isFinite(r) ? "n/a" : r.toFixed(2));
  return `vs ${label}: ${ratios.map(([name, r]) => `${name}=${fmt(r)}`).join(" ")}`;
}

// ---------------------------------------------------------------------------------------------
// What is measured.

/** What the requests need from the seeded folder (the same in both copies). */
interface Ids {
  seed: SeedResult;
  contactIds: string[];
}

interface Case {
  name: string;
  label: string;
  expect: number;
  /** Left out of the cache-off phase (a write: the caches are what the reads skip). */
  write?: boolean;
  spec: (ids: Ids) => RequestSpec;
}

const get = (...paths: string[]): RequestSpec => ({ kind: "get", paths });
const patchStage = ({ seed }: Ids): RequestSpec => ({
  kind: "patch-stage", prefix: `${API}/dossiers/`, ids: seed.sampleCandidateIds, stages: seed.flows.candidate.stages.map((s) => s.id),
});

export const CASES: Case[] = [
  { name: "list", label: "GET /dossiers (25 rows)", expect: 200, spec: () => get(`${API}/dossiers`) },
  { name: "list50", label: "GET /dossiers?per_page=50", expect: 200, spec: () => get(`${API}/dossiers?per_page=50`) },
  { name: "list100", label: "GET /dossiers?per_page=100", expect: 200, spec: () => get(`${API}/dossiers?per_page=100`) },
  { name: "deep", label: "GET /dossiers?page=1000", expect: 200, spec: () => get(`${API}/dossiers?page=1000`) },
  { name: "filtered", label: "GET /dossiers?type=sales&status=active", expect: 200, spec: () => get(`${API}/dossiers?type=sales&status=active`) },
  { name: "won", label: "GET /dossiers?status=won", expect: 200, spec: () => get(`${API}/dossiers?status=won`) },
  { name: "q", label: "GET /dossiers?q=(mid-word)", expect: 200, spec: ({ seed }) => get(...seed.searchTerms.map((t) => `${API}/dossiers?q=${t.term}`)) },
  { name: "get", label: "GET /dossiers/{id}", expect: 200, spec: ({ seed }) => get(...seed.sampleIds.map((id) => `${API}/dossiers/${id}`)) },
  { name: "contact", label: "GET /contacts/{id}", expect: 200, spec: ({ contactIds }) => get(...contactIds.map((id) => `${API}/contacts/${id}`)) },
  { name: "notes", label: "GET /dossiers/{id}/notes", expect: 200, spec: ({ seed }) => get(...seed.sampleIds.map((id) => `${API}/dossiers/${id}/notes`)) },
  { name: "flows", label: "GET /flows", expect: 200, spec: () => get(`${API}/flows`) },
  { name: "search", label: "GET /contacts?search=(mid-word)", expect: 200, spec: ({ seed }) => get(...seed.searchTerms.map((t) => `${API}/contacts?search=${t.term}`)) },
  { name: "create", label: "POST /dossiers (JSON)", expect: 201, write: true, spec: () => ({ kind: "create", path: `${API}/dossiers` }) },
  { name: "patch", label: "PATCH /dossiers/{id} (stage)", expect: 200, write: true, spec: patchStage },
];

// The mixed day, short: 16 readers alternating a 50-row page and a dossier by id, alone, then
// beside 4 writers flat out (2 creating, 2 moving candidates to the next stage).
const MIXED = { readers: 16, creators: 2, movers: 2 };
const MIXED_FIGURES = [
  { name: "mixed", label: "mixed day: reads alone (req/s)" },
  { name: "mixed_reads", label: "mixed day: reads beside 4 writers flat out (req/s)" },
  { name: "mixed_writes", label: "mixed day: writes beside the reads (writes/s)" },
];
export const NAMES = [...CASES.map((c) => c.name), "mixed"];

function mixedRoles(ids: Ids, key: string): { readers: Role; writers: Role[] } {
  const paths = ids.seed.sampleIds.flatMap((id) => [`${API}/dossiers?per_page=50`, `${API}/dossiers/${id}`]);
  return {
    readers: { spec: { kind: "get", paths }, key, connections: MIXED.readers },
    writers: [
      { spec: { kind: "create", path: `${API}/dossiers` }, key, connections: MIXED.creators },
      { spec: patchStage(ids), key, connections: MIXED.movers },
    ],
  };
}

/** One row of the table: per round, the new and the old executable's figure, and their ratio. */
interface Row {
  name: string;
  label: string;
  state: "ok" | "missing" | "failing" | "not run";
  note?: string;
  fresh: { rps: number; p99ms: number }[];
  old: { rps: number; p99ms: number }[];
  ratios: number[];
}

// ---------------------------------------------------------------------------------------------
// Processes.

interface Options {
  quick: boolean;
  n: number;
  seconds: number;
  rounds: number;
  settle: number;
  connections: number;
  only?: string[];
  build: boolean;
  dataRoot: string;
  outFile: string;
  log: (line: string) => void;
}

async function sh(command: string[], cwd = ROOT, env?: Record<string, string | undefined>): Promise<string> {
  const proc = Bun.spawn(command, { cwd, stdout: "pipe", stderr: "pipe", env: env ?? process.env });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`${command.join(" ")} (in ${cwd}) exited ${code}:\n${(err || out).trim().split("\n").slice(-15).join("\n")}`);
  return out;
}

/** One executable under test, on its own copy of the data. */
interface Side {
  tag: "new" | "old";
  exe: string;
  dir: string;
  /** The folder each phase copies: the other commit's seed, or this checkout's settled copy of it. */
  pristine: string;
  /** Whether it reads DOSSIER_CACHE (59a0f0d does not: its caches are always on). */
  hasCacheSwitch: boolean;
  proc?: Bun.Subprocess;
  base: string;
}

async function start(side: Side, cacheOff: boolean) {
  rmSync(side.dir, { recursive: true, force: true });
  cpSync(side.pristine, side.dir, { recursive: true });
  const port = await freePort();
  side.base = `http://127.0.0.1:${port}`;
  side.proc = Bun.spawn(["taskset", "-c", String(SERVER_CPU), side.exe, "serve", "--no-bootstrap", "--port", String(port), "--data", side.dir], {
    env: { ...process.env, DOSSIER_LOG: "off", DOSSIER_LOG_LEVEL: "warn", DOSSIER_CACHE: cacheOff ? "off" : "on" },
    stdout: "ignore",
    stderr: "inherit",
  });
  // The newer executable migrates the older schema's copy on its first start.
  await waitHealthy(`${side.base}/healthz`, 120_000, side.proc);
}

/** This checkout's copy of the other commit's seed, migrated and with its start-up work done
 * (load.ts, settle): made once per run, copied by every phase. */
async function settledCopy(exe: string, pristine: string, dir: string, log: (line: string) => void): Promise<string> {
  rmSync(dir, { recursive: true, force: true });
  cpSync(pristine, dir, { recursive: true });
  log(`this checkout: migrated and settled its copy in ${(await settle(exe, dir)).toFixed(1)} s`);
  return dir;
}

/** One request of `spec` (the i-th): for probes and the warm-up. */
async function oneRequest(base: string, key: string, spec: RequestSpec, i: number): Promise<Response> {
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  if (spec.kind === "get") return fetch(base + spec.paths[i % spec.paths.length], { headers });
  if (spec.kind === "create") {
    const body = JSON.stringify({ type: "candidate", name: `Warm ${i}`, email: `warm.${Date.now()}.${i}@example.com` });
    return fetch(base + spec.path, { method: "POST", body, headers });
  }
  const body = JSON.stringify({ current_stage_id: spec.stages[(i + 2) % spec.stages.length] });
  return fetch(base + spec.prefix + spec.ids[i % spec.ids.length], { method: "PATCH", body, headers });
}

async function warmUp(base: string, key: string, spec: RequestSpec) {
  const t0 = performance.now();
  for (let i = 0; i < 200 && performance.now() - t0 < 500; i++) await (await oneRequest(base, key, spec, i)).arrayBuffer();
}

// ---------------------------------------------------------------------------------------------
// The other commit: built once, seeded once, both kept by hash.

interface Other {
  sha: string;
  short: string;
  exe: string;
  pristine: string;
  seed: SeedResult;
  hasCacheSwitch: boolean;
}

async function prepareOther(commit: string, o: Options): Promise<Other> {
  const sha = (await sh(["git", "rev-parse", "--verify", `${commit}^{commit}`])).trim();
  const short = sha.slice(0, 7);
  const dir = join(o.dataRoot, `against-${sha}`);
  const exe = join(dir, "dossier");
  const pristine = join(dir, `n${o.n}`);
  const seedFile = join(dir, `n${o.n}.seed.json`);
  const hasCacheSwitch = await sh(["git", "grep", "-q", "DOSSIER_CACHE", sha, "--", "src"]).then(() => true, () => false);
  const seeded = existsSync(seedFile) && existsSync(join(pristine, "dossier.db"));
  if (existsSync(exe) && seeded) {
    o.log(`${short}: reusing ${exe} and ${pristine}`);
    return { sha, short, exe, pristine, seed: JSON.parse(readFileSync(seedFile, "utf8")), hasCacheSwitch };
  }
  mkdirSync(dir, { recursive: true });
  const parent = mkdtempSync(join(tmpdir(), `dossier-against-${short}-`));
  const tree = join(parent, "tree");
  const modules = join(tree, "node_modules");
  o.log(`${short}: git worktree add --detach ${tree}`);
  await sh(["git", "worktree", "add", "--detach", tree, sha]);
  try {
    const lock = (root: string) => (existsSync(join(root, "package-lock.json")) ? readFileSync(join(root, "package-lock.json"), "utf8") : "");
    if (lock(tree) !== "" && lock(tree) === lock(ROOT) && existsSync(join(ROOT, "node_modules"))) {
      o.log(`${short}: same package-lock.json as this checkout: node_modules linked`);
      symlinkSync(join(ROOT, "node_modules"), modules);
    } else {
      o.log(`${short}: npm ci (its own package-lock.json)`);
      await sh(["npm", "ci", "--no-audit", "--no-fund"], tree).catch(async (error) => {
        o.log(`${short}: npm ci failed (${(error as Error).message.split("\n")[0]}), trying npm install`);
        await sh(["npm", "install", "--no-audit", "--no-fund"], tree);
      });
    }
    if (!existsSync(exe)) {
      o.log(`${short}: npm run build (its own build script)`);
      await sh(["npm", "run", "build"], tree);
      copyFileSync(join(tree, "dist", "dossier"), exe);
      chmodSync(exe, 0o755);
    }
    if (!seeded) {
      o.log(`${short}: seeding N=${o.n} with its own bench/seed.ts into ${pristine}`);
      const script = join(tree, "bench", "against-seed.ts");
      writeFileSync(
        script,
        `import { seed } from "./seed";\n` +
          `const result = await seed({ exe: ${JSON.stringify(exe)}, dataDir: ${JSON.stringify(pristine)}, n: ${o.n}, log: (l: string) => process.stderr.write(l + "\\n") });\n` +
          `process.stdout.write("AGAINST_SEED " + JSON.stringify(result) + "\\n");\n`,
      );
      const out = await sh([process.execPath, script], tree);
      const line = out.split("\n").find((l) => l.startsWith("AGAINST_SEED "));
      if (!line) throw new Error(`${short}: its seed printed no result`);
      writeFileSync(seedFile, line.slice("AGAINST_SEED ".length));
    }
  } finally {
    // Unlink the node_modules link first: the worktree's removal must never reach this checkout's.
    if (existsSync(modules) && lstatSync(modules).isSymbolicLink()) unlinkSync(modules);
    await sh(["git", "worktree", "remove", "--force", tree]).catch((error) => o.log(`git worktree remove: ${(error as Error).message}`));
    await sh(["git", "worktree", "prune"]);
    rmSync(parent, { recursive: true, force: true });
  }
  return { sha, short, exe, pristine, seed: JSON.parse(readFileSync(seedFile, "utf8")), hasCacheSwitch };
}

// ---------------------------------------------------------------------------------------------
// One phase: both servers started on fresh copies, every case probed, then R rounds of new and
// old alternately (the order swapped every round), then the mixed day the same way.

async function phase(o: Options, wrk: string, other: Other, sides: Side[], cacheOff: boolean): Promise<Row[]> {
  const workDir = join(o.dataRoot, "lua");
  mkdirSync(workDir, { recursive: true });
  const key = other.seed.key;
  const tag = cacheOff ? `${other.short} (cache off) ` : `${other.short} `;
  try {
    for (const side of sides) await start(side, cacheOff && side.hasCacheSwitch);
    const [fresh, old] = sides;
    // Contact ids from the API (the seed's result has none): the first page and one further in.
    const contactIds: string[] = [];
    for (const page of [1, Math.max(2, Math.floor(o.n / 200))]) {
      const res = await fetch(`${fresh.base}${API}/contacts?per_page=100&page=${page}`, { headers: { authorization: `Bearer ${key}` } });
      contactIds.push(...((await res.json()) as { data: { id: string }[] }).data.map((c) => c.id));
    }
    const ids: Ids = { seed: other.seed, contactIds };
    const selected = (name: string) => !o.only || o.only.includes(name);
    const cases = CASES.filter((c) => selected(c.name) && !(cacheOff && c.write));

    const measure = async (side: Side, roles: Role[]) => {
      await waitForRateRoom(side.base, key, o.log);
      const go = (seconds: number) => runWrkGroup({ wrk, workDir, baseUrl: side.base, roles, seconds, cpu: LOAD_CPU, serverPid: side.proc!.pid });
      if (o.settle > 0) await go(o.settle);
      const results = await go(o.seconds);
      // Work left queued by the run is worked off before the next one.
      await (await fetch(`${side.base}/healthz`, { signal: AbortSignal.timeout(300_000) })).arrayBuffer();
      return results;
    };
    const order = (round: number) => (round % 2 === 1 ? [fresh, old] : [old, fresh]);
    const failed = (row: Row, side: Side, round: number, r: WrkResult) => {
      const bad = r.non2xx + r.socketErrors;
      if (bad === 0) return;
      if (bad > 0.01 * r.requests || r.requests === 0) row.state = "failing";
      row.note = `${side.tag}: ${r.non2xx} non-2xx, ${r.socketErrors} socket errors in round ${round}${r.firstError ? `: ${r.firstError}` : ""}`;
      o.log(`${tag}${row.name}: ${row.note}`);
    };

    const rows: Row[] = [];
    for (const c of cases) {
      const row: Row = { name: c.name, label: c.label, state: "ok", fresh: [], old: [], ratios: [] };
      for (const side of sides) {
        const res = await oneRequest(side.base, key, c.spec(ids), 0);
        const text = await res.text();
        if (res.status === c.expect) continue;
        row.state = res.status === 404 ? "missing" : "failing";
        row.note = `${side.tag} (${side.tag === "old" ? other.short : "this checkout"}) answers ${res.status} ${text.slice(0, 100)}`;
        break;
      }
      o.log(`${tag}probe ${c.name}: ${row.state}${row.note ? ` (${row.note})` : ""}`);
      rows.push(row);
    }
    const live = rows.filter((r) => r.state === "ok");
    o.log(`${tag}warm-up`);
    for (const row of live) for (const side of sides) await warmUp(side.base, key, CASES.find((c) => c.name === row.name)!.spec(ids));

    for (let round = 1; round <= o.rounds; round++) {
      for (const row of live) {
        const spec = CASES.find((c) => c.name === row.name)!.spec(ids);
        const got = new Map<Side, WrkResult>();
        for (const side of order(round)) {
          const [r] = await measure(side, [{ spec, key, connections: o.connections }]);
          failed(row, side, round, r);
          got.set(side, r);
        }
        row.fresh.push({ rps: got.get(fresh)!.rps, p99ms: got.get(fresh)!.p99ms });
        row.old.push({ rps: got.get(old)!.rps, p99ms: got.get(old)!.p99ms });
        row.ratios.push(got.get(fresh)!.rps / got.get(old)!.rps);
      }
      o.log(`${tag}round ${round}/${o.rounds}: ${live.map((r) => `${r.name}=${r.fresh.at(-1)!.rps.toFixed(0)}/${r.old.at(-1)!.rps.toFixed(0)}`).join(" ")}`);
    }

    if (selected("mixed")) {
      const { readers, writers } = mixedRoles(ids, key);
      const mixed = MIXED_FIGURES.map((f): Row => ({ ...f, state: "ok", fresh: [], old: [], ratios: [] }));
      for (const side of sides) for (const role of [readers, ...writers]) await warmUp(side.base, key, role.spec);
      for (let round = 1; round <= o.rounds; round++) {
        const figures = new Map<Side, { rps: number; p99ms: number }[]>();
        for (const side of order(round)) {
          const [alone] = await measure(side, [readers]);
          const [reads, ...writes] = await measure(side, [readers, ...writers]);
          for (const [row, r] of [[mixed[0], alone], [mixed[1], reads], [mixed[2], writes[0]], [mixed[2], writes[1]]] as const) failed(row, side, round, r);
          figures.set(side, [
            { rps: alone.rps, p99ms: alone.p99ms },
            { rps: reads.rps, p99ms: reads.p99ms },
            { rps: writes.reduce((sum, w) => sum + w.rps, 0), p99ms: Math.max(...writes.map((w) => w.p99ms)) },
          ]);
        }
        mixed.forEach((row, i) => {
          row.fresh.push(figures.get(fresh)![i]);
          row.old.push(figures.get(old)![i]);
          row.ratios.push(figures.get(fresh)![i].rps / figures.get(old)![i].rps);
        });
        o.log(`${tag}mixed round ${round}/${o.rounds}: ${mixed.map((r) => `${r.name}=${r.fresh.at(-1)!.rps.toFixed(0)}/${r.old.at(-1)!.rps.toFixed(0)}`).join(" ")}`);
      }
      rows.push(...mixed);
    }
    return rows;
  } finally {
    for (const side of sides) if (side.proc) await stop(side.proc);
    for (const side of sides) rmSync(side.dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Report.

const fmt = (x: number, digits = 0) => (Number.isFinite(x) ? x.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits }) : "–");

/** The ratio line's figures: every case and mixed figure in the table's order (`n/a` when not measured). */
const lineRatios = (rows: Row[]): [string, number | undefined][] => rows.map((r) => [r.name, r.state === "ok" ? median(r.ratios) : undefined]);

function table(rows: Row[]): string {
  const lines = [`| name | request | this req/s | other req/s | this / other | this p99 ms | other p99 ms | |`, `|---|---|---:|---:|---:|---:|---:|---|`];
  for (const r of rows) {
    const m = (side: Row["fresh"], k: "rps" | "p99ms") => fmt(median(side.map((x) => x[k])), k === "rps" ? 0 : 2);
    lines.push(
      r.state === "ok"
        ? `| ${r.name} | ${r.label} | ${m(r.fresh, "rps")} | ${m(r.old, "rps")} | ${fmt(median(r.ratios), 2)} | ${m(r.fresh, "p99ms")} | ${m(r.old, "p99ms")} | ${r.note ?? ""} |`
        : `| ${r.name} | ${r.label} | | | ${r.state} | | | ${r.note ?? ""} |`,
    );
  }
  return lines.join("\n");
}

async function currentCommit(): Promise<string> {
  const head = (await sh(["git", "rev-parse", "--short=7", "HEAD"])).trim();
  const dirty = (await sh(["git", "status", "--porcelain", "--", "src", "package.json", "package-lock.json"])).trim();
  return head + (dirty ? " with uncommitted changes to src/" : "");
}

// ---------------------------------------------------------------------------------------------

/** The whole `--against` run; the exit status. */
export async function runAgainst(argv: string[]): Promise<number> {
  const started = performance.now();
  const log = (line: string) => process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(1).padStart(5)}s] ${line}\n`);
  const opt = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const quick = argv.includes("--quick");
  const o: Options = {
    quick,
    n: Number((opt("n") ?? "10000").split(",")[0]),
    seconds: Number(opt("seconds") ?? (quick ? "1" : "3")),
    rounds: Number(opt("rounds") ?? (quick ? "3" : "5")),
    settle: Number(opt("settle") ?? (quick ? "0" : "1")),
    connections: Number(opt("connections") ?? "16"),
    only: opt("only")?.split(","),
    build: !argv.includes("--no-build"),
    dataRoot: resolve(opt("data-root") ?? "/tmp/dossier-bench"),
    outFile: resolve(ROOT, opt("out") ?? "docs/performance.md"),
    log,
  };
  let commits: string[];
  try {
    commits = parseAgainst(argv);
  } catch (error) {
    console.error(`bench: ${(error as Error).message}`);
    return 2;
  }
  const unknown = o.only?.filter((name) => !NAMES.includes(name)) ?? [];
  if (unknown.length > 0) {
    console.error(`bench: --only: unknown endpoint ${unknown.join(", ")} (known with --against: ${NAMES.join(", ")})`);
    return 2;
  }
  try {
    const wrk = await ensureWrk(log);
    if (o.build) {
      log("building this checkout: npm run build");
      await sh(["npm", "run", "build"]);
    }
    // A snapshot of this checkout's executable: a build by someone else during the run changes nothing.
    const exe = join(o.dataRoot, "against-this", "dossier");
    mkdirSync(join(o.dataRoot, "against-this"), { recursive: true });
    copyFileSync(join(ROOT, "dist", "dossier"), exe);
    chmodSync(exe, 0o755);
    const mine = await currentCommit();
    const lines: string[] = [];
    for (const commit of commits) {
      const other = await prepareOther(commit, o);
      const settled = await settledCopy(exe, other.pristine, join(o.dataRoot, "against-this", `settled-${other.sha}`), log);
      const sides = (): Side[] => [
        { tag: "new", exe, dir: join(o.dataRoot, "against-this", "data"), pristine: settled, hasCacheSwitch: true, base: "" },
        { tag: "old", exe: other.exe, dir: join(o.dataRoot, `against-${other.sha}`, "data"), pristine: other.pristine, hasCacheSwitch: other.hasCacheSwitch, base: "" },
      ];
      const on = await phase(o, wrk, other, sides(), false);
      const off = await phase(o, wrk, other, sides(), true);
      const offLabel = other.hasCacheSwitch ? `${other.short} (cache off)` : `${other.short} (cache off: this one only, ${other.short} has no DOSSIER_CACHE)`;
      const line = ratioLine(other.short, lineRatios(on));
      const offLine = ratioLine(offLabel, lineRatios(off));
      lines.push(line, offLine);
      const release = RELEASES[other.short] ? ` (${RELEASES[other.short]})` : "";
      const body = [
        `### Against ${other.short}${release}: ${quick ? "quick run" : "run"} of ${new Date().toISOString()}`,
        "",
        `\`npm run bench -- --against ${other.short}${quick ? " --quick" : ""}\` (bench/README.md, "Against a release"; the releases: 59a0f0d = the end of round 1, 28fc124 = the end of round 2).`,
        "",
        `- This: \`dist/dossier\` at ${mine}; other: ${other.short}'s own \`npm run build\`. Bun ${Bun.version} runs the bench; ${(await sh(["nproc"])).trim()} CPUs.`,
        `- Data: N = ${o.n.toLocaleString("en-US")}, seeded once by ${other.short}'s own bench/seed.ts; each executable gets a fresh copy per phase (this one's migrated, and its start-up work such as C22's tasks for the dossiers already overdue done, once before the phases): same rows, ids and key.`,
        `- Both servers pinned to CPU ${SERVER_CPU}, one loaded at a time by wrk on CPU ${LOAD_CPU} (${o.connections} connections; the mixed day ${MIXED.readers} readers, ${MIXED.creators} creators, ${MIXED.movers} stage movers); ${o.rounds} rounds of ${o.seconds} s per endpoint and executable${o.settle > 0 ? `, each after ${o.settle} s unmeasured` : ""}, the two alternately (the first swapped each round). A ratio is the median of the per-round ratios this / other.`,
        "",
        "```",
        line,
        offLine,
        "```",
        "",
        `#### Caches on`,
        "",
        table(on),
        "",
        other.hasCacheSwitch ? `#### DOSSIER_CACHE=off on both (reads and the mixed day)` : `#### DOSSIER_CACHE=off on this one only (${other.short} has no such setting and runs with its caches; reads and the mixed day)`,
        "",
        table(off),
      ].join("\n");
      const doc = existsSync(o.outFile) ? readFileSync(o.outFile, "utf8") : "# Performance\n";
      writeFileSync(o.outFile, replaceSection(doc, `against-${other.short}`, body));
      log(`written to ${o.outFile}`);
      process.stdout.write(`\n${body}\n`);
    }
    process.stdout.write("\n" + lines.join("\n") + "\n");
    return 0;
  } catch (error) {
    process.stderr.write(`bench: ${(error as Error).message}\n`);
    return 1;
  }
}
