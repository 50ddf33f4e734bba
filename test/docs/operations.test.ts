// Issue 8: docs/operations.md's shell blocks run as written. Every `sh` block is either run here
// or listed in SKIPPED with the reason; a new block that is neither fails the first test.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { dossier } from "../cli/helpers";
import { tempDir } from "../helpers";
import { startServerProcess, type ServerProcess } from "../helpers/process";
import { docBlocks, runBlock, type DocBlock } from "./run-blocks";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const DOC = "docs/operations.md";
const blocks = docBlocks(DOC);
const shell = blocks.filter((b) => b.lang === "sh");

/** Blocks not run here, and why. */
const SKIPPED: { section: string; contains: string; why: string }[] = [
  {
    section: "Install",
    contains: "npm ci && npm run build",
    why: "downloads from the npm registry and rebuilds (minutes, network), then installs into /usr/local/bin as root; .ci/smoke runs the built executable",
  },
  {
    section: "Running under systemd",
    contains: "sudo useradd",
    why: "needs root and systemd (a system user, a unit in /etc/systemd/system, systemctl); the unit's consistency is checked below",
  },
  {
    section: "On PostgreSQL",
    contains: "createdb dossier                                  # an empty database",
    why: "needs a PostgreSQL server at db.internal; serve on PostgreSQL runs in test/cli/serve-postgres.test.ts",
  },
  {
    section: "On PostgreSQL",
    contains: "dossier migrate --to postgres://dossier:secret@db.internal",
    why: "needs systemd and a PostgreSQL server at db.internal; the move runs as a process on the tests' PostgreSQL in test/cli/migrate.test.ts",
  },
  {
    section: "CVs on S3-compatible object storage",
    contains: "export DOSSIER_FILES_URL=s3://acme-dossier/cvs",
    why: "needs a bucket on AWS and its keys; serve with CVs on a real S3 server (s3rver) runs in test/files/s3.test.ts and test/cli/migrate-files.test.ts",
  },
];
/** Blocks run by the tests below. */
const RUN: { section: string; contains: string }[] = [
  { section: "Running under systemd", contains: "sudo -u dossier dossier org create" },
  { section: "Organizations, keys, plans and rate limits", contains: "dossier org create" },
  { section: "Walk-through", contains: "dossier backup backup.db" },
  { section: "Demo data", contains: "dossier seed" },
];

const find = (section: string, contains: string): DocBlock => {
  const found = shell.filter((b) => b.section === section && b.code.includes(contains));
  if (found.length !== 1) throw new Error(`${DOC}: expected one sh block in "${section}" containing "${contains}", found ${found.length}`);
  return found[0]!;
};

const running: ServerProcess[] = [];
afterAll(() => {
  for (const server of running) if (server.proc.exitCode === null) server.proc.kill(9);
});

function mustRun(block: string, ...args: Parameters<typeof runBlock> extends [string, ...infer R] ? R : never) {
  const result = runBlock(block, ...args);
  if (result.exitCode !== 0) throw new Error(`block failed (${result.exitCode}):\n${block}\n${result.stderr}`);
  return result.stdout.toString();
}

