// CV files on disk (C1, C5): `<filesDir>/<org_id>/dossiers/<dossier_id>/cv.pdf`, `cv_url` being
// the part after the files folder. A new file is written under a temporary name in its final
// folder and flushed (`stageCv`), then renamed into place inside the database transaction just
// before its commit (`StagedCv.place`): a dossier never points at a missing or half-written file,
// and a failed request leaves nothing behind (`StagedCv.discard`).
//
// Replacing a CV: `place` first keeps the committed file under a second name in the same folder
// (a hard link, `.cv.pdf.<event id>.old`, flushed), then renames the new file over `cv.pdf`. After
// the commit the kept copy is removed (`StagedCv.committed`); after a failure, the commit included,
// it is renamed back over `cv.pdf` (`discard`). The kept copy's name carries the id of the outbox
// event the same transaction records (C7), so that after a crash `sweepFiles` can tell which file
// is the committed one: the event is in the database only if the transaction committed. Readers
// never see the path without a file: a rename over a file replaces it in one step.
import {
  constants, copyFileSync, linkSync, mkdirSync, readdirSync, renameSync, rmdirSync, rmSync, statSync,
} from "node:fs";
import { open } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import type { Context } from "../context";
import { ApiError } from "../errors";
import { cvUrl, type FileStore, type StagedCv, type SweepResult } from "./index";
import { syncPath } from "./sync";
import { diskImportFiles } from "./uploads";
import { isUuid, randomAlphanumeric } from "../ids";

const CV_NAME = "cv.pdf";
const TEMP = /^\.cv\.pdf\.[A-Za-z0-9]+\.tmp$/;
/** The committed CV kept aside while its replacement's transaction runs; the group is the event id. */
const ASIDE = /^\.cv\.pdf\.(evt_[A-Za-z0-9]+)\.old$/;
const asideName = (eventId: string) => `.cv.pdf.${eventId}.old`;

const cvFile = (ctx: Context, url: string) => join(ctx.filesDir, url);

/** The data folder's files/ as the context's file store (src/files/index.ts). */
export function diskFiles(ctx: Context): FileStore {
  return {
    label: `disk ${ctx.filesDir}`,
    sweepsWhileServing: false,
    shared: false,
    stageCv: (organizationId, dossierId, bytes) => stageCv(ctx, organizationId, dossierId, bytes),
    async open(url) {
      const file = Bun.file(cvFile(ctx, url));
      // The bytes, not the file: Bun would answer a Range header itself (206, or a 416 without
      // the error envelope). A CV is at most 10 MB, and a server may ignore Range (RFC 9110 §14.2).
      return (await file.exists()) ? await file.bytes() : null;
    },
    sweep: () => sweepFiles(ctx),
    imports: diskImportFiles(ctx),
  };
}

/**
 * The folders whose entries a new `dir` under `base` adds: the parent of each folder on the way
 * from `base` (exclusive) to `dir` (inclusive) that does not exist yet, outermost first. Flushing
 * them makes the new folders survive a power cut (D3); `base` itself must exist.
 */
export function foldersToSync(base: string, dir: string): string[] {
  const parts = relative(base, dir).split(sep).filter((part) => part !== "");
  const out: string[] = [];
  let path = base;
  for (const part of parts) {
    const next = join(path, part);
    if (out.length > 0 || !isDir(next)) out.push(path);
    path = next;
  }
  return out;
}

/** The file system is out of space (or over the quota): C11's 507, not a failure of the server. */
const outOfSpace = (error: unknown) => ["ENOSPC", "EDQUOT"].includes((error as NodeJS.ErrnoException)?.code ?? "");

/** Writes `bytes` to a temporary file beside the final one and flushes it to disk. No space for it:
 * 507 insufficient_storage, with nothing left behind (C11). */
export async function stageCv(ctx: Context, organizationId: string, dossierId: string, bytes: Uint8Array): Promise<StagedCv> {
  try {
    return await writeStaged(ctx, organizationId, dossierId, bytes);
  } catch (error) {
    if (outOfSpace(error)) throw new ApiError("insufficient_storage", "there is no space left to store the CV; nothing was saved");
    throw error;
  }
}

