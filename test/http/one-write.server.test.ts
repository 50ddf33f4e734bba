// A long JSON answer leaves in one write (src/http/one-write.ts): seen from outside the process, the
// real `dossier serve` under strace on each engine. Bun writes an answer made after an await
// uncorked once it outgrows its 16 KiB cork buffer, a send() per header part (about 30); the
// answer's own socket must see one or two. The answers are those of GET /dossiers (made after a
// PostgreSQL statement, or in turn on SQLite) and of a create (after its commit on both).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers";
import { bootstrapKey, startServerProcess } from "../helpers/process";
import { ENGINES, migratedDatabase } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const STRACE = Bun.which("strace");
// -D: strace runs as a detached grandchild, so the spawned process is the server itself; -yy names
// each socket's peers, so that the answer's own connection can be told from the database's.
const STRACE_FLAGS = ["-D", "-f", "-yy", "-e", "trace=write,writev,send,sendto,sendmsg"];
const probe = STRACE ? Bun.spawnSync([STRACE, ...STRACE_FLAGS, "-o", "/dev/null", "true"], { stderr: "pipe" }) : null;
const straceWorks = probe?.exitCode === 0;
if (!straceWorks) console.warn(`one-write: strace cannot trace here (${probe ? probe.stderr.toString().trim() : "no strace on the PATH"}); skipped`);

/** One request on a connection of its own, written and read by hand: the answer's head, its body
 * (chunked coding decoded). */
async function exchange(url: string, request: string): Promise<{ head: string; body: string }> {
  const { hostname, port } = new URL(url);
  const chunks: Uint8Array[] = [];
  const { promise: closed, resolve } = Promise.withResolvers<void>();
  const socket = await Bun.connect({
    hostname,
    port: Number(port),
    socket: { data: (_, data) => void chunks.push(new Uint8Array(data)), close: () => resolve(), error: () => resolve() },
  });
  socket.write(request);
  await Promise.race([closed, Bun.sleep(30_000)]);
  const text = new TextDecoder().decode(Buffer.concat(chunks));
  const [head, rest] = [text.slice(0, text.indexOf("\r\n\r\n")), text.slice(text.indexOf("\r\n\r\n") + 4)];
  return { head, body: /transfer-encoding: chunked/i.test(head) ? unchunked(rest) : rest };
}

function unchunked(coded: string): string {
  let body = "";
  for (let at = 0, parts = 0; parts < 10_000; parts++) {
    const end = coded.indexOf("\r\n", at);
    const size = parseInt(coded.slice(at, end), 16);
    if (!(size > 0)) return body;
    body += coded.slice(end + 2, end + 2 + size);
    at = end + 2 + size + 2;
  }
  throw new Error("too many chunks");
}

describe.each(ENGINES)("long JSON answers on %s", (engine) => {
  test.skipIf(!straceWorks)("a 30 KB page of dossiers and a 21 KB create's answer each leave in one or two writes to their socket", async () => {
    const folder = tempDir();
    const tracePath = join(folder, "trace.txt");
    const env: Record<string, string> = engine === "postgres" ? { DOSSIER_DATABASE_URL: await migratedDatabase() } : {};
    const server = await startServerProcess(join(folder, "data"), [], env, { wrap: [STRACE!, ...STRACE_FLAGS, "-o", tracePath, "--"] });
    const key = bootstrapKey(server);
    const notes = "A long letter. ".repeat(1_300); // 19,500 characters of the 20,000 allowed
    const body = JSON.stringify({ type: "candidate", name: "Long notes", intake_notes: notes });
    const created = await exchange(
      server.url,
      `POST /api/v1/dossiers HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(created.head).toStartWith("HTTP/1.1 201");
    expect(JSON.parse(created.body).data.intake_notes).toBe(notes);
    const listed = await exchange(server.url, `GET /api/v1/dossiers?per_page=5 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`);
    expect(listed.head).toStartWith("HTTP/1.1 200");
    const page = JSON.parse(listed.body);
    expect(page.data[0].intake_notes).toBe(notes);
    expect(listed.body.length).toBeGreaterThan(16 * 1024);
    server.proc.kill("SIGTERM");
    expect(await server.exited).toBe(0); // strace holds stderr until its trace is written
    const trace = readFileSync(tracePath, "latin1").split("\n");
    // Writes to the two clients' connections, by connection (the server's side is its port).
    const byConnection = new Map<string, number>();
    for (const line of trace) {
      const connection = line.match(new RegExp(`TCP:\\[127\\.0\\.0\\.1:${new URL(server.url).port}->[^\\]]+\\]`))?.[0];
      if (connection) byConnection.set(connection, (byConnection.get(connection) ?? 0) + 1); // a call cut by another thread's is named once
    }
    // Each: the head and body in one write, and the chunked coding's last chunk (about 30 before).
    const counts = [...byConnection.values()];
    expect(counts).toHaveLength(2);
    expect(counts.filter((writes) => writes > 2)).toEqual([]);
  });
});
