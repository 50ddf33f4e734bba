// Where CVs are kept (C1, C5, C19): one interface, two places. The data folder's files/ (files/cv.ts:
// temporary names, fsync, rename, hard links) unless DOSSIER_FILES_URL names an S3-compatible bucket
// (files/s3.ts: objects put under their final key, no rename there). Either way `cv_url` is
// `<org_id>/dossiers/<dossier_id>/cv.pdf`: the path under files/, or the object's key under the prefix.
// The uploads of CSV imports are kept in the same place (files/uploads.ts).
import type { Context } from "../context";
import { diskFiles } from "./cv";
import { s3Files } from "./s3";
import type { ImportFiles } from "./uploads";

export const CV_LIMIT = 10_485_760; // 10 MB (C10)

export const cvUrl = (organizationId: string, dossierId: string) => `${organizationId}/dossiers/${dossierId}/cv.pdf`;

/** The C5 check: a PDF begins with `%PDF-`. */
export const isPdf = (bytes: Uint8Array) =>
  bytes.length >= 5 && bytes[0] === 0x25 && bytes[1] === 0x50 && bytes[2] === 0x44 && bytes[3] === 0x46 && bytes[4] === 0x2d;

/** A CV on its way in: staged before the unit of work, placed inside it, settled after it. */
export interface StagedCv {
  /** The `cv_url` the dossier gets. */
  url: string;
  /** Inside the unit of work, last (a failure rolls it back): makes the new CV the dossier's.
   * `eventId` is the id of the outbox event the same transaction records: after a failure, whether
   * it is in the database tells whether the transaction committed after all. */
  place(eventId: string): void | Promise<void>;
  /** After the commit, before the answer (never throws). */
  committed(): void | Promise<void>;
  /** After a failed unit of work (its commit included): leaves what was there before, unless the
   * event shows that the transaction did commit after all. Never throws. */
  discard(): Promise<void>;
}

export interface SweepResult {
  /** Temporary files, and copies kept aside for a replacement that did commit. */
  temporary: number;
  /** CVs that no dossier names. */
  orphans: number;
  /** Copies kept aside for a replacement that did not commit, put back as `cv.pdf`. */
  restored: number;
}

export interface FileStore {
  /** What `dossier serve` prints (C19): the folder, or the bucket and endpoint; never a secret. */
  readonly label: string;
  /** Whether the sweep may run while requests are served (S3: hourly, skipping objects younger than
   * an hour). The disk's runs once, at start, before the first request: an upload in progress
   * looks there exactly like what a crash leaves. */
  readonly sweepsWhileServing: boolean;
  /** Whether every node on the database reads the same files (the bucket), not only its own folder. */
  readonly shared: boolean;
  /** Stages `bytes` as the dossier's new CV. `fresh`: the dossier is created by the same unit of
   * work, so no committed row can name its CV before this request commits. A file store that
   * cannot take it: 503 storage_unavailable or 507 insufficient_storage, nothing left behind. */
  stageCv(organizationId: string, dossierId: string, bytes: Uint8Array, fresh: boolean): Promise<StagedCv>;
  /** The bytes of the CV `url` names, as an answer's body; null when there is none. */
  open(url: string): Promise<Uint8Array | ReadableStream<Uint8Array> | null>;
  /** Removes what no committed dossier names (C5, C19); `now` decides what counts as old. */
  sweep(now: Date): Promise<SweepResult>;
  /** The uploaded files of CSV imports (C21), beside the CVs: files/uploads.ts. */
  readonly imports: ImportFiles;
}

/** The context's file store: S3 with DOSSIER_FILES_URL (C19), else the data folder's files/. */
export function openFileStore(ctx: Context): FileStore {
  return ctx.config.files === null ? diskFiles(ctx) : s3Files(ctx, ctx.config.files);
}
