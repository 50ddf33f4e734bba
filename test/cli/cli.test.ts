// C2: the operator surface. --json prints exactly one JSON object; bad arguments exit 2 with a
// one-line message; unknown ids exit 1; bad arguments win over unknown ids (C10). On both engines
// (C19): SQLite in the data folder, and PostgreSQL through DOSSIER_DATABASE_URL, each test on a
// fresh database (cliOn); the same commands print the same things.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import { tempDir } from "../helpers";
import { ENGINES } from "../helpers/stores";
import { cliOn, dossier, dossierRun } from "./helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const UNKNOWN = "00000000-0000-4000-8000-000000000000";

function expectOneJsonObject(stdout: string) {
  expect(stdout.trim().split("\n")).toHaveLength(1);
  expect(typeof JSON.parse(stdout)).toBe("object");
}

describe.each(ENGINES)("dossier org|key|flow|webhook --json on %s", (engine) => {
  /** Each test's own data folder and database, holding organization "Acme" made by `org create`. */
  async function withAcme() {
    const cli = await cliOn(engine);
    const created = cli.run("org", "create", "--name", "Acme", "--json");
    return { ...cli, created, orgId: created.json?.id as string };
  }

  test("org create: growth by default, default rate limit, default flows (C4)", async () => {
    const { rows, created: result, orgId } = await withAcme();
    expect(result.code).toBe(0);
    expectOneJsonObject(result.stdout);
    expect(Object.keys(result.json).sort()).toEqual(["id", "name", "plan", "rate_limit"]);
    expect(result.json).toMatchObject({ name: "Acme", plan: "growth", rate_limit: 600 });
    // `AND is_default`: a flag both engines read as a condition (SQLite 1/0, PostgreSQL a boolean).
    const [{ n }] = await rows<{ n: number }>("SELECT count(*) AS n FROM flows WHERE organization_id = ? AND is_default", orgId);
    expect(Number(n)).toBe(2);
  });

  test("org create with plan and rate limit; org update; org list", async () => {
    const { run } = await withAcme();
    const pro = run("org", "create", "--name", "Pro Co", "--plan", "pro", "--rate-limit", "50", "--json");
    expect(pro.json).toMatchObject({ plan: "pro", rate_limit: 50 });
    const updated = run("org", "update", pro.json.id, "--plan", "growth", "--rate-limit", "70", "--name", "Grown", "--json");
    expect(updated.code).toBe(0);
    expect(updated.json).toEqual({ id: pro.json.id, name: "Grown", plan: "growth", rate_limit: 70 });
    const list = run("org", "list", "--json");
    expectOneJsonObject(list.stdout);
    expect(list.json.data.map((o: { name: string }) => o.name)).toEqual(["Acme", "Grown"]);
  });

  test("key create shows the key once; key list never shows it; key revoke", async () => {
    const { run, orgId } = await withAcme();
    const created = run("key", "create", "--org", orgId, "--scopes", "flows:read,dossiers:read", "--name", "ci", "--expires-at", "2030-01-01T00:00:00Z", "--json");
    expect(created.code).toBe(0);
    expectOneJsonObject(created.stdout);
    expect(created.json).toMatchObject({ scopes: ["flows:read", "dossiers:read"], expires_at: "2030-01-01T00:00:00.000Z", name: "ci" });
    expect(created.json.key).toMatch(/^svc_live_[A-Za-z0-9]{32}$/);
    const keyId = created.json.id;
    const all = run("key", "create", "--org", orgId, "--scopes", "all", "--json");
    expect(all.json.scopes).toHaveLength(15); // C22 adds tasks:read, tasks:write, mail:read
    const list = run("key", "list", "--org", orgId, "--json");
    expect(list.stdout).not.toContain(created.json.key);
    expect(list.json.data[0]).toEqual({ id: keyId, prefix: created.json.key.slice(0, 12), scopes: ["flows:read", "dossiers:read"], expires_at: "2030-01-01T00:00:00.000Z", revoked_at: null, last_used_at: null, name: "ci" });
    const revoked = run("key", "revoke", keyId, "--json");
    expect(revoked.code).toBe(0);
    expect(Object.keys(revoked.json).sort()).toEqual(["id", "revoked_at"]);
    expect(run("key", "list", "--org", orgId, "--json").json.data[0].revoked_at).toBe(revoked.json.revoked_at);
  });

  test("flow create with defaults for stage fields, and --default moves the flag (C4, C10)", async () => {
    const { run, rows, orgId } = await withAcme();
    const result = run("flow", "create", "--org", orgId, "--type", "candidate", "--name", "Engineering", "--stages", '[{"name":"Sourced"},{"name":"Tech","deadline_days":5,"win_probability":40,"color":"#abc"}]', "--default", "--json");
    expect(result.code).toBe(0);
    expect(result.json).toMatchObject({ name: "Engineering", type: "candidate", is_default: true, organization_id: orgId });
    expect(result.json.stages.map((s: Record<string, unknown>) => [s.name, s.position, s.deadline_days, s.win_probability, s.color])).toEqual([
      ["Sourced", 1, null, 0, "#9E9E9E"],
      ["Tech", 2, 5, 40, "#abc"],
    ]);
    expect(await rows("SELECT name FROM flows WHERE organization_id = ? AND type = 'candidate' AND is_default", orgId)).toEqual([{ name: "Engineering" }]);
  });

  test("webhook set, rotate-secret, unset", async () => {
    const { run, orgId } = await withAcme();
    const set = run("webhook", "set", "--org", orgId, "--url", "http://127.0.0.1:9/hook", "--json");
    expect(set.code).toBe(0);
    expect(set.json.url).toBe("http://127.0.0.1:9/hook");
    expect(set.json.secret).toMatch(/^whsec_/);
    const rotated = run("webhook", "rotate-secret", "--org", orgId, "--json");
    expect(rotated.json.secret).toMatch(/^whsec_/);
    expect(rotated.json.secret).not.toBe(set.json.secret);
    expect(run("webhook", "unset", "--org", orgId, "--json").json).toEqual({ url: null });
    const again = run("webhook", "rotate-secret", "--org", orgId, "--json");
    expect(again.code).toBe(1);
  });
});

