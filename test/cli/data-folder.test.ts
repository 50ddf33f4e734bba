// The CLI does no harm by accident (C2): a command that only reads, or needs what a data folder
// holds, refuses a folder that does not exist (exit 1, "no data folder at DIR") and creates
// nothing; only `org create` and `serve` start one. What Dossier creates is private
// (docs/security.md): folders 0700, the database, its -wal and -shm, master.key and CVs 0600.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers";
import { startServerProcess, type ServerProcess } from "../helpers/process";
import { dossier } from "./helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const ORG = "00000000-0000-4000-8000-000000000000";

// Every command but `org create` and `serve`, with arguments good enough to reach the data folder.
const NEEDS_DATA: [string, string[]][] = [
  ["org list (reads)", ["org", "list"]],
  ["key list (reads)", ["key", "list", "--org", ORG]],
  ["webhook deliveries (reads)", ["webhook", "deliveries", "--org", ORG]],
  ["org update", ["org", "update", ORG, "--plan", "pro"]],
  ["key create", ["key", "create", "--org", ORG, "--scopes", "all"]],
  ["key revoke", ["key", "revoke", ORG]],
  ["flow create", ["flow", "create", "--org", ORG, "--type", "sales", "--name", "F", "--stages", '[{"name":"A"}]']],
  ["webhook set", ["webhook", "set", "--org", ORG, "--url", "http://127.0.0.1:9/"]],
  ["webhook rotate-secret", ["webhook", "rotate-secret", "--org", ORG]],
  ["webhook unset", ["webhook", "unset", "--org", ORG]],
  ["webhook retry", ["webhook", "retry", "evt_00000000000000000000000001"]],
  ["seed", ["seed", "--org", ORG]],
];

describe("C2: a command that needs a data folder never creates one", () => {
  test.each(NEEDS_DATA)("%s on a folder that does not exist: exit 1, one line, nothing created", (_name, args) => {
    const parent = tempDir();
    const data = join(parent, "data");
    const result = dossier(data, ...args, "--json");
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(`dossier: no data folder at ${data}\n`);
    expect(readdirSync(parent)).toEqual([]);
  });

  test("backup of a folder that does not exist: exit 1, no copy, nothing created", () => {
    const parent = tempDir();
    const data = join(parent, "data");
    const target = join(tempDir(), "copy.db");
    const result = dossier(data, "backup", target, "--json");
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`dossier: no data folder at ${data}\n`);
    expect(readdirSync(parent)).toEqual([]);
    expect(existsSync(target)).toBe(false);
  });

  test("a folder that exists but holds no database (a mistyped --data): exit 1, nothing written in it", () => {
    const data = tempDir();
    const result = dossier(data, "org", "list", "--json");
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`dossier: no data folder at ${data}: it holds no dossier.db\n`);
    expect(readdirSync(data)).toEqual([]);
  });

  test("bad arguments still win (C10): exit 2 on a missing folder, nothing created", () => {
    const parent = tempDir();
    const result = dossier(join(parent, "data"), "key", "list");
    expect(result.code).toBe(2);
    expect(readdirSync(parent)).toEqual([]);
  });

  test("org create starts the data folder, and the reading commands then work", () => {
    const data = join(tempDir(), "data");
    expect(dossier(data, "org", "create", "--name", "First", "--json").code).toBe(0);
    const list = dossier(data, "org", "list", "--json");
    expect(list.code).toBe(0);
    expect(list.json.data.map((o: { name: string }) => o.name)).toEqual(["First"]);
  });
});

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

describe("docs/security.md: folders Dossier creates are 0700, its files 0600", () => {
  let umask = 0;
  let server: ServerProcess | undefined;
  beforeAll(() => {
    umask = process.umask(0o022); // the common default, under which files would be 0644 unless asked
  });
  afterAll(() => {
    if (server && server.proc.exitCode === null) server.proc.kill(9);
    process.umask(umask);
  });

  test("org create on a new path: the folders it makes, the database and master.key (its flows' intake addresses are sealed with it)", () => {
    const parent = join(tempDir(), "srv");
    const data = join(parent, "data");
    expect(dossier(data, "org", "create", "--name", "Modes", "--json").code).toBe(0);
    expect([mode(parent), mode(data), mode(join(data, "files"))]).toEqual(["700", "700", "700"]);
    expect(mode(join(data, "dossier.db"))).toBe("600");
    expect(mode(join(data, "master.key"))).toBe("600");
  });

  test("a running server: the database, -wal and -shm; a CV upload: its folders and the file", async () => {
    const data = join(tempDir(), "data");
    server = await startServerProcess(data);
    const key = /API key \(shown once, store it now\): (svc_live_\w+)/.exec(server.stderr())![1];
    for (const name of ["dossier.db", "dossier.db-wal", "dossier.db-shm", "master.key", "serve.lock", "serve.pid"]) expect([name, mode(join(data, name))]).toEqual([name, "600"]);
    expect([mode(data), mode(join(data, "files"))]).toEqual(["700", "700"]);

    const form = new FormData();
    form.set("type", "candidate");
    form.set("name", "Private CV");
    form.set("cv", new File([new TextEncoder().encode("%PDF-1.7\nmode test\n")], "cv.pdf", { type: "application/pdf" }));
    const created = await fetch(`${server.url}/api/v1/dossiers`, { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form });
    expect(created.status).toBe(201);
    const { id, organization_id: org, cv_url: url } = ((await created.json()) as any).data;
    expect(url).toBe(`${org}/dossiers/${id}/cv.pdf`);
    const files = join(data, "files");
    const folders = [join(files, org), join(files, org, "dossiers"), join(files, org, "dossiers", id)];
    expect(folders.map(mode)).toEqual(["700", "700", "700"]);
    expect(mode(join(files, url))).toBe("600");

    // A replacement goes through a new temporary file: 0600 as well.
    const replaced = await fetch(`${server.url}/api/v1/dossiers/${id}/cv`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/pdf" },
      body: new TextEncoder().encode("%PDF-1.7\nsecond\n"),
    });
    expect(replaced.status).toBe(200);
    expect(mode(join(files, url))).toBe("600");
    server.proc.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  }, 60_000);
});

test("a data folder the operator made keeps its own mode (only what Dossier creates is set)", () => {
  const data = join(tempDir(), "own");
  mkdirSync(data, { mode: 0o750 });
  expect(dossier(data, "org", "create", "--name", "Own", "--json").code).toBe(0);
  expect(mode(data)).toBe("750");
});
