// createApp(options): the whole service as one Elysia app, usable in-process with
// app.handle(new Request(...)) or served by Bun (C1).
import { rmSync } from "node:fs";
import { Elysia } from "elysia";
import { openConfiguredContext, openContext, type Context, type ContextOptions } from "./context";
import type { SqliteStore } from "./db/client";
import type { Store } from "./db/store";
import { guard } from "./http/auth";
import { BodyMemory } from "./http/body-memory";
import { consoleRoutes } from "./http/console";
import { docs } from "./http/docs";
import { errors } from "./http/errors";
import { health } from "./http/health";
import { requestId } from "./http/request-id";
import { requestLog } from "./http/request-log";
import { carriesBody, dropArrivedBody, hasUnreadBody, noteArrival } from "./http/request";
import { mount } from "./http/route";
import { routable } from "./http/url";
import { contactRoutes } from "./http/routes/contacts";
import { deliveryRoutes } from "./http/routes/deliveries";
import { dossierRoutes } from "./http/routes/dossiers";
import { eventRoutes } from "./http/routes/events";
import { exportRoutes } from "./http/routes/exports";
import { importRoutes } from "./http/routes/imports";
import { flowRoutes } from "./http/routes/flows";
import { flowIntakeRoutes, intakeReceiver } from "./http/routes/intake";
import { keyRoutes } from "./http/routes/keys";
import { linkRoutes } from "./http/routes/links";
import { memberRoutes } from "./http/routes/members";
import { noteRoutes } from "./http/routes/notes";
import { taskRoutes } from "./http/routes/tasks";
import { mailLogRoutes } from "./http/routes/mail-log";
import { mySettingsRoutes } from "./http/routes/my-settings";
import { memberLinks } from "./http/member-links";
import { webhookEndpointRoutes } from "./http/routes/webhook-endpoint";
import { sessionRoutes, signInRoutes } from "./http/routes/session";
import { RateLimiter } from "./http/rate-limiter";
import { Site } from "./http/site";
import { IntakeDesk } from "./intake/desk";
import { startDispatcher } from "./webhooks/dispatcher";
import { startJobs, type JobRunner } from "./jobs";
import { ImportRunner } from "./services/import-runner";
import { VERSION } from "./version";

/** A request's client address, or how to ask for it (a server asks its socket only when needed). */
export type ClientAddress = string | (() => string | undefined);
const addressOf = (address: ClientAddress | undefined) => (typeof address === "function" ? address() : address);

export interface AppOptions extends ContextOptions {
  /** Start the webhook dispatcher (default true). */
  webhooks?: boolean;
  /** Start the job runner: overdue stages' tasks, reminders, digests, outgoing mail (C22). Default:
   * as `webhooks`, so that an app made for tests runs no background work unless asked. */
  jobs?: boolean;
  /** Run CSV imports in the background (default true): those left unfinished at once, new ones
   * as they are queued (C21). */
  imports?: boolean;
}

function buildApp(ctx: Context, intake: IntakeDesk, site: Site, bodies: BodyMemory) {
  const routes = mount(ctx, guard(ctx, new RateLimiter(), site), [
    ...exportRoutes, ...dossierRoutes, ...noteRoutes, ...linkRoutes, ...contactRoutes, ...flowRoutes, ...flowIntakeRoutes, ...eventRoutes,
    ...keyRoutes, ...webhookEndpointRoutes, ...deliveryRoutes, ...importRoutes,
    ...memberRoutes(site), ...sessionRoutes(site), ...taskRoutes, ...mailLogRoutes, ...mySettingsRoutes(site),
  ]);
  const api = new Elysia({ prefix: "/api/v1" }).use(routes).use(intakeReceiver(ctx, intake)).use(signInRoutes(ctx, site));
  return new Elysia({ strictPath: true })
    .use(requestId)
    .use(requestLog(ctx))
    .use(errors(ctx))
    .use(bodies.refusals())
    .use(health(ctx))
    .use(docs(VERSION))
    .use(consoleRoutes())
    .use(memberLinks(ctx, site))
    .use(api);
}

