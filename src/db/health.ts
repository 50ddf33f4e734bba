// The liveness probe of GET /healthz (C2): whether the database answers at all.
import type { QueryDeps } from "./queries";

export function healthQueries({ sqlite }: QueryDeps) {
  return {
    /** Throws when the database does not answer a query (the file gone or unreadable). */
    ping: () => void sqlite.query("SELECT 1").get(),
  };
}
