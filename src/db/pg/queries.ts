// The PostgreSQL query modules, one per resource beside SQLite's (src/db/queries.ts): the same
// methods with the same answers, each a promise. Each is typed as the SQLite module's methods as
// the store gives them, so a module that drifts from its SQLite twin does not compile.
import type { AsyncQueries } from "../client";
import type { StoreQueries } from "../queries";
import type { Db } from "./client";
import { pgContactQueries } from "./contacts";
import { pgCvFileQueries } from "./cv-files";
import { pgDeliveryQueries } from "./deliveries";
import { pgDossierQueries } from "./dossiers";
import { pgEventQueries } from "./events";
import { pgFlowQueries } from "./flows";
import { pgHealthQueries } from "./health";
import { pgHistoryQueries } from "./history";
import { pgIdempotencyQueries } from "./idempotency";
import { pgImportQueries } from "./imports";
import { pgIntakeQueries } from "./intake";
import { pgKeyQueries } from "./keys";
import { pgLinkQueries } from "./links";
import { pgMailQueries } from "./mail";
import { pgMemberQueries } from "./members";
import { pgNoteQueries } from "./notes";
import { pgOrgQueries } from "./orgs";
import { pgOutboxQueries } from "./outbox";
import { pgPrincipalQueries } from "./principals";
import { pgSealedSecretQueries } from "./sealed-secrets";
import { pgSessionQueries } from "./sessions";
import { pgStatsQueries } from "./stats";
import { pgTaskQueries } from "./tasks";
import { pgWebhookQueries } from "./webhooks";

/** A resource's module as the store gives it, on either engine. */
export type EngineQueries<R extends keyof StoreQueries> = AsyncQueries<StoreQueries>[R];

/** Every PostgreSQL query module so far, by resource. `inUnit`: whether the work in progress is a
 * unit of work (what SQLite's modules ask of their connection, src/db/snapshot.ts). */
export function pgQueries(db: Db, inUnit: () => boolean) {
  return {
    contacts: pgContactQueries(db, inUnit),
    cvFiles: pgCvFileQueries(db, inUnit),
    deliveries: pgDeliveryQueries(db),
    dossiers: pgDossierQueries(db, inUnit),
    events: pgEventQueries(db),
    flows: pgFlowQueries(db, inUnit),
    health: pgHealthQueries(db),
    history: pgHistoryQueries(db),
    idempotency: pgIdempotencyQueries(db),
    imports: pgImportQueries(db),
    intake: pgIntakeQueries(db),
    keys: pgKeyQueries(db),
    links: pgLinkQueries(db, inUnit),
    mail: pgMailQueries(db),
    members: pgMemberQueries(db, inUnit),
    notes: pgNoteQueries(db),
    orgs: pgOrgQueries(db),
    outbox: pgOutboxQueries(db),
    principals: pgPrincipalQueries(db),
    sealedSecrets: pgSealedSecretQueries(db),
    sessions: pgSessionQueries(db),
    stats: pgStatsQueries(db),
    tasks: pgTaskQueries(db, inUnit),
    webhooks: pgWebhookQueries(db),
  };
}

export type PgQueries = ReturnType<typeof pgQueries>;
