// One node against three on one PostgreSQL, through nginx with docs/scaling.md's configuration
// (C19, issue 35), not a test. Run: node_modules/.bin/bun bench/nodes.ts [--seconds 10]
// [--settle 2] [--connections 16] [--rounds 2] [--no-doc]
//
// Needs nginx and wrk (Debian: apt-get install nginx-light wrk; wrk is installed when missing).
// A PostgreSQL from the tests' npm binaries with honest writes (fsync=on, synchronous_commit=on)
// in a temp folder, a fresh database per cluster; nodes are `bun src/main.ts serve` (logging each
// request, as in production), the first making the organization; 200 dossiers to read. For each
// cluster size and endpoint (list, get, create): --settle seconds of load, then --seconds measured,
// wrk pinned to CPU 1, everything else unpinned. CPU per request from /proc (utime+stime) of the
// nodes, of PostgreSQL's processes and of nginx's. One 2-core machine runs it all: three nodes
// cannot be faster than one here; the table shows that nothing breaks and what a request costs.
// Waits while /work/QUIET exists (the lead's benchmarks), and says how busy the machine was.
// The table goes to stdout and to docs/scaling.md between <!-- bench:nodes:begin/end -->, the
// limits on paper between <!-- bench:nodes-limits:begin/end -->.
import { SQL } from "bun";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { runCleanups } from "../test/helpers/cleanup";
import { startCluster, type Cluster } from "../test/helpers/cluster";
import { startPostgres } from "../test/helpers/postgres";
import { balancerProgram, startBalancer } from "../test/nodes/balancers";
import { replaceSection } from "./doc-section";
import { ensureWrk, freePort, median, runWrk, type RequestSpec, type WrkResult } from "./load";

const ROOT = resolve(import.meta.dir, "..");
const LOAD_CPU = 1;
const TICK_MS = 10; // Linux clock ticks: 100 a second
const PG_SETTINGS = ["-c", "fsync=on", "-c", "synchronous_commit=on", "-c", "full_page_writes=on", "-c", "shared_buffers=256MB", "-c", "max_connections=100"];

const argv = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : fallback;
};
const seconds = Number(option("seconds", "10"));
const settle = Number(option("settle", "2"));
const connections = Number(option("connections", "16"));
const rounds = Number(option("rounds", "2"));
const writeDoc = !argv.includes("--no-doc");
const log = (line: string) => process.stderr.write(`${line}\n`);

async function quiet() {
  for (let i = 0; existsSync("/work/QUIET") && i < 240; i++) {
    if (i === 0) log("waiting while /work/QUIET exists");
    await Bun.sleep(15_000);
  }
}

function stat(pid: number): string[] | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    return text.slice(text.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}
const ticks = (pid: number) => {
  const fields = stat(pid);
  return fields ? Number(fields[11]) + Number(fields[12]) : 0;
};
/** CPU ticks of `root` and every process below it. */
function treeTicks(root: number): number {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = stat(Number(entry));
    if (!fields) continue;
    const parent = Number(fields[1]);
    children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
  }
  let total = 0;
  const walk = (pid: number) => {
    total += ticks(pid);
    for (const child of children.get(pid) ?? []) walk(child);
  };
  walk(root);
  return total;
}

interface Row extends WrkResult {
  nodes: number;
  endpoint: string;
  nodeMs: number;
  pgMs: number;
  nginxMs: number;
}

const ENDPOINTS = ["list", "get", "create"] as const;

async function seed(cluster: Cluster): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < 200; i++) {
    const made = await cluster.fetch("/api/v1/dossiers", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ type: "candidate", name: `Seed ${i}`, email: `seed${i}@example.com`, company: "Bluestone Labs" }),
    });
    if (made.status !== 201) throw new Error(`seeding answered ${made.status}`);
    ids.push(((await made.json()) as { data: { id: string } }).data.id);
  }
  return ids;
}

