// A read on SQLite whose answer waits for the disk longer than the server's idle timeout still gets
// its answer on its connection: most reads are answered within the turn of the event loop that
// took them, but a CV's bytes come from a file, and a busy disk may hold them (C20: never a
// connection closed under a request).
import { expect, setDefaultTimeout, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { startServer } from "../../src/server";
import { call, makeOrg, onCleanup, tempDir } from "../helpers";

setDefaultTimeout(60_000); // Bun keeps a timeout per test file (test/preload.ts)

const PDF = "%PDF-1.4\n% a CV held by a slow disk\n%%EOF\n";

/** A GET on a connection of its own (no pooling): its status and body, or the socket's error. */
const get = (url: string, key: string) =>
  new Promise<{ status: number; body: string } | string>((resolve) => {
    const outgoing = request(url, { headers: { authorization: `Bearer ${key}` }, agent: false }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on("data", (chunk: Buffer) => chunks.push(chunk));
      answer.on("end", () => resolve({ status: answer.statusCode!, body: Buffer.concat(chunks).toString() }));
    });
    outgoing.on("error", (error) => resolve(error.message));
    outgoing.end();
  });

test("CV downloads held 2 s each by their file, on a busy SQLite server whose idle timeout is 1 s, answer 200 with the CV", async () => {
  const server = await startServer({ host: "127.0.0.1", port: 0, dataDir: tempDir(), webhooks: false, config: { log: "off", bodyTimeoutMs: 1_000 } });
  onCleanup(() => server.stop());
  const org = await makeOrg(server.app);
  const made = await call(server.app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "Ada" } });
  const attached = await call(server.app, "POST", `/dossiers/${made.json.data.id}/cv`, { key: org.key, raw: PDF, contentType: "application/pdf" });
  expect(attached.status).toBe(200);
  const file = join(server.app.dossier.filesDir, attached.json.data.cv_url);
  // Other requests keep the server busy all along (with an idle event loop, Bun's idle timer did
  // not cut a download held past it; with a busy one, it cut one now and then).
  let busy = true;
  const others = (async () => {
    for (let i = 0; i < 1_000_000 && busy; i++) expect(await get(`${server.url}/healthz`, org.key)).toMatchObject({ status: 200 });
  })();
  for (let held = 0; held < 4; held++) {
    // The CV's file becomes a named pipe: reading it waits until the test writes into it.
    rmSync(file);
    expect(spawnSync("mkfifo", [file]).status).toBe(0);
    const answer = get(`${server.url}/api/v1/dossiers/${made.json.data.id}/cv`, org.key);
    await Bun.sleep(2_000); // the file holds the read past the idle timeout
    writeFileSync(file, PDF); // opens the pipe's writing end, which lets the read go on, and closes it
    expect(await answer).toEqual({ status: 200, body: PDF });
  }
  busy = false;
  await others;
});