test("every sh block of docs/operations.md is run below or skipped with a reason", () => {
  expect(shell.length).toBeGreaterThanOrEqual(5);
  for (const block of shell) {
    const matches = [...SKIPPED, ...RUN].filter((entry) => entry.section === block.section && block.code.includes(entry.contains));
    if (matches.length !== 1) throw new Error(`${DOC} "${block.section}": a sh block neither run nor skipped by test/docs/operations.test.ts:\n${block.code}`);
  }
  for (const entry of [...SKIPPED, ...RUN]) find(entry.section, entry.contains); // no stale entry
  // Paste-runnable: no [optional] or ORG_ID-style placeholders left in a shell block.
  for (const block of shell) expect(block.code, block.section).not.toMatch(/\[--|(?<![$\w])[A-Z]+_ID\b(?!=)/);
});

test("the systemd unit's user, paths and --no-bootstrap agree with the blocks around it", () => {
  const unit = blocks.find((b) => b.lang === "ini" && b.section === "Running under systemd")!.code;
  const setup = find("Running under systemd", "sudo useradd").code;
  const firstOrg = find("Running under systemd", "sudo -u dossier dossier org create").code;
  const install = find("Install", "npm ci && npm run build").code;
  const user = /^User=(\S+)$/m.exec(unit)![1];
  expect(setup).toMatch(new RegExp(`useradd .*\\b${user}$`, "m"));
  const exec = /^ExecStart=(\S+) serve (.*)$/m.exec(unit)!;
  expect(install).toContain(`install -m 755 dist/dossier ${exec[1]}`);
  expect(exec[2]).toContain("--no-bootstrap");
  const data = /^Environment=DOSSIER_DATA=(\S+)$/m.exec(unit)![1];
  expect(data).toBe(`/var/lib/${/^StateDirectory=(\S+)$/m.exec(unit)![1]}`);
  expect(firstOrg).toContain(`sudo -u ${user} dossier`);
  expect(firstOrg).toContain(`--data ${data}`);
  const port = /^Environment=DOSSIER_PORT=(\d+)$/m.exec(unit)![1];
  expect(setup).toContain(`http://127.0.0.1:${port}/healthz`);
});

test("the first organization and key of a --no-bootstrap service, made while it runs", async () => {
  // As the unit would: `serve --no-bootstrap` on the data folder. The block runs as written, but with
  // a `sudo` that runs the command as the current user and a temporary folder for /var/lib/dossier.
  const data = tempDir();
  const server = await startServerProcess(data, ["--no-bootstrap"]);
  running.push(server);
  expect(dossier(data, "org", "list", "--json").json).toEqual({ data: [] });
  const block = find("Running under systemd", "sudo -u dossier dossier org create").code;
  const out = mustRun(block.replaceAll("/var/lib/dossier", data), {}, { shims: { sudo: 'while [ "$1" = "-u" ]; do shift 2; done\nexec "$@"' } });
  const key = /svc_live_[A-Za-z0-9]{32}/.exec(out)?.[0];
  expect(key).toBeDefined();
  const orgs = dossier(data, "org", "list", "--json").json.data;
  expect(orgs).toMatchObject([{ name: "Acme", plan: "growth" }]);
  const answer = await fetch(`${server.url}/api/v1/flows`, { headers: { authorization: `Bearer ${key}` } });
  expect(answer.status).toBe(200);
  server.proc.kill("SIGTERM");
  expect(await server.exited).toBe(0);
});

test("the organizations and keys block runs as written", () => {
  const cwd = tempDir("dossier-walk-");
  const out = mustRun(find("Organizations, keys, plans and rate limits", "dossier org create").code, {}, { cwd });
  expect(out).toMatch(/^svc_live_[A-Za-z0-9]{32}$/m); // the key, printed once
  expect(out).toMatch(/ flows:read,dossiers:read {2}expires 2030-01-01T00:00:00\.000Z$/m); // key list
  expect(out).toMatch(/Acme {2}plan=pro {2}rate_limit=1200\/min\s*$/); // org list, last
  const data = join(cwd, "data");
  const org = dossier(data, "org", "list", "--json").json.data[0];
  const keys = dossier(data, "key", "list", "--org", org.id, "--json").json.data;
  expect(keys.map((k: { name: string; revoked_at: string | null }) => [k.name, k.revoked_at !== null])).toEqual(
    expect.arrayContaining([["reporting", true], [null, false]]),
  );
});

test("docs/operations.md walk-through", () => {
  const block = find("Walk-through", "dossier backup backup.db").code;
  mustRun(block);
});

test("the demo data block runs as written: the default amounts, then a seeded run's counts", () => {
  const cwd = tempDir("dossier-walk-");
  const out = mustRun(find("Demo data", "dossier seed").code, {}, { cwd }).trim().split("\n");
  expect(out[0]).toMatch(/^seeded Demo: 150 contacts, 120 dossiers \(\d+ candidate, \d+ sales\)$/);
  expect(JSON.parse(out[out.length - 1]!)).toMatchObject({ seed: 7, counts: { contacts: 10, dossiers: 20 } });
  const org = dossier(join(cwd, "data"), "org", "list", "--json").json.data[0];
  expect(org.name).toBe("Demo");
});
