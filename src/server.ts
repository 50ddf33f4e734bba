// Serving the app on a port, with the limits of C8 and the graceful stop of C2.
import { openApp, type AppOptions, type DossierApp } from "./app";
import type { Store } from "./db/store";
import { contextConfig, type Context } from "./context";
import { lockDataFolder } from "./data-lock";
import { tightenDataFolder, type Tightened } from "./data-modes";
import { compressed } from "./http/compress";
import { inOneWrite } from "./http/one-write";
import { carriesBody } from "./http/request";
import { MasterKeyMismatchError, unseal } from "./secrets";
import { giveFlowsAddresses } from "./services/intake";
import { startEventSweep } from "./services/events";

// Bun would refuse a body over its cap itself, with a bare 413 (no error envelope, no X-Request-Id:
// C3, C8). Our routes enforce C8's limits instead: readBytes refuses a declared Content-Length over
// the limit before reading, and stops a streamed body at the limit; a body no route reads is never
// buffered (Bun applies backpressure). So Bun's own cap is lifted.
const MAX_BODY = Number.MAX_SAFE_INTEGER;
/** `answer`, after `then` has run once it settled (one reaction: a read's whole path is a few µs). */
const afterwards = <T>(answer: Promise<T>, then: () => void): Promise<T> =>
  answer.then(
    (value) => {
      then();
      return value;
    },
    (error: unknown) => {
      then();
      throw error;
    },
  );

// How long Bun keeps a silent connection (whole seconds, at most 255): the body timeout (C20).
const idleSeconds = (bodyTimeoutMs: number) => Math.min(255, Math.max(1, Math.ceil(bodyTimeoutMs / 1000)));

export interface RunningServer {
  app: DossierApp<Store>;
  url: string;
  port: number;
  /** Stops accepting, lets requests in flight finish, stops the dispatcher, closes the database,
   * releases the data folder's lock. */
  stop(): Promise<void>;
  /** Started with `held`: from now on requests are answered (those that came meanwhile too). */
  open(): void;
}

export interface ServeOptions {
  host?: string;
  port?: number;
  /** Listen, but answer no request until `open()`: `serve` holds them while the first start makes
   * its organization and key and prints them (issue 32), so that a client that waits for /healthz
   * and then reads the key finds it. Listening comes first all the same: a port in use fails
   * before anything is created (a key made and never printed would be lost), and the port chosen
   * for port 0 is in the owner's setup link. */
  held?: boolean;
}

/** Listening failed: the port is taken (or not ours to take), or the host is no address of this
 * machine. Bun reports a host it cannot bind as EADDRINUSE too, so the message names both. */
export class ListenError extends Error {
  constructor(host: string, port: number, cause: unknown) {
    const code = (cause as NodeJS.ErrnoException).code;
    const why =
      code === "EADDRINUSE" ? "the port is in use, or the host is not an address of this machine"
      : code === "EADDRNOTAVAIL" ? "the host is not an address of this machine"
      : code === "EACCES" ? "permission denied (ports below 1024 need privileges)"
      : (cause as Error).message;
    super(`cannot listen on ${host}:${port}: ${why}`, { cause });
  }
}

/** C19, C20: the master key must open what the database holds sealed. A key other than the one
 * that sealed the webhook secrets (another node's) would fail every delivery this node makes: the
 * server refuses to start. An intake token it cannot open only gets its flow a new address when
 * next read, yet nodes with different keys would keep giving each other's flows new ones: a warning. */
async function checkMasterKey(ctx: Context) {
  const sample = await ctx.store.sealedSecrets.sample();
  const opens = (sealed: string | null) => {
    if (sealed === null) return true;
    try {
      unseal(ctx.masterKey, sealed);
      return true;
    } catch {
      return false;
    }
  };
  if (!opens(sample.webhook)) throw new MasterKeyMismatchError(ctx.config.masterKeyFile);
  if (!opens(sample.intake)) {
    ctx.logger.log("warn", "the master key does not open the intake addresses' tokens: their flows get new ones when next read; every node needs the same key", {
      key_file: ctx.config.masterKeyFile,
    });
  }
}