// SQLite alone: the backup copies the data folder's database file; on PostgreSQL it says to use
// pg_dump and exits 1 (test/cli/serve-postgres.test.ts).
describe("dossier backup --json", () => {
  test("backup writes FILE and FILE.files (C10)", () => {
    const data = tempDir();
    expect(dossier(data, "org", "create", "--name", "Acme", "--json").code).toBe(0);
    expect(dossier(data, "org", "create", "--name", "Pro Co", "--json").code).toBe(0);
    const target = join(tempDir(), "copy.db");
    const result = dossier(data, "backup", target, "--json");
    expect(result.code).toBe(0);
    expect(result.json).toEqual({ database: target, files: `${target}.files` });
    expect(existsSync(`${target}.files`)).toBe(true);
    expect(existsSync(`${target}.key`)).toBe(true);
    const copy = new Database(target, { readonly: true });
    expect(copy.query<{ integrity_check: string }, []>("PRAGMA integrity_check").get()!.integrity_check).toBe("ok");
    expect(copy.query<{ n: number }, []>("SELECT count(*) AS n FROM organizations").get()!.n).toBe(2);
    copy.close();
  });
});

describe.each(ENGINES)("bad arguments exit 2 with one line; unknown ids exit 1, on %s", async (engine) => {
  const cli = await cliOn(engine);
  const org = cli.run("org", "create", "--name", "X", "--json").json.id as string;
  test.each([
    ["unknown command", ["frobnicate"]],
    ["org without a subcommand", ["org"]],
    ["org create without --name", ["org", "create"]],
    ["org create with a bad plan", ["org", "create", "--name", "A", "--plan", "gold"]],
    ["org create with rate limit 0", ["org", "create", "--name", "A", "--rate-limit", "0"]],
    ["org create with rate limit over 1,000,000", ["org", "create", "--name", "A", "--rate-limit", "1000001"]],
    ["org create with an unknown flag", ["org", "create", "--name", "A", "--colour", "red"]],
    ["org update without an id", ["org", "update", "--plan", "pro"]],
    ["key create with an unknown scope (wins over the unknown org)", ["key", "create", "--org", UNKNOWN, "--scopes", "flows:read,admin"]],
    ["key create with a bad expiry", ["key", "create", "--org", org, "--scopes", "all", "--expires-at", "tomorrow"]],
    ["key create with an expiry in the past", ["key", "create", "--org", org, "--scopes", "all", "--expires-at", "2020-01-01T00:00:00Z"]],
    ["key create with all and an unknown scope", ["key", "create", "--org", org, "--scopes", "all,foo"]],
    ["key revoke without an id", ["key", "revoke"]],
    ["flow create with a bad type", ["flow", "create", "--org", org, "--type", "x", "--name", "F", "--stages", "[]"]],
    ["flow create with no stages", ["flow", "create", "--org", org, "--type", "sales", "--name", "F", "--stages", "[]"]],
    ["flow create with bad JSON", ["flow", "create", "--org", org, "--type", "sales", "--name", "F", "--stages", "[{"]],
    ["flow create with win_probability 101", ["flow", "create", "--org", org, "--type", "sales", "--name", "F", "--stages", '[{"name":"A","win_probability":101}]']],
    ["flow create with a bad colour", ["flow", "create", "--org", org, "--type", "sales", "--name", "F", "--stages", '[{"name":"A","color":"red"}]']],
    ["flow create with negative deadline", ["flow", "create", "--org", org, "--type", "sales", "--name", "F", "--stages", '[{"name":"A","deadline_days":-1}]']],
    ["webhook set with a bad URL", ["webhook", "set", "--org", org, "--url", "ftp://x"]],
    ["backup without a file", ["backup"]],
    ["org list with an unknown flag", ["org", "list", "--verbose"]],
    ["org update with a bad rate limit (wins over the unknown org)", ["org", "update", UNKNOWN, "--rate-limit", "abc"]],
    ["key list without --org", ["key", "list"]],
    ["key create with an impossible date (wins over the unknown org)", ["key", "create", "--org", UNKNOWN, "--scopes", "all", "--expires-at", "2026-02-30T00:00:00Z"]],
    ["key create on 29 February of a common year", ["key", "create", "--org", org, "--scopes", "all", "--expires-at", "2027-02-29"]],
    ["key create on 31 April", ["key", "create", "--org", org, "--scopes", "all", "--expires-at", "2026-04-31T12:00:00.000Z"]],
    ["webhook rotate-secret without --org", ["webhook", "rotate-secret"]],
    ["webhook unset without --org", ["webhook", "unset"]],
    ["webhook deliveries with a bad status", ["webhook", "deliveries", "--org", org, "--status", "lost"]],
    ["serve --port abc", ["serve", "--port", "abc"]],
    ["backup into a folder that does not exist", ["backup", "/nonexistent/dir/x.db"]],
  ])("%s", (_name, args) => {
    const result = cli.run(...args, "--json");
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });

  test.each([
    ["org update", ["org", "update", UNKNOWN, "--plan", "pro"]],
    ["key create", ["key", "create", "--org", UNKNOWN, "--scopes", "all"]],
    ["key list", ["key", "list", "--org", UNKNOWN]],
    ["key revoke", ["key", "revoke", UNKNOWN]],
    ["flow create", ["flow", "create", "--org", UNKNOWN, "--type", "sales", "--name", "F", "--stages", '[{"name":"A"}]']],
    ["webhook set", ["webhook", "set", "--org", UNKNOWN, "--url", "http://127.0.0.1:9/"]],
  ])("unknown id: %s → exit 1", (_name, args) => {
    const result = cli.run(...args, "--json");
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });
});

