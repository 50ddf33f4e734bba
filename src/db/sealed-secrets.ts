import type { QueryDeps } from "./queries";

export function sealedSecretQueries({ sqlite }: QueryDeps) {
  return {
    /** Whether any secret that only the data folder's master key opens is stored: webhook secrets
     * (receivers check signatures with them, so a new key would break every delivery). Intake
     * tokens are sealed too but do not count: mail still finds them by their hash, and a flow whose
     * address no longer unseals gets a new one (src/services/intake.ts). The question is about the whole installation (the key is the folder's, not an
     * organization's), so it is the one query here not scoped by organization. */
    any(): boolean {
      return sqlite.query<{ ok: number }, []>(`SELECT 1 AS ok FROM webhook_endpoints LIMIT 1`).get() !== null;
    },
  };
}
