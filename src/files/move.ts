// `dossier migrate --to postgres://... --files s3://bucket/prefix` (C19 "Moving"): the CVs of a
// stopped data folder copied from its files/ into an empty bucket prefix, under the same cv_url
// (the key under the prefix), then each one read back and its SHA-256 compared with the source's.
// Run inside the database copy's transaction (src/db/pg/move.ts): a CV missing from files/, an
// upload or a check that fails rolls the rows back, and `undo` deletes what was put.
import { join } from "node:path";
import type { S3Files } from "../config";
import { keyOf, s3Client } from "./s3";

export class BucketNotEmptyError extends Error {}

/** Uploads (and reads back) this many CVs at once: at most 10 MB each in memory. */
const IN_FLIGHT = 8;

const sha256 = (bytes: Uint8Array) => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");

/** Refuses a prefix that holds any object (exit 1, nothing written). */
export async function checkBucketEmpty(files: S3Files, label: string): Promise<void> {
  const listed = await s3Client(files).list({ prefix: files.prefix === "" ? "" : `${files.prefix}/`, maxKeys: 1 });
  if ((listed.contents ?? []).length > 0) {
    throw new BucketNotEmptyError(`the target ${label} holds objects (${listed.contents![0].key}): migrate copies CVs into an empty prefix only`);
  }
}

export interface CvCopy {
  copied: number;
  bytes: number;
}

export function cvCopier(filesDir: string, files: S3Files, onPhase: (text: string) => void) {
  const client = s3Client(files);
  const written: string[] = [];
  /** `work` on each of `items`, IN_FLIGHT at a time, in order of start. After a failure no item
   * starts, and it is thrown once those under way have ended (so undo() sees every put). */
  const each = async <T>(items: T[], work: (item: T) => Promise<void>) => {
    let next = 0;
    let failed = false;
    const lane = async () => {
      while (!failed && next < items.length) {
        try {
          await work(items[next++]);
        } catch (error) {
          failed = true;
          throw error;
        }
      }
    };
    const ended = await Promise.allSettled(Array.from({ length: Math.min(IN_FLIGHT, items.length) }, lane));
    const failure = ended.find((lane) => lane.status === "rejected");
    if (failure) throw failure.reason;
  };
  return {
    /** Puts the CV of each `url` under its key, then reads each back and checks its SHA-256. */
    async copy(urls: string[]): Promise<CvCopy> {
      const expected = new Map<string, string>();
      let bytes = 0;
      let done = 0;
      await each(urls, async (url) => {
        const file = Bun.file(join(filesDir, url));
        if (!(await file.exists())) throw new Error(`the CV ${url} that the database names is not in ${filesDir}; nothing was kept`);
        const content = await file.bytes();
        const key = keyOf(files, url);
        written.push(key);
        await client.write(key, content, { type: "application/pdf" });
        expected.set(url, sha256(content));
        bytes += content.length;
        onPhase(`copying CVs: ${++done} of ${urls.length}`);
      });
      done = 0;
      await each(urls, async (url) => {
        const got = sha256(await client.file(keyOf(files, url)).bytes());
        if (got !== expected.get(url)) throw new Error(`the CV ${url} read back from the bucket differs from the source (SHA-256); nothing was kept`);
        onPhase(`checking CVs (SHA-256): ${++done} of ${urls.length}`);
      });
      return { copied: urls.length, bytes };
    },
    /** Deletes every object copy() put (after a failure). */
    async undo(): Promise<void> {
      await each([...written], async (key) => {
        await client.delete(key).catch(() => {});
      });
    },
  };
}