export type DossierApp<S extends Store = SqliteStore> = Omit<ReturnType<typeof buildApp>, "handle"> & {
  /** Answers a request; `clientAddress` is its socket's, when a server passes it (the sign-in
   * throttle's); `bodyless`: the server has found already that it carries no body. */
  handle(request: Request, clientAddress?: ClientAddress, bodyless?: boolean): Promise<Response>;
  dossier: Context<S>;
  /** Where the app is reached: the server tells it its address. */
  site: Site;
  /** Email intake's way in (C15), shared by POST /intake/{token} and the SMTP listener. */
  intake: IntakeDesk;
  /** The job runner (C22), or null when the app runs none. */
  jobs: JobRunner | null;
  /** Stops background work and closes the database; with `memory`, also removes the temporary
   * folder its CV files were kept in (docs/embedding.md: no cleanup beyond close()). */
  close(): Promise<void>;
};

/** The app on the data folder's SQLite file (or an in-memory one), opened at once. */
export function createApp(options: AppOptions = {}): DossierApp<SqliteStore> {
  return appOn(openContext({ groupCommit: true, ...options }), options);
}

/** The app on the database its settings name: PostgreSQL with DOSSIER_DATABASE_URL (C19), else
 * as createApp. */
export async function openApp(options: AppOptions = {}): Promise<DossierApp<Store>> {
  return appOn(await openConfiguredContext({ groupCommit: true, ...options }), options);
}

function appOn<S extends Store>(ctx: Context<S>, options: AppOptions): DossierApp<S> {
  const webhooks = options.webhooks !== false;
  if (webhooks) requireMasterKey(ctx);
  const intake = new IntakeDesk(ctx);
  const site = new Site(ctx.config);
  const bodies = new BodyMemory(ctx.config.bodyMemoryBytes);
  const app = buildApp(ctx, intake, site, bodies);
  const dispatcher = webhooks ? startDispatcher(ctx) : null;
  const jobs = (options.jobs ?? webhooks) ? startJobs(ctx, { base: () => site.base }) : null;
  const importer = options.imports === false ? null : new ImportRunner(ctx);
  importer?.wake();
  const handle = app.handle;
  const withBody = async (request: Request, clientAddress: ClientAddress | undefined) => {
    // Its body counts toward the bodies held at once from now until its answer is ready.
    const routed = bodies.admit(request);
    try {
      site.arrived(routed, addressOf(clientAddress));
      noteArrival(routed, ctx.config.bodyTimeoutMs);
      const response = await handle(routed);
      // A stranger's body (401) and one given up on (408) are not waited for: the connection closes
      // (C20), unless a stranger's small body is here already: then it is dropped and the connection
      // stays open, since closing it over unread bytes would reset it and could lose the 401. Other
      // answers given before the end of a body (413, 404, 503 server_busy, ...) leave Bun to read
      // and drop the rest, so that a client still sending gets the answer rather than a reset;
      // Bun's idle timer ends that if the body stalls.
      if ((response.status === 401 || response.status === 408) && hasUnreadBody(routed) && !(response.status === 401 && (await dropArrivedBody(routed)))) {
        response.headers.set("connection", "close");
      }
      return response;
    } finally {
      bodies.release(routed);
    }
  };
  return Object.assign(app, {
    handle: (request: Request, clientAddress?: ClientAddress, bodyless = false) => {
      const routed = routable(request);
      // A request without a body (most reads) holds no body memory and needs no arrival time; only
      // a change may need its client's address (the sign-in throttle's), which a server is asked
      // for only then.
      if (!bodyless && carriesBody(routed)) return withBody(routed, clientAddress);
      if (routed.method !== "GET") site.arrived(routed, addressOf(clientAddress));
      return handle(routed);
    },
    dossier: ctx,
    site,
    intake,
    jobs: jobs?.runner ?? null,
    close: async () => {
      // Elysia runs after-response hooks (the request log line) on a setImmediate after the
      // handler: let those of the last requests run before the process may exit.
      await new Promise<void>((resolve) => setImmediate(resolve));
      await dispatcher?.stop();
      await jobs?.stop();
      await importer?.stop();
      intake.close();
      await ctx.store.close();
      // The folder was made by openContext for this app alone (src/context.ts): nothing else uses it.
      if (options.memory === true) rmSync(ctx.filesDir, { recursive: true, force: true });
    },
  });
}

/** The dispatcher unseals webhook secrets: without their key it could only fail every few seconds
 * for ever, so the app refuses to start instead (C20, MasterKeyMissingError). */
function requireMasterKey(ctx: Context) {
  try {
    void ctx.masterKey;
  } catch (error) {
    void ctx.store.close();
    throw error;
  }
}
