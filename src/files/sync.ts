import { closeSync, fsyncSync, openSync } from "node:fs";

/** Flushes a file's data, or a folder's entries, to disk. */
export function syncPath(path: string) {
  const fd = openSync(path, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
