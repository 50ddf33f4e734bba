// C2 and C19: `dossier backup` of a SQLite data folder whose CVs are in a bucket (DOSSIER_FILES_URL,
// a real s3rver). The backup holds the database, the key and the data folder's files/ (no CV there);
// its manifest names the bucket, the command says on stderr that the CVs are there and not in the
// backup (stdout keeps C2's shape), and `backup --verify` finds the backup whole without looking
// for them in FILE.files/. Restored beside the same bucket, the dossiers' CVs answer again.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { filesLabel, parseFilesUrl } from "../../src/config";
import { call, filesUnder, makeOrg, tempDir } from "../helpers";
import { dossierRun } from "../cli/helpers";
import { startS3 } from "../helpers/s3";
import { appOn } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const s3 = await startS3();
const pdf = (text: string) => new TextEncoder().encode(`%PDF-1.7\n${text}\n%%EOF\n`);

describe("dossier backup with CVs on S3 (C2, C19)", () => {
  test("database and key backed up, the bucket named; --verify whole; restored beside the bucket, the CVs answer", async () => {
    const env = s3.env("cvs");
    const data = tempDir();
    const app = await appOn("sqlite", { dataDir: data, env });
    const org = await makeOrg(app);
    const ids: string[] = [];
    for (const name of ["Ada", "Grace"]) {
      const form = new FormData();
      form.set("type", "candidate");
      form.set("name", name);
      form.set("cv", new File([pdf(name)], "cv.pdf", { type: "application/pdf" }));
      const made = await call(app, "POST", "/dossiers", { key: org.key, raw: form });
      expect(made.status, made.text).toBe(201);
      ids.push(made.json.data.id);
    }

    const file = join(tempDir(), "backup.db");
    const made = dossierRun(["backup", file, "--json", "--data", data], env);
    expect(made.code, made.stderr).toBe(0);
    expect(made.json).toEqual({ database: file, files: `${file}.files` }); // C2's shape, unchanged
    const bucket = filesLabel(parseFilesUrl(env.DOSSIER_FILES_URL, env));
    expect(made.stderr).toContain(`the CVs are in ${bucket} (DOSSIER_FILES_URL), not in this backup`);
    const manifest = JSON.parse(readFileSync(`${file}.manifest.json`, "utf8"));
    expect(manifest.cvs).toEqual({ bucket });
    expect(manifest.files).toEqual({ count: 0, bytes: 0 });
    expect(filesUnder(`${file}.files`)).toEqual([]);

    // --verify needs neither the data folder nor the bucket's settings.
    const verified = dossierRun(["backup", "--verify", file]);
    expect(verified.code, verified.stderr).toBe(0);
    expect(verified.stdout).toContain("is whole");
    expect(verified.stdout).toContain(`the CVs are in ${bucket}`);

    // Restore: the copy is a data folder of its own; with the same bucket, the CVs are there.
    await app.close();
    const restored = tempDir();
    renameSync(file, join(restored, "dossier.db"));
    renameSync(`${file}.files`, join(restored, "files"));
    renameSync(`${file}.key`, join(restored, "master.key"));
    const again = await appOn("sqlite", { dataDir: restored, env });
    for (const [i, id] of ids.entries()) {
      const cv = await again.handle(new Request(`http://localhost/api/v1/dossiers/${id}/cv`, { headers: { authorization: `Bearer ${org.key}` } }));
      expect(cv.status).toBe(200);
      expect(new Uint8Array(await cv.arrayBuffer())).toEqual(pdf(["Ada", "Grace"][i]));
    }
  });

  test("a manifest that names no bucket still has every CV the database names looked for in FILE.files/", async () => {
    const env = s3.env("cvs-2");
    const data = tempDir();
    const app = await appOn("sqlite", { dataDir: data, env });
    const org = await makeOrg(app);
    const form = new FormData();
    form.set("type", "candidate");
    form.set("name", "Hedy");
    form.set("cv", new File([pdf("Hedy")], "cv.pdf", { type: "application/pdf" }));
    expect((await call(app, "POST", "/dossiers", { key: org.key, raw: form })).status).toBe(201);
    const file = join(tempDir(), "backup.db");
    expect(dossierRun(["backup", file, "--data", data], env).code).toBe(0);
    const manifestPath = `${file}.manifest.json`;
    const { cvs: _, ...plain } = JSON.parse(readFileSync(manifestPath, "utf8"));
    writeFileSync(manifestPath, JSON.stringify(plain));
    mkdirSync(`${file}.files`, { recursive: true });
    const verified = dossierRun(["backup", "--verify", file]);
    expect(verified.code).toBe(1);
    expect(verified.stderr).toContain("1 CV files the database names are not in");
  });
});
