// Webhook secrets must be stored recoverably (they key the signatures) yet not in clear (issue 7):
// they are sealed with AES-256-GCM under a master key kept in the data folder beside the database,
// so a copy of the database alone reveals none of them.
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const VERSION = "v1.";
export const MASTER_KEY_FILE = "master.key";

/** The data folder's master key, created on first use (mode 0600). With no folder, a fresh key. */
export function loadMasterKey(dataDir: string | null): Buffer {
  if (dataDir === null) return randomBytes(32);
  const path = join(dataDir, MASTER_KEY_FILE);
  if (!existsSync(path)) {
    try {
      writeFileSync(path, randomBytes(32).toString("base64") + "\n", { flag: "wx", mode: 0o600 });
    } catch (error) {
      // Another process (the CLI beside a server) created it first: use theirs.
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  chmodSync(path, 0o600);
  const key = Buffer.from(readFileSync(path, "utf8").trim(), "base64");
  if (key.length !== 32) throw new Error(`${path} is not a 32-byte base64 key`);
  return key;
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
