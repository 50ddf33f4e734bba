// API keys on PostgreSQL: src/db/keys.ts's statements, the same answers.
import type { KeyRow } from "../keys";
import type { Db } from "./client";
import type { EngineQueries } from "./queries";

export function pgKeyQueries(db: Db): EngineQueries<"keys"> {
  return {
    async insert(row: KeyRow) {
      await db()`INSERT INTO api_keys (id, organization_id, name, prefix, key_hash, scopes, expires_at, revoked_at, last_used_at, created_at)
        VALUES (${row.id}, ${row.organization_id}, ${row.name}, ${row.prefix}, ${row.key_hash}, ${row.scopes}, ${row.expires_at}, ${row.revoked_at}, ${row.last_used_at}, ${row.created_at})`;
    },

    /** Oldest first. */
    async ofOrganization(organizationId: string) {
      return [...(await db()<KeyRow[]>`SELECT id, organization_id, name, prefix, key_hash, scopes, expires_at, revoked_at, last_used_at, created_at
        FROM api_keys WHERE organization_id = ${organizationId} ORDER BY created_at, id`)];
    },

    /** By id alone: the operator's commands name a key without its organization. */
    async byId(id: string) {
      const [row] = await db()<KeyRow[]>`SELECT id, organization_id, name, prefix, key_hash, scopes, expires_at, revoked_at, last_used_at, created_at
        FROM api_keys WHERE id = ${id}`;
      return row ?? null;
    },

    async byIdInOrganization(organizationId: string, id: string) {
      const [row] = await db()<KeyRow[]>`SELECT id, organization_id, name, prefix, key_hash, scopes, expires_at, revoked_at, last_used_at, created_at
        FROM api_keys WHERE id = ${id} AND organization_id = ${organizationId}`;
      return row ?? null;
    },

    /** Sets revoked_at unless the key is revoked already. */
    async revoke(id: string, at: string) {
      await db()`UPDATE api_keys SET revoked_at = ${at} WHERE id = ${id} AND revoked_at IS NULL`;
    },

    async setLastUsed(id: string, at: string) {
      await db()`UPDATE api_keys SET last_used_at = ${at} WHERE id = ${id}`;
    },
  };
}