export async function startServer(options: AppOptions & ServeOptions): Promise<RunningServer> {
  // C20: one server per data folder, locked before anything in it is touched (migrations, the
  // master key, the sweep): a second server stops here, having changed nothing.
  const dataDir = contextConfig(options).dataDir;
  const lock = options.memory === true ? null : lockDataFolder(dataDir);
  let app: DossierApp<Store>;
  let tightened: Tightened | null = null;
  try {
    // Private before anything in it is opened: SQLite keeps a database's mode, and gives it to
    // the -wal and -shm it creates (issue 32; docs/security.md).
    if (lock) tightened = tightenDataFolder(dataDir);
    app = await openApp(options);
  } catch (error) {
    lock?.release();
    throw error;
  }
  if (tightened) logTightened(app, dataDir, tightened);
  // Whatever fails from here leaves nothing running behind it: dispatcher, database, lock.
  const abandon = () => void app.close().finally(() => lock?.release());
  try {
    // C5: temporary files and CVs that no dossier points at are removed before the first request.
    // Only under the lock: another server's upload in progress looks exactly like such a file.
    if (options.webhooks !== false) await checkMasterKey(app.dossier);
    // On S3 (C19) the job runner sweeps, at start and hourly, while requests are served.
    const { files } = app.dossier;
    const swept = files.sweepsWhileServing ? null : await files.sweep(app.dossier.now());
    if (swept && swept.temporary + swept.orphans + swept.restored > 0) app.dossier.logger.log("info", "swept stray CV files", { ...swept });
  } catch (error) {
    abandon();
    throw error;
  }
  // C15: flows made before intake addresses existed get theirs now (a request meanwhile makes its
  // own, which this then skips).
  giveFlowsAddresses(app.dossier).then(
    (made) => made > 0 && app.dossier.logger.log("info", "gave flows their intake addresses", { flows: made }),
    (error) => app.dossier.logger.log("error", "could not give flows their intake addresses", { error: (error as Error).message }),
  );
  const hostname = options.host ?? "127.0.0.1";
  const port = options.port ?? 8080;
  const idle = idleSeconds(app.dossier.config.bodyTimeoutMs);
  let open = () => {};
  let held: Promise<void> | null = options.held === true ? new Promise<void>((resolve) => (open = resolve)) : null;
  const answersInTurn = app.dossier.store.engine === "sqlite";
  const respond = (request: Request, srv: Bun.Server<undefined>): Promise<Response> => {
    // The client's address is asked of the socket only by a request that needs it (a sign-in).
    const address = () => srv.requestIP(request)?.address;
    // Bun's idle timer is off while a request is handled. It closed connections under answers still
    // being made ('socket hang up', no answer, where C19 and C20 ask for the answer or a 503): a read
    // that a busy PostgreSQL held, a CV download that a busy disk held on SQLite. Nor does it restart
    // while a body comes in, so it would cut a slow but steady upload (C20 accepts 10 KB/s):
    // readBytes' deadline bounds that instead. The idle timer is back before the answer, for the
    // rest of a body no route read (createApp closes at once after a 401 or 408) and the next request.
    srv.timeout(request, 0);
    const idleAgain = () => srv.timeout(request, idle);
    // A request without a body (most reads) answers with no await of its own: on SQLite, within the
    // turn of the event loop that took it, unless it reads a file.
    const bodyless = !carriesBody(request);
    if (bodyless && answersInTurn) return afterwards(compressed(request, app.handle(request, address, true)), idleAgain);
    return afterwards(
      compressed(request, app.handle(request, address, bodyless)).then((response) => inOneWrite(request, response)),
      idleAgain,
    );
  };
  let server: Bun.Server<undefined>;
  try {
    server = Bun.serve({
      hostname,
      port,
      maxRequestBodySize: MAX_BODY,
      idleTimeout: idle,
      fetch(request, srv) {
        return held === null ? respond(request, srv) : held.then(() => respond(request, srv));
      },
    });
  } catch (error) {
    abandon();
    throw new ListenError(hostname, port, error);
  }
  // C17: events older than the retention go, a batch at a time, off the request path.
  const stopSweep = startEventSweep(app.dossier);
  // An IPv6 host goes in brackets, as in any URL.
  app.site.serving(`http://${server.hostname?.includes(":") ? `[${server.hostname}]` : server.hostname}:${server.port}`);
  let stopping: Promise<void> | null = null;
  const answer = () => {
    held = null;
    open();
  };
  return {
    app,
    url: `http://${server.hostname}:${server.port}`,
    port: server.port!,
    open: answer,
    stop: () =>
      (stopping ??= (async () => {
        // Requests held until now are let through, to finish as any other in flight.
        answer();
        await server.stop(false);
        await stopSweep();
        await app.close();
        lock?.release();
      })()),
  };
}

/** What serve made private at start, or could not: at most 50 paths each, and their count. */
function logTightened(app: DossierApp<Store>, dataDir: string, { changed, failed }: Tightened) {
  const { logger } = app.dossier;
  if (changed.length > 0) logger.log("warn", "tightened the modes of files others could read", { data: dataDir, count: changed.length, paths: changed.slice(0, 50) });
  if (failed.length > 0) logger.log("warn", "could not tighten the modes of files others can read", { data: dataDir, count: failed.length, failures: failed.slice(0, 50) });
}
