// The uploaded CSV files of imports (C21), `<org_id>/imports/<import_id>.csv`, kept from POST
// /imports' 202 until the import ends: on disk under the data folder's files/, or with
// DOSSIER_FILES_URL in the bucket under the prefix (C19), where every node finds it, whichever runs
// the import's job. The import's row names the path (`imports.file`) until the import ends; the
// upload is then deleted. One that no import names (a crash between the upload and its record) is
// deleted by the sweep once it is an hour old: a younger one may belong to an upload whose import is
// not committed yet (a request in flight on any node, `dossier import` beside a server).
import type { S3Client } from "bun";
import { mkdir, readdir, rm, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { S3Files } from "../config";
import type { Context } from "../context";
import type { CsvSource } from "../csv/reader";
import { isUuid } from "../ids";
import { unavailable } from "./s3";

/** How old an upload no import names must be before the sweep takes it. */
export const UNNAMED_FILE_AGE_MS = 3_600_000;

/** Where an import's file waits while it runs: relative to the files folder, or the key under the
 * prefix. */
export const importPath = (organizationId: string, id: string) => `${organizationId}/imports/${id}.csv`;

export interface ImportFiles {
  /** Keeps the upload under `path` (importPath). S3 down: 503 storage_unavailable, nothing kept. */
  save(path: string, file: Blob): Promise<void>;
  /** The upload, read as a stream each time the CSV reader opens it; null when it is gone. */
  source(path: string): Promise<CsvSource | null>;
  /** Deletes it (there or not). */
  remove(path: string): Promise<void>;
  /** Deletes the uploads no import names that are older than an hour at `now`; answers how many. */
  sweep(now: Date): Promise<number>;
}

/** Whether the import `name` (`<id>.csv`) of `organizationId` names that file. */
async function isNamed(ctx: Context, organizationId: string, name: string): Promise<boolean> {
  const id = name.endsWith(".csv") ? name.slice(0, -".csv".length) : "";
  const row = isUuid(id) ? await ctx.store.read(() => ctx.store.imports.byId(organizationId, id)) : null;
  return row?.file === importPath(organizationId, id);
}

/** Under the data folder's files/ (without DOSSIER_FILES_URL). */
export function diskImportFiles(ctx: Context): ImportFiles {
  const names = (dir: string) => readdir(dir).catch(() => [] as string[]);
  return {
    async save(path, file) {
      const full = join(ctx.filesDir, path);
      await mkdir(dirname(full), { recursive: true, mode: 0o700 });
      await Bun.write(full, file);
    },
    async source(path) {
      const file = Bun.file(join(ctx.filesDir, path));
      return (await file.exists()) ? file : null;
    },
    remove: (path) => rm(join(ctx.filesDir, path), { force: true }),
    async sweep(now) {
      let removed = 0;
      for (const org of await names(ctx.filesDir)) {
        if (!isUuid(org)) continue;
        const dir = join(ctx.filesDir, org, "imports");
        for (const name of await names(dir)) {
          const path = join(dir, name);
          const info = await stat(path).catch(() => null);
          if (!info?.isFile() || now.getTime() - info.mtimeMs < UNNAMED_FILE_AGE_MS) continue;
          if (await isNamed(ctx, org, name)) continue;
          await rm(path, { force: true });
          removed++;
        }
      }
      return removed;
    },
  };
}

/** A stream from the bucket whose failure (the connection lost mid-file) is a 503: the import it
 * feeds stays running, to go on from its last batch, rather than end `failed`. */
async function* guarded(stream: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  try {
    for await (const chunk of stream) yield chunk;
  } catch (error) {
    throw unavailable(error);
  }
}

export interface S3Access {
  files: S3Files;
  client: S3Client;
  /** The work, or a failure after the file store's time limit. */
  timed<T>(work: Promise<T>): Promise<T>;
  /** The key of a path under the prefix. */
  keyOf(path: string): string;
}

/**
 * In the bucket (DOSSIER_FILES_URL): put whole (Bun's client sends a large body in parts; the
 * upload is already in memory, as the form that brought it), read back as the object's stream, so
 * a 50 MB file is never held whole by the job. The sweep lists each organization's `imports/` under
 * the prefix (never the CVs beside them).
 */
export function s3ImportFiles(ctx: Context, s3: S3Access): ImportFiles {
  const { client, timed } = s3;
  const prefix = s3.files.prefix === "" ? "" : `${s3.files.prefix}/`;
  /** Every page of a listing (bounded: 10 billion entries). */
  async function* listed(under: string) {
    let token: string | undefined;
    for (let page = 0; page < 10_000_000; page++) {
      const answer = await timed(client.list({ prefix: under, ...(token ? { continuationToken: token } : {}) }));
      yield answer;
      if (!answer.isTruncated || !answer.nextContinuationToken) return;
      token = answer.nextContinuationToken;
    }
  }
  return {
    async save(path, file) {
      const key = s3.keyOf(path);
      try {
        await timed(client.write(key, file, { type: "text/csv" }));
      } catch (error) {
        await timed(client.delete(key)).catch(() => {}); // else an old orphan: the sweep's
        throw unavailable(error);
      }
    },
    async source(path) {
      const file = client.file(s3.keyOf(path));
      if (!(await timed(file.exists()).catch((error) => Promise.reject(unavailable(error))))) return null;
      return () => guarded(client.file(s3.keyOf(path)).stream());
    },
    async remove(path) {
      await timed(client.delete(s3.keyOf(path)));
    },
    async sweep(now) {
      let removed = 0;
      const before = now.getTime() - UNNAMED_FILE_AGE_MS;
      // Organizations are never deleted, so each upload's folder is one of theirs.
      for (const { id: org } of await ctx.store.read(() => ctx.store.orgs.all())) {
        const folder = `${prefix}${org}/imports/`;
        for await (const page of listed(folder)) {
          for (const object of page.contents ?? []) {
            const name = object.key.slice(folder.length);
            if (name.includes("/") || !object.lastModified || Date.parse(object.lastModified) > before) continue;
            if (await isNamed(ctx, org, name)) continue;
            await timed(client.delete(object.key));
            removed++;
          }
        }
      }
      return removed;
    },
  };
}
