// A real S3-compatible server for tests (C19: "no mock of S3"): s3rver 3.7.1 (a devDependency), run
// under Node, one per test file, on 127.0.0.1 and a free port, keeping its objects in a temp folder.
// Under Node, not Bun: under Bun s3rver lists keys unsorted, which S3 never does; Node 17+ needs
// --openssl-legacy-provider for its old hashing code (round3-notes "S3 for tests"). After the test
// file (test/preload.ts) the server is stopped, its process waited for (killed after a bounded
// wait) and the folder removed.
import { S3Client } from "bun";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onCleanup } from "./cleanup";

/** s3rver's own credentials: it checks signatures against these. */
export const S3_KEY = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
export const S3_REGION = "us-east-1";

export interface S3Server {
  endpoint: string;
  bucket: string;
  /** The folder s3rver keeps the objects in. */
  dir: string;
  /** The environment that points Dossier's CVs at `s3://<bucket>/<prefix>` on this server. */
  env(prefix?: string): Record<string, string>;
  /** A client of the bucket, for looking at what is stored. */
  client(): S3Client;
  /** Stops the server (the file store is then down); after the test file it is stopped anyway. */
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 20_000;
const STOP_TIMEOUT_MS = 5_000;

// Prints {"port"} once listening; stops on SIGTERM. Buckets given as argv[1] (comma separated).
const MAIN = `
const S3rver = require(process.argv[1]);
const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory: process.argv[2],
  configureBuckets: process.argv[3].split(",").map((name) => ({ name })) });
server.run().then(({ port }) => process.stdout.write(JSON.stringify({ port }) + "\\n"), (error) => { console.error(error); process.exit(1); });
process.on("SIGTERM", () => server.close().then(() => process.exit(0), () => process.exit(1)));
`;

/** Starts an s3rver with the buckets `buckets` (the first is the server's `bucket`). */
export async function startS3(buckets: string[] = ["dossier"]): Promise<S3Server> {
  const dir = mkdtempSync(join(tmpdir(), "dossier-s3-"));
  const proc = Bun.spawn(["node", "--openssl-legacy-provider", "-e", MAIN, require.resolve("s3rver"), dir, buckets.join(",")], {
    stdout: "pipe",
    stderr: "pipe",
  });
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill("SIGTERM");
      const timer = setTimeout(() => proc.kill(9), STOP_TIMEOUT_MS);
      await proc.exited;
      clearTimeout(timer);
    }
  };
  onCleanup(async () => {
    await stop();
    rmSync(dir, { recursive: true, force: true });
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const port = await Promise.race([
    (async () => {
      const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
      let text = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`s3rver exited before listening: ${await new Response(proc.stderr as ReadableStream).text()}`);
        text += new TextDecoder().decode(value);
        const line = /^(\{.*\})\n/.exec(text);
        if (line) {
          reader.releaseLock();
          return (JSON.parse(line[1]) as { port: number }).port;
        }
      }
    })(),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("s3rver did not start in time")), READY_TIMEOUT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
  const endpoint = `http://127.0.0.1:${port}`;
  const bucket = buckets[0];
  return {
    endpoint,
    bucket,
    dir,
    env: (prefix = "cvs") => ({
      DOSSIER_FILES_URL: `s3://${bucket}/${prefix}`,
      DOSSIER_S3_ENDPOINT: endpoint,
      DOSSIER_S3_REGION: S3_REGION,
      AWS_ACCESS_KEY_ID: S3_KEY.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3_KEY.secretAccessKey,
    }),
    client: () => new S3Client({ ...S3_KEY, bucket, endpoint, region: S3_REGION }),
    stop,
  };
}

/** One page of the listing. s3rver lists by reading its folder and then each file: an object deleted
 * in between (the server under test sweeping) makes it answer InternalError, which S3 itself does
 * not do here; such a listing is asked again (at most 5 times). */
async function listed_(client: S3Client, prefix: string, token: string | undefined) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await client.list({ prefix, ...(token ? { continuationToken: token } : {}) });
    } catch (error) {
      if (attempt >= 5 || (error as { code?: string }).code !== "InternalError") throw error;
    }
  }
}

/** Every key in the bucket under `prefix`, sorted (at most 10,000 of them). */
export async function keysUnder(client: S3Client, prefix = ""): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  for (let page = 0; page < 10; page++) {
    const listed = await listed_(client, prefix, token);
    keys.push(...(listed.contents ?? []).map((object) => object.key));
    if (!listed.isTruncated) break;
    token = listed.nextContinuationToken;
  }
  return keys.sort();
}
