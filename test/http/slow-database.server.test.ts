// A read that waits for a busy PostgreSQL longer than the server's idle timeout still gets its
// answer on its connection: Bun's idle timer is off while an answer waits for the database (C19:
// never a connection closed under a request; a database that cannot answer gets 503).
import { SQL } from "bun";
import { expect, setDefaultTimeout, test } from "bun:test";
import { request } from "node:http";
import { startServer } from "../../src/server";
import { makeOrg, onCleanup, tempDir } from "../helpers";
import { migratedDatabase } from "../helpers/stores";

setDefaultTimeout(60_000); // Bun keeps a timeout per test file (test/preload.ts)

/** A GET on a connection of its own (no pooling): its status, or the socket's error. */
const get = (url: string, key: string) =>
  new Promise<number | string>((resolve) => {
    const outgoing = request(url, { headers: { authorization: `Bearer ${key}` }, agent: false }, (answer) => {
      answer.resume();
      answer.on("end", () => resolve(answer.statusCode!));
    });
    outgoing.on("error", (error) => resolve(error.message));
    outgoing.end();
  });

test("a GET held 6 s by a locked table, on a server whose idle timeout is 1 s, answers 200", async () => {
  const url = await migratedDatabase();
  const server = await startServer({ host: "127.0.0.1", port: 0, dataDir: tempDir(), webhooks: false, env: { DOSSIER_DATABASE_URL: url }, config: { log: "off", bodyTimeoutMs: 1_000 } });
  onCleanup(() => server.stop());
  const org = await makeOrg(server.app);
  const admin = new SQL(url, { max: 1 });
  onCleanup(() => admin.close());
  let unlock!: () => void;
  const locked = new Promise<void>((resolve) => {
    void admin.begin(async (tx) => {
      await tx`LOCK TABLE dossiers IN ACCESS EXCLUSIVE MODE`;
      resolve();
      await new Promise<void>((release) => (unlock = release));
    });
  });
  await locked;
  const answer = get(`${server.url}/api/v1/dossiers`, org.key);
  await Bun.sleep(6_000); // the lock holds the read well past the idle timeout
  unlock();
  expect(await answer).toBe(200);
});