describe.each(ENGINES)("key create: the problem named in its one line (C2), on %s", async (engine) => {
  const { run } = await cliOn(engine);
  const org = run("org", "create", "--name", "Scopes", "--json").json.id as string;
  const refusal = (...args: string[]) => {
    const result = run("key", "create", "--org", org, ...args, "--json");
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    return result.stderr;
  };

  test("--scopes all,foo names foo (not all); every unknown scope is named", () => {
    expect(refusal("--scopes", "all,foo")).toStartWith('dossier: unknown scope "foo";');
    expect(refusal("--scopes", "flows:read,foo,bar")).toStartWith('dossier: unknown scopes "foo", "bar";');
  });

  test("all inside a list stands for every scope", () => {
    expect(run("key", "create", "--org", org, "--scopes", "flows:read,all", "--json").json.scopes).toHaveLength(15); // C22 adds tasks:read, tasks:write, mail:read
  });

  test("--expires-at in the past is refused, naming the problem; nothing is created", () => {
    const before = run("key", "list", "--org", org, "--json").json.data.length;
    expect(refusal("--scopes", "all", "--expires-at", "2026-01-01T00:00:00Z")).toBe(
      "dossier: --expires-at 2026-01-01T00:00:00Z is in the past: a key must expire later than now\n",
    );
    expect(refusal("--scopes", "all", "--expires-at", new Date(Date.now() - 1000).toISOString())).toContain("is in the past");
    expect(run("key", "list", "--org", org, "--json").json.data).toHaveLength(before);
    const later = new Date(Date.now() + 60_000).toISOString();
    expect(run("key", "create", "--org", org, "--scopes", "all", "--expires-at", later, "--json").json.expires_at).toBe(later);
  });
});

