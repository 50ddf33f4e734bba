// Issue 7 item 3, C1 (synchronous=FULL), C5 (CV files), C7 (outbox): the real `dossier serve`
// process takes concurrent writes (creates, multipart creates with a CV, patches, notes, CV uploads
// as multipart and as raw PDF) and is killed with SIGKILL at a random moment; after a restart on
// the same folder: integrity_check is ok, every write answered 2xx before the kill is there, no CV
// file is half-written (each equals bytes that were sent for that dossier, the acknowledged ones
// when no later upload was left unanswered) or orphaned, no temporary file is left, and no outbox
// event is lost. DOSSIER_CRASH_ROUNDS rounds (default 5) on one folder; scripts/crash-long.ts runs 50.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { tempDir, until } from "../helpers";
import { startServerProcess, type ServerProcess } from "../helpers/process";
import { checkRestartedDatabase, newLedger, possibleValues, runWriters, sha256, type Ledger } from "./load";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const ROUNDS = Number(process.env.DOSSIER_CRASH_ROUNDS ?? 5);
// The writers run flat out: the rate limit (C8) is not what this test is about.
const ENV = { DOSSIER_RATE_LIMIT: "1000000" };
const BOOTSTRAP_KEY = /API key \(shown once, store it now\): (svc_live_[A-Za-z0-9]{32})/;
const TEMP = /^\.cv\.pdf\.[A-Za-z0-9]+\.tmp$/;

const running: ServerProcess[] = [];
afterAll(() => {
  for (const server of running) {
    if (server.proc.exitCode === null) server.proc.kill(9);
    // What the server logged as errors (a 500's details), to explain a failure.
    for (const line of server.stderr().split("\n")) if (line.includes('"level":"error"')) console.error(line);
  }
});

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else out.push(path);
  }
  return out;
}

/** Every check of the issue on the data folder, with the restarted server running. */
function check(data: string, ledger: Ledger, round: number) {
  checkRestartedDatabase(data, round, (db, label) => {

    const dossier = db.query<{ name: string; cv_url: string | null; organization_id: string }, [string]>(
      "SELECT name, cv_url, organization_id FROM dossiers WHERE id = ?",
    );
    // Outbox events by type and subject: one pass over the table.
    const counted = new Map<string, number>();
    for (const row of db.query<{ type: string; id: string; n: number }, []>(
      "SELECT type, json_extract(body, '$.data.id') AS id, count(*) AS n FROM events GROUP BY 1, 2",
    ).all()) counted.set(`${row.type} ${row.id}`, row.n);
    const events = { get: (type: string, id: string) => ({ n: counted.get(`${type} ${id}`) ?? 0 }) };
    const files = join(data, "files");
    for (const tracked of ledger.dossiers.values()) {
      const row = dossier.get(tracked.id);
      expect(row, label(`acknowledged dossier ${tracked.id}`)).not.toBeNull();
      expect(possibleValues(tracked.name), label(`name of ${tracked.id}`)).toContain(row!.name);
      const cv = row!.cv_url ? sha256(readFileSync(join(files, row!.cv_url))) : "none";
      expect(possibleValues(tracked.cv), label(`CV of ${tracked.id} is one that was sent`)).toContain(cv);
      if (row!.cv_url) expect(row!.cv_url).toBe(`${row!.organization_id}/dossiers/${tracked.id}/cv.pdf`);
      expect(events.get("dossier.created", tracked.id)!.n, label(`dossier.created of ${tracked.id}`)).toBe(1);
      expect(events.get("dossier.updated", tracked.id)!.n, label(`dossier.updated of ${tracked.id}`)).toBeGreaterThanOrEqual(tracked.updates);
    }
    const note = db.query<{ n: number }, [string]>("SELECT count(*) AS n FROM notes WHERE id = ?");
    for (const id of ledger.notes) {
      expect(note.get(id)!.n, label(`acknowledged note ${id}`)).toBe(1);
      expect(events.get("note.created", id)!.n, label(`note.created of ${id}`)).toBe(1);
    }
    // Every dossier (acknowledged or not) has its creation event; every note its event.
    const ids = (sql: string) => db.query<{ id: string }, []>(sql).all().map((r) => r.id);
    expect(ids("SELECT id FROM dossiers").filter((id) => !counted.has(`dossier.created ${id}`)), label("dossiers without dossier.created")).toEqual([]);
    expect(ids("SELECT id FROM notes").filter((id) => !counted.has(`note.created ${id}`)), label("notes without note.created")).toEqual([]);

    // Files: after the start-up sweep, exactly the CVs that dossiers point at, whole PDFs, no temporaries.
    const onDisk = walk(files).map((path) => relative(files, path)).sort();
    const pointed = db.query<{ cv_url: string }, []>("SELECT cv_url FROM dossiers WHERE cv_url IS NOT NULL ORDER BY cv_url").all().map((r) => r.cv_url);
    expect(onDisk.filter((path) => TEMP.test(path.split("/").pop()!)), label("temporary files")).toEqual([]);
    expect(onDisk, label("files on disk are exactly the CVs dossiers point at")).toEqual(pointed.sort());
    for (const url of pointed) {
      const bytes = readFileSync(join(files, url));
      expect(new TextDecoder().decode(bytes.subarray(0, 5)), label(`${url} is a PDF`)).toBe("%PDF-");
    }
  });
}

