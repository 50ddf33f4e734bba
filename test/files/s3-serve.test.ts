// `dossier serve` with CVs on S3 (C19), as a real process against a real s3rver: it prints the file
// store it uses (never a key), and its sweep runs at start: an hour-old CV object that no dossier
// names is removed, the objects that dossiers name are kept, however old, and so are young orphans.
// Objects are aged by their file's mtime in s3rver's folder (which is what it answers as
// Last-Modified): the server's clock is not moved.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { utimesSync } from "node:fs";
import { join } from "node:path";
import { createApp } from "../../src/app";
import { cvUrl } from "../../src/files";
import { call, makeOrg, tempDir, until } from "../helpers";
import { startServerProcess } from "../helpers/process";
import { keysUnder, startS3 } from "../helpers/s3";
import { dossierRun } from "../cli/helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const s3 = await startS3();
const bucket = s3.client();
const pdf = (text: string) => new TextEncoder().encode(`%PDF-1.7\n${text}\n`);

/** Makes the object look `ms` old to s3rver (and so to the sweep). */
const age = (key: string, ms: number) => {
  const when = new Date(Date.now() - ms);
  utimesSync(join(s3.dir, s3.bucket, `${key}._S3rver_object`), when, when);
};

describe("serve with DOSSIER_FILES_URL", () => {
  test("prints its file store, sweeps at start: old orphans go, named CVs (old too) and young orphans stay", async () => {
    const data = tempDir();
    const env = s3.env("served");
    const app = createApp({ dataDir: data, webhooks: false, env, config: { log: "off" } });
    const org = await makeOrg(app);
    const form = new FormData();
    form.append("type", "candidate");
    form.append("name", "Named");
    form.append("cv", new File([pdf("named")], "cv.pdf", { type: "application/pdf" }));
    const named = (await call(app, "POST", "/dossiers", { key: org.key, raw: form })).json.data;
    await app.close();
    const namedKey = `served/${named.cv_url}`;
    const oldOrphan = `served/${cvUrl(org.id, "4b7c5f9e-8d3a-4e21-9a6b-2f4c1d0e9a87")}`;
    const youngOrphan = `served/${cvUrl(org.id, "5b7c5f9e-8d3a-4e21-9a6b-2f4c1d0e9a87")}`;
    await bucket.write(oldOrphan, pdf("crash left me"));
    await bucket.write(youngOrphan, pdf("an upload in progress, maybe"));
    age(namedKey, 3 * 3_600_000);
    age(oldOrphan, 2 * 3_600_000);
    age(youngOrphan, 30 * 60_000);

    const server = await startServerProcess(data, ["--no-bootstrap"], { ...env, DOSSIER_LOG_LEVEL: "info" });
    expect(server.stderr()).toContain(`"files":"s3://${s3.bucket}/served at ${s3.endpoint}"`);
    expect(server.stderr()).not.toContain("S3RVER");
    await until(() => server.stderr().includes("swept stray CV files"), 60_000, "the sweep at start");
    expect(server.stderr()).toMatch(/"msg":"swept stray CV files".*"orphans":1/);
    expect(await keysUnder(bucket, "served/")).toEqual([namedKey, youngOrphan].sort());
    const response = await fetch(`${server.url}/api/v1/dossiers/${named.id}/cv`, { headers: { authorization: `Bearer ${org.key}` } });
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(pdf("named"));
    server.proc.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  });

  test("a DOSSIER_FILES_URL that is no s3:// URL, or without credentials: exit 2, one line naming it, nothing started", () => {
    for (const [env, says] of [
      [{ DOSSIER_FILES_URL: "https://bucket/cvs" }, "invalid DOSSIER_FILES_URL"],
      [{ DOSSIER_FILES_URL: "s3://bucket/cvs", AWS_ACCESS_KEY_ID: "", AWS_SECRET_ACCESS_KEY: "" }, "DOSSIER_FILES_URL needs AWS_ACCESS_KEY_ID"],
    ] as const) {
      const result = dossierRun(["serve", "--no-bootstrap", "--port", "0", "--data", tempDir()], env, 20_000);
      expect([result.code, result.stderr.trim().split("\n").length]).toEqual([2, 1]);
      expect(result.stderr).toContain(says);
    }
  });

  test("without it, serve prints the data folder's files/ as its file store", async () => {
    const data = tempDir();
    const server = await startServerProcess(data, ["--no-bootstrap"]);
    expect(server.stderr()).toContain(`"files":"disk ${join(data, "files")}"`);
    server.proc.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  });
});