describe.each(ENGINES)("C2: bad settings, data folders and ports are bad arguments: one line, exit 2, no stack trace, on %s", async (engine) => {
  const cli = await cliOn(engine);
  const expectUsage = (result: { code: number; stdout: string; stderr: string }, names: string) => {
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain(names);
  };

  test("--data naming a regular file, for a command and for serve", () => {
    const file = join(tempDir(), "not-a-folder");
    writeFileSync(file, "x");
    expectUsage(dossierRun(["org", "list", "--json", "--data", file], cli.env), file);
    expectUsage(dossierRun(["serve", "--port", "0", "--data", file], cli.env, 20_000), file);
  });

  test.each([
    ["DOSSIER_RATE_LIMIT=abc", { DOSSIER_RATE_LIMIT: "abc" }, ["org", "create", "--name", "X"], "abc"],
    ["DOSSIER_SYNC=sometimes", { DOSSIER_SYNC: "sometimes" }, ["org", "list"], "DOSSIER_SYNC"],
    ["DOSSIER_WEBHOOK_TIMEOUT=soon", { DOSSIER_WEBHOOK_TIMEOUT: "soon" }, ["key", "list", "--org", UNKNOWN], "soon"],
    ["DOSSIER_SYNC=sometimes on serve", { DOSSIER_SYNC: "sometimes" }, ["serve", "--port", "0"], "DOSSIER_SYNC"],
  ])("env %s", (_name, env, args, names) => {
    expectUsage(dossierRun([...args, "--data", tempDir()], { ...cli.env, ...(env as Record<string, string>) }, 20_000), names);
  });

  test("serve on a port already in use (D7)", () => {
    const taken = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("taken") });
    try {
      const result = dossierRun(["serve", "--port", String(taken.port), "--no-bootstrap", "--data", tempDir()], cli.env, 20_000);
      expectUsage(result, `127.0.0.1:${taken.port}`);
      expect(result.stderr).toContain("in use");
    } finally {
      taken.stop(true);
    }
  });

  test("a real leap day is a date: key create --expires-at 2028-02-29", () => {
    const org = cli.run("org", "create", "--name", "Leap", "--json").json.id;
    const key = cli.run("key", "create", "--org", org, "--scopes", "all", "--expires-at", "2028-02-29T23:59:59Z", "--json");
    expect(key.code).toBe(0);
    expect(key.json.expires_at).toBe("2028-02-29T23:59:59.000Z");
  });
});

describe("help and version", () => {
  const data = tempDir();
  test.each([
    ["serve", ["--port", "DOSSIER_PORT", "DOSSIER_HOST", "DOSSIER_SYNC", "--no-bootstrap"]],
    ["org", ["--plan", "--rate-limit", "DOSSIER_RATE_LIMIT"]],
    ["key", ["--scopes", "--expires-at"]],
    ["flow", ["--stages", "--default"]],
    ["webhook", ["--url", "rotate-secret"]],
    ["backup", ["FILE.files"]],
    ["seed", ["--org", "--dossiers", "--contacts", "--seed"]],
  ])("dossier %s --help lists its flags and settings", (command, words) => {
    const result = dossier(data, command, "--help");
    expect(result.code).toBe(0);
    for (const word of [...words, "--data", "DOSSIER_DATA", "--json"]) expect(result.stdout).toContain(word);
  });
  test("dossier --help lists every command; version --json", () => {
    const help = dossier(data, "--help");
    for (const command of ["serve", "org create", "key create", "flow create", "webhook set", "backup", "seed"]) expect(help.stdout).toContain(`dossier ${command}`);
    const version = dossier(data, "version", "--json");
    expect(version.json).toEqual({ version: expect.stringMatching(/^\d+\.\d+\.\d+$/) });
  });
});