test(
  `crash safety: kill -9 under concurrent writes, ${ROUNDS} times; nothing acknowledged is lost (C1, C5, C7)`,
  async () => {
    const data = tempDir();
    let server = await startServerProcess(data, [], ENV);
    running.push(server);
    const key = BOOTSTRAP_KEY.exec(server.stderr())![1];
    const ledger = newLedger();
    const started = performance.now();
    const sweeps = { temporary: 0, orphans: 0 };
    for (let round = 1; round <= ROUNDS; round++) {
      let killed = false;
      const writers = runWriters({ url: server.url, key, writers: 4, ledger, stop: () => killed, maxRequests: 2_000 });
      const before = ledger.acks.length;
      // Killed at a random moment after this round's first acknowledged write (on a loaded
      // machine that may take longer than the random part alone).
      await until(() => ledger.acks.length > before, 30_000, `round ${round}: a first acknowledged write`);
      await Bun.sleep(Math.random() * 900);
      server.proc.kill(9);
      killed = true;
      expect(await server.exited).not.toBe(0);
      await writers;
      // Some writes were acknowledged in this round (else the round proves little).
      expect(ledger.acks.length, `round ${round}: acknowledged writes`).toBeGreaterThan(before);

      server = await startServerProcess(data, [], ENV);
      running.push(server);
      const swept = /"msg":"swept stray CV files","temporary":(\d+),"orphans":(\d+)/.exec(server.stderr());
      if (swept) (sweeps.temporary += Number(swept[1])), (sweeps.orphans += Number(swept[2]));
      check(data, ledger, round);
      // And through the API: a sample of acknowledged dossiers reads back with its CV.
      const sample = [...ledger.dossiers.values()].slice(-5);
      for (const tracked of sample) {
        const response = await fetch(`${server.url}/api/v1/dossiers/${tracked.id}`, { headers: { authorization: `Bearer ${key}` } });
        expect(response.status).toBe(200);
        expect(possibleValues(tracked.name)).toContain(((await response.json()) as any).data.name);
      }
    }
    server.proc.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    if (process.env.DOSSIER_CRASH_VERBOSE) {
      console.log({
        rounds: ROUNDS,
        seconds: Math.round((performance.now() - started) / 100) / 10,
        dossiers: ledger.dossiers.size,
        notes: ledger.notes.size,
        acknowledged: ledger.acks.length,
        unanswered: ledger.failures,
        answered: ledger.answered,
        swept: sweeps,
      });
    }
  },
  ROUNDS * 20_000,
);
