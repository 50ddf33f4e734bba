// C21's uploaded files: an import's file waits under <files>/<org>/imports/ from the 202 until the
// import ends, then is deleted; one that no import names (a crash between saving the upload and
// committing its import) is deleted when the import runner starts, once older than an hour (a
// younger one may be an upload whose import is still being recorded).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseImportForm } from "../../src/csv";
import { newId } from "../../src/ids";
import { UNNAMED_FILE_AGE_MS } from "../../src/files/uploads";
import { startImport } from "../../src/services/imports";
import { call, makeOrg, tempDir, until } from "../helpers";
import { ENGINES, appOn } from "../helpers/stores";

setDefaultTimeout(60_000); // Bun keeps a timeout per test file (test/preload.ts)

const form = () =>
  parseImportForm([
    ["file", new File(["full_name\nAda Lovelace\nGrace Hopper\n"], "people.csv")],
    ["resource", "contacts"],
    ["mapping", JSON.stringify({ full_name: "full_name" })],
  ]);

/** Sets a file's modification time `ms` in the past. */
const age = (path: string, ms: number) => utimesSync(path, new Date(Date.now() - ms), new Date(Date.now() - ms));

describe.each(ENGINES)("uploaded import files on %s", (engine) => {
  test("at start, files no import names and older than an hour are deleted; a queued import's file and a young upload stay", async () => {
    const data = tempDir();
    const first = await appOn(engine, { dataDir: data, imports: false });
    const org = await makeOrg(first);
    const queued = await startImport(first.dossier, org.id, form(), null);
    const dir = join(first.dossier.filesDir, org.id, "imports");
    const queuedFile = join(dir, `${queued.id}.csv`);
    expect(existsSync(queuedFile)).toBe(true);
    // The same store again: the data folder's file, or this app's PostgreSQL database.
    const env = engine === "postgres" ? { DOSSIER_DATABASE_URL: first.dossier.config.databaseUrl! } : {};
    await first.close();

    // What a crash between the upload and its record leaves, an hour and more ago; one just now
    // (an upload whose import may still be committing); something else in the folder, old.
    mkdirSync(dir, { recursive: true });
    const orphan = join(dir, `${newId()}.csv`);
    const young = join(dir, `${newId()}.csv`);
    const stray = join(dir, "leftover.tmp");
    for (const path of [orphan, young, stray]) writeFileSync(path, "full_name\nNobody\n");
    for (const path of [orphan, stray, queuedFile]) age(path, UNNAMED_FILE_AGE_MS + 60_000);

    const second = await appOn(engine, { dataDir: data, env });
    const done = await until(
      async () => {
        const { json } = await call(second, "GET", `/imports/${queued.id}`, { key: org.key });
        return json.data.status === "succeeded" && json.data;
      },
      30_000,
      "the queued import to succeed",
    );
    expect(done).toMatchObject({ rows: 2, created: 2 });
    expect(existsSync(orphan)).toBe(false);
    expect(existsSync(stray)).toBe(false);
    expect(existsSync(young)).toBe(true);
    // The queued import's file was read by its job, then deleted as it ended (just after its status
    // says so: the record first, then the file).
    await until(() => !existsSync(queuedFile), 60_000, "the queued import's file to be deleted");

    // Reverted: still no file, and nothing else of the folder touched.
    const reverted = await call(second, "POST", `/imports/${queued.id}/revert`, { key: org.key });
    expect(reverted.status, reverted.text).toBe(200);
    expect(existsSync(queuedFile)).toBe(false);
    expect(existsSync(young)).toBe(true);
  });
});
