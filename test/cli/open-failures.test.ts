// C2's exit statuses when the data folder cannot be opened: a corrupt or unreadable database is no
// bad argument (exit 2) but a failure (exit 1), at `serve` and at every command, with one line on
// stderr naming the folder. (A --data that names no folder stays a bad argument: test/cli/cli.test.ts.)
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { dossierRun } from "./helpers";
import { tempDir } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const UNKNOWN = "0190a0a0-0000-7000-8000-000000000001";
const COMMANDS = [
  ["serve", "--port", "0", "--no-bootstrap"],
  ["org", "list", "--json"],
  ["org", "create", "--name", "X", "--json"],
  ["key", "list", "--org", UNKNOWN, "--json"],
  ["webhook", "deliveries", "--org", UNKNOWN, "--json"],
  ["flow", "create", "--org", UNKNOWN, "--type", "candidate", "--name", "F", "--stages", '[{"name":"A"}]', "--json"],
  ["backup", "copy.db", "--json"],
];

const folders: [string, (data: string) => void][] = [
  ["a corrupt database", (data) => writeFileSync(join(data, "dossier.db"), "not a database, just text long enough to be read as a header".repeat(20))],
  ["an unreadable database (a folder where the file should be)", (data) => mkdirSync(join(data, "dossier.db"))],
];

describe.each(folders)("C2: %s exits 1 at every command, one line naming the folder", (_name, spoil) => {
  test.each(COMMANDS.map((args) => [args[1]!.startsWith("-") ? args[0]! : `${args[0]} ${args[1]}`, args] as const))("%s", (_label, args) => {
    const data = tempDir();
    spoil(data);
    const cwd = tempDir();
    const result = dossierRun([...args.map((arg) => (arg === "copy.db" ? join(cwd, arg) : arg)), "--data", data], {}, 20_000);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toStartWith(`dossier: cannot open the data folder ${data}: `);
  });
});
