// The principals of API keys on PostgreSQL: src/db/principals.ts's question, the same answer, for
// what reads a key outside a request (a request's key is read with its count and its organization's
// generations in one statement, src/db/pg/counters.ts). Nothing is remembered: on several nodes a
// principal is read in the statement that counts its request, which costs no more than a lookup in
// memory checked against the database would.
import { rememberedOf, type KeyHolder } from "../principals";
import type { Db } from "./client";
import type { EngineQueries } from "./queries";

export function pgPrincipalQueries(db: Db): EngineQueries<"principals"> {
  return {
    /** The principal of the key with this hash, expired or not; null when the key is unknown or revoked. */
    async byKeyHash(keyHash: string, _remember: boolean) {
      const [row] = await db()<KeyHolder[]>`SELECT k.id, k.organization_id, k.scopes, k.expires_at, k.revoked_at,
          (SELECT plan FROM organizations WHERE id = k.organization_id) AS plan,
          (SELECT rate_limit FROM organizations WHERE id = k.organization_id) AS rate_limit
        FROM api_keys k WHERE k.key_hash = ${keyHash}`;
      return rememberedOf(row) ?? null;
    },

    /** What memory holds for this key hash: nothing, on this engine yet. */
    async recall(_keyHash: string) {
      return undefined;
    },
  };
}
