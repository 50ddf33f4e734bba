// CV files on disk (C1, C5): `<filesDir>/<org_id>/dossiers/<dossier_id>/cv.pdf`, `cv_url` being
// the part after the files folder. A new file is written under a temporary name in its final
// folder and flushed (`stageCv`), then renamed into place inside the database transaction just
// before its commit (`StagedCv.place`): a dossier never points at a missing or half-written file,
// and a failed request leaves nothing behind (`StagedCv.discard`). `sweepFiles` removes, at
// start, what a crash may have left: temporary files and CV files that no dossier points at.
import { closeSync, fsyncSync, openSync, readdirSync, renameSync, rmdirSync, rmSync, statSync } from "node:fs";
import { mkdir, open } from "node:fs/promises";
import { join } from "node:path";
import type { Context } from "../context";
import { isUuid, randomAlphanumeric } from "../ids";

export const CV_LIMIT = 10_485_760; // 10 MB (C10)
const CV_NAME = "cv.pdf";
const TEMP = /^\.cv\.pdf\.[A-Za-z0-9]+\.tmp$/;

export const cvUrl = (organizationId: string, dossierId: string) => `${organizationId}/dossiers/${dossierId}/${CV_NAME}`;
export const cvFile = (ctx: Context, url: string) => join(ctx.filesDir, url);

/** The C5 check: a PDF begins with `%PDF-`. */
export const isPdf = (bytes: Uint8Array) =>
  bytes.length >= 5 && bytes[0] === 0x25 && bytes[1] === 0x50 && bytes[2] === 0x44 && bytes[3] === 0x46 && bytes[4] === 0x2d;

export interface StagedCv {
  /** The `cv_url` the dossier gets. */
  url: string;
  /** Renames the temporary file into place and flushes the folder; call inside the transaction,
   * last, so that a failure rolls the transaction back. */
  place(): void;
  /** After a failed transaction: removes the temporary file, and with `placed`, the placed file too
   * (for a dossier the failed transaction would have created); then the dossier's folder when this
   * call created it and it is empty. */
  discard(options?: { placed?: boolean }): void;
}

/** Writes `bytes` to a temporary file beside the final one and flushes it to disk. */
export async function stageCv(ctx: Context, organizationId: string, dossierId: string, bytes: Uint8Array): Promise<StagedCv> {
  const url = cvUrl(organizationId, dossierId);
  const dossierDir = join(ctx.filesDir, organizationId, "dossiers", dossierId);
  const createdDir = !isDir(dossierDir);
  await mkdir(dossierDir, { recursive: true });
  const temp = join(dossierDir, `.cv.pdf.${randomAlphanumeric(16)}.tmp`);
  const final = join(dossierDir, CV_NAME);
  try {
    const handle = await open(temp, "wx");
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    rmSync(temp, { force: true });
    if (createdDir) removeEmpty(dossierDir);
    throw error;
  }
  let placed = false;
  return {
    url,
    place() {
      renameSync(temp, final);
      placed = true;
      syncDir(dossierDir);
    },
    discard(options = {}) {
      rmSync(temp, { force: true });
      if (placed && options.placed) rmSync(final, { force: true });
      // Only the dossier's own folder: its parents may be in use by another request right now.
      if (createdDir) removeEmpty(dossierDir);
    },
  };
}

function syncDir(dir: string) {
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Removes each folder in turn while it is empty (innermost first). */
function removeEmpty(...dirs: string[]) {
  for (const dir of dirs) {
    try {
      rmdirSync(dir);
    } catch {
      return;
    }
  }
}

export interface SweepResult {
  temporary: number;
  orphans: number;
}

/**
 * Start-up sweep (C5): removes temporary CV files and CV files that no dossier points at, and the
 * folders that leaves empty. Only the layout `<org>/dossiers/<dossier>/...` is looked at; other
 * files under the files folder are left alone. Call it before the server accepts requests.
 */
export function sweepFiles(ctx: Context): SweepResult {
  const result: SweepResult = { temporary: 0, orphans: 0 };
  const pointed = ctx.store.sqlite.query<{ ok: number }, [string, string, string]>(
    `SELECT 1 AS ok FROM dossiers WHERE id = ? AND organization_id = ? AND cv_url = ?`,
  );
  for (const org of list(ctx.filesDir)) {
    if (!isUuid(org)) continue;
    const dossiersDir = join(ctx.filesDir, org, "dossiers");
    for (const dossierId of list(dossiersDir)) {
      const dossierDir = join(dossiersDir, dossierId);
      if (!isDir(dossierDir)) continue;
      for (const name of list(dossierDir)) {
        const path = join(dossierDir, name);
        if (TEMP.test(name)) {
          rmSync(path, { force: true });
          result.temporary++;
        } else if (name === CV_NAME && !pointed.get(dossierId, org, cvUrl(org, dossierId))) {
          rmSync(path, { force: true });
          result.orphans++;
        }
      }
      removeEmpty(dossierDir);
    }
    removeEmpty(dossiersDir, join(ctx.filesDir, org));
  }
  return result;
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
