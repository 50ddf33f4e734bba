// C21 from the shell: `dossier import` (its --json result, its progress bar on a terminal, its
// errors and exit codes) and `dossier export` (CSV on stdout, the lists' filters), run as real
// processes on a real data folder; an export round-trips through an import.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { parse } from "csv-parse/sync";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers";
import { dossier, MAIN } from "./helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const data = join(tempDir(), "data");
const org = dossier(data, "org", "create", "--name", "Acme", "--json").json.id as string;
const other = dossier(data, "org", "create", "--name", "Beta", "--json").json.id as string;
const dir = tempDir();

function file(name: string, content: string | Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

const rowsOf = (csv: string) => parse(csv, { bom: true }) as string[][];
/** The exported rows as objects by header, without what an import cannot give back. */
function records(csv: string): Record<string, string>[] {
  const [header, ...rows] = rowsOf(csv);
  return rows
    .map((row) => Object.fromEntries(header.map((name, i) => [name, row[i]]).filter(([name]) => !["id", "created_at", "updated_at", "dossier_count"].includes(name))))
    .sort((a, b) => a.full_name.localeCompare(b.full_name));
}

const PEOPLE =
  "\uFEFFName;E-mail;Phone;Kinds;Notes\r\n" +
  "Ada Lovelace;ada@example.com;+44 20 7946 0000;candidate;\"Line one\r\nline two; with a semicolon\"\r\n" +
  "Grace Hopper;not-an-email;;client;\r\n" +
  "Émile Zola;emile@example.com;;supplier,partner;=1+1\r\n";

describe("dossier import", () => {
  test("--json: the Import, rows refused with their row and column, the others in; --map given or guessed", () => {
    const path = file("people.csv", PEOPLE);
    const dry = dossier(data, "import", "--org", org, "--resource", "contacts", path, "--dry-run", "--json");
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.json).toMatchObject({ status: "succeeded", dry_run: true, rows: 3, created: 2, failed: 1 });
    expect(dossier(data, "export", "--org", org, "--resource", "contacts").stdout).toBe("\uFEFFid,full_name,email,phone,linkedin_url,company,role,city,kind,notes,dossier_count,pool_added_at,pool_expires_at,created_at,updated_at\r\n");

    // The mapping guessed from the headers: Name → full_name, E-mail → email, Phone → phone, Kinds → kind, Notes → notes.
    const run = dossier(data, "import", "--org", org, "--resource", "contacts", path, "--json");
    expect(run.code, run.stderr).toBe(0);
    expect(run.json).toMatchObject({ status: "succeeded", dry_run: false, mode: "create", rows: 3, processed: 3, created: 2, failed: 1, file_name: "people.csv" });
    expect(run.json.errors).toEqual([{ row: 3, column: "E-mail", message: "email: must be an email address" }]);
    const exported = records(dossier(data, "export", "--org", org, "--resource", "contacts").stdout);
    expect(exported.map((r) => [r.full_name, r.email, r.phone, r.kind, r.notes])).toEqual([
      ["Ada Lovelace", "ada@example.com", "'+44 20 7946 0000", "candidate", "Line one\r\nline two; with a semicolon"],
      ["Émile Zola", "emile@example.com", "", "supplier;partner", "'=1+1"],
    ]);

    // --map: only what it names; upsert on email updates the match.
    const update = file("update.csv", "who,mail\nAda King,ADA@example.com\n");
    const mapped = dossier(data, "import", "--org", org, "--resource", "contacts", update, "--map", "who=full_name,mail=email", "--mode", "upsert", "--json");
    expect(mapped.json).toMatchObject({ status: "succeeded", mode: "upsert", updated: 1, created: 0 });
    // Text: a summary line and the refused rows.
    const text = dossier(data, "import", "--org", org, "--resource", "contacts", path);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("3 rows, 0 created");
    expect(text.stdout).toContain("row 3 (E-mail): email: must be an email address");
  });

  test("an export round-trips through an import: the same values in another organization", () => {
    const source = dossier(data, "export", "--org", org, "--resource", "contacts");
    const path = file("roundtrip.csv", source.stdout);
    const run = dossier(data, "import", "--org", other, "--resource", "contacts", path, "--json");
    expect(run.json).toMatchObject({ status: "succeeded", failed: 0, created: 2 });
    expect(records(dossier(data, "export", "--org", other, "--resource", "contacts").stdout)).toEqual(records(source.stdout));
  });

  test("dossiers: --type and --stage; bad arguments exit 2 naming the problem, unknown ids 1", () => {
    const deals = file("deals.csv", "Deal,Step,Value\nBig deal,Proposal,\"1,5\"\nOther,Nowhere,2\n");
    const run = dossier(data, "import", "--org", org, "--resource", "dossiers", deals, "--type", "sales", "--stage", "Step", "--map", "Deal=name,Value=deal_size", "--json");
    expect(run.json).toMatchObject({ status: "succeeded", created: 1, failed: 1 });
    const csv = rowsOf(dossier(data, "export", "--org", org, "--resource", "dossiers", "--type", "sales").stdout);
    expect(csv.length).toBe(2);
    expect(csv[1][csv[0].indexOf("deal_size")]).toBe("1.5");

    const empty = file("empty.csv", "");
    const cases: [string[], number, string][] = [
      [["import", "--resource", "contacts", empty], 2, "--org is required"],
      [["import", "--org", org, "--resource", "notes", empty], 2, "--resource must be contacts or dossiers"],
      [["import", "--org", org, "--resource", "contacts"], 2, "the CSV file to import is required"],
      [["import", "--org", org, "--resource", "contacts", join(dir, "missing.csv")], 2, "no file"],
      [["import", "--org", org, "--resource", "contacts", empty], 2, "the file is empty"],
      [["import", "--org", org, "--resource", "contacts", file("bin.csv", Uint8Array.from([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x34, 0x0a, 0, 0, 0]))], 2, "not a CSV file but a PDF"],
      [["import", "--org", org, "--resource", "contacts", deals, "--map", "Deal=shoe_size"], 2, 'unknown field "shoe_size"'],
      [["import", "--org", org, "--resource", "contacts", deals, "--mode", "merge"], 2, "mode: must be"],
      [["import", "--org", "00000000-0000-4000-8000-000000000000", "--resource", "contacts", deals], 1, "no organization"],
      [["import", "--org", org, "--resource", "dossiers", deals, "--type", "sales", "--map", "Deal=name", "--flow-id", "00000000-0000-4000-8000-000000000000"], 1, "flow_id: flow not found"],
      [["export", "--org", org, "--resource", "contacts", "--json"], 2, "--json does not apply"],
      [["export", "--org", org, "--resource", "contacts", "--type", "sales"], 2, "--type is not a filter of contacts"],
      [["export", "--org", org, "--resource", "dossiers", "--overdue", "maybe"], 2, "overdue"],
      [["export", "--org", org, "--resource", "dossiers", "--updated-since", "yesterday"], 2, "updated_since"],
    ];
    for (const [args, code, message] of cases) {
      const result = dossier(data, ...args);
      expect(result.code, `${args.join(" ")}: ${result.stderr}`).toBe(code);
      expect(result.stderr.split("\n").filter(Boolean).length, args.join(" ")).toBe(1);
      expect(result.stderr, args.join(" ")).toContain(message);
    }
  });

  const script = Bun.which("script");
  test.skipIf(!script)("on a terminal, a progress bar on stderr; none with --json", () => {
    const many = file("many.csv", "full_name\n" + Array.from({ length: 1_200 }, (_, i) => `Person ${i}`).join("\n") + "\n");
    const quote = (arg: string) => `'${arg.replaceAll("'", "'\\''")}'`;
    const onTerminal = (json: boolean) => {
      const args = [process.execPath, MAIN, "import", "--org", org, "--resource", "contacts", many, "--data", data, ...(json ? ["--json"] : [])];
      const run = Bun.spawnSync([script!, "-qec", args.map(quote).join(" "), "/dev/null"], { stdin: "ignore", stdout: "pipe", stderr: "pipe", env: { ...process.env, DOSSIER_LOG: "off" }, timeout: 60_000 });
      expect(run.exitCode, run.stdout.toString()).toBe(0);
      return run.stdout.toString();
    };
    const shown = onTerminal(false);
    expect(shown).toContain("\r\x1b[2K[");
    expect(shown).toContain("100% 1,200/1,200 rows · 1,200 created");
    expect(onTerminal(true)).not.toContain("\x1b[2K");
  });
});
