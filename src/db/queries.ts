// The store's query modules, one per resource: the only code besides src/db's own that speaks SQL.
// Services reach them as `ctx.store.<resource>` (e.g. `ctx.store.dossiers.byId(org, id)`); each is
// built once per connection by its factory, so its statements are compiled once. SQLite-only SQL
// stays inside these modules: a PostgreSQL store (C19) is a second set of the same factories.
import type { Database } from "bun:sqlite";
import type { Orm } from "./client";
import { dossierQueries } from "./dossiers";
import { eventQueries } from "./events";
import { flowQueries } from "./flows";
import type { Generations } from "./generations";
import { keyQueries } from "./keys";
import { noteQueries } from "./notes";
import { orgQueries } from "./orgs";
import { principalQueries } from "./principals";

export interface QueryDeps {
  sqlite: Database;
  orm: Orm;
  /** The caches' one invalidation rule (src/db/generations.ts): `generations.cache(tables, ...)`. */
  generations: Generations;
}

/** Every query module of a store, by resource. Each helper adds its line here. */
export function storeQueries(deps: QueryDeps) {
  return {
    // resource: resourceQueries(deps),
    dossiers: dossierQueries(deps),
    events: eventQueries(deps),
    flows: flowQueries(deps),
    keys: keyQueries(deps),
    notes: noteQueries(deps),
    orgs: orgQueries(deps),
    principals: principalQueries(deps),
  };
}

export type StoreQueries = ReturnType<typeof storeQueries>;
