// The store as a PostgreSQL one, for the work that runs differently there (the webhook lanes, the
// leases of jobs and imports). Its own module, with type imports only: code that asks it on SQLite
// loads none of the PostgreSQL store's modules (src/context.ts imports those when
// DOSSIER_DATABASE_URL is set).
import type { Store } from "../store";
import type { PgStore } from "./client";

/** The store as a PostgreSQL one, or null on SQLite. */
export const pgStoreOf = (store: Store): PgStore | null => (store.engine === "postgres" ? (store as PgStore) : null);
