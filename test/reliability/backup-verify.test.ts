// C2 and C10 `dossier backup FILE` (FILE, FILE.files/, FILE.key) made whole or not at all, with
// FILE.manifest.json (counts, sizes, SHA-256), and `dossier backup --verify FILE`. The fault it
// closes: a backup killed after 0.4 s left a valid database at FILE, a part of the files and no
// key, and nothing said it was partial.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { call, makeApp, makeOrg, tempDir, until } from "../helpers";
import { dossier, MAIN } from "../cli/helpers";
import { pdf } from "./fixtures";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const sha256 = (bytes: Uint8Array) => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
const PARTS = (file: string) => [file, `${file}.files`, `${file}.key`, `${file}.manifest.json`];

const children: ReturnType<typeof Bun.spawn>[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill(9);
});

/** A data folder with an organization and three dossiers with CVs, made through the API. */
async function dataWithCvs() {
  const data = tempDir();
  const app = makeApp({ dataDir: data });
  const org = await makeOrg(app);
  const cvs: Uint8Array[] = [];
  for (let i = 0; i < 3; i++) {
    const form = new FormData();
    form.set("type", "candidate");
    form.set("name", `With CV ${i}`);
    const bytes = pdf(5_000 + i * 1_000, i);
    form.set("cv", new File([bytes], "cv.pdf", { type: "application/pdf" }));
    expect((await call(app, "POST", "/dossiers", { key: org.key, raw: form })).status).toBe(201);
    cvs.push(bytes);
  }
  return { data, cvs };
}

const verify = (file: string, ...extra: string[]) => dossier(tempDir(), "backup", "--verify", file, ...extra);

test("C10: a whole backup has its manifest, and --verify says so", async () => {
  const { data, cvs } = await dataWithCvs();
  const file = join(tempDir(), "whole.db");
  const made = dossier(data, "backup", file, "--json");
  expect(made.code, made.stderr).toBe(0);
  expect(made.json).toEqual({ database: file, files: `${file}.files` }); // C2's shape, unchanged
  const manifest = JSON.parse(readFileSync(`${file}.manifest.json`, "utf8"));
  expect(manifest).toEqual({
    format: "dossier-backup/1",
    created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    database: { bytes: statSync(file).size, sha256: sha256(readFileSync(file)) },
    files: { count: 3, bytes: cvs.reduce((sum, cv) => sum + cv.length, 0) },
    key: { bytes: statSync(`${file}.key`).size, sha256: sha256(readFileSync(`${file}.key`)) },
  });
  expect(readFileSync(`${file}.key`, "utf8")).toBe(readFileSync(join(data, "master.key"), "utf8"));
  expect(readdirSync(dirname(file)).sort()).toEqual(PARTS(file).map((path) => basename(path)).sort()); // no .incomplete left

  const checked = verify(file, "--json");
  expect(checked.code, checked.stderr).toBe(0);
  expect(checked.json).toEqual({ database: file, files: `${file}.files`, key: `${file}.key`, manifest: `${file}.manifest.json`, verified: true });
  expect(verify(file).stdout).toBe(`backup ${file} is whole: its database, files and key match ${file}.manifest.json\n`);
}, 60_000);

test("C10: --verify names what is missing or differs, exit 1", async () => {
  const { data } = await dataWithCvs();
  const original = join(tempDir(), "original.db");
  expect(dossier(data, "backup", original).code).toBe(0);
  const cvs = (file: string) => {
    const found: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else found.push(path);
      }
    };
    walk(`${file}.files`);
    return found;
  };
  const damages: [string, (file: string) => void, string][] = [
    ["no manifest", (file) => rmSync(`${file}.manifest.json`), `no ${"FILE"}.manifest.json: the backup is incomplete`],
    ["no key", (file) => rmSync(`${file}.key`), `the key FILE.key is missing`],
    ["another key", (file) => writeFileSync(`${file}.key`, readFileSync(`${file}.key`, "utf8").replace(/^./, (c) => (c === "A" ? "B" : "A"))), "the key FILE.key differs from the one backed up (SHA-256)"],
    ["a byte of the database changed", (file) => {
      const bytes = readFileSync(file);
      bytes[bytes.length - 1] ^= 0xff;
      writeFileSync(file, bytes);
    }, "the database FILE differs from the one backed up (SHA-256)"],
    ["a CV missing", (file) => rmSync(cvs(file)[0]!), "the files folder FILE.files holds 2 files of"],
    ["a CV under another name", (file) => renameSync(cvs(file)[0]!, `${cvs(file)[0]}.moved`), "1 CV files the database names are not in FILE.files"],
    ["no database", (file) => rmSync(file), "the database FILE is missing"],
  ];
  for (const [name, damage, message] of damages) {
    const file = join(tempDir(), "copy.db");
    for (const path of PARTS(original)) cpSync(path, path.replace(original, file), { recursive: true });
    expect(verify(file).code, `${name}: intact copy`).toBe(0);
    damage(file);
    const result = verify(file, "--json");
    expect(result.code, name).toBe(1);
    expect(result.stdout, name).toBe("");
    expect(result.stderr.trim().split("\n"), name).toHaveLength(1);
    expect(result.stderr, name).toContain(`dossier: backup ${file} is not whole: `);
    expect(result.stderr, name).toContain(message.replaceAll("FILE", file));
  }
}, 120_000);

test("C10: an interrupted backup leaves no FILE, FILE.files, FILE.key or manifest: only FILE.incomplete-*", async () => {
  const { data } = await dataWithCvs();
  // A named pipe among the CV files: the copy blocks on it, after the database is copied and
  // before the files and the key are, as a slow disk would. There the backup is killed.
  const stall = join(data, "files", "stall");
  expect(Bun.spawnSync(["mkfifo", stall]).exitCode).toBe(0);
  const out = tempDir();
  const file = join(out, "cut.db");
  const child = Bun.spawn([process.execPath, MAIN, "backup", file, "--data", data], { env: { ...process.env, DOSSIER_LOG: "off" }, stdout: "ignore", stderr: "ignore" });
  children.push(child);
  // The database is copied (under whatever name the command gives it) and the files copy has begun.
  await until(() => readdirSync(out).some((name) => name === "cut.db" || (name.startsWith("cut.db.incomplete-") && existsSync(join(out, name, "files")))), 60_000, "the backup to reach the files");
  await Bun.sleep(300);
  expect(child.exitCode).toBeNull(); // still blocked on the pipe
  child.kill(9);
  await child.exited;

  for (const path of PARTS(file)) expect(existsSync(path), path).toBe(false);
  const left = readdirSync(out);
  expect(left).toHaveLength(1);
  expect(left[0]).toMatch(/^cut\.db\.incomplete-/);
  const checked = verify(file);
  expect(checked.code).toBe(1);
  expect(checked.stderr).toContain(`no ${file}.manifest.json: the backup is incomplete`);
}, 60_000);

test("C10: backup refuses a FILE whose parts exist already (exit 2), leaving them as they were", () => {
  const data = tempDir();
  expect(dossier(data, "org", "create", "--name", "X").code).toBe(0);
  for (const part of ["", ".files", ".key", ".manifest.json"]) {
    const file = join(tempDir(), "taken.db");
    writeFileSync(`${file}${part}`, "mine");
    const result = dossier(data, "backup", file);
    expect(result.code, part).toBe(2);
    expect(result.stderr).toBe(`dossier: ${file}${part} already exists\n`);
    expect(readFileSync(`${file}${part}`, "utf8")).toBe("mine");
    expect(readdirSync(dirname(file))).toEqual([basename(`${file}${part}`)]);
  }
}, 60_000);