function specOf(endpoint: (typeof ENDPOINTS)[number], ids: string[]): RequestSpec {
  if (endpoint === "list") return { kind: "get", paths: ["/api/v1/dossiers?per_page=20"] };
  if (endpoint === "get") return { kind: "get", paths: ids.map((id) => `/api/v1/dossiers/${id}`) };
  return { kind: "create", path: "/api/v1/dossiers" };
}

async function main() {
  if (!balancerProgram("nginx")) throw new Error("nginx is not installed (Debian: apt-get install nginx-light)");
  await quiet();
  const wrk = await ensureWrk(log);
  const workDir = mkdtempSync(join(tmpdir(), "dossier-bench-nodes-"));
  const pg = await startPostgres(PG_SETTINGS);
  const admin = new SQL(pg.url("postgres"), { max: 1 });
  const rows: Row[] = [];
  const load: number[] = [];
  try {
    for (const size of [1, 3]) {
      await admin.unsafe(`CREATE DATABASE nodes_${size}`);
      const cluster = await startCluster({ nodes: size, databaseUrl: pg.url(`nodes_${size}`), env: { DOSSIER_RATE_LIMIT: "1000000" } });
      const balancer = await startBalancer("nginx", cluster.nodes.map((n) => new URL(n.url).host), await freePort());
      try {
        const ids = await seed(cluster);
        for (let round = 0; round < rounds; round++) {
          for (const endpoint of ENDPOINTS) {
            await quiet();
            const spec = specOf(endpoint, ids);
            const common = { wrk, workDir, baseUrl: balancer.url, spec, key: cluster.key, connections, cpu: LOAD_CPU, serverPid: cluster.nodes[0].proc.pid };
            if (settle > 0) await runWrk({ ...common, seconds: settle });
            const before = { nodes: cluster.nodes.reduce((t, n) => t + ticks(n.proc.pid), 0), pg: treeTicks(pg.pid), nginx: treeTicks(balancer.proc.pid) };
            load.push(loadavg()[0]);
            const result = await runWrk({ ...common, seconds });
            const after = { nodes: cluster.nodes.reduce((t, n) => t + ticks(n.proc.pid), 0), pg: treeTicks(pg.pid), nginx: treeTicks(balancer.proc.pid) };
            const per = (a: number, b: number) => ((b - a) * TICK_MS) / result.requests;
            const row = { ...result, nodes: size, endpoint, nodeMs: per(before.nodes, after.nodes), pgMs: per(before.pg, after.pg), nginxMs: per(before.nginx, after.nginx) };
            rows.push(row);
            log(
              `${size} node(s) ${endpoint}: ${row.rps.toFixed(0)} req/s, p50 ${row.p50ms.toFixed(1)} ms, p99 ${row.p99ms.toFixed(1)} ms, ` +
                `non-2xx ${row.non2xx}, socket errors ${row.socketErrors}; CPU/request: nodes ${row.nodeMs.toFixed(2)} ms, PostgreSQL ${row.pgMs.toFixed(2)} ms, nginx ${row.nginxMs.toFixed(2)} ms` +
                (row.firstError ? ` (first error: ${row.firstError})` : ""),
            );
          }
        }
      } finally {
        await balancer.stop();
        await cluster.stop();
      }
    }
  } finally {
    await admin.close();
    await pg.stop();
    await runCleanups();
    rmSync(workDir, { recursive: true, force: true });
  }

  const table = render(rows, load);
  const limits = limitsOf(rows);
  process.stdout.write(`${table}\n\n${limits}\n`);
  if (writeDoc) {
    const path = join(ROOT, "docs/scaling.md");
    writeFileSync(path, replaceSection(replaceSection(readFileSync(path, "utf8"), "nodes", table), "nodes-limits", limits));
    log("docs/scaling.md updated");
  }
}

const fixed = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : "-");

