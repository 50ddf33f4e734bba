// C19's nodes: several real `dossier serve` processes on one PostgreSQL database, as an operator
// runs them behind a load balancer. Each node has a data folder of its own (a folder is locked by
// the server that uses it) and reads one master key, DOSSIER_MASTER_KEY_FILE, made by the first
// node: sealed secrets written by one node must open on every other. Their CVs are in one bucket of
// a real S3 server (test/helpers/s3.ts), as C19 runs them.
import { join } from "node:path";
import { tempDir } from ".";
import { bootstrapKey, startServerProcess, type ServerProcess } from "./process";
import { startS3, type S3Server } from "./s3";
import { migratedDatabase } from "./stores";

export interface ClusterOptions {
  /** How many nodes (default 3). */
  nodes?: number;
  /** The database; by default a fresh migrated one. */
  databaseUrl?: string;
  /** Environment of every node, beside DOSSIER_DATABASE_URL and DOSSIER_MASTER_KEY_FILE. */
  env?: Record<string, string>;
  /** Arguments of every node's `serve`, e.g. `["--smtp-port", "0"]`. */
  args?: string[];
  /** Where the nodes keep CVs: one S3 server the cluster starts (default), or each node's disk. */
  files?: "s3" | "disk";
}

export interface Cluster {
  databaseUrl: string;
  /** The S3 server the nodes share (DOSSIER_FILES_URL), unless the test gave its own or "disk". */
  s3?: S3Server;
  /** The master key's file, shared by every node (DOSSIER_MASTER_KEY_FILE). */
  masterKeyFile: string;
  /** The environment each node gets (the database and the key file included). */
  env: Record<string, string>;
  /** The first organization's key, printed by the first node. */
  key: string;
  nodes: ServerProcess[];
  dataDirs: string[];
  /** The next node's base URL, round-robin: no request is sticky to a node. */
  next(): string;
  /** A request to the next node, round-robin, with the key unless `headers` says otherwise. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** `kill -9` of node `i`: no shutdown, no cleanup of its own. */
  kill(i: number): Promise<void>;
  /** Starts node `i` again on its data folder (after kill or stop). */
  restart(i: number): Promise<ServerProcess>;
  /** SIGTERM to every node still running, each awaited. */
  stop(): Promise<void>;
}

export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const count = options.nodes ?? 3;
  const databaseUrl = options.databaseUrl ?? (await migratedDatabase());
  // C19's nodes keep their CVs in one bucket: a real S3 server of the test's own, unless the test
  // gives its file store (or asks for each node's disk).
  const s3 = options.files === "disk" || options.env?.DOSSIER_FILES_URL ? undefined : await startS3();
  const env: Record<string, string> = {
    DOSSIER_DATABASE_URL: databaseUrl,
    DOSSIER_MASTER_KEY_FILE: join(tempDir("dossier-key-"), "master.key"),
    ...s3?.env("cvs"),
    ...options.env,
  };
  const masterKeyFile = env.DOSSIER_MASTER_KEY_FILE;
  const args = options.args ?? [];
  const dataDirs = Array.from({ length: count }, () => tempDir("dossier-node-"));
  const first = await startServerProcess(dataDirs[0], args, env);
  const key = bootstrapKey(first);
  const rest = await Promise.all(dataDirs.slice(1).map((dir) => startServerProcess(dir, [...args, "--no-bootstrap"], env)));
  const nodes = [first, ...rest];
  let turn = 0;
  const next = () => nodes[turn++ % nodes.length].url;
  return {
    databaseUrl,
    s3,
    masterKeyFile,
    env,
    key,
    nodes,
    dataDirs,
    next,
    fetch(path, init = {}) {
      const headers = new Headers(init.headers);
      if (!headers.has("authorization")) headers.set("authorization", `Bearer ${key}`);
      return fetch(`${next()}${path}`, { ...init, headers });
    },
    async kill(i) {
      nodes[i].proc.kill(9);
      await nodes[i].exited;
    },
    async restart(i) {
      nodes[i] = await startServerProcess(dataDirs[i], [...args, "--no-bootstrap"], env);
      return nodes[i];
    },
    async stop() {
      await Promise.all(
        nodes.map(async (node) => {
          if (node.proc.exitCode === null && node.proc.signalCode === null) node.proc.kill("SIGTERM");
          await node.exited;
        }),
      );
    },
  };
}
