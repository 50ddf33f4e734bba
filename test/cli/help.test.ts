// Issue 8 (C2): `dossier <command> --help` lists, for every command and subcommand, each flag it
// accepts with its default, and each environment variable it reads with its default. Driven by the
// table below: a flag or variable added to a command belongs in this table and in its help.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { MAIN } from "./helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

interface Row {
  command: string;
  sub?: string;
  /** Flag → its default as the help must state it (on the flag's line, after "default"), or null
   * for a flag without one (required, or "unchanged"). */
  flags: Record<string, string | null>;
  /** Variable → its default, stated on the variable's line after "default". */
  env: Record<string, string>;
  /** Further line checks: a line matching the first pattern must match the second. */
  lines?: [RegExp, RegExp][];
  /** Help texts owned by another change (src/cli/serve.ts, key.ts, org.ts, backup.ts): to-do until
   * they are applied (see issue 8's ops report). */
}

// Every command that opens the data folder reads these (src/config.ts via src/context.ts).
const STORE_ENV = { DOSSIER_DATA: "./data", DOSSIER_SYNC: "full", DOSSIER_LOG: "json", DOSSIER_LOG_LEVEL: "info" };
const OUTPUT = { "--data": "./data", "--json": "text" };

const ROWS: Row[] = [
  {
    command: "serve",
    flags: { "--host": "127.0.0.1", "--port": "8080", "--smtp-port": "off", "--no-bootstrap": "off", "--data": "./data" },
    env: {
      DOSSIER_HOST: "127.0.0.1",
      DOSSIER_PORT: "8080",
      ...STORE_ENV,
      DOSSIER_RATE_LIMIT: "600",
      DOSSIER_WEBHOOK_RETRY_SCHEDULE: "5s,5m,30m,2h,5h,10h,14h,20h,24h",
      DOSSIER_WEBHOOK_TIMEOUT: "10s",
      DOSSIER_BODY_TIMEOUT: "30s",
      DOSSIER_BODY_MEMORY: "256MB",
      DOSSIER_CACHE: "on",
      DOSSIER_WEBHOOK_ALLOW_PRIVATE: "1",
      DOSSIER_SMTP_PORT: "off",
      DOSSIER_SMTP_HOST: "127.0.0.1",
      DOSSIER_SMTP_TLS_CERT: "no STARTTLS",
      DOSSIER_INTAKE_DOMAIN: "localhost",
      DOSSIER_INTAKE_RATE_LIMIT: "60",
      DOSSIER_FILES_URL: "DIR/files",
      DOSSIER_S3_ENDPOINT: "AWS's",
      DOSSIER_S3_REGION: "us-east-1",
      AWS_ACCESS_KEY_ID: "required",
      AWS_SECRET_ACCESS_KEY: "required",
    },
  },
  { command: "org", sub: "create", flags: { "--name": null, "--plan": "growth", "--rate-limit": "600", ...OUTPUT }, env: { ...STORE_ENV, DOSSIER_RATE_LIMIT: "600" } },
  { command: "org", sub: "update", flags: { "--plan": null, "--rate-limit": null, "--name": null, ...OUTPUT }, env: STORE_ENV },
  { command: "org", sub: "list", flags: OUTPUT, env: STORE_ENV },
  { command: "key", sub: "create", flags: { "--org": null, "--scopes": null, "--expires-at": "never", "--name": null, ...OUTPUT }, env: STORE_ENV },
  { command: "key", sub: "list", flags: { "--org": null, ...OUTPUT }, env: STORE_ENV },
  { command: "key", sub: "revoke", flags: OUTPUT, env: STORE_ENV },
  { command: "member", sub: "add", flags: { "--org": null, "--email": null, "--name": null, "--role": null, ...OUTPUT }, env: { ...STORE_ENV, DOSSIER_PUBLIC_URL: "http://127.0.0.1:8080" } },
  { command: "member", sub: "list", flags: { "--org": null, ...OUTPUT }, env: STORE_ENV },
  { command: "member", sub: "setup-link", flags: OUTPUT, env: { ...STORE_ENV, DOSSIER_PUBLIC_URL: "http://127.0.0.1:8080" } },
  {
    command: "flow",
    sub: "create",
    flags: { "--org": null, "--type": null, "--name": null, "--stages": null, "--default": "off", ...OUTPUT },
    env: STORE_ENV,
    // C10: a stage's position is its 1-based place, win_probability 0, color #9E9E9E.
    lines: [
      [/\bposition\b/, /1-based place/],
      [/\bwin_probability\b(?!")/, /default 0\b/],
      [/\bcolor\b(?!")/, /default #9E9E9E\b/],
      [/\bdeadline_days\b(?!")/, /default: null/],
    ],
  },
  { command: "flow", sub: "intake", flags: { "--flow": null, "--rotate": "off", ...OUTPUT }, env: { ...STORE_ENV, DOSSIER_INTAKE_DOMAIN: "localhost" } },
  { command: "webhook", sub: "set", flags: { "--org": null, "--url": null, ...OUTPUT }, env: STORE_ENV },
  { command: "webhook", sub: "rotate-secret", flags: { "--org": null, ...OUTPUT }, env: STORE_ENV },
  { command: "webhook", sub: "unset", flags: { "--org": null, ...OUTPUT }, env: STORE_ENV },
  { command: "webhook", sub: "deliveries", flags: { "--org": null, "--status": "all", "--event": "every event", ...OUTPUT }, env: STORE_ENV },
  { command: "webhook", sub: "retry", flags: OUTPUT, env: STORE_ENV },
  { command: "backup", flags: OUTPUT, env: STORE_ENV },
  {
    command: "migrate",
    flags: { "--to": null, "--files": "none", ...OUTPUT },
    env: {
      DOSSIER_DATA: "./data", DOSSIER_LOG_LEVEL: "info", DOSSIER_S3_ENDPOINT: "AWS's", DOSSIER_S3_REGION: "us-east-1", AWS_ACCESS_KEY_ID: "required", AWS_SECRET_ACCESS_KEY: "required",
    },
  },
  { command: "seed", flags: { "--org": null, "--dossiers": "120", "--contacts": "150", "--seed": "random", ...OUTPUT }, env: STORE_ENV },
  {
    command: "import",
    flags: {
      "--org": null, "--resource": null, "--map": "guessed", "--mode": "create", "--match-on": "email", "--dry-run": "off", "--no-events": "off",
      "--flow-id": "default flow", "--type": null, "--stage": null, ...OUTPUT,
    },
    env: STORE_ENV,
  },
  {
    command: "export",
    flags: { "--org": null, "--resource": null, "--type": null, "--kind": null, "--updated-since": null, "--data": "./data" },
    env: STORE_ENV,
  },
];

function help(row: Row): string {
  const args = [row.command, ...(row.sub ? [row.sub] : []), "--help"];
  const run = Bun.spawnSync([process.execPath, MAIN, ...args], { stdout: "pipe", stderr: "pipe", env: { ...process.env, DOSSIER_LOG: "off" } });
  if (run.exitCode !== 0) throw new Error(`dossier ${args.join(" ")} exited ${run.exitCode}: ${run.stderr}`);
  return run.stdout.toString();
}

/** Problems of one row's help, empty when it says everything. */
export function problems(row: Row, text: string): string[] {
  const lines = text.split("\n");
  const found: string[] = [];
  const usage = `dossier ${row.command}${row.sub ? ` ${row.sub}` : ""}`;
  if (!lines.some((line) => line === usage || line.startsWith(`${usage} `))) found.push(`no usage line "${usage} ..."`);
  const mentions = (name: string) => (line: string) => new RegExp(`(^|[^-\\w])${name.replace(/[-]/g, "\\-")}(?![-\\w])`).test(line);
  for (const [flag, value] of Object.entries(row.flags)) {
    const at = lines.filter(mentions(flag));
    if (at.length === 0) found.push(`${flag} is not listed`);
    else if (value !== null && !at.some((line) => /\bdefault\b/.test(line) && line.includes(value))) found.push(`${flag}: no line gives its default ${value}`);
  }
  for (const [name, value] of Object.entries(row.env)) {
    const at = lines.filter(mentions(name));
    if (at.length === 0) found.push(`env ${name} is not listed`);
    else if (!at.some((line) => /\bdefault\b/.test(line) && line.includes(value))) found.push(`env ${name}: no line gives its default ${value}`);
  }
  for (const [where, what] of row.lines ?? []) {
    if (!lines.some((line) => where.test(line) && what.test(line))) found.push(`no line matching ${where} says ${what}`);
  }
  return found;
}

describe("C2: every command's --help lists its flags and env vars with their defaults", () => {
  for (const row of ROWS) {
    const name = `dossier ${row.command}${row.sub ? ` ${row.sub}` : ""} --help`;
    test(name, () => expect(problems(row, help(row))).toEqual([]));
  }

  test("`dossier <command> <sub> --help` is that command's own help, not its group's", () => {
    for (const row of ROWS.filter((r) => r.sub)) {
      const usage = help(row).split("\n").filter((line) => line.startsWith("dossier "));
      expect(usage, `${row.command} ${row.sub}`).toEqual([expect.stringMatching(new RegExp(`^dossier ${row.command} ${row.sub} `))]);
    }
  });

  test("the table covers every command of `dossier --help`", () => {
    const run = Bun.spawnSync([process.execPath, MAIN, "--help"], { stdout: "pipe" });
    const usage = [...run.stdout.toString().matchAll(/^dossier ([a-z-]+)(?: ([a-z-]+))?/gm)]
      .filter(([, command]) => command !== "version")
      .map(([, command, sub]) => (sub && ROWS.some((r) => r.command === command && r.sub) ? `${command} ${sub}` : command));
    const covered = new Set(ROWS.map((r) => (r.sub ? `${r.command} ${r.sub}` : r.command)));
    expect(usage.length).toBeGreaterThan(10);
    for (const entry of usage) expect(covered.has(entry), entry).toBe(true);
  });
});
