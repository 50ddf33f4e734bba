// Serving the app on a port, with the limits of C8 and the graceful stop of C2.
import { createApp, type AppOptions, type DossierApp } from "./app";
import { contextConfig } from "./context";
import { lockDataFolder } from "./data-lock";
import { pathOf } from "./http/url";
import { sweepFiles } from "./files/cv";

// Bun would refuse a body over its cap itself, with a bare 413 (no error envelope, no X-Request-Id:
// C3, C8). Our routes enforce C8's limits instead: readBytes refuses a declared Content-Length over
// the limit before reading, and stops a streamed body at the limit; a body no route reads is never
// buffered (Bun applies backpressure). So Bun's own cap is lifted.
const MAX_BODY = Number.MAX_SAFE_INTEGER;
// A 10 MB CV on a slow link may pause longer than the default idle timeout allows; Bun's maximum
// still bounds how long a stalled upload can hold a connection.
const UPLOAD_IDLE_SECONDS = 255;
const CV_UPLOAD = /^\/api\/v1\/dossiers(?:\/[^/]+\/cv)?$/;

export interface RunningServer {
  app: DossierApp;
  url: string;
  port: number;
  /** Stops accepting, lets requests in flight finish, stops the dispatcher, closes the database,
   * releases the data folder's lock. */
  stop(): Promise<void>;
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

export function startServer(options: AppOptions & { host?: string; port?: number }): RunningServer {
  // C20: one server per data folder, locked before anything in it is touched (migrations, the
  // master key, the sweep): a second server stops here, having changed nothing.
  const lock = options.memory === true ? null : lockDataFolder(contextConfig(options).dataDir);
  let app: DossierApp;
  try {
    app = createApp(options);
  } catch (error) {
    lock?.release();
    throw error;
  }
  // Whatever fails from here leaves nothing running behind it: dispatcher, database, lock.
  const abandon = () => void app.close().finally(() => lock?.release());
  try {
    // C5: temporary files and CVs that no dossier points at are removed before the first request.
    // Only under the lock: another server's upload in progress looks exactly like such a file.
    const swept = sweepFiles(app.dossier);
    if (swept.temporary + swept.orphans + swept.restored > 0) app.dossier.logger.log("info", "swept stray CV files", { ...swept });
  } catch (error) {
    abandon();
    throw error;
  }
  const hostname = options.host ?? "127.0.0.1";
  const port = options.port ?? 8080;
  let server: Bun.Server<undefined>;
  try {
    server = Bun.serve({
      hostname,
      port,
      maxRequestBodySize: MAX_BODY,
      idleTimeout: 30,
      fetch(request, srv) {
        if (request.method === "POST" && CV_UPLOAD.test(pathOf(request.url))) srv.timeout(request, UPLOAD_IDLE_SECONDS);
        return app.handle(request);
      },
    });
  } catch (error) {
    abandon();
    throw new ListenError(hostname, port, error);
  }
  let stopping: Promise<void> | null = null;
  return {
    app,
    url: `http://${server.hostname}:${server.port}`,
    port: server.port!,
    stop: () =>
      (stopping ??= (async () => {
        await server.stop(false);
        await app.close();
        lock?.release();
      })()),
  };
}