async function writeStaged(ctx: Context, organizationId: string, dossierId: string, bytes: Uint8Array): Promise<StagedCv> {
  const url = cvUrl(organizationId, dossierId);
  const dossierDir = join(ctx.filesDir, organizationId, "dossiers", dossierId);
  // Synchronous, so that no other request of this process sees a folder made but not yet flushed.
  const toSync = foldersToSync(ctx.filesDir, dossierDir);
  const createdDir = toSync.length > 0;
  const temp = join(dossierDir, `.cv.pdf.${randomAlphanumeric(16)}.tmp`);
  const final = join(dossierDir, CV_NAME);
  try {
    if (createdDir) {
      mkdirSync(dossierDir, { recursive: true, mode: 0o700 }); // each folder made: 0700, the CV 0600 (docs/security.md)
      for (const dir of toSync) syncPath(dir);
    }
    const handle = await open(temp, "wx", 0o600);
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
  let placedWith: string | null = null; // the event id given to place(), once it started
  let aside: string | null = null; // the kept copy of the previous cv.pdf
  let renamed = false;
  return {
    url,
    place(eventId) {
      placedWith = eventId;
      aside = keepAside(dossierDir, final, eventId);
      renameSync(temp, final);
      renamed = true;
      syncPath(dossierDir);
    },
    committed() {
      // The commit is done: a copy that cannot be removed now is the start-up sweep's to remove.
      try {
        if (aside) rmSync(aside, { force: true });
      } catch {
        // left for sweepFiles (its event is recorded, so it is known to be garbage)
      }
    },
    async discard() {
      rmSync(temp, { force: true });
      if (placedWith !== null && !(await hasCommitted(ctx, organizationId, placedWith))) {
        if (aside) restoreAside(aside, final);
        else if (renamed) rmSync(final, { force: true });
        syncPath(dossierDir);
      } else if (aside) {
        rmSync(aside, { force: true });
      }
      // Only the dossier's own folder: its parents may be in use by another request right now.
      if (createdDir) removeEmpty(dossierDir);
    },
  };
}

/** A second name for the current `cv.pdf` (none: null), flushed before the new file replaces it.
 * A hard link when the file system has them, else a copy made under a temporary name, flushed,
 * then renamed: the second name never stands for a partial file, which the sweep would restore. */
function keepAside(dir: string, final: string, eventId: string): string | null {
  const aside = join(dir, asideName(eventId));
  try {
    linkSync(final, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    const temp = join(dir, `.cv.pdf.${randomAlphanumeric(16)}.tmp`);
    try {
      copyFileSync(final, temp, constants.COPYFILE_EXCL); // a folder in the way still fails here
      syncPath(temp);
      renameSync(temp, aside);
    } catch (copyError) {
      rmSync(temp, { force: true });
      throw copyError;
    }
  }
  syncPath(dir);
  return aside;
}

/** Puts the kept copy back as `cv.pdf`. When both names are links to one file (a crash between
 * the link and the rename), rename() does nothing, so the second name is then removed. */
function restoreAside(aside: string, final: string) {
  renameSync(aside, final);
  rmSync(aside, { force: true });
}

/** Whether the transaction that recorded this event committed (after it ended, either way). */
async function hasCommitted(ctx: Context, organizationId: string, eventId: string): Promise<boolean> {
  try {
    return await ctx.store.cvFiles.eventCommitted(organizationId, eventId);
  } catch {
    return false; // on the failure path, a database that cannot answer did not commit
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

/**
 * Start-up sweep (C5): settles what a crash may have left, then removes the folders that leaves
 * empty. A copy kept aside (`place`) whose event is not in the database belongs to a replacement
 * that never committed: it is the committed CV and is renamed back over `cv.pdf`; one whose event
 * is there is garbage. Then temporary files and CV files that no dossier points at are removed.
 * Only the layout `<org>/dossiers/<dossier>/...` is looked at; other files under the files folder
 * are left alone. Call it before the server accepts requests.
 */
export async function sweepFiles(ctx: Context): Promise<SweepResult> {
  const result: SweepResult = { temporary: 0, orphans: 0, restored: 0 };
  const { cvFiles } = ctx.store;
  for (const org of list(ctx.filesDir)) {
    if (!isUuid(org)) continue;
    const dossiersDir = join(ctx.filesDir, org, "dossiers");
    for (const dossierId of list(dossiersDir)) {
      const dossierDir = join(dossiersDir, dossierId);
      if (!isDir(dossierDir)) continue;
      let changed = false;
      for (const name of list(dossierDir)) {
        const aside = ASIDE.exec(name);
        if (!aside) continue;
        const path = join(dossierDir, name);
        if ((await cvFiles.eventRecorded(org, aside[1]))) {
          rmSync(path, { force: true });
          result.temporary++;
        } else {
          restoreAside(path, join(dossierDir, CV_NAME));
          result.restored++;
          changed = true;
        }
      }
      if (changed) syncPath(dossierDir);
      for (const name of list(dossierDir)) {
        const path = join(dossierDir, name);
        if (TEMP.test(name)) {
          rmSync(path, { force: true });
          result.temporary++;
        } else if (name === CV_NAME && !(await cvFiles.dossierHasCv(org, dossierId, cvUrl(org, dossierId)))) {
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
