// Sealed secrets on PostgreSQL: src/db/sealed-secrets.ts's question, the same answer.
import type { Db } from "./client";
import type { EngineQueries } from "./queries";

export function pgSealedSecretQueries(db: Db): EngineQueries<"sealedSecrets"> {
  return {
    /** Whether any webhook secret (sealed with the master key) is stored: see src/db/sealed-secrets.ts. */
    async any() {
      const rows = await db()`SELECT 1 AS ok FROM webhook_endpoints LIMIT 1`;
      return rows.length > 0;
    },
  };
}
