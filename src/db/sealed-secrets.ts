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

    /** One sealed value of each kind, or null where there is none: a server checks at start that
     * its master key opens them (C19: every node needs the same key). */
    sample(): { webhook: string | null; intake: string | null } {
      const webhook = sqlite.query<{ secret: string }, []>(`SELECT secret FROM webhook_endpoints LIMIT 1`).get();
      const intake = sqlite.query<{ token_sealed: string }, []>(`SELECT token_sealed FROM intake_addresses LIMIT 1`).get();
      return { webhook: webhook?.secret ?? null, intake: intake?.token_sealed ?? null };
    },
  };
}
