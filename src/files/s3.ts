// CVs on S3-compatible object storage (C19), through Bun's built-in S3Client (it runs inside
// `bun build --compile`; it has put, get, list and delete, no copy and no rename). The object of a
// CV is `<prefix>/<cv_url>`. Where the disk renames a flushed temporary file into place inside the
// transaction, here the object is put under its final key before the commit, and the commit is what
// makes a row name it (round3-notes "S3 and atomic creates"):
//
// - A new dossier's CV (`fresh`: POST /dossiers, intake) is put before the unit of work starts: its
//   key is the new dossier's, which no committed row names and none can until this unit commits.
//   A failed unit deletes the object; a crash between the put and the commit leaves an object no
//   row names, which the sweep removes once it is an hour old.
// - A CV for an existing dossier (POST /dossiers/{id}/cv) overwrites the key a committed row may
//   name, so it is put inside the unit (place), after the unit has recorded its event: on
//   PostgreSQL that holds the organization's numbering lock to the commit (src/db/pg/events.ts), on
//   SQLite the writer, so two uploads to one dossier never interleave. The bytes it replaces are
//   read first, kept in memory and put aside in the bucket under `.cv.pdf.<event id>.old` beside
//   the CV (as the disk keeps them aside) before the new bytes are put; the commit done, the copy
//   is deleted. A failed unit puts them back (or deletes the object when there were none), unless
//   another upload has replaced the object since or a committed row names it. A crash between the
//   put and the commit leaves the copy: its event is not in the database, so the sweep (or the
//   dossier's next replacement) puts it back over `cv.pdf`.
//
// The sweep lists the prefix page by page. Each copy kept aside is settled inside a unit that holds
// the organization's numbering lock (PostgreSQL) or the writer (SQLite), so that no replacement of
// that organization is in flight: deleted when its event is recorded, else put back. Then it
// deletes each `cv.pdf` object that is at least an hour old and that no committed dossier names,
// asked of the database a page at a time; other keys are left alone. An hour: longer than any
// upload takes between its put and its commit, on any node.
import { S3Client } from "bun";
import type { S3Files } from "../config";
import { filesLabel } from "../config";
import type { Context } from "../context";
import { ApiError } from "../errors";
import { isUuid } from "../ids";
import { cvUrl, type FileStore, type StagedCv, type SweepResult } from "./index";
import { s3ImportFiles } from "./uploads";

/** An object younger than this may belong to an upload whose unit of work has not ended. */
export const SWEEP_AGE_MS = 3_600_000;
const CV_KEY = /^([0-9a-f-]{36})\/dossiers\/([0-9a-f-]{36})\/cv\.pdf$/;
/** The committed CV kept aside while a replacement's unit runs (as on disk, files/cv.ts); the group
 * is the id of the event that unit records. */
const ASIDE_KEY = /^([0-9a-f-]{36})\/dossiers\/([0-9a-f-]{36})\/\.cv\.pdf\.(evt_[A-Za-z0-9]+)\.old$/;
const asideUrl = (organizationId: string, dossierId: string, eventId: string) => `${organizationId}/dossiers/${dossierId}/.cv.pdf.${eventId}.old`;

/** S3 could not be reached or refused the request: C9's 503, nothing was saved. */
export const unavailable = (error: unknown) =>
  new ApiError("storage_unavailable", `the file store cannot be reached right now; nothing was saved (${(error as Error).message ?? error})`);

/** Every setting given, none left to the client: it would read S3_* and AWS_* variables itself,
 * and the environment is read in src/config.ts only. */
export function s3Client(files: S3Files): S3Client {
  const region = files.region ?? "us-east-1";
  return new S3Client({
    bucket: files.bucket,
    accessKeyId: files.accessKeyId,
    secretAccessKey: files.secretAccessKey,
    ...(files.sessionToken ? { sessionToken: files.sessionToken } : {}),
    endpoint: files.endpoint ?? `https://s3.${region}.amazonaws.com`,
    region,
  });
}

