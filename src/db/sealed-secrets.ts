import type { QueryDeps } from "./queries";

export function sealedSecretQueries({ sqlite }: QueryDeps) {
  return {
    /** Whether any secret is stored sealed under the data folder's master key (webhook secrets, intake tokens).
     * The question is about the whole installation (the key is the folder's, not an
     * organization's), so it is the one query here not scoped by organization. */
    any(): boolean {
      return (
        sqlite.query<{ ok: number }, []>(`SELECT 1 AS ok FROM webhook_endpoints UNION ALL SELECT 1 FROM intake_addresses LIMIT 1`).get() !== null
      );
    },
  };
}
