// C20 "A second `serve` on a data folder in use": one server per data folder. A second `serve`
// exits 1 with `data folder DIR is in use by process PID`, having changed nothing, because the
// first holds an OS lock that the kernel releases when it dies (kill -9 included). The start-up
// sweep of stray CV files (C5) runs only under that lock, so a second `serve` can no longer delete
// the files of uploads the first one has in progress. The CLI still works beside a server (C2), and
// no CLI command deletes files.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { DataFolderInUseError } from "../../src/data-lock";
import { startServer } from "../../src/server";
import { dossier, dossierRun } from "../cli/helpers";
import { tempDir } from "../helpers";
import { startServerProcess, type ServerProcess } from "../helpers/process";
import { pdf } from "./fixtures";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const BOOTSTRAP_KEY = /API key \(shown once, store it now\): (svc_live_[A-Za-z0-9]{32})/;
const ORG = "0190a0a0-0000-7000-8000-000000000001";

const running: ServerProcess[] = [];
afterAll(() => {
  for (const server of running) {
    if (server.proc.exitCode === null) server.proc.kill(9);
    for (const line of server.stderr().split("\n")) if (line.includes('"level":"error"')) console.error(line);
  }
});

async function serve(data: string, args: string[] = [], env: Record<string, string> = {}) {
  const server = await startServerProcess(data, args, env);
  running.push(server);
  return server;
}

/** Every file under `dir` with its size and modification time (the shared-memory index, which
 * readers of a WAL database write to, left out). */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (path: string) => {
    for (const name of readdirSync(path)) {
      const full = join(path, name);
      const stat = statSync(full);
      if (stat.isDirectory()) walk(full);
      else if (!name.endsWith("-shm")) out[relative(dir, full)] = `${stat.size} ${stat.mtimeMs}`;
    }
  };
  walk(dir);
  return out;
}

/** What a crash, or an upload in progress, leaves in the files folder: the sweep's targets (C5). */
function plantStrayFiles(data: string): string[] {
  const folder = join(data, "files", ORG, "dossiers", "0190a0a0-0000-7000-8000-000000000002");
  mkdirSync(folder, { recursive: true });
  const stray = [join(folder, ".cv.pdf.AbCdEf0123456789.tmp"), join(folder, "cv.pdf")];
  for (const path of stray) writeFileSync(path, STRAY);
  return stray;
}

const STRAY = pdf(1_000);
const portOf = (url: string) => new URL(url).port;
const inUse = (data: string, pid: number) => `dossier: data folder ${data} is in use by process ${pid}\n`;

describe("C20: a second serve on a data folder in use", () => {
  test("exits 1 naming the folder and the first server's process id, and changes nothing", async () => {
    const data = tempDir();
    const first = await serve(data, ["--no-bootstrap"]);
    const stray = plantStrayFiles(data);
    const before = snapshot(data);
    // Port 0: without the lock it would start (and sweep) rather than fail to listen.
    const second = dossierRun(["serve", "--port", "0", "--data", data], { DOSSIER_LOG: "json" }, 20_000);
    expect(second.code).toBe(1);
    expect(second.stderr).toBe(inUse(data, first.proc.pid));
    expect(snapshot(data)).toEqual(before);
    for (const path of stray) expect(statSync(path).size).toBe(STRAY.length);
    expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
    first.proc.kill("SIGTERM");
    expect(await first.exited).toBe(0);
  }, 30_000);

  test("a server killed with SIGKILL leaves the folder free for the next one", async () => {
    const data = tempDir();
    const first = await serve(data, ["--no-bootstrap"]);
    first.proc.kill(9);
    await first.exited;
    const next = await serve(data, ["--no-bootstrap"]);
    expect((await fetch(`${next.url}/healthz`)).status).toBe(200);
    next.proc.kill("SIGTERM");
    expect(await next.exited).toBe(0);
  }, 30_000);

  test("in-process: startServer refuses a folder another server of this process holds, until stop()", async () => {
    const data = tempDir();
    const options = { dataDir: data, port: 0, webhooks: false, config: { log: "off" as const } };
    const first = await startServer(options);
    try {
      expect(() => startServer(options)).toThrow(new DataFolderInUseError(data, process.pid));
    } finally {
      await first.stop();
    }
    const again = await startServer(options);
    expect((await fetch(`${again.url}/healthz`)).status).toBe(200);
    await again.stop();
  });

  test("C2: the CLI works beside a running server and deletes no file", async () => {
    const data = tempDir();
    const server = await serve(data, ["--no-bootstrap"]);
    const stray = plantStrayFiles(data);
    const org = dossier(data, "org", "create", "--name", "Beside", "--json");
    expect(org.code, org.stderr).toBe(0);
    const commands = [
      ["org", "list"],
      ["org", "update", org.json.id, "--rate-limit", "50"],
      ["key", "create", "--org", org.json.id, "--scopes", "all"],
      ["key", "list", "--org", org.json.id],
      ["flow", "create", "--org", org.json.id, "--type", "candidate", "--name", "F", "--stages", '[{"name":"A"}]'],
      ["webhook", "set", "--org", org.json.id, "--url", "http://127.0.0.1:9/hook"],
      ["webhook", "rotate-secret", "--org", org.json.id],
      ["webhook", "deliveries", "--org", org.json.id],
      ["webhook", "unset", "--org", org.json.id],
      ["backup", join(tempDir(), "copy.db")],
    ];
    for (const args of commands) {
      const result = dossier(data, ...args, "--json");
      expect(result.code, `${args.join(" ")}: ${result.stderr}`).toBe(0);
    }
    for (const path of stray) expect(statSync(path).size).toBe(STRAY.length);
    server.proc.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  }, 60_000);
});

