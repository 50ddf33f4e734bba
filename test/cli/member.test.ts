// C12, C20: `dossier member add|list|setup-link`, run as real processes on their own data folder.
import { Database } from "bun:sqlite";
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { openContext } from "../../src/context";
import { redeemSetupLink } from "../../src/services/sessions";
import { onCleanup, tempDir } from "../helpers";
import { dossier, dossierRun } from "./helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const UNKNOWN = "00000000-0000-4000-8000-000000000000";
const LINK = /^http:\/\/127\.0\.0\.1:8080\/console\/setup#token=[A-Za-z0-9_-]{43}$/;

/** A data folder holding organization "Acme". */
function acme() {
  const data = tempDir();
  const orgId = dossier(data, "org", "create", "--name", "Acme", "--json").json.id as string;
  return { data, orgId };
}

const add = (data: string, orgId: string, email: string, role = "admin", ...more: string[]) =>
  dossier(data, "member", "add", "--org", orgId, "--email", email, "--name", "Ada Admin", "--role", role, ...more);

function unusedLinks(data: string, memberId: string): number {
  const db = new Database(join(data, "dossier.db"), { readonly: true });
  try {
    return db.query<{ n: number }, [string]>("SELECT count(*) AS n FROM setup_links WHERE member_id = ? AND used_at IS NULL").get(memberId)!.n;
  } finally {
    db.close();
  }
}

describe("dossier member", () => {
  test("add prints the setup link; --json is C20's {id, email, name, role, setup_url}", () => {
    const { data, orgId } = acme();
    const text = add(data, orgId, "ada@cli.example");
    expect(text.code).toBe(0);
    expect(text.stdout.split("\n")[0]).toMatch(LINK);
    const json = add(data, orgId, "Bob@CLI.example", "owner", "--json");
    expect(json.code).toBe(0);
    expect(json.stdout.trim().split("\n")).toHaveLength(1);
    expect(Object.keys(json.json).sort()).toEqual(["email", "id", "name", "role", "setup_url"]);
    expect(json.json).toMatchObject({ email: "Bob@CLI.example", name: "Ada Admin", role: "owner", setup_url: expect.stringMatching(LINK) });
  });

  test("C20: the link starts with DOSSIER_PUBLIC_URL when it is set", () => {
    const { data, orgId } = acme();
    const made = dossierRun(["member", "add", "--org", orgId, "--email", "pub@cli.example", "--name", "Pub", "--role", "viewer", "--json", "--data", data], {
      DOSSIER_PUBLIC_URL: "https://dossier.example/",
    });
    expect(made.code).toBe(0);
    expect(made.json.setup_url).toMatch(/^https:\/\/dossier\.example\/console\/setup#token=[A-Za-z0-9_-]{43}$/);
    const bad = dossierRun(["member", "list", "--org", orgId, "--data", data], { DOSSIER_PUBLIC_URL: "ftp://nope" });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("DOSSIER_PUBLIC_URL");
  });

  test("list: {data: [member...]}, disabled members too", () => {
    const { data, orgId } = acme();
    const made = add(data, orgId, "ada@cli.example", "admin", "--json").json;
    const list = dossier(data, "member", "list", "--org", orgId, "--json");
    expect(list.code).toBe(0);
    expect(list.json).toEqual({
      data: [{ id: made.id, organization_id: orgId, email: "ada@cli.example", name: "Ada Admin", role: "admin", created_at: expect.any(String), last_sign_in_at: null, disabled_at: null }],
    });
    expect(dossier(data, "member", "list", "--org", orgId).stdout).toContain("ada@cli.example");
  });

  test("setup-link EMAIL (any case): a new link, {setup_url} with --json; the older link stops working", async () => {
    const { data, orgId } = acme();
    const made = add(data, orgId, "ada@cli.example", "owner", "--json").json;
    const renewed = dossier(data, "member", "setup-link", "ADA@cli.EXAMPLE", "--json");
    expect(renewed.code).toBe(0);
    expect(Object.keys(renewed.json)).toEqual(["setup_url"]);
    expect(renewed.json.setup_url).toMatch(LINK);
    expect(unusedLinks(data, made.id)).toBe(1);
    const ctx = openContext({ dataDir: data, config: { log: "off" } });
    onCleanup(() => ctx.store.close());
    const token = (url: string) => url.slice(url.indexOf("#token=") + 7);
    await expect(redeemSetupLink(ctx, { token: token(made.setup_url), password: "a good password" })).rejects.toMatchObject({ code: "invalid_setup_link" });
    expect((await redeemSetupLink(ctx, { token: token(renewed.json.setup_url), password: "a good password" })).member.id).toBe(made.id);
  });

  test.each([
    ["C20: setup-link for an unknown email", (d: string) => dossier(d, "member", "setup-link", "nobody@cli.example"), 1],
    ["add to an unknown organization", (d: string) => add(d, UNKNOWN, "x@cli.example"), 1],
    ["list of an unknown organization", (d: string) => dossier(d, "member", "list", "--org", UNKNOWN), 1],
    ["add with an email a member has (another case)", (d: string, org: string) => (add(d, org, "dup@cli.example"), add(d, org, "DUP@cli.example")), 1],
    ["add with an unknown role", (d: string, org: string) => add(d, org, "x@cli.example", "king"), 2],
    ["add with a malformed email", (d: string, org: string) => add(d, org, "not-an-email"), 2],
    ["add without --role", (d: string, org: string) => dossier(d, "member", "add", "--org", org, "--email", "x@cli.example", "--name", "X"), 2],
    ["C10: a bad role wins over an unknown organization", (d: string) => add(d, UNKNOWN, "x@cli.example", "king"), 2],
    ["setup-link without an email", (d: string) => dossier(d, "member", "setup-link"), 2],
    ["an unknown member command", (d: string) => dossier(d, "member", "remove"), 2],
  ])("%s: exit %d with one line on stderr", (_name, run, code) => {
    const { data, orgId } = acme();
    const result = run(data, orgId);
    expect(result.code).toBe(code);
    expect(result.stdout).toBe("");
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });

  test("help names the three commands", () => {
    const help = dossierRun(["member", "--help"]);
    expect(help.code).toBe(0);
    for (const sub of ["member add", "member list", "member setup-link"]) expect(help.stdout).toContain(sub);
    expect(dossierRun(["member", "setup-link", "--help"]).stdout).toContain("exit 1");
  });
});
