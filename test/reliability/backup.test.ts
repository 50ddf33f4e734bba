// Issue 7 item 4, C2 (`dossier backup FILE`), C10, docs/operations.md "Backup and restore":
// the CLI, as a real process, backs up the data folder while a real server takes concurrent writes.
// The copy passes integrity_check, holds every write acknowledged before the backup started, and has
// the CV files its dossiers name (FILE.files/...). Restored as documented (FILE → DIR/dossier.db,
// FILE.files → DIR/files, FILE.key → DIR/master.key) and served, it reads back through the API.
import { Database } from "bun:sqlite";
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { copyFileSync, cpSync, existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { tempDir, until } from "../helpers";
import { MAIN, startServerProcess, type ServerProcess } from "../helpers/process";
import { newLedger, runWriters, sha256 } from "./load";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const BOOTSTRAP_KEY = /API key \(shown once, store it now\): (svc_live_[A-Za-z0-9]{32})/;

const running: ServerProcess[] = [];
afterAll(() => {
  for (const server of running) {
    if (server.proc.exitCode === null) server.proc.kill(9);
    // What the server logged as errors (a 500's details), to explain a failure.
    for (const line of server.stderr().split("\n")) if (line.includes('"level":"error"')) console.error(line);
  }
});

/** `dossier backup FILE --json` as a real process, without blocking the writers of this process. */
async function backup(data: string, file: string) {
  const proc = Bun.spawn([process.execPath, MAIN, "backup", file, "--json", "--data", data], {
    env: { ...process.env, DOSSIER_LOG: "off" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [code, stdout, stderr] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  return { code, stdout, stderr };
}

test(
  "backup under write load: consistent, complete up to its start, CVs included; restore and serve (C2, docs/operations.md)",
  async () => {
    const data = tempDir();
    const out = tempDir();
    // The writers run flat out: the rate limit (C8) is not what this test is about.
    const server = await startServerProcess(data, [], { DOSSIER_RATE_LIMIT: "1000000" });
    running.push(server);
    const key = BOOTSTRAP_KEY.exec(server.stderr())![1];
    const ledger = newLedger();
    let stop = false;
    const writers = runWriters({
      url: server.url, key, writers: 3, ledger, stop: () => stop, maxRequests: 5_000, maxCv: 100_000,
      ops: ["create", "createCv", "patch", "note", "cvRaw", "cvForm"],
    });

    const copies: { file: string; acked: typeof ledger.acks }[] = [];
    await until(() => ledger.acks.length > 0, 30_000, "a first acknowledged write");
    for (let i = 0; i < 3; i++) {
      const file = join(out, `backup-${i}.db`);
      const acked = [...ledger.acks]; // everything acknowledged before the backup starts
      const result = await backup(data, file);
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual({ database: file, files: `${file}.files` });
      // Whole, by its own manifest, though the server went on writing (C20, backup --verify).
      const verified = Bun.spawnSync([process.execPath, MAIN, "backup", "--verify", file], { env: { ...process.env, DOSSIER_LOG: "off" } });
      expect(verified.exitCode, verified.stderr.toString()).toBe(0);
      copies.push({ file, acked });
      await Bun.sleep(150);
    }
    const writesDuringBackups = ledger.acks.length - copies[0].acked.length;
    stop = true;
    await writers;
    expect(ledger.failures).toBe(0);
    expect(writesDuringBackups, "writes acknowledged while the backups ran").toBeGreaterThan(10);

    for (const { file, acked } of copies) {
      expect(acked.length).toBeGreaterThan(0);
      const db = new Database(file, { readonly: true });
      try {
        expect(db.query<{ integrity_check: string }, []>("PRAGMA integrity_check").all().map((r) => r.integrity_check)).toEqual(["ok"]);
        expect(db.query("PRAGMA foreign_key_check").all()).toEqual([]);
        const dossier = db.query<{ id: string }, [string]>("SELECT id FROM dossiers WHERE id = ?");
        const note = db.query<{ id: string }, [string]>("SELECT id FROM notes WHERE id = ?");
        for (const ack of acked) {
          if (ack.kind === "note") expect(note.get(ack.id), `${file}: note ${ack.id}`).not.toBeNull();
          else expect(dossier.get(ack.id), `${file}: dossier ${ack.id}`).not.toBeNull();
        }
        // Every CV the copy names is in FILE.files, whole: bytes that were sent for that dossier.
        const named = db.query<{ id: string; cv_url: string }, []>("SELECT id, cv_url FROM dossiers WHERE cv_url IS NOT NULL").all();
        expect(named.length).toBeGreaterThan(0);
        for (const { id, cv_url } of named) {
          const path = join(`${file}.files`, cv_url);
          expect(existsSync(path), `${file}: ${cv_url}`).toBe(true);
          const sent = ledger.dossiers.get(id)?.cvBytes;
          if (sent) expect(sent.has(sha256(readFileSync(path))), `${file}: ${cv_url} is a CV that was sent`).toBe(true);
        }
      } finally {
        db.close();
      }
    }
    server.proc.kill("SIGTERM");
    expect(await server.exited).toBe(0);

    // Restore the first copy as docs/operations.md says, serve it, read everything back.
    const { file, acked } = copies[0];
    const restored = tempDir();
    copyFileSync(file, join(restored, "dossier.db"));
    cpSync(`${file}.files`, join(restored, "files"), { recursive: true });
    copyFileSync(`${file}.key`, join(restored, "master.key"));
    const again = await startServerProcess(restored, ["--no-bootstrap"]);
    running.push(again);
    const get = (path: string) => fetch(`${again.url}/api/v1${path}`, { headers: { authorization: `Bearer ${key}` } });
    expect((await fetch(`${again.url}/healthz`)).status).toBe(200);
    const backupDb = new Database(file, { readonly: true });
    const cvOf = backupDb.query<{ cv_url: string | null; name: string }, [string]>("SELECT cv_url, name FROM dossiers WHERE id = ?");
    let cvs = 0;
    for (const ack of acked.filter((a) => a.kind === "dossier")) {
      const answer = await get(`/dossiers/${ack.id}`);
      expect(answer.status).toBe(200);
      const row = cvOf.get(ack.id)!;
      expect(((await answer.json()) as any).data.name).toBe(row.name);
      if (row.cv_url) {
        const cv = await get(`/dossiers/${ack.id}/cv`);
        expect(cv.status).toBe(200);
        // A replacement in flight when the copy was made left the new cv.pdf and the committed one
        // kept aside (.cv.pdf.<event>.old); the restored server keeps the one the copied database
        // committed. Either way the CV served is one the backup holds, byte for byte.
        const folder = dirname(join(`${file}.files`, row.cv_url));
        const held = readdirSync(folder).filter((name) => name === "cv.pdf" || /^\.cv\.pdf\..+\.old$/.test(name));
        expect(held.map((name) => sha256(readFileSync(join(folder, name))))).toContain(sha256(new Uint8Array(await cv.arrayBuffer())));
        cvs++;
      }
    }
    backupDb.close();
    expect(cvs).toBeGreaterThan(0);
    for (const ack of acked.filter((a) => a.kind === "note").slice(0, 20)) {
      // Notes are listed under their dossier; find it through the copy.
      const db = new Database(file, { readonly: true });
      const { dossier_id } = db.query<{ dossier_id: string }, [string]>("SELECT dossier_id FROM notes WHERE id = ?").get(ack.id)!;
      db.close();
      const notes = (await (await get(`/dossiers/${dossier_id}/notes?per_page=100`)).json()) as any;
      expect(notes.data.map((n: any) => n.id)).toContain(ack.id);
    }
    again.proc.kill("SIGTERM");
    expect(await again.exited).toBe(0);
  },
  60_000,
);
