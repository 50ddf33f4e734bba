// The one way tests make an app, an organization, a key and a server.
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp, type AppOptions, type DossierApp } from "../../src/app";
import type { Context } from "../../src/context";
import type { SqliteStore } from "../../src/db/client";
import type { Store } from "../../src/db/store";
import { SCOPES, writeKey, type Scope } from "../../src/services/keys";
import { writeOrg, type Plan } from "../../src/services/orgs";
import { onCleanup } from "./cleanup";

export { onCleanup } from "./cleanup";

/** A temporary folder removed after the test file. */
export function tempDir(prefix = "dossier-test-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Every file below `dir`, as paths relative to it, sorted: compare before and after a request. */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.push(path.slice(dir.length + 1));
    }
  };
  walk(dir);
  return out.sort();
}

/** A real app on a real SQLite file in a temporary data folder. */
export function makeApp(options: AppOptions = {}): DossierApp {
  const app = createApp({
    dataDir: options.memory ? undefined : tempDir(),
    webhooks: false,
    ...options,
    env: { ...options.env },
    config: { log: "off", ...options.config },
  });
  onCleanup(() => app.close());
  return app;
}

export interface Org {
  id: string;
  key: string;
  keyId: string;
}

/** An organization (default flows included) with a key of the given scopes (default: all). */
export function makeOrg(app: DossierApp<Store>, options: { plan?: Plan; scopes?: Scope[]; rateLimit?: number; name?: string } = {}): Promise<Org> {
  return setUp(app.dossier, async () => {
    const org = await writeOrg(app.dossier, { name: options.name ?? "Test org", plan: options.plan ?? "growth", rateLimit: options.rateLimit });
    const key = await writeKey(app.dossier, { organizationId: org.id, scopes: options.scopes ?? [...SCOPES] });
    return { id: org.id, key: key.key, keyId: key.id };
  });
}

/** Another key for the same organization. */
export function makeKey(app: DossierApp<Store>, org: Org, scopes: Scope[], expiresAt?: string): Promise<string> {
  return setUp(app.dossier, async () => (await writeKey(app.dossier, { organizationId: org.id, scopes, expiresAt })).key);
}

/** A test's setting up: one unit of work, as any change (whatever the engine under test). What
 * the test checks goes through the services. */
export function setUp<T>(ctx: Context, unit: () => T | Promise<T>): Promise<T> {
  return ctx.store.write(unit);
}

type RawBody = string | Uint8Array | ArrayBuffer | Blob | FormData;

export interface CallOptions {
  key?: string | null;
  body?: unknown;
  /** A raw body, sent as is (with `contentType`). */
  raw?: RawBody;
  contentType?: string;
  headers?: Record<string, string>;
}

export interface Answer {
  status: number;
  headers: Headers;
  json: any;
  text: string;
}

/** One request through app.handle: `path` is under /api/v1 unless it starts with "/" already
 * outside it (e.g. "/healthz"). */
export async function call(app: DossierApp<Store>, method: string, path: string, options: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: RawBody | undefined = options.raw;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  if (options.contentType) headers["content-type"] = options.contentType;
  const url = path.startsWith("/api/") || path.startsWith("/healthz") || path.startsWith("/docs") || path.startsWith("/openapi")
    ? path
    : `/api/v1${path}`;
  const response = await app.handle(new Request(`http://localhost${url}`, { method, headers, body }));
  const text = await response.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, json, text };
}

/** Counts rows of each table: compare before and after a rejected request. The caches' generations
 * (src/db/generations.ts) are bookkeeping that follows the rows counted here, not data. */
export function rowCounts(app: DossierApp): Record<string, number> {
  const { sqlite } = app.dossier.store;
  const tables = sqlite
    .query<{ name: string }, []>(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%fts%' AND name <> 'generations' ORDER BY name`)
    .all();
  return Object.fromEntries(tables.map(({ name }) => [name, sqlite.query<{ n: number }, []>(`SELECT count(*) AS n FROM "${name}"`).get()!.n]));
}

/** Polls `read` until it gives a value other than undefined or false (bounded by `timeoutMs`). */
export async function until<T>(read: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs: number, what: string): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined && value !== false) return value;
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await Bun.sleep(10);
  }
}

/** A server's app, known to run on SQLite (what startServer opens without DOSSIER_DATABASE_URL),
 * for a test that reaches into its database file. */
export function onSqlite(app: DossierApp<Store>): DossierApp<SqliteStore> {
  if (app.dossier.store.engine !== "sqlite") throw new Error("this test reaches into SQLite: the app runs on " + app.dossier.store.engine);
  return app as DossierApp<SqliteStore>;
}
