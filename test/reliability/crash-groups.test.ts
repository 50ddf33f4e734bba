// C11 group commit under kill -9: 16 clients write flat out (creates mostly, a few notes and
// patches), so commits run in groups while the real `dossier serve` is killed with SIGKILL at a
// random moment; after a restart on the same folder: integrity_check is ok, every write answered
// 2xx before the kill is there with its outbox event (C7), and no unit is half there (a dossier
// without its dossier.created, an event without its dossier). DOSSIER_CRASH_ROUNDS rounds
// (default 5) on one folder. A kill -9 keeps what the page cache holds, so it cannot show a
// missing flush: durability-strace.test.ts does; this proves groups lose and tear nothing.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { tempDir, until } from "../helpers";
import { bootstrapKey, startServerProcess, type ServerProcess } from "../helpers/process";
import { checkRestartedDatabase, newLedger, possibleValues, runWriters, type Ledger, type Op } from "./load";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const ROUNDS = Number(process.env.DOSSIER_CRASH_ROUNDS ?? 5);
// Writes flat out: the rate limit (C8) is not what this test is about.
const ENV = { DOSSIER_RATE_LIMIT: "1000000" };
const WRITERS = 16;
// Mostly creates (each op is drawn with equal chance), some notes and patches on them.
const OPS: Op[] = ["create", "create", "create", "create", "note", "patch"];
// The kill comes after this round's first acknowledged write and a random number (up to this) more.
const MAX_EXTRA_ACKS = 300;

const running: ServerProcess[] = [];
afterAll(() => {
  // What the servers logged as errors (a 500's details), to explain a failure.
  for (const server of running) for (const line of server.stderr().split("\n")) if (line.includes('"level":"error"')) console.error(line);
});

async function serve(data: string): Promise<ServerProcess> {
  const server = await startServerProcess(data, [], ENV);
  running.push(server);
  return server;
}

/** The database after the restart: whole, every acknowledged write in it, no unit torn. */
function check(data: string, ledger: Ledger, round: number) {
  checkRestartedDatabase(data, round, (db, label) => {

    const events = new Map<string, number>();
    for (const row of db
      .query<{ type: string; id: string; n: number }, []>("SELECT type, json_extract(body, '$.data.id') AS id, count(*) AS n FROM events GROUP BY 1, 2")
      .all())
      events.set(`${row.type} ${row.id}`, row.n);
    const eventCount = (type: string, id: string) => events.get(`${type} ${id}`) ?? 0;

    const dossier = db.query<{ name: string }, [string]>("SELECT name FROM dossiers WHERE id = ?");
    for (const tracked of ledger.dossiers.values()) {
      const row = dossier.get(tracked.id);
      expect(row, label(`acknowledged dossier ${tracked.id}`)).not.toBeNull();
      expect(possibleValues(tracked.name), label(`name of ${tracked.id}`)).toContain(row!.name);
      expect(eventCount("dossier.created", tracked.id), label(`dossier.created of ${tracked.id}`)).toBe(1);
      expect(eventCount("dossier.updated", tracked.id), label(`dossier.updated of ${tracked.id}`)).toBeGreaterThanOrEqual(tracked.updates);
    }
    const note = db.query<{ n: number }, [string]>("SELECT count(*) AS n FROM notes WHERE id = ?");
    for (const id of ledger.notes) {
      expect(note.get(id)!.n, label(`acknowledged note ${id}`)).toBe(1);
      expect(eventCount("note.created", id), label(`note.created of ${id}`)).toBe(1);
    }

    // Acknowledged or not, a unit is whole or absent: each row has its event, each event its row.
    const ids = (sql: string, ...params: string[]) => new Set(db.query<{ id: string }, string[]>(sql).all(...params).map((r) => r.id));
    const dossiers = ids("SELECT id FROM dossiers");
    const notes = ids("SELECT id FROM notes");
    expect([...dossiers].filter((id) => eventCount("dossier.created", id) !== 1), label("dossiers without one dossier.created")).toEqual([]);
    expect([...notes].filter((id) => eventCount("note.created", id) !== 1), label("notes without one note.created")).toEqual([]);
    const subjects = (type: string) => ids("SELECT DISTINCT json_extract(body, '$.data.id') AS id FROM events WHERE type = ?", type);
    expect([...subjects("dossier.created")].filter((id) => !dossiers.has(id)), label("dossier.created without its dossier")).toEqual([]);
    expect([...subjects("note.created")].filter((id) => !notes.has(id)), label("note.created without its note")).toEqual([]);
  });
}

test(
  `C11 group commit: kill -9 while groups are in flight, ${ROUNDS} times; every acknowledged write is there, no unit is torn (C7, C11)`,
  async () => {
    const data = tempDir();
    let server = await serve(data);
    const key = bootstrapKey(server);
    const ledger = newLedger();
    for (let round = 1; round <= ROUNDS; round++) {
      let killed = false;
      const writers = runWriters({ url: server.url, key, writers: WRITERS, ledger, ops: OPS, stop: () => killed, maxRequests: 2_000 });
      // A writer that got an unexpected answer throws: end the wait below at once with its error.
      let failure: unknown;
      writers.catch((error) => (failure = error));
      const before = ledger.acks.length;
      // A random moment, counted in this round's acknowledged writes (not in time, which depends on
      // the machine): after the first one and up to MAX_EXTRA_ACKS more.
      const target = before + 1 + Math.floor(Math.random() * MAX_EXTRA_ACKS);
      await until(() => failure !== undefined || ledger.acks.length >= target, 60_000, `round ${round}: ${target - before} acknowledged writes`);
      if (failure !== undefined) throw failure;
      server.proc.kill(9);
      killed = true;
      expect(await server.exited).not.toBe(0);
      await writers;
      expect(ledger.acks.length, `round ${round}: acknowledged writes`).toBeGreaterThan(before);

      server = await serve(data);
      check(data, ledger, round);
      // And through the API: the last acknowledged dossiers read back.
      for (const tracked of [...ledger.dossiers.values()].slice(-5)) {
        const response = await fetch(`${server.url}/api/v1/dossiers/${tracked.id}`, { headers: { authorization: `Bearer ${key}` } });
        expect(response.status).toBe(200);
        expect(possibleValues(tracked.name)).toContain(((await response.json()) as { data: { name: string } }).data.name);
      }
    }
    server.proc.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  },
  ROUNDS * 30_000,
);