/** The median of each figure over the rounds. */
function summarise(rows: Row[], size: number, endpoint: string) {
  const mine = rows.filter((r) => r.nodes === size && r.endpoint === endpoint);
  const m = (pick: (r: Row) => number) => median(mine.map(pick));
  return {
    rps: m((r) => r.rps),
    p50: m((r) => r.p50ms),
    p99: m((r) => r.p99ms),
    errors: mine.reduce((t, r) => t + r.non2xx + r.socketErrors, 0),
    requests: mine.reduce((t, r) => t + r.requests, 0),
    nodeMs: m((r) => r.nodeMs),
    pgMs: m((r) => r.pgMs),
    nginxMs: m((r) => r.nginxMs),
  };
}

function render(rows: Row[], load: number[]): string {
  const lines = [
    `Measured by \`bun bench/nodes.ts\` on ${new Date().toISOString().slice(0, 10)}: ${cpus().length} cores (${cpus()[0]?.model ?? "?"}), shared with other engineers' work ` +
      `(1-minute load average at the runs: ${fixed(Math.min(...load), 1)} to ${fixed(Math.max(...load), 1)}: the machine was busy, so read the figures as orders of magnitude). ` +
      `PostgreSQL 18 from the tests' npm binaries with fsync and synchronous_commit on; nodes \`bun src/main.ts serve\` logging every request; nginx 1.22 with the configuration above; ` +
      `wrk, ${connections} connections, pinned to one core; ${rounds} rounds of ${seconds} s after ${settle} s of warm-up, medians. ` +
      `list: \`GET /dossiers?per_page=20\` of 200 dossiers; get: \`GET /dossiers/{id}\`; create: \`POST /dossiers\` with a new contact, one organization.`,
    "",
    "| nodes | endpoint | req/s | p50 ms | p99 ms | failed requests | CPU ms/request: nodes | PostgreSQL | nginx |",
    "|---|---|---|---|---|---|---|---|---|",
  ];
  for (const size of [1, 3]) {
    for (const endpoint of ENDPOINTS) {
      const s = summarise(rows, size, endpoint);
      lines.push(`| ${size} | ${endpoint} | ${fixed(s.rps, 0)} | ${fixed(s.p50, 1)} | ${fixed(s.p99, 1)} | ${s.errors} of ${s.requests} | ${fixed(s.nodeMs)} | ${fixed(s.pgMs)} | ${fixed(s.nginxMs)} |`);
    }
  }
  return lines.join("\n");
}

/** How many node cores one PostgreSQL core carries, from the CPU each spends per request. */
function limitsOf(rows: Row[]): string {
  const lines = [
    "From the three-node rows above (CPU per request of the nodes against PostgreSQL's; both on one machine, so the ratio, not the throughput, is what carries over):",
    "",
  ];
  for (const endpoint of ENDPOINTS) {
    const s = summarise(rows, 3, endpoint);
    const ratio = s.nodeMs / s.pgMs;
    lines.push(
      `- ${endpoint}: a node spends ${fixed(s.nodeMs)} ms of CPU per request, PostgreSQL ${fixed(s.pgMs)} ms: one PostgreSQL core keeps up with about ${fixed(ratio, 1)} node cores, ` +
        `so a 16-core PostgreSQL saturates at about ${fixed((16 * 1000) / s.pgMs, 0)} requests/s of this kind, which ${fixed((16 * ratio) / 2, 0)} two-core nodes would make.`,
    );
  }
  const creates = summarise(rows, 3, "create").rps;
  lines.push(
    "",
    "Before the cores, two other limits: connections (`DOSSIER_DATABASE_POOL` × nodes within `max_connections`: past a few hundred, PgBouncer), " +
      "and one organization's writes that make events, which commit one at a time under its numbering lock (docs/decisions.md, \"Event numbers on PostgreSQL\"), " +
      "held through the commit's WAL flush: the creates above are all one organization's, " +
      `${fixed(creates, 0)}/s, so each held the lock about ${fixed(1000 / creates, 1)} ms on this busy machine's disk. ` +
      "A faster flush raises that line, more nodes do not; organizations do not wait for each other, and their commits share PostgreSQL's flushes.",
  );
  return lines.join("\n");
}

await main();
