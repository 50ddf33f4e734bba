// The file store's settings (C19): DOSSIER_FILES_URL with DOSSIER_S3_ENDPOINT, DOSSIER_S3_REGION and
// the AWS credentials, read in src/config.ts; unset, CVs stay in <data>/files. What serve prints of
// them never holds a secret.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { filesLabel, loadConfig, parseFilesUrl } from "../../src/config";
import { openContext } from "../../src/context";
import { tempDir } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const KEYS = { AWS_ACCESS_KEY_ID: "AKIDEXAMPLE", AWS_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG" };

describe("DOSSIER_FILES_URL (C19)", () => {
  test("unset: CVs in the data folder; set: bucket, prefix without slashes at either end, endpoint, region, keys", () => {
    expect(loadConfig({}).files).toBeNull();
    expect(loadConfig({ ...KEYS, DOSSIER_FILES_URL: "s3://my-bucket/cvs/prod/", DOSSIER_S3_ENDPOINT: "http://127.0.0.1:9000", DOSSIER_S3_REGION: "eu-west-3" }).files).toEqual({
      bucket: "my-bucket", prefix: "cvs/prod", endpoint: "http://127.0.0.1:9000", region: "eu-west-3",
      accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG", sessionToken: null,
    });
    expect(parseFilesUrl("s3://my-bucket", KEYS)).toMatchObject({ bucket: "my-bucket", prefix: "", endpoint: null, region: null });
    expect(parseFilesUrl("s3://my-bucket/", { ...KEYS, AWS_SESSION_TOKEN: "tok" })).toMatchObject({ prefix: "", sessionToken: "tok" });
  });

  test("refused with a message naming the setting: not s3://, a bad bucket name, no credentials, an endpoint that is no URL", () => {
    expect(() => loadConfig({ ...KEYS, DOSSIER_FILES_URL: "https://bucket/prefix" })).toThrow(/invalid DOSSIER_FILES_URL/);
    expect(() => loadConfig({ ...KEYS, DOSSIER_FILES_URL: "s3://B/prefix" })).toThrow(/invalid DOSSIER_FILES_URL/);
    expect(() => loadConfig({ DOSSIER_FILES_URL: "s3://bucket/prefix", AWS_ACCESS_KEY_ID: "id" })).toThrow(/DOSSIER_FILES_URL needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/);
    expect(() => loadConfig({ ...KEYS, DOSSIER_FILES_URL: "s3://bucket/p", DOSSIER_S3_ENDPOINT: "127.0.0.1:9000" })).toThrow(/invalid DOSSIER_S3_ENDPOINT/);
    expect(() => parseFilesUrl("s3:/bucket", KEYS, "--files")).toThrow(/invalid --files/);
  });

  test("the label serve prints names the bucket, prefix and endpoint, never a key nor a password in the endpoint", () => {
    const files = parseFilesUrl("s3://my-bucket/cvs", { ...KEYS, DOSSIER_S3_ENDPOINT: "https://user:hunter2@minio.example.com:9000/" });
    expect(filesLabel(files)).toBe("s3://my-bucket/cvs at https://minio.example.com:9000");
    expect(filesLabel(parseFilesUrl("s3://my-bucket/cvs", { ...KEYS, DOSSIER_S3_REGION: "eu-west-3" }))).toBe("s3://my-bucket/cvs in eu-west-3");
    for (const label of [filesLabel(files)]) expect(label).not.toMatch(/AKIDEXAMPLE|wJalr|hunter2/);
  });

  test("the context's file store follows the setting: the data folder's files/ without it", () => {
    const ctx = openContext({ dataDir: tempDir(), env: {} });
    expect(ctx.files.label).toBe(`disk ${ctx.filesDir}`);
    expect(ctx.files.sweepsWhileServing).toBe(false);
    void ctx.store.close();
    const onS3 = openContext({ dataDir: tempDir(), env: { ...KEYS, DOSSIER_FILES_URL: "s3://my-bucket/cvs", DOSSIER_S3_ENDPOINT: "http://127.0.0.1:9" } });
    expect(onS3.files.label).toBe("s3://my-bucket/cvs at http://127.0.0.1:9");
    expect(onS3.files.sweepsWhileServing).toBe(true);
    void onS3.store.close();
  });
});
