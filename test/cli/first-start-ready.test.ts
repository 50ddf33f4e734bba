// Issue 32 point 8: a script that starts `dossier serve` on a fresh data folder, waits for
// /healthz to answer 200 and then reads the first start's key (C2) must find it. The attack: poll
// /healthz as fast as possible from before the server listens; at the first 200, what the server
// has written on stderr (a file here, so that nothing of it is still in a pipe) already holds the
// key and the owner's console link, and the key is already good.
import { expect, setDefaultTimeout, test } from "bun:test";
import { closeSync, openSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { onCleanup, tempDir } from "../helpers";
import { MAIN } from "../helpers/process";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

/** A port free a moment ago (the server is told it, as a script that knows its port would be). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

const KEY = /API key \(shown once, store it now\): (svc_live_[A-Za-z0-9]{32})/;

test("at the first 200 of /healthz, the first start's key and console link are already written and the key works", async () => {
  const data = join(tempDir(), "data");
  const log = join(tempDir(), "stderr.log");
  const port = await freePort();
  const fd = openSync(log, "w");
  const proc = Bun.spawn([process.execPath, MAIN, "serve", "--port", String(port), "--data", data], {
    env: { ...process.env, DOSSIER_LOG: "json" },
    stdout: "ignore",
    stderr: fd,
  });
  closeSync(fd);
  onCleanup(async () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill(9);
    await proc.exited;
  });

  const url = `http://127.0.0.1:${port}`;
  let status = 0;
  for (let tries = 0; tries < 20_000 && status !== 200 && proc.exitCode === null; tries++) {
    try {
      status = (await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5_000) })).status;
    } catch {
      // Not listening yet: at once again, so as to catch the first moment it is.
      if (tries % 50 === 49) await Bun.sleep(1);
    }
  }
  // Read before anything else is awaited: what the server had written when it first answered.
  const written = readFileSync(log, "utf8");
  expect(status, written).toBe(200);
  const key = KEY.exec(written)?.[1];
  expect(key, written).toBeDefined();
  expect(written).toContain(`Console: ${url}/console/setup#token=`);
  const flows = await fetch(`${url}/api/v1/flows`, { headers: { authorization: `Bearer ${key}` } });
  expect(flows.status).toBe(200);

  proc.kill("SIGTERM");
  expect(await proc.exited).toBe(0);
});
