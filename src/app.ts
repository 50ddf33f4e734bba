// createApp(options): the whole service as one Elysia app, usable in-process with
// app.handle(new Request(...)) or served by Bun (C1).
import { Elysia } from "elysia";
import { openContext, type Context, type ContextOptions } from "./context";
import { auth } from "./http/auth";
import { docs } from "./http/docs";
import { errors } from "./http/errors";
import { health } from "./http/health";
import { requestId } from "./http/request-id";
import { requestLog } from "./http/request-log";
import { contactRoutes } from "./http/routes/contacts";
import { dossierRoutes } from "./http/routes/dossiers";
import { flowRoutes } from "./http/routes/flows";
import { linkRoutes } from "./http/routes/links";
import { noteRoutes } from "./http/routes/notes";
import { startDispatcher } from "./webhooks/dispatcher";
import { VERSION } from "./version";

export interface AppOptions extends ContextOptions {
  /** Start the webhook dispatcher (default true). */
  webhooks?: boolean;
}

function buildApp(ctx: Context) {
  const guard = auth(ctx);
  const api = new Elysia({ prefix: "/api/v1" })
    .use(dossierRoutes(ctx, guard))
    .use(noteRoutes(ctx, guard))
    .use(linkRoutes(ctx, guard))
    .use(contactRoutes(ctx, guard))
    .use(flowRoutes(ctx, guard));
  return new Elysia({ strictPath: true })
    .use(requestId)
    .use(requestLog(ctx))
    .use(errors(ctx))
    .use(health(ctx))
    .use(docs(VERSION))
    .use(api);
}

export type DossierApp = ReturnType<typeof buildApp> & {
  dossier: Context;
  /** Stops background work and closes the database. */
  close(): Promise<void>;
};

export function createApp(options: AppOptions = {}): DossierApp {
  const ctx = openContext(options);
  const app = buildApp(ctx);
  const dispatcher = options.webhooks === false ? null : startDispatcher(ctx);
  return Object.assign(app, {
    dossier: ctx,
    close: async () => {
      await dispatcher?.stop();
      ctx.store.close();
    },
  });
}
