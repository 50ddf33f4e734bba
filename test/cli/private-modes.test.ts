// Issue 32 point 5: what a backup writes, and what a data folder holds, is readable by its user
// only (docs/security.md: files 0600, folders 0700), whatever the umask. The attacks: `dossier
// backup FILE` run under `umask 022` (it wrote the database 0644 and FILE.files/ 0755), and a
// data folder restored or copied loose (0644 files, 0755 folders), which `serve` used as it found
// it; it now tightens it at start and logs what it changed.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { chmodSync, existsSync, lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers";
import { bootstrapKey, MAIN, startServerProcess } from "../helpers/process";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const mode = (path: string) => lstatSync(path).mode & 0o777;

/** Every path below `dir` (itself included) with its mode, folders and files apart. */
function modesUnder(dir: string): { folders: Record<string, number>; files: Record<string, number> } {
  const folders: Record<string, number> = {};
  const files: Record<string, number> = {};
  const walk = (path: string) => {
    if (lstatSync(path).isDirectory()) {
      folders[path] = mode(path);
      for (const name of readdirSync(path)) walk(join(path, name));
    } else files[path] = mode(path);
  };
  walk(dir);
  return { folders, files };
}

const every = (modes: Record<string, number>, expected: number) => Object.fromEntries(Object.keys(modes).map((path) => [path, expected]));

/** A data folder made by a real first start, with a dossier and its CV; the server is killed (-9)
 * so that the database's -wal and -shm stay beside it, as after a crash. */
async function dataFolderWithCv(): Promise<string> {
  const data = join(tempDir(), "data");
  const server = await startServerProcess(data);
  const auth = { authorization: `Bearer ${bootstrapKey(server)}` };
  const form = new FormData();
  form.set("type", "candidate");
  form.set("name", "Private");
  const cv = new Uint8Array(2048);
  cv.set(new TextEncoder().encode("%PDF-1.7\n"));
  form.set("cv", new File([cv], "cv.pdf", { type: "application/pdf" }));
  const created = await fetch(`${server.url}/api/v1/dossiers`, { method: "POST", headers: auth, body: form });
  expect(created.status).toBe(201);
  server.proc.kill(9);
  await server.exited;
  return data;
}

/** `dossier ...args` as a child process under `umask 022`, the usual default. */
function underUmask022(args: string[]) {
  const run = Bun.spawnSync(["sh", "-c", 'umask 022 && exec "$0" "$@"', process.execPath, MAIN, ...args], {
    env: { ...process.env, DOSSIER_LOG: "off" },
    stdout: "pipe",
    stderr: "pipe",
  });
  return { code: run.exitCode, stdout: run.stdout.toString(), stderr: run.stderr.toString() };
}

describe("private modes whatever the umask", () => {
  test("backup under umask 022: FILE, FILE.key and FILE.manifest.json are 0600, FILE.files/ and its folders 0700, its files 0600", async () => {
    const data = await dataFolderWithCv();
    const file = join(tempDir(), "backup.db");
    const result = underUmask022(["backup", file, "--json", "--data", data]);
    expect(result.code, result.stderr).toBe(0);
    for (const path of [file, `${file}.key`, `${file}.manifest.json`]) expect([path, mode(path)]).toEqual([path, 0o600]);
    const copied = modesUnder(`${file}.files`);
    expect(Object.keys(copied.files).filter((path) => path.endsWith("cv.pdf"))).toHaveLength(1);
    expect(copied.folders).toEqual(every(copied.folders, 0o700));
    expect(copied.files).toEqual(every(copied.files, 0o600));
  });

  test("serve on a data folder found loose (a copy under umask 022): its files become 0600 and its folders 0700, and it says so", async () => {
    const data = await dataFolderWithCv();
    const loose = [
      ...["dossier.db", "dossier.db-wal", "dossier.db-shm", "master.key"].map((name) => join(data, name)).filter((path) => existsSync(path)),
    ];
    expect(loose).toContain(join(data, "dossier.db-wal"));
    const tree = modesUnder(join(data, "files"));
    for (const path of [...loose, ...Object.keys(tree.files)]) chmodSync(path, 0o644);
    for (const path of Object.keys(tree.folders)) chmodSync(path, 0o755);

    const server = await startServerProcess(data);
    for (const path of loose) expect([path, mode(path)]).toEqual([path, 0o600]);
    const after = modesUnder(join(data, "files"));
    expect(after.folders).toEqual(every(tree.folders, 0o700));
    expect(after.files).toEqual(every(tree.files, 0o600));
    // One warning naming what it changed, relative to the data folder.
    const line = server.stderr().split("\n").find((l) => l.includes('"msg":"tightened the modes of files others could read"'));
    expect(line, server.stderr()).toBeDefined();
    const record = JSON.parse(line!);
    expect(record.level).toBe("warn");
    expect(record.data).toBe(data);
    expect(record.count).toBe(loose.length + Object.keys(tree.files).length + Object.keys(tree.folders).length);
    for (const name of ["dossier.db", "dossier.db-wal", "master.key", "files"]) expect(record.paths).toContain(name);
    expect(record.paths.some((path: string) => path.endsWith("/cv.pdf"))).toBe(true);

    // A folder already private is left as it is, and says nothing.
    server.proc.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    const again = await startServerProcess(data);
    expect(again.stderr()).not.toContain("tightened");
    again.proc.kill("SIGTERM");
    expect(await again.exited).toBe(0);
  });
});