/** The key of `url` (a cv_url) under the prefix, and back. */
export const keyOf = (files: S3Files, url: string) => (files.prefix === "" ? url : `${files.prefix}/${url}`);
const listPrefix = (files: S3Files) => (files.prefix === "" ? "" : `${files.prefix}/`);

export function s3Files(ctx: Context, files: S3Files): FileStore {
  const client = s3Client(files);
  /** `work`, or a failure once it has taken ctx.config.filesTimeoutMs (the client has no timeout of
   * its own, nor a way to cancel: a put given up on may still land, which discard() allows for). */
  const timed = <T>(work: Promise<T>): Promise<T> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ctx.config.filesTimeoutMs} ms`)), ctx.config.filesTimeoutMs);
    });
    return Promise.race([work, limit]).finally(() => clearTimeout(timer));
  };
  const put = (key: string, bytes: Uint8Array) => timed(client.write(key, bytes, { type: "application/pdf" }));
  /** Logs a failure of the clean-up after a failed request: what it leaves, the sweep takes. */
  const quietly = async (what: string, work: () => Promise<unknown>) => {
    try {
      await work();
    } catch (error) {
      ctx.logger.log("error", `could not ${what} on S3; the sweep will`, { error: (error as Error).message });
    }
  };
  /** The copies kept aside for the dossier's CV (at most a few: one a crash left, one in flight). */
  const asidesOf = async (organizationId: string, dossierId: string) => {
    const listed = await timed(client.list({ prefix: keyOf(files, `${organizationId}/dossiers/${dossierId}/.cv.pdf.`) }));
    const out: { key: string; eventId: string }[] = [];
    for (const object of listed.contents ?? []) {
      const match = ASIDE_KEY.exec(object.key.slice(listPrefix(files).length));
      if (match && match[1] === organizationId && match[2] === dossierId) out.push({ key: object.key, eventId: match[3] });
    }
    return out;
  };
  /** Settles a copy kept aside, inside a unit that holds what a replacement's unit holds, so that
   * none of the organization's is in flight: its event recorded, it is garbage; else its unit never
   * committed, and its bytes are the committed CV's, put back over `cv.pdf`. */
  const settleAside = (organizationId: string, dossierId: string, eventId: string, asideKey: string) =>
    ctx.store.write(async (): Promise<"temporary" | "restored" | null> => {
      await ctx.store.cvFiles.holdOrganization(organizationId);
      const file = client.file(asideKey);
      if (!(await timed(file.exists()))) return null; // settled meanwhile
      if (await ctx.store.cvFiles.eventRecorded(organizationId, eventId)) {
        await timed(client.delete(asideKey));
        return "temporary";
      }
      await put(keyOf(files, cvUrl(organizationId, dossierId)), await timed(file.bytes()));
      await timed(client.delete(asideKey));
      return "restored";
    });
  return {
    label: filesLabel(files),
    sweepsWhileServing: true,
    shared: true,
    imports: s3ImportFiles(ctx, { files, client, timed, keyOf: (path) => keyOf(files, path) }),

    async stageCv(organizationId, dossierId, bytes, fresh): Promise<StagedCv> {
      const url = cvUrl(organizationId, dossierId);
      const key = keyOf(files, url);
      if (fresh) {
        try {
          await put(key, bytes);
        } catch (error) {
          await quietly("delete a CV whose upload failed", () => timed(client.delete(key)));
          throw unavailable(error);
        }
      }
      let placedWith: string | null = null;
      let written = fresh; // the object may hold our bytes
      let previous: Uint8Array | null = null;
      let aside: string | null = null; // the key of the bytes kept aside, once put
      const dropAside = () => aside && quietly("delete the CV kept aside", () => timed(client.delete(aside!)));
      return {
        url,
        async place(eventId) {
          placedWith = eventId;
          if (fresh) return;
          try {
            const file = client.file(key);
            previous = (await timed(file.exists())) ? await timed(file.bytes()) : null;
            // A copy a crashed replacement kept aside holds the committed bytes: its unit ended
            // (this one holds what it held) and its event is not recorded.
            const stale = await asidesOf(organizationId, dossierId);
            for (const old of stale) {
              if (!(await ctx.store.cvFiles.eventRecorded(organizationId, old.eventId))) previous = await timed(client.file(old.key).bytes());
            }
            if (previous !== null) {
              const keep = keyOf(files, asideUrl(organizationId, dossierId, eventId));
              await put(keep, previous);
              aside = keep;
            }
            for (const old of stale) await timed(client.delete(old.key));
            written = true; // a put that fails may still have landed
            await put(key, bytes);
          } catch (error) {
            throw unavailable(error);
          }
        },
        async committed() {
          await dropAside();
        },
        async discard() {
          if (!written) return void (await dropAside());
          // Committed after all, or not known (the database cannot answer): left as it is; an object
          // no row names, or a copy kept aside, is the sweep's.
          const outcome = placedWith === null ? false : await hasCommitted(ctx, organizationId, placedWith);
          if (outcome === true) return void (await dropAside());
          if (outcome === null) return;
          if (fresh) return void (await quietly("delete a CV whose request failed", () => timed(client.delete(key))));
          await quietly("put back the CV a failed request replaced", async () => {
            const file = client.file(key);
            // Another upload to the dossier may have replaced ours since its unit ended.
            if ((await timed(file.exists())) && Buffer.compare(await timed(file.bytes()), bytes) === 0) {
              if (previous !== null) await put(key, previous);
              else if (!(await ctx.store.cvFiles.dossierHasCv(organizationId, dossierId, url))) await timed(client.delete(key));
            }
            if (aside) await timed(client.delete(aside)); // only once the bytes are back
          });
        },
      };
    },

    async open(url) {
      const file = client.file(keyOf(files, url));
      try {
        if (!(await timed(file.exists()))) return null;
      } catch (error) {
        throw unavailable(error);
      }
      return file.stream();
    },

    async sweep(now) {
      const result: SweepResult = { temporary: 0, orphans: 0, restored: 0 };
      const before = now.getTime() - SWEEP_AGE_MS;
      const prefix = listPrefix(files);
      let token: string | undefined;
      // Bounded: a page is 1,000 keys, so this is 10 billion objects.
      for (let page = 0; page < 10_000_000; page++) {
        const listed = await timed(client.list({ prefix, ...(token ? { continuationToken: token } : {}) }));
        const old = new Map<string, { dossierId: string; key: string; lastModified: string }[]>();
        for (const object of listed.contents ?? []) {
          const kept = ASIDE_KEY.exec(object.key.slice(prefix.length));
          if (kept && isUuid(kept[1]) && isUuid(kept[2])) {
            const settled = await settleAside(kept[1], kept[2], kept[3], object.key);
            if (settled) result[settled]++;
            continue;
          }
          const match = CV_KEY.exec(object.key.slice(prefix.length));
          if (!match || !isUuid(match[1]) || !isUuid(match[2])) continue;
          if (!object.lastModified || Date.parse(object.lastModified) > before) continue;
          const forOrg = old.get(match[1]) ?? [];
          forOrg.push({ dossierId: match[2], key: object.key, lastModified: object.lastModified });
          old.set(match[1], forOrg);
        }
        for (const [organizationId, objects] of old) {
          const named = new Set(await ctx.store.read(() => ctx.store.cvFiles.namingTheirCv(organizationId, objects.map((o) => o.dossierId))));
          for (const object of objects) {
            if (named.has(object.dossierId)) continue;
            // Not put again since it was listed (an upload to the dossier would have): an orphan.
            const stat = await timed(client.file(object.key).stat()).catch(() => null);
            if (!stat || stat.lastModified.getTime() !== Date.parse(object.lastModified)) continue;
            await timed(client.delete(object.key));
            result.orphans++;
          }
        }
        if (!listed.isTruncated || !listed.nextContinuationToken) break;
        token = listed.nextContinuationToken;
      }
      return result;
    },
  };
}

/** Whether the transaction that recorded this event committed (after it ended, either way); null
 * when the database cannot tell now (a connection lost at the commit may have committed). */
async function hasCommitted(ctx: Context, organizationId: string, eventId: string): Promise<boolean | null> {
  try {
    return await ctx.store.cvFiles.eventCommitted(organizationId, eventId);
  } catch {
    return null;
  }
}