/** Six writers each create dossiers with a first CV (multipart), one request at a time, until
 * `stop()`; every answer is counted, and each acknowledged dossier kept with its cv_url. */
async function uploadFirstCvs(url: string, key: string, stop: () => boolean) {
  const answered: Record<number, number> = {};
  const acknowledged: { id: string; cv_url: string }[] = [];
  const writer = async (index: number) => {
    for (let n = 0; n < 2_000 && !stop(); n++) {
      const form = new FormData();
      form.set("type", "candidate");
      form.set("name", `w${index}-${n}`);
      form.set("cv", new File([pdf(20_000 + Math.floor(Math.random() * 200_000), n)], "cv.pdf", { type: "application/pdf" }));
      const response = await fetch(`${url}/api/v1/dossiers`, { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form });
      answered[response.status] = (answered[response.status] ?? 0) + 1;
      const body = (await response.json()) as any;
      if (response.status === 201) acknowledged.push({ id: body.data.id, cv_url: body.data.cv_url });
    }
  };
  await Promise.all(Array.from({ length: 6 }, (_, i) => writer(i)));
  return { answered, acknowledged };
}

test("C5, C20: six writers upload first CVs while a second serve is started 8 times; no upload fails or loses its file", async () => {
  const data = tempDir();
  const server = await serve(data, [], { DOSSIER_RATE_LIMIT: "1000000" });
  const key = BOOTSTRAP_KEY.exec(server.stderr())![1];
  let stop = false;
  const writing = uploadFirstCvs(server.url, key, () => stop);
  const seconds: { code: number; stderr: string }[] = [];
  try {
    for (let round = 0; round < 8; round++) {
      await Bun.sleep(100);
      // On the first server's port, as the report had it: without the lock it sweeps, then fails to listen.
      const second = Bun.spawn([process.execPath, join(import.meta.dir, "../../src/main.ts"), "serve", "--port", portOf(server.url), "--data", data], {
        env: { ...process.env, DOSSIER_LOG: "off" },
        stdout: "ignore",
        stderr: "pipe",
      });
      const timer = setTimeout(() => second.kill(9), 20_000);
      const [code, stderr] = await Promise.all([second.exited, new Response(second.stderr).text()]);
      clearTimeout(timer);
      seconds.push({ code, stderr });
    }
  } finally {
    stop = true;
  }
  const { answered, acknowledged } = await writing;
  // The report's fault: uploads answered 500, and acknowledged CVs whose files were gone (C5).
  expect(acknowledged.length, JSON.stringify(answered)).toBeGreaterThan(20);
  expect(answered).toEqual({ 201: acknowledged.length });
  const missing = acknowledged.filter(({ cv_url }) => {
    try {
      return !statSync(join(data, "files", cv_url)).isFile();
    } catch {
      return true;
    }
  });
  expect(missing).toEqual([]);
  for (const second of seconds) {
    expect(second.code).toBe(1);
    expect(second.stderr).toBe(inUse(data, server.proc.pid));
  }
  server.proc.kill("SIGTERM");
  expect(await server.exited).toBe(0);
}, 120_000);
