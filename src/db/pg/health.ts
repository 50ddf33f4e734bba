// The liveness probe of GET /healthz on PostgreSQL: src/db/health.ts's question.
import type { Db } from "./client";
import type { EngineQueries } from "./queries";

export function pgHealthQueries(db: Db): EngineQueries<"health"> {
  return {
    /** Throws when the database does not answer a query (the server gone or refusing). */
    async ping() {
      await db()`SELECT 1`;
    },
  };
}
