// C19 "Moving" with `--files s3://bucket/prefix`: the CVs of a stopped SQLite data folder go to an
// empty bucket prefix (a real s3rver) with the rows to a real PostgreSQL, each CV read back with the
// same SHA-256; a server on PostgreSQL and the bucket then answers the same bytes. Refusals: a prefix
// that holds objects (exit 1, nothing written anywhere), a CV missing from files/ (exit 1, no row and
// no object kept), --files without credentials (exit 2).
import { SQL } from "bun";
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { createApp } from "../../src/app";
import { call, makeOrg, tempDir } from "../helpers";
import { freshDatabase } from "../helpers/postgres";
import { startServerProcess } from "../helpers/process";
import { keysUnder, startS3 } from "../helpers/s3";
import { dossierRun } from "./helpers";

setDefaultTimeout(180_000);

const sha256 = (bytes: Uint8Array) => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
const s3 = await startS3();
const bucket = s3.client();

/** A stopped SQLite data folder with three dossiers with CVs (one replaced) and one without. */
async function folderWithCvs() {
  const data = tempDir();
  const app = createApp({ dataDir: data, webhooks: false, config: { log: "off" } });
  const org = await makeOrg(app);
  const cvs = new Map<string, Uint8Array>();
  for (const [i, size] of [100, 2_000_000, 6_000_000].entries()) {
    const bytes = new Uint8Array(size).map((_, j) => (j * 7 + i) & 0xff);
    bytes.set(new TextEncoder().encode("%PDF-1.7\n"));
    const form = new FormData();
    form.append("type", "candidate");
    form.append("name", `Candidate ${i}`);
    form.append("cv", new File([bytes], "cv.pdf", { type: "application/pdf" }));
    const d = (await call(app, "POST", "/dossiers", { key: org.key, raw: form })).json.data;
    cvs.set(d.id, bytes);
  }
  const [first] = cvs.keys();
  const replaced = new TextEncoder().encode("%PDF-1.7\nreplaced\n");
  expect((await call(app, "POST", `/dossiers/${first}/cv`, { key: org.key, raw: replaced, contentType: "application/pdf" })).status).toBe(200);
  cvs.set(first, replaced);
  await call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "No CV" } });
  await app.close();
  return { data, org, cvs };
}

async function tablesIn(url: string): Promise<number> {
  const sql = new SQL(url, { max: 1 });
  try {
    return Number((await sql`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'`)[0].n);
  } finally {
    await sql.close();
  }
}

describe("dossier migrate --to ... --files s3://bucket/prefix", () => {
  test("copies every CV to the prefix, checks each SHA-256, and a server on PostgreSQL and S3 answers the same bytes", async () => {
    const { data, org, cvs } = await folderWithCvs();
    const url = await freshDatabase();
    const moved = dossierRun(["migrate", "--to", url, "--files", `s3://${s3.bucket}/moved`, "--data", data, "--json"], s3.env());
    expect(moved.stderr).toBe("");
    expect(moved.code).toBe(0);
    expect(moved.json.verified).toBe(true);
    expect(moved.json.files).toEqual({
      to: `s3://${s3.bucket}/moved at ${s3.endpoint}`,
      copied: 3,
      bytes: [...cvs.values()].reduce((n, b) => n + b.length, 0),
      verified: true,
    });
    expect(JSON.stringify(moved.json)).not.toContain("S3RVER"); // no key printed
    expect(await keysUnder(bucket, "moved/")).toEqual([...cvs.keys()].map((id) => `moved/${org.id}/dossiers/${id}/cv.pdf`).sort());
    for (const [id, bytes] of cvs) {
      expect(sha256(await bucket.file(`moved/${org.id}/dossiers/${id}/cv.pdf`).bytes())).toBe(sha256(bytes));
      expect(sha256(readFileSync(join(data, "files", org.id, "dossiers", id, "cv.pdf")))).toBe(sha256(bytes)); // the source untouched
    }

    // The CVs are then read from the bucket: files/ may go.
    rmSync(join(data, "files"), { recursive: true });
    const server = await startServerProcess(data, ["--no-bootstrap"], { DOSSIER_DATABASE_URL: url, ...s3.env("moved") });
    expect(server.stderr()).toContain(`"files":"s3://${s3.bucket}/moved at ${s3.endpoint}"`);
    expect(server.stderr()).not.toContain("S3RVER");
    for (const [id, bytes] of cvs) {
      const response = await fetch(`${server.url}/api/v1/dossiers/${id}/cv`, { headers: { authorization: `Bearer ${org.key}` } });
      expect(response.status).toBe(200);
      expect(sha256(new Uint8Array(await response.arrayBuffer()))).toBe(sha256(bytes));
    }
    server.proc.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  });

  test("a prefix that holds objects: exit 1, nothing written to the database or the bucket", async () => {
    const { data } = await folderWithCvs();
    await bucket.write("taken/README", "someone's");
    const url = await freshDatabase();
    const refused = dossierRun(["migrate", "--to", url, "--files", `s3://${s3.bucket}/taken`, "--data", data], s3.env());
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("holds objects");
    expect(await keysUnder(bucket, "taken/")).toEqual(["taken/README"]);
    expect(await tablesIn(url)).toBe(0);
  });

  test("a CV the database names that is missing from files/: exit 1, no row kept and no object left", async () => {
    const { data, org, cvs } = await folderWithCvs();
    const [, second] = cvs.keys();
    rmSync(join(data, "files", org.id, "dossiers", second, "cv.pdf"));
    const url = await freshDatabase();
    const failed = dossierRun(["migrate", "--to", url, "--files", `s3://${s3.bucket}/missing`, "--data", data], s3.env());
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(`${second}/cv.pdf`);
    expect(await keysUnder(bucket, "missing/")).toEqual([]);
    const sql = new SQL(url, { max: 1 });
    expect(Number((await sql`SELECT count(*)::int AS n FROM dossiers`)[0].n)).toBe(0);
    await sql.close();
  });

  test("bad --files (not s3://, no credentials): exit 2 with one line", async () => {
    const { data } = await folderWithCvs();
    const url = await freshDatabase();
    const notS3 = dossierRun(["migrate", "--to", url, "--files", "https://bucket/prefix", "--data", data], s3.env());
    expect([notS3.code, notS3.stderr.trim().split("\n").length]).toEqual([2, 1]);
    expect(notS3.stderr).toContain("--files");
    const env = { ...s3.env(), AWS_ACCESS_KEY_ID: "", AWS_SECRET_ACCESS_KEY: "" };
    const noKeys = dossierRun(["migrate", "--to", url, "--files", `s3://${s3.bucket}/x`, "--data", data], env);
    expect(noKeys.code).toBe(2);
    expect(noKeys.stderr).toContain("AWS_ACCESS_KEY_ID");
  });
});
