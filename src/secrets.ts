// Webhook secrets must be stored recoverably (they key the signatures) yet not in clear:
// they are sealed with AES-256-GCM under a master key kept in the data folder beside the database
// (or in the file DOSSIER_MASTER_KEY_FILE names, the same on every node of one database: C19),
// so a copy of the database alone reveals none of them.
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { chmodSync, closeSync, existsSync, fsyncSync, linkSync, openSync, readFileSync, rmSync, statSync, writeSync } from "node:fs";
import { dirname } from "node:path";

const VERSION = "v1.";
export const MASTER_KEY_FILE = "master.key";

/** The key file is gone while secrets sealed with it remain: a new key would leave every one of
 * them unreadable (C20), so the command stops and says how to put the key back. */
export class MasterKeyMissingError extends Error {
  constructor(path: string) {
    super(
      `${path} is missing, and the database holds webhook secrets sealed with it: restore it from the backup ` +
        `(FILE.key → ${path}, mode 0600) and start again; if it is lost for good, remove each webhook endpoint ` +
        `(dossier webhook unset --org ID) and set it again, which makes a new key`,
    );
  }
}

/** The key file holds another key than the one that sealed the database's webhook secrets: a
 * node started with it would fail every delivery it makes (C19: every node needs the same key). */
export class MasterKeyMismatchError extends Error {
  constructor(path: string) {
    super(
      `${path} does not open the webhook secrets sealed in the database: it is another key than the one that sealed them. ` +
        `Every node of one database needs the same key (DOSSIER_MASTER_KEY_FILE): put that key in ${path} and start again`,
    );
  }
}

/** The master key of the file at `path` (config.masterKeyFile), made mode 0600. When the file is
 * missing, a new key is made there only if `mayCreate()` allows it (the database holds no sealed
 * secret); else MasterKeyMissingError. With no path, a fresh key. */
export function loadMasterKey(path: string | null, mayCreate: () => boolean = () => true): Buffer {
  if (path === null) return randomBytes(32);
  if (!existsSync(path)) {
    if (!mayCreate()) throw new MasterKeyMissingError(path);
    createKeyFile(path);
  }
  tighten(path);
  const key = Buffer.from(readFileSync(path, "utf8").trim(), "base64");
  if (key.length !== 32) throw new Error(`${path} is not a 32-byte base64 key`);
  return key;
}

/** Writes a new key whole under a temporary name, then links it into place: a process starting
 * beside this one (the CLI beside a server) finds either no key or the whole key, never a part,
 * and if both create one at once, the first link wins and both read the winner. The key and its
 * folder entry are synced, since losing it would make every sealed secret unreadable. */
function createKeyFile(path: string) {
  const temp = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  const fd = openSync(temp, "wx", 0o600);
  try {
    writeSync(fd, randomBytes(32).toString("base64") + "\n");
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temp, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    rmSync(temp, { force: true });
  }
  const dir = openSync(dirname(path), "r");
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}

/** Takes group and others' permissions off the key file. A key the operator mounted read-only (a
 * secret volume, DOSSIER_MASTER_KEY_FILE) cannot be changed, and its mode is theirs to choose. */
function tighten(path: string) {
  if ((statSync(path).mode & 0o077) === 0) return;
  try {
    chmodSync(path, 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "EROFS" && code !== "EPERM") throw error;
  }
}

export function seal(masterKey: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", masterKey, iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return VERSION + Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
}

export function unseal(masterKey: Buffer, sealed: string): string {
  if (!sealed.startsWith(VERSION)) throw new Error("unknown sealed secret format");
  const raw = Buffer.from(sealed.slice(VERSION.length), "base64url");
  const decipher = createDecipheriv("aes-256-gcm", masterKey, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
}
