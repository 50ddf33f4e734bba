// Reads an `strace -f -tt -yy -x` trace of `dossier serve` and checks C11's rule for each
// acknowledged write: the commit that wrote it to the WAL came first, then a flush (fsync or
// fdatasync) of the `-wal` file that started after that commit and returned before the first byte
// of the 2xx answer was written. Pure functions: the test runs the server, this judges the trace.
//
// Order is the order of the trace's lines, not of their timestamps: strace handles one event at a
// time and prints it as it handles it. A syscall printed on one line had no other traced event
// between its start and its return; one that another thread interrupted is split into
// `name(... <unfinished ...>` (its start) and `<... name resumed>...` (its return). A thread that
// waits on another (the answer on the flush) can only go on after strace has printed the other's
// return, so a causal order is never inverted by this numbering.

const LINE = /^(\d+)\s+(\d\d:\d\d:\d\d\.\d+)\s+(.*)$/;
const RESUMED = /^<\.\.\. (\w+) resumed>(.*)$/;
const CALL = /^(\w+)\((.*)$/;
const UNFINISHED = " <unfinished ...>";
// The first argument with -y/-yy: `7</data/dossier.db-wal>` or `12<TCP:[127.0.0.1:80->127.0.0.1:5000]>`.
const FD = /^(\d+)<(.+?)>(?=[,)]| <unfinished)/;
const RETURN = /\)\s+=\s+(-?\d+)/;

const FLUSHES = new Set(["fsync", "fdatasync"]);
const WRITES = new Set(["write", "writev", "pwrite64", "pwritev", "pwritev2", "send", "sendto", "sendmsg"]);

/** One syscall of the trace: `start` and `end` are line numbers (equal when it was not split). */
export interface Syscall {
  pid: number;
  name: string;
  fd: number | null;
  /** What -y printed for the fd: a path, or `TCP:[...]`, `socket:[...]`, `pipe:[...]`. */
  target: string;
  /** The bytes of every string argument (the buffer of a write; strace cuts it at -s). */
  bytes: Uint8Array;
  /** The return value, null when the trace ended before it. */
  result: number | null;
  start: number;
  end: number;
  /** The -tt time of the start and of the return, for messages. */
  startedAt: string;
  returnedAt: string;
}

/** Strace's C-like string literal (`\xNN`, octal, `\n`...) back to its bytes. */
export function decodeLiteral(literal: string): Uint8Array {
  const out: number[] = [];
  const named: Record<string, number> = { n: 10, t: 9, r: 13, v: 11, f: 12, a: 7, b: 8, "\\": 92, '"': 34 };
  for (let i = 0; i < literal.length; i++) {
    const c = literal[i];
    if (c !== "\\") {
      out.push(c.charCodeAt(0) & 0xff);
      continue;
    }
    const next = literal[i + 1];
    if (next === "x") {
      out.push(parseInt(literal.slice(i + 2, i + 4), 16));
      i += 3;
    } else if (next >= "0" && next <= "7") {
      const octal = /^[0-7]{1,3}/.exec(literal.slice(i + 1))![0];
      out.push(parseInt(octal, 8));
      i += octal.length;
    } else {
      out.push(named[next] ?? next.charCodeAt(0));
      i += 1;
    }
  }
  return Uint8Array.from(out);
}

/** The bytes of every "..." literal in `args`, one after the other (writev's iovecs in order). */
function stringArguments(args: string): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const match of args.matchAll(/"((?:[^"\\]|\\.)*)"/g)) parts.push(decodeLiteral(match[1]));
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) (out.set(part, at), (at += part.length));
  return out;
}

/** The flushes and writes of a trace, in the order they started. */
export function parseTrace(text: string): Syscall[] {
  const calls: Syscall[] = [];
  const pending = new Map<number, Syscall>();
  const lines = text.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const line = LINE.exec(lines[index]);
    if (!line) continue;
    const pid = Number(line[1]);
    const time = line[2];
    const body = line[3];
    const resumed = RESUMED.exec(body);
    if (resumed) {
      const call = pending.get(pid);
      if (!call || call.name !== resumed[1]) continue;
      pending.delete(pid);
      call.end = index;
      call.returnedAt = time;
      call.result = resultOf(resumed[2]);
      continue;
    }
    const started = CALL.exec(body);
    if (!started || !(FLUSHES.has(started[1]) || WRITES.has(started[1]))) continue;
    const args = started[2];
    const fd = FD.exec(args);
    const unfinished = args.endsWith(UNFINISHED);
    const call: Syscall = {
      pid,
      name: started[1],
      fd: fd ? Number(fd[1]) : null,
      target: fd ? fd[2] : "",
      bytes: stringArguments(fd ? args.slice(fd[0].length) : args),
      result: unfinished ? null : resultOf(args),
      start: index,
      end: index,
      startedAt: time,
      returnedAt: time,
    };
    if (unfinished) pending.set(pid, call);
    calls.push(call);
  }
  return calls;
}

