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

    /** One sealed value of each kind, or null: see src/db/sealed-secrets.ts. */
    async sample() {
      const [webhook] = await db()<{ secret: string }[]>`SELECT secret FROM webhook_endpoints LIMIT 1`;
      const [intake] = await db()<{ token_sealed: string }[]>`SELECT token_sealed FROM intake_addresses LIMIT 1`;
      return { webhook: webhook?.secret ?? null, intake: intake?.token_sealed ?? null };
    },
  };
}
