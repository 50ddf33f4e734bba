// The store under test (C19): a test that needs an engine asks for one here and runs on each, so
// that a difference between SQLite and PostgreSQL fails a test. SQLite: a file in a temp folder;
// PostgreSQL: a database of its own on the test server (test/helpers/postgres.ts), copied from a
// template migrated once. Both are closed after the test file.
import { SQL } from "bun";
import type { Database } from "bun:sqlite";
import { join } from "node:path";
import { openApp, type AppOptions, type DossierApp } from "../../src/app";
import type { Awaitable } from "../../src/awaitable";
import { openStore, type SqliteStore } from "../../src/db/client";
import { openPgStore } from "../../src/db/pg/client";
import { migratePg } from "../../src/db/pg/migrate";
import type { EngineQueries } from "../../src/db/pg/queries";
import type { Store } from "../../src/db/store";
import { onCleanup } from "./cleanup";
import { tempDir } from "./index";
import { freshDatabase, templateDatabase } from "./postgres";

export const ENGINES = ["sqlite", "postgres"] as const;
export type Engine = (typeof ENGINES)[number];

/** What both engines' stores give (the resources the PostgreSQL store has so far). */
export interface EngineStore {
  contacts: EngineQueries<"contacts">;
  cvFiles: EngineQueries<"cvFiles">;
  deliveries: EngineQueries<"deliveries">;
  dossiers: EngineQueries<"dossiers">;
  events: EngineQueries<"events">;
  flows: EngineQueries<"flows">;
  health: EngineQueries<"health">;
  history: EngineQueries<"history">;
  idempotency: EngineQueries<"idempotency">;
  imports: EngineQueries<"imports">;
  intake: EngineQueries<"intake">;
  keys: EngineQueries<"keys">;
  links: EngineQueries<"links">;
  mail: EngineQueries<"mail">;
  members: EngineQueries<"members">;
  notes: EngineQueries<"notes">;
  orgs: EngineQueries<"orgs">;
  outbox: EngineQueries<"outbox">;
  principals: EngineQueries<"principals">;
  sealedSecrets: EngineQueries<"sealedSecrets">;
  sessions: EngineQueries<"sessions">;
  stats: EngineQueries<"stats">;
  tasks: EngineQueries<"tasks">;
  webhooks: EngineQueries<"webhooks">;
  read<T>(read: () => Awaitable<T>): Awaitable<T>;
  write<T>(unit: () => Awaitable<T>): Promise<T>;
  close(): Promise<void>;
}

/** A new, empty, migrated store on `engine`. */
export async function storeUnderTest(engine: Engine): Promise<EngineStore> {
  if (engine === "sqlite") {
    const store = openStore(join(tempDir(), "dossier.db"));
    onCleanup(() => store.close());
    sqliteOf.set(store, store.sqlite);
    return store;
  }
  const url = await migratedDatabase();
  const store = await openPgStore(url);
  onCleanup(() => store.close());
  const raw = new SQL(url, { max: 1 });
  onCleanup(() => raw.close());
  pgOf.set(store, raw);
  return store;
}

type Cell = string | number | boolean | null;
const sqliteOf = new WeakMap<EngineStore, Database>();
const pgOf = new WeakMap<EngineStore, SQL>();

/** Inserts rows of `table` (a name this file's callers write, never input) on the store's engine,
 * committed at once: for the parents of the rows a test is about whose resource has no query module
 * on PostgreSQL yet (dossiers, flows, events...). Each row names its columns; booleans are 1/0 on
 * SQLite. */
export async function insertRows(store: EngineStore, table: string, rows: Record<string, Cell>[]): Promise<void> {
  for (const row of rows) {
    const columns = Object.keys(row);
    const values = Object.values(row);
    const sqlite = sqliteOf.get(store);
    if (sqlite) {
      sqlite
        .query(`INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`)
        .run(...values.map((v) => (typeof v === "boolean" ? (v ? 1 : 0) : v)));
    } else {
      await pgOf.get(store)!.unsafe(`INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(", ")})`, values);
    }
  }
}

/** The `column` of `table`'s row `id` (names this file's callers write, never input), read on the
 * store's engine outside any unit: for what a query module changes in a resource that has no query
 * module on PostgreSQL yet (a dossier's contact_id...). Undefined when there is no such row. */
export async function columnOf(store: EngineStore, table: string, column: string, id: string): Promise<Cell | undefined> {
  const sqlite = sqliteOf.get(store);
  if (sqlite) {
    const row = sqlite.query<Record<string, Cell>, [string]>(`SELECT ${column} AS value FROM ${table} WHERE id = ?`).get(id);
    return row === null ? undefined : row.value;
  }
  const [row] = await pgOf.get(store)!.unsafe(`SELECT ${column} AS value FROM ${table} WHERE id = $1`, [id]);
  return row === undefined ? undefined : row.value;
}

/** A fresh database of the test server with the schema migrated (copied from a template): its URL. */
export async function migratedDatabase(): Promise<string> {
  const template = await templateDatabase("dossier_migrated", async (url) => {
    const sql = new SQL(url);
    try {
      await migratePg(sql);
    } finally {
      await sql.close();
    }
  });
  return freshDatabase(undefined, { template });
}

/** A real app on `engine`: SQLite in a temp data folder, or a fresh migrated PostgreSQL database
 * (its CV files and master key in a temp data folder). Closed after the test file. */
export async function appOn(engine: Engine, options: AppOptions = {}): Promise<DossierApp<Store>> {
  // A few connections each: a test file's apps stay open until its end, on one test server.
  const database = engine === "postgres" ? { DOSSIER_DATABASE_URL: await migratedDatabase(), DOSSIER_DATABASE_POOL: "3" } : {};
  const app = await openApp({
    dataDir: tempDir(),
    webhooks: false,
    ...options,
    env: { ...database, ...options.env },
    config: { log: "off", ...options.config },
  });
  onCleanup(() => app.close());
  return app;
}

