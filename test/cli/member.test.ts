// C12, C20: `dossier member add|list|setup-link`, run as real processes on their own data folder,
// on both engines (C19: SQLite in the folder, PostgreSQL through DOSSIER_DATABASE_URL).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { openConfiguredContext } from "../../src/context";
import { redeemSetupLink } from "../../src/services/sessions";
import { onCleanup } from "../helpers";
import { ENGINES, type Engine } from "../helpers/stores";
import { cliOn, dossierRun, type Cli } from "./helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const UNKNOWN = "00000000-0000-4000-8000-000000000000";
const LINK = /^http:\/\/127\.0\.0\.1:8080\/console\/setup#token=[A-Za-z0-9_-]{43}$/;

/** A data folder and database on `engine` holding organization "Acme". */
async function acme(engine: Engine) {
  const cli = await cliOn(engine);
  const orgId = cli.run("org", "create", "--name", "Acme", "--json").json.id as string;
  return { cli, orgId };
}

const add = (cli: Cli, orgId: string, email: string, role = "admin", ...more: string[]) =>
  cli.run("member", "add", "--org", orgId, "--email", email, "--name", "Ada Admin", "--role", role, ...more);

async function unusedLinks(cli: Cli, memberId: string): Promise<number> {
  const [{ n }] = await cli.rows<{ n: number }>("SELECT count(*) AS n FROM setup_links WHERE member_id = ? AND used_at IS NULL", memberId);
  return Number(n);
}

describe.each(ENGINES)("dossier member on %s", (engine) => {
  test("add prints the setup link; --json is C20's {id, email, name, role, setup_url}", async () => {
    const { cli, orgId } = await acme(engine);
    const text = add(cli, orgId, "ada@cli.example");
    expect(text.code).toBe(0);
    expect(text.stdout.split("\n")[0]).toMatch(LINK);
    const json = add(cli, orgId, "Bob@CLI.example", "owner", "--json");
    expect(json.code).toBe(0);
    expect(json.stdout.trim().split("\n")).toHaveLength(1);
    expect(Object.keys(json.json).sort()).toEqual(["email", "id", "name", "role", "setup_url"]);
    expect(json.json).toMatchObject({ email: "Bob@CLI.example", name: "Ada Admin", role: "owner", setup_url: expect.stringMatching(LINK) });
  });

  test("C20: the link starts with DOSSIER_PUBLIC_URL when it is set", async () => {
    const { cli, orgId } = await acme(engine);
    const made = cli.runWith({ DOSSIER_PUBLIC_URL: "https://dossier.example/" }, "member", "add", "--org", orgId, "--email", "pub@cli.example", "--name", "Pub", "--role", "viewer", "--json");
    expect(made.code).toBe(0);
    expect(made.json.setup_url).toMatch(/^https:\/\/dossier\.example\/console\/setup#token=[A-Za-z0-9_-]{43}$/);
    const bad = cli.runWith({ DOSSIER_PUBLIC_URL: "ftp://nope" }, "member", "list", "--org", orgId);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("DOSSIER_PUBLIC_URL");
  });

  test("list: {data: [member...]}, disabled members too", async () => {
    const { cli, orgId } = await acme(engine);
    const made = add(cli, orgId, "ada@cli.example", "admin", "--json").json;
    const list = cli.run("member", "list", "--org", orgId, "--json");
    expect(list.code).toBe(0);
    expect(list.json).toEqual({
      data: [{ id: made.id, organization_id: orgId, email: "ada@cli.example", name: "Ada Admin", role: "admin", created_at: expect.any(String), last_sign_in_at: null, disabled_at: null }],
    });
    expect(cli.run("member", "list", "--org", orgId).stdout).toContain("ada@cli.example");
  });

  test("setup-link EMAIL (any case): a new link, {setup_url} with --json; the older link stops working", async () => {
    const { cli, orgId } = await acme(engine);
    const made = add(cli, orgId, "ada@cli.example", "owner", "--json").json;
    const renewed = cli.run("member", "setup-link", "ADA@cli.EXAMPLE", "--json");
    expect(renewed.code).toBe(0);
    expect(Object.keys(renewed.json)).toEqual(["setup_url"]);
    expect(renewed.json.setup_url).toMatch(LINK);
    expect(await unusedLinks(cli, made.id)).toBe(1);
    const ctx = await openConfiguredContext({ dataDir: cli.data, env: cli.env, config: { log: "off" } });
    onCleanup(() => ctx.store.close());
    const token = (url: string) => url.slice(url.indexOf("#token=") + 7);
    await expect(redeemSetupLink(ctx, { token: token(made.setup_url), password: "a good password" })).rejects.toMatchObject({ code: "invalid_setup_link" });
    expect((await redeemSetupLink(ctx, { token: token(renewed.json.setup_url), password: "a good password" })).member.id).toBe(made.id);
  });

  test.each([
    ["C20: setup-link for an unknown email", (d: Cli) => d.run("member", "setup-link", "nobody@cli.example"), 1],
    ["add to an unknown organization", (d: Cli) => add(d, UNKNOWN, "x@cli.example"), 1],
    ["list of an unknown organization", (d: Cli) => d.run("member", "list", "--org", UNKNOWN), 1],
    ["add with an email a member has (another case)", (d: Cli, org: string) => (add(d, org, "dup@cli.example"), add(d, org, "DUP@cli.example")), 1],
    ["add with an unknown role", (d: Cli, org: string) => add(d, org, "x@cli.example", "king"), 2],
    ["add with a malformed email", (d: Cli, org: string) => add(d, org, "not-an-email"), 2],
    ["add without --role", (d: Cli, org: string) => d.run("member", "add", "--org", org, "--email", "x@cli.example", "--name", "X"), 2],
    ["C10: a bad role wins over an unknown organization", (d: Cli) => add(d, UNKNOWN, "x@cli.example", "king"), 2],
    ["setup-link without an email", (d: Cli) => d.run("member", "setup-link"), 2],
    ["an unknown member command", (d: Cli) => d.run("member", "remove"), 2],
  ])("%s: exit %d with one line on stderr", async (_name, run, code) => {
    const { cli, orgId } = await acme(engine);
    const result = run(cli, orgId);
    expect(result.code).toBe(code);
    expect(result.stdout).toBe("");
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });

});

describe("dossier member --help", () => {
  test("help names the three commands", () => {
    const help = dossierRun(["member", "--help"]);
    expect(help.code).toBe(0);
    for (const sub of ["member add", "member list", "member setup-link"]) expect(help.stdout).toContain(sub);
    expect(dossierRun(["member", "setup-link", "--help"]).stdout).toContain("exit 1");
  });
});
