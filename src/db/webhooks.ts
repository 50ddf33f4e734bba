// The organization's webhook endpoint (C2 `webhook set|rotate-secret|unset`, C7): one row per
// organization. Secrets arrive here sealed (src/secrets.ts); this module never sees them in clear.
import type { QueryDeps } from "./queries";

export interface NewEndpoint {
  organizationId: string;
  url: string;
  /** Sealed. */
  secret: string;
  at: string;
}

export interface RotatedSecret {
  /** Sealed, both. */
  secret: string;
  previousSecret: string;
  previousSecretExpiresAt: string;
  at: string;
}

export function webhookQueries({ sqlite }: QueryDeps) {
  // A new endpoint replaces the old one whole: no previous secret, enabled again.
  const upsert = sqlite.query<unknown, [string, string, string, string]>(
    `INSERT INTO webhook_endpoints (organization_id, url, secret, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?4)
     ON CONFLICT (organization_id) DO UPDATE SET url = excluded.url, secret = excluded.secret, previous_secret = NULL,
       previous_secret_expires_at = NULL, disabled_at = NULL, updated_at = excluded.updated_at`,
  );
  const secretOf = sqlite.query<{ secret: string }, [string]>(`SELECT secret FROM webhook_endpoints WHERE organization_id = ?`);
  const rotate = sqlite.query<unknown, [string, string, string, string, string]>(
    `UPDATE webhook_endpoints SET secret = ?2, previous_secret = ?3, previous_secret_expires_at = ?4, updated_at = ?5
     WHERE organization_id = ?1`,
  );
  const remove = sqlite.query<unknown, [string]>(`DELETE FROM webhook_endpoints WHERE organization_id = ?`);
  const enabled = sqlite.query<{ ok: number }, [string]>(
    `SELECT 1 AS ok FROM webhook_endpoints WHERE organization_id = ? AND disabled_at IS NULL`,
  );
  const endpoint = sqlite.query<{ url: string; disabled_at: string | null }, [string]>(
    `SELECT url, disabled_at FROM webhook_endpoints WHERE organization_id = ?`,
  );
  return {
    /** The organization's endpoint (not its secrets), or null when it has none. */
    endpoint: (organizationId: string): { url: string; disabled_at: string | null } | null => endpoint.get(organizationId),
    /** Sets the organization's endpoint, replacing any it had. */
    upsert: (e: NewEndpoint) => void upsert.run(e.organizationId, e.url, e.secret, e.at),
    /** The endpoint's sealed secret, or null when the organization has no endpoint. */
    sealedSecret: (organizationId: string): string | null => secretOf.get(organizationId)?.secret ?? null,
    rotate: (organizationId: string, r: RotatedSecret) =>
      void rotate.run(organizationId, r.secret, r.previousSecret, r.previousSecretExpiresAt, r.at),
    remove: (organizationId: string) => void remove.run(organizationId),
    hasEnabled: (organizationId: string): boolean => enabled.get(organizationId) !== null,
  };
}
