// Serving the app on a port, with the limits of C8 and the graceful stop of C2.
import { createApp, type AppOptions, type DossierApp } from "./app";
import { sweepFiles } from "./files/cv";

// Bun refuses larger bodies itself; ours answer with the envelope below this (C8).
const MAX_BODY = 12 * 1024 * 1024;
// A 10 MB CV on a slow link may pause longer than the default idle timeout allows; Bun's maximum
// still bounds how long a stalled upload can hold a connection.
const UPLOAD_IDLE_SECONDS = 255;
const CV_UPLOAD = /^\/api\/v1\/dossiers(?:\/[^/]+\/cv)?$/;

export interface RunningServer {
  app: DossierApp;
  url: string;
  port: number;
  /** Stops accepting, lets requests in flight finish, stops the dispatcher, closes the database. */
  stop(): Promise<void>;
}

export function startServer(options: AppOptions & { host?: string; port?: number }): RunningServer {
  const app = createApp(options);
  // C5: temporary files and CVs that no dossier points at are removed before the first request.
  const swept = sweepFiles(app.dossier);
  if (swept.temporary + swept.orphans > 0) app.dossier.logger.log("info", "swept stray CV files", { ...swept });
  const server = Bun.serve({
    hostname: options.host ?? "127.0.0.1",
    port: options.port ?? 8080,
    maxRequestBodySize: MAX_BODY,
    idleTimeout: 30,
    fetch(request, srv) {
      if (request.method === "POST" && CV_UPLOAD.test(new URL(request.url).pathname)) srv.timeout(request, UPLOAD_IDLE_SECONDS);
      return app.handle(request);
    },
  });
  let stopping: Promise<void> | null = null;
  return {
    app,
    url: `http://${server.hostname}:${server.port}`,
    port: server.port!,
    stop: () =>
      (stopping ??= (async () => {
        await server.stop(false);
        await app.close();
      })()),
  };
}