function resultOf(rest: string): number | null {
  const match = RETURN.exec(rest);
  return match ? Number(match[1]) : null;
}

const isWal = (call: Syscall) => call.target.endsWith("-wal");
const isSocket = (call: Syscall) => /^(TCP|TCPv6|UDP|UDPv6|UNIX|socket):/.test(call.target);
// One character per byte, so an ASCII marker is found in a binary page by a string search.
const text = (bytes: Uint8Array) => Buffer.from(bytes).toString("latin1");

/** An HTTP answer as the server wrote it on one connection. */
interface Answer {
  status: number;
  /** Line of the first write that carried its first byte. */
  start: number;
  startedAt: string;
  body: string;
}

/** Each answer: a socket write that begins with a status line, plus the writes that follow it on
 * that socket until the next one (a partial write's rest, a body written apart from its head). */
function answersOf(calls: Syscall[]): Answer[] {
  const answers: Answer[] = [];
  const current = new Map<string, Answer>();
  for (const call of calls) {
    if (!WRITES.has(call.name) || !isSocket(call) || call.result === null || call.result < 0) continue;
    const written = text(call.bytes);
    const status = /^HTTP\/1\.[01] (\d{3}) /.exec(written);
    if (status) {
      const answer = { status: Number(status[1]), start: call.start, startedAt: call.startedAt, body: written };
      answers.push(answer);
      current.set(call.target, answer);
    } else {
      const answer = current.get(call.target);
      if (answer) answer.body += written;
    }
  }
  return answers;
}

/** The line after which a commit that wrote `at` (a page write to the WAL) is whole: SQLite writes
 * each frame as a 24-byte header, then the page; a commit's last frame has a non-zero "database
 * size after commit" in bytes 4-7 of its header. Null when the trace holds no such frame. */
function commitEnd(walWrites: Syscall[], at: number): Syscall | null {
  for (let i = Math.max(0, at - 1); i < walWrites.length - 1; i++) {
    const header = walWrites[i].bytes;
    if (header.length === 24 && header[4] + header[5] + header[6] + header[7] > 0) return walWrites[i + 1];
  }
  return null;
}

export interface Verdict {
  /** 2xx answers the trace holds (with or without a marker). */
  answers: number;
  /** One sentence per acknowledged write that broke the rule; empty when every one kept it. */
  violations: string[];
}

/** Judges every marker (a string unique to one acknowledged write, found in its WAL page and in
 * its answer) against C11's order: commit, then a whole flush of the `-wal` file, then the answer. */
export function checkDurability(trace: string, markers: string[]): Verdict {
  const calls = parseTrace(trace);
  const walWrites = calls.filter((call) => WRITES.has(call.name) && isWal(call) && call.result !== null && call.result >= 0);
  const walTexts = walWrites.map((call) => text(call.bytes));
  const flushes = calls.filter((call) => FLUSHES.has(call.name) && isWal(call) && call.result === 0);
  const answers = answersOf(calls).filter((answer) => answer.status >= 200 && answer.status < 300);
  const violations: string[] = [];
  for (const marker of markers) {
    const answer = answers.find((candidate) => candidate.body.includes(marker));
    if (!answer) {
      violations.push(`${marker}: no 2xx answer in the trace carries it`);
      continue;
    }
    const page = walWrites.findIndex((call, i) => call.start < answer.start && walTexts[i].includes(marker));
    if (page < 0) {
      violations.push(`${marker}: answered at ${answer.startedAt} but no write to the -wal file before it carries it`);
      continue;
    }
    const committed = commitEnd(walWrites, page);
    if (!committed || committed.end > answer.start) {
      violations.push(`${marker}: answered at ${answer.startedAt} before its commit's last WAL frame was written`);
      continue;
    }
    const covering = flushes.find((flush) => flush.start > committed.end && flush.end < answer.start);
    if (!covering) {
      const near = flushes.filter((flush) => flush.end >= committed.start - 1 && flush.start <= answer.start + 1);
      const seen = near.map((flush) => `${flush.name} ${flush.startedAt}..${flush.returnedAt}`).join(", ") || "none";
      violations.push(
        `${marker}: committed at ${committed.returnedAt}, answered at ${answer.startedAt}, ` +
          `no flush of the -wal file started after the commit and returned before the answer (flushes around it: ${seen})`,
      );
    }
  }
  return { answers: answers.length, violations };
}