/** The test file's app on `engine` (appOn, default options), made at its first use and shared by
 * the file's tests that make their own organizations: one PostgreSQL database per test file. Keyed
 * by the file too, as a plain `bun test` runs every file in one module registry. */
export function sharedApp(engine: Engine): Promise<DossierApp<Store>> {
  const key = `${Bun.main}\n${engine}`;
  let app = sharedApps.get(key);
  if (!app) {
    sharedApps.set(key, (app = appOn(engine)));
    onCleanup(() => void sharedApps.delete(key));
  }
  return app;
}

const sharedApps = new Map<string, Promise<DossierApp<Store>>>();

type MemberRow = import("../../src/db/schema").MemberRow;

/** A member row of `organizationId` for the members' and sessions' tests, made 2026-01-01: a plain
 * member without a password, sign-in or settings, its email `<id>@Example.com` (folded
 * `<id>@example.com`); `changes` overrides any column. */
export const memberRow = (id: string, organizationId: string, changes: Partial<MemberRow> = {}): MemberRow => ({
  id,
  organizationId,
  email: `${id}@Example.com`,
  emailFolded: `${id}@example.com`,
  name: `Member ${id}`,
  role: "member",
  passwordHash: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  lastSignInAt: null,
  disabledAt: null,
  timeZone: null,
  // What both engines answer: SQLite's module reads the flag as `digest = 1` (1 or 0), and
  // PostgreSQL's as `digest::integer`, the same.
  digest: 1 as unknown as boolean,
  lastDigestDate: null,
  calendarTokenHash: null,
  ...changes,
});

/** A new store on `engine` (storeUnderTest) with two organizations, made 2026-01-01: o1 ("One",
 * growth, 120 requests a minute) and o2 ("Two", free, 60). */
export async function twoOrgs(engine: Engine): Promise<EngineStore> {
  const s = await storeUnderTest(engine);
  await s.write(async () => {
    await s.orgs.insert({ id: "o1", name: "One", plan: "growth", rate_limit: 120, created_at: "2026-01-01T00:00:00.000Z" });
    await s.orgs.insert({ id: "o2", name: "Two", plan: "free", rate_limit: 60, created_at: "2026-01-01T00:00:00.000Z" });
  });
  return s;
}

type Row = Record<string, unknown>;
/** The shared counters (src/db/pg/counters.ts) and the job runner's leases (src/jobs/lease.ts):
 * bookkeeping of the server's own, not data a request changes. */
const COUNTERS = new Set(["rate_counters", "rate_hits", "sign_in_failures", "leases"]);
/** One connection per PostgreSQL test database, for what the tests read outside the app. */
const pgReaders = new Map<string, SQL>();

/** Rows of a raw read on the app's own database, whatever its engine: `text` with `?` placeholders
 * (written by the test, never input), SQL both engines read alike. For what a test checks beneath
 * the API (a row the answer does not show, what a refused request left); the rest goes through the
 * API or the services. */
export async function queryRows<T extends Row = Row>(app: DossierApp<Store>, text: string, ...values: unknown[]): Promise<T[]> {
  const { store, config } = app.dossier;
  if (store.engine === "sqlite") return (store as SqliteStore).sqlite.query<T, any[]>(text).all(...(values as any[]));
  const url = config.databaseUrl!;
  let sql = pgReaders.get(url);
  if (!sql) {
    const opened = new SQL(url, { max: 1 });
    pgReaders.set(url, (sql = opened));
    onCleanup(async () => {
      pgReaders.delete(url);
      await opened.close();
    });
  }
  let n = 0;
  return (await sql.unsafe(text.replace(/\?/g, () => `$${++n}`), values)) as T[];
}

/** Counts rows of each table of the app's database, whatever its engine: compare before and after a
 * rejected request. The caches' generations (SQLite's bookkeeping), the search index and the shared
 * counters (rate limits and throttles: a refused request is counted too, C10) are not data. One
 * query (made once per app: its tables do not change while it runs). */
export async function rowCountsOf(app: DossierApp<Store>): Promise<Record<string, number>> {
  let query = countQueries.get(app);
  if (!query) {
    const tables =
      app.dossier.store.engine === "sqlite"
        ? await queryRows<{ name: string }>(app, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%fts%' AND name <> 'generations' ORDER BY name`)
        : await queryRows<{ name: string }>(app, `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`);
    query = `SELECT ${tables.filter(({ name }) => !COUNTERS.has(name)).map(({ name }) => `(SELECT count(*) FROM "${name}") AS "${name}"`).join(", ")}`;
    countQueries.set(app, query);
  }
  const [counts] = await queryRows(app, query);
  return Object.fromEntries(Object.entries(counts).map(([name, n]) => [name, Number(n)]));
}

const countQueries = new WeakMap<DossierApp<Store>, string>();

/** The apps a race's requests alternate over: two nodes (apps) on one PostgreSQL database, or
 * SQLite's one app (its data folder is one process's). */
export async function nodesOn(engine: Engine): Promise<DossierApp<Store>[]> {
  if (engine === "sqlite") return [await appOn(engine)];
  const url = await migratedDatabase();
  const dataDir = tempDir();
  const apps: DossierApp<Store>[] = [];
  for (let i = 0; i < 2; i++) {
    const app = await openApp({ dataDir, env: { DOSSIER_DATABASE_URL: url, DOSSIER_DATABASE_POOL: "6" }, config: { log: "off" } });
    onCleanup(() => app.close());
    apps.push(app);
  }
  return apps;
}
