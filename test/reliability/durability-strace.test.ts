// C11 (and C1's synchronous=FULL): a 2xx answer to a write is sent only after its commit is
// durable. Seen from outside the process: the real `dossier serve` runs under strace while 16
// clients create 64 dossiers at once, each named with a unique marker; in the trace, for each 2xx
// answer, the commit that wrote its dossier to the WAL comes first, then an fsync/fdatasync of the
// `-wal` file that starts after that commit and returns before the answer's first byte is written.
// A run with DOSSIER_SYNC=normal (no flush) must show violations: the checker is not vacuous.
// The checker itself (durability-trace.ts) is tried on hand-written traces too.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers";
import { bootstrapKey, startServerProcess } from "../helpers/process";
import { checkDurability } from "./durability-trace";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const CLIENTS = 16;
const PER_CLIENT = 4;
// Writes flat out: the rate limit (C8) is not what this test is about.
const ENV = { DOSSIER_RATE_LIMIT: "1000000" };
// Every syscall that can carry a WAL frame, an answer or a flush. SQLite writes the WAL with
// pwrite64; Bun answers HTTP with sendto (write, writev, send, sendmsg are there in case it changes).
const SYSCALLS = "trace=fsync,fdatasync,write,writev,pwrite64,pwritev,pwritev2,send,sendto,sendmsg";
// -D: strace runs as a detached grandchild, so the spawned process is the server itself (killed
// by the cleanup); -yy names each fd's file or TCP peer; -x and -s show whole WAL pages; the
// seccomp filter stops the server only on the traced syscalls. Each flush is held 10 ms before it
// starts, as a slow disk would: on a fast one (tmpfs) an answer that does not wait for its flush
// could still come after it by luck, and pass.
const SLOW_DISK = "inject=fsync,fdatasync:delay_enter=10000";
const STRACE_FLAGS = ["-D", "-f", "-tt", "-yy", "-x", "-s", "8192", "--seccomp-bpf", "-e", SYSCALLS, "-e", SLOW_DISK];

const STRACE = Bun.which("strace");
const probe = STRACE ? Bun.spawnSync([STRACE, ...STRACE_FLAGS, "-o", "/dev/null", "true"], { stderr: "pipe" }) : null;
const straceWorks = probe?.exitCode === 0;
if (!straceWorks) {
  const why = probe ? probe.stderr.toString().trim() : "no strace on the PATH";
  console.warn(`durability-strace: strace cannot trace here (${why}); the trace tests are skipped`);
}

/** Runs a server under strace, creates CLIENTS * PER_CLIENT dossiers concurrently, stops it, and
 * returns the trace with the names (markers) of the acknowledged dossiers. */
async function traceCreates(env: Record<string, string>): Promise<{ trace: string; markers: string[] }> {
  const folder = tempDir();
  const tracePath = join(folder, "trace.txt");
  const wrap = [STRACE!, ...STRACE_FLAGS, "-o", tracePath, "--"];
  const server = await startServerProcess(join(folder, "data"), [], { ...ENV, ...env }, { wrap });
  const key = bootstrapKey(server);
  const run = Math.random().toString(36).slice(2, 8);
  const markers: string[] = [];
  const statuses: number[] = [];
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      for (let n = 0; n < PER_CLIENT; n++) {
        const marker = `durable-${run}-${client}-${n}`;
        const response = await fetch(`${server.url}/api/v1/dossiers`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify({ type: "candidate", name: marker }),
          signal: AbortSignal.timeout(60_000),
        });
        await response.text();
        statuses.push(response.status);
        if (response.status === 201) markers.push(marker);
      }
    }),
  );
  expect(statuses.filter((status) => status !== 201)).toEqual([]);
  server.proc.kill("SIGTERM");
  // `exited` also waits for the server's stderr to close, which strace holds until it has written
  // the whole trace and exited after its tracee.
  expect(await server.exited).toBe(0);
  return { trace: readFileSync(tracePath, "latin1"), markers };
}

describe("C11: durable before acknowledged, in the syscalls of the real server", () => {
  test.skipIf(!straceWorks)("each 2xx answer to a create is written after a flush of the -wal file that followed its commit", async () => {
    const { trace, markers } = await traceCreates({});
    expect(markers.length).toBe(CLIENTS * PER_CLIENT);
    const verdict = checkDurability(trace, markers);
    // The trace saw the answers: one that missed them could not pass.
    expect(verdict.answers).toBeGreaterThanOrEqual(markers.length);
    expect(verdict.violations).toEqual([]);
  });

  test.skipIf(!straceWorks)("with DOSSIER_SYNC=normal (no flush before answering) the same check reports violations", async () => {
    const { trace, markers } = await traceCreates({ DOSSIER_SYNC: "normal" });
    const verdict = checkDurability(trace, markers);
    expect(verdict.answers).toBeGreaterThanOrEqual(markers.length);
    expect(verdict.violations.length).toBeGreaterThan(0);
  });
});

