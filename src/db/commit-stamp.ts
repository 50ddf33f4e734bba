// A number that moves with every commit to the database, by any connection of any process, read
// without a statement or a lock. A cache entry checked against it costs no SQL while nothing was committed
// since it was last checked (src/db/generations.ts), which is the common case for reads: in WAL
// mode the first statement of a read transaction takes the WAL read lock (two fcntl calls and a
// scan of the read marks), which cost more than the rest of a remembered answer.
//
// Every commit in WAL mode rewrites the wal-index header at the start of the -shm file, which all
// connections share (https://sqlite.org/walformat.html): its change counter, last frame, salts and
// checksum. The header is written twice, the second copy first; a reader that finds the copies
// different sees a commit under way and is told "unknown" (-1), as is a connection without that
// file (":memory:"). A commit not yet in the header is not yet visible to any reader either, so a
// stamp read before a snapshot begins is never newer than what the snapshot shows.
//
// The header is read with one pread on a descriptor kept open until after the connection closes:
// closing any descriptor of the -shm file drops all of the process's fcntl locks on it, SQLite's
// included (a map by path, as Bun.mmap makes, closes its own at once: another process then took
// the file for unused and started it over under the server's feet).
import { closeSync, existsSync, openSync, readSync } from "node:fs";

/** Words of one copy of the wal-index header (WalIndexHdr: 48 bytes). */
const HEADER_WORDS = 12;

export class CommitStamp {
  private fd: number | null = null;
  private readonly bytes = new Uint8Array(HEADER_WORDS * 8);
  private readonly words = new Uint32Array(this.bytes.buffer);
  private readonly last = new Uint32Array(HEADER_WORDS);
  private version = 0;
  private closed = false;

  /** `path`: the database file, or null for one without a -shm file. */
  constructor(private readonly path: string | null) {}

  /** A number that differs from every earlier one once anything was committed since; -1 when it
   * cannot be told (no -shm file, or a commit writing the header right now). */
  now(): number {
    const fd = this.fd ?? this.open();
    if (fd === null || readSync(fd, this.bytes, 0, this.bytes.byteLength, 0) < this.bytes.byteLength) return -1;
    const words = this.words;
    for (let i = 0; i < HEADER_WORDS; i++) if (words[i] !== words[HEADER_WORDS + i]) return -1;
    let same = true;
    for (let i = 0; i < HEADER_WORDS; i++) {
      if (words[i] !== this.last[i]) {
        same = false;
        this.last[i] = words[i];
      }
    }
    if (!same) this.version++;
    return this.version;
  }

  /** Closes the descriptor: only after the connection is closed (see above). */
  close() {
    this.closed = true;
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private open(): number | null {
    const shm = this.path === null || this.closed ? null : `${this.path}-shm`;
    // The file exists from the connection's first read in WAL mode on; until then, no stamp.
    if (shm === null || !existsSync(shm)) return null;
    this.fd = openSync(shm, "r");
    return this.fd;
  }
}
