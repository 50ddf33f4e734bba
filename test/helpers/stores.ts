// The store under test (C19): a test that needs an engine asks for one here and runs on each, so
// that a difference between SQLite and PostgreSQL fails a test. SQLite: a file in a temp folder;
// PostgreSQL: a database of its own on the test server (test/helpers/postgres.ts), copied from a
// template migrated once. Both are closed after the test file.
import { SQL } from "bun";
import { join } from "node:path";
import type { Awaitable } from "../../src/awaitable";
import { openStore } from "../../src/db/client";
import { openPgStore } from "../../src/db/pg/client";
import { migratePg } from "../../src/db/pg/migrate";
import type { EngineQueries } from "../../src/db/pg/queries";
import { onCleanup } from "./cleanup";
import { tempDir } from "./index";
import { freshDatabase, templateDatabase } from "./postgres";

export const ENGINES = ["sqlite", "postgres"] as const;
export type Engine = (typeof ENGINES)[number];

/** What both engines' stores give (the resources the PostgreSQL store has so far). */
export interface EngineStore {
  health: EngineQueries<"health">;
  keys: EngineQueries<"keys">;
  members: EngineQueries<"members">;
  orgs: EngineQueries<"orgs">;
  principals: EngineQueries<"principals">;
  sealedSecrets: EngineQueries<"sealedSecrets">;
  sessions: EngineQueries<"sessions">;
  webhooks: EngineQueries<"webhooks">;
  read<T>(read: () => Awaitable<T>): Awaitable<T>;
  write<T>(unit: () => Awaitable<T>): Promise<T>;
  close(): Promise<void>;
}

/** A new, empty, migrated store on `engine`. */
export async function storeUnderTest(engine: Engine): Promise<EngineStore> {
  const store: EngineStore = engine === "sqlite" ? openStore(join(tempDir(), "dossier.db")) : await openPgStore(await migratedDatabase());
  onCleanup(() => store.close());
  return store;
}

/** A fresh database of the test server with the schema migrated (copied from a template). */
async function migratedDatabase(): Promise<string> {
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