// Hand-written traces in strace's format: pid, -tt time, the call. A frame is a 24-byte header
// (bytes 4-7 non-zero on a commit's last frame) and its page; the marker sits in a page.
const WAL = "7</data/dossier.db-wal>";
const DB = "6</data/dossier.db>";
const SOCKET = "12<TCP:[127.0.0.1:8080->127.0.0.1:50000]>";
const header = (commit: boolean) => `"\\x00\\x00\\x00\\x01\\x00\\x00\\x00${commit ? "\\x07" : "\\x00"}${"\\x00".repeat(16)}"`;
const frames = (pid: number, time: string, marker: string) => [
  `${pid}  ${time}1 pwrite64(${WAL}, ${header(false)}, 24, 32) = 24`,
  `${pid}  ${time}2 pwrite64(${WAL}, "\\x0d\\x00 ${marker} \\xff", 12, 56) = 12`,
  `${pid}  ${time}3 pwrite64(${WAL}, ${header(true)}, 24, 4152) = 24`,
  `${pid}  ${time}4 pwrite64(${WAL}, "\\x0a\\x00\\x00\\x00", 4, 4176) = 4`,
];
const answer = (pid: number, time: string, marker: string) =>
  `${pid}  ${time} sendto(${SOCKET}, "HTTP/1.1 201 Created\\r\\ncontent-type: application/json\\r\\n\\r\\n{\\"data\\":{\\"name\\":\\"${marker}\\"}}", 90, MSG_NOSIGNAL, NULL, 0) = 90`;
const judge = (lines: string[]) => checkDurability(lines.join("\n") + "\n", ["m-1"]);

describe("the trace checker (durability-trace.ts)", () => {
  test("commit, then a flush of the -wal file on the same thread, then the answer: no violation", () => {
    const verdict = judge([...frames(100, "10:00:00.00000", "m-1"), `100  10:00:00.100000 fsync(${WAL}) = 0`, answer(100, "10:00:00.200000", "m-1")]);
    expect(verdict).toEqual({ answers: 1, violations: [] });
  });

  test("a flush on another thread, split by strace into unfinished and resumed, that returns before the answer: no violation", () => {
    const verdict = judge([
      ...frames(100, "10:00:00.00000", "m-1"),
      `101  10:00:00.100000 fdatasync(${WAL} <unfinished ...>`,
      `100  10:00:00.150000 write(2<pipe:[9]>, "log", 3) = 3`,
      `101  10:00:00.160000 <... fdatasync resumed>) = 0`,
      answer(100, "10:00:00.200000", "m-1"),
    ]);
    expect(verdict).toEqual({ answers: 1, violations: [] });
  });

  test("a flush that started before the commit's last frame does not cover it", () => {
    const lines = frames(100, "10:00:00.00000", "m-1");
    const verdict = judge([
      ...lines.slice(0, 3),
      `101  10:00:00.000035 fdatasync(${WAL} <unfinished ...>`,
      lines[3],
      `101  10:00:00.100000 <... fdatasync resumed>) = 0`,
      answer(100, "10:00:00.200000", "m-1"),
    ]);
    expect(verdict.violations).toHaveLength(1);
    expect(verdict.violations[0]).toContain("no flush of the -wal file");
  });

  test("a flush that returns after the answer's first byte does not cover it", () => {
    const verdict = judge([
      ...frames(100, "10:00:00.00000", "m-1"),
      `101  10:00:00.100000 fdatasync(${WAL} <unfinished ...>`,
      answer(100, "10:00:00.200000", "m-1"),
      `101  10:00:00.300000 <... fdatasync resumed>) = 0`,
    ]);
    expect(verdict.violations).toHaveLength(1);
    expect(verdict.violations[0]).toContain("no flush of the -wal file");
  });

  test("a flush of another file, or a failed flush, does not cover it", () => {
    for (const flush of [`100  10:00:00.100000 fsync(${DB}) = 0`, `100  10:00:00.100000 fdatasync(${WAL}) = -1 EIO (Input/output error)`]) {
      const verdict = judge([...frames(100, "10:00:00.00000", "m-1"), flush, answer(100, "10:00:00.200000", "m-1")]);
      expect(verdict.violations).toHaveLength(1);
    }
  });

  test("an answer sent before its commit's last frame, or never sent, or a marker in no WAL write, is a violation", () => {
    const lines = frames(100, "10:00:00.00000", "m-1");
    const early = judge([...lines.slice(0, 2), answer(101, "10:00:00.000025", "m-1"), ...lines.slice(2), `100  10:00:00.1 fsync(${WAL}) = 0`]);
    expect(early.violations[0]).toContain("before its commit's last WAL frame");
    expect(judge([...lines, `100  10:00:00.1 fsync(${WAL}) = 0`]).violations[0]).toContain("no 2xx answer");
    const elsewhere = frames(100, "10:00:00.00000", "m-9");
    expect(judge([...elsewhere, `100  10:00:00.1 fsync(${WAL}) = 0`, answer(100, "10:00:00.2", "m-1")]).violations[0]).toContain("no write to the -wal file");
  });

  test("an answer whose head and body are written apart is found by its body and timed by its head", () => {
    const verdict = judge([
      ...frames(100, "10:00:00.00000", "m-1"),
      `101  10:00:00.100000 fdatasync(${WAL} <unfinished ...>`,
      `100  10:00:00.150000 writev(${SOCKET}, [{iov_base="HTTP/1.1 201 Created\\r\\n\\r\\n", iov_len=25}], 1) = 25`,
      `101  10:00:00.160000 <... fdatasync resumed>) = 0`,
      `100  10:00:00.170000 write(${SOCKET}, "{\\"name\\":\\"m-1\\"}", 14) = 14`,
    ]);
    expect(verdict.answers).toBe(1);
    expect(verdict.violations).toHaveLength(1);
  });
});
