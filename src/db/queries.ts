// The store's query modules, one per resource: the only code besides src/db's own that speaks SQL.
// Services reach them as `ctx.store.<resource>` (e.g. `ctx.store.dossiers.byId(org, id)`); each is
// built once per connection by its factory, so its statements are compiled once. SQLite-only SQL
// stays inside these modules: a PostgreSQL store (C19) is a second set of the same factories.
import type { Database } from "bun:sqlite";
import type { Orm } from "./client";
import { contactQueries } from "./contacts";
import { cvFileQueries } from "./cv-files";
import { deliveryQueries } from "./deliveries";
import { dossierQueries } from "./dossiers";
import { eventQueries } from "./events";
import { flowQueries } from "./flows";
import type { Generations } from "./generations";
import { healthQueries } from "./health";
import { historyQueries } from "./history";
import { idempotencyQueries } from "./idempotency";
import { importQueries } from "./imports";
import { intakeQueries } from "./intake";
import { keyQueries } from "./keys";
import { linkQueries } from "./links";
import { mailQueries } from "./mail";
import { memberQueries } from "./members";
import { noteQueries } from "./notes";
import { orgQueries } from "./orgs";
import { outboxQueries } from "./outbox";
import { principalQueries } from "./principals";
import { sealedSecretQueries } from "./sealed-secrets";
import { sessionQueries } from "./sessions";
import { statsQueries } from "./stats";
import { taskQueries } from "./tasks";
import { webhookQueries } from "./webhooks";

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
    contacts: contactQueries(deps),
    cvFiles: cvFileQueries(deps),
    deliveries: deliveryQueries(deps),
    dossiers: dossierQueries(deps),
    events: eventQueries(deps),
    flows: flowQueries(deps),
    health: healthQueries(deps),
    history: historyQueries(deps),
    idempotency: idempotencyQueries(deps),
    imports: importQueries(deps),
    intake: intakeQueries(deps),
    keys: keyQueries(deps),
    links: linkQueries(deps),
    mail: mailQueries(deps),
    members: memberQueries(deps),
    notes: noteQueries(deps),
    orgs: orgQueries(deps),
    outbox: outboxQueries(deps),
    principals: principalQueries(deps),
    sealedSecrets: sealedSecretQueries(deps),
    sessions: sessionQueries(deps),
    stats: statsQueries(deps),
    tasks: taskQueries(deps),
    webhooks: webhookQueries(deps),
  };
}

export type StoreQueries = ReturnType<typeof storeQueries>;
