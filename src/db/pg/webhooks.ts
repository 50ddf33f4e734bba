// The organization's webhook endpoint on PostgreSQL: src/db/webhooks.ts's statements, the same
// answers. Secrets arrive here sealed, as there.
import type { NewEndpoint, RotatedSecret } from "../webhooks";
import type { Db } from "./client";
import type { EngineQueries } from "./queries";

export function pgWebhookQueries(db: Db): EngineQueries<"webhooks"> {
  return {
    /** The organization's endpoint (not its secrets), or null when it has none. */
    async endpoint(organizationId: string) {
      const [row] = await db()<{ url: string; disabled_at: string | null }[]>`SELECT url, disabled_at FROM webhook_endpoints
        WHERE organization_id = ${organizationId}`;
      return row ?? null;
    },

    /** Sets the organization's endpoint, replacing any it had: no previous secret, enabled again. */
    async upsert(e: NewEndpoint) {
      await db()`INSERT INTO webhook_endpoints (organization_id, url, secret, created_at, updated_at)
        VALUES (${e.organizationId}, ${e.url}, ${e.secret}, ${e.at}, ${e.at})
        ON CONFLICT (organization_id) DO UPDATE SET url = excluded.url, secret = excluded.secret, previous_secret = NULL,
          previous_secret_expires_at = NULL, disabled_at = NULL, updated_at = excluded.updated_at`;
    },

    /** The endpoint's sealed secret, or null when the organization has no endpoint. */
    async sealedSecret(organizationId: string) {
      const [row] = await db()<{ secret: string }[]>`SELECT secret FROM webhook_endpoints WHERE organization_id = ${organizationId}`;
      return row?.secret ?? null;
    },

    async rotate(organizationId: string, r: RotatedSecret) {
      await db()`UPDATE webhook_endpoints SET secret = ${r.secret}, previous_secret = ${r.previousSecret},
          previous_secret_expires_at = ${r.previousSecretExpiresAt}, updated_at = ${r.at}
        WHERE organization_id = ${organizationId}`;
    },

    async remove(organizationId: string) {
      await db()`DELETE FROM webhook_endpoints WHERE organization_id = ${organizationId}`;
    },

    async hasEnabled(organizationId: string) {
      const rows = await db()`SELECT 1 AS ok FROM webhook_endpoints WHERE organization_id = ${organizationId} AND disabled_at IS NULL`;
      return rows.length > 0;
    },
  };
}
