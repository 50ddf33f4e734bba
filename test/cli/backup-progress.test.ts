// Issue 8 item 5: `dossier backup` shows its progress on a terminal (stderr, redrawn in place) and
// stays quiet with --json or when stderr is not a TTY. The terminal is a real pseudo-terminal made
// by util-linux `script`. The copy itself runs on a worker thread (src/db/backup-worker.ts).
import { Database } from "bun:sqlite";
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers";
import { dossier, MAIN } from "./helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const data = tempDir();
const out = tempDir();
dossier(data, "org", "create", "--name", "Progress", "--json");
for (let i = 0; i < 3; i++) {
  const dir = join(data, "files", "org_x", "dossiers", `d${i}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "cv.pdf"), `%PDF-1.7 ${i}`);
}

/** Runs `dossier ...args` with stdout and stderr on a pseudo-terminal; returns what it printed. */
function onTerminal(...args: string[]): { code: number; screen: string } {
  const command = [process.execPath, MAIN, ...args, "--data", data].map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(" ");
  const result = Bun.spawnSync(["script", "-qec", command, "/dev/null"], { env: { ...process.env, DOSSIER_LOG: "off" } });
  return { code: result.exitCode ?? -1, screen: result.stdout.toString() };
}

const integrity = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return (db.query("PRAGMA integrity_check").get() as { integrity_check: string }).integrity_check;
  } finally {
    db.close();
  }
};

describe("progress of dossier backup", () => {
  test("on a terminal: the database's copied size, then the files counted, then the result", () => {
    const file = join(out, "tty.db");
    const { code, screen } = onTerminal("backup", file);
    expect(code).toBe(0);
    expect(screen).toMatch(/\r\x1b\[2Kbackup: database \d+\.\d MB of about \d+\.\d MB/);
    expect(screen).toContain("backup: files 3 of 3");
    // The line is cleared before the result is printed.
    expect(screen).toMatch(/\r\x1b\[2Kdatabase → /);
    expect(integrity(file)).toBe("ok");
    expect(readFileSync(`${file}.files/org_x/dossiers/d2/cv.pdf`, "utf8")).toBe("%PDF-1.7 2");
  });

  test("--json on a terminal: exactly the JSON object, no progress", () => {
    const file = join(out, "json.db");
    const { code, screen } = onTerminal("backup", file, "--json");
    expect(code).toBe(0);
    expect(JSON.parse(screen)).toEqual({ database: file, files: `${file}.files` });
    expect(integrity(file)).toBe("ok");
  });

  test("not a terminal: nothing on stderr", () => {
    const file = join(out, "pipe.db");
    const result = dossier(data, "backup", file);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe(`database → ${file}\nfiles → ${file}.files\nkey → ${file}.key\nmanifest → ${file}.manifest.json\n`);
    expect(integrity(file)).toBe("ok");
  });
});
