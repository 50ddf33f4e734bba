// API keys (C8): their rows, nothing else. Only a SHA-256 hash of a key is ever stored.
import type { QueryDeps } from "./queries";
import type { Plan } from "./orgs";

export interface KeyRow {
  id: string;
  organization_id: string;
  name: string | null;
  prefix: string;
  key_hash: string;
  /** Comma separated. */
  scopes: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
  created_at: string;
}

/** A key with what authentication needs of its organization. */
export interface KeyHolder {
  id: string;
  organization_id: string;
  scopes: string;
  expires_at: string | null;
  revoked_at: string | null;
  plan: Plan;
  rate_limit: number;
}

const COLUMNS = `id, organization_id, name, prefix, key_hash, scopes, expires_at, revoked_at, last_used_at, created_at`;

export function keyQueries({ sqlite }: QueryDeps) {
  return {
    insert(row: KeyRow) {
      sqlite
        .query(`INSERT INTO api_keys (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
        .run(row.id, row.organization_id, row.name, row.prefix, row.key_hash, row.scopes, row.expires_at, row.revoked_at, row.last_used_at, row.created_at);
    },

    /** Oldest first. */
    ofOrganization(organizationId: string): KeyRow[] {
      return sqlite.query<KeyRow, [string]>(`SELECT ${COLUMNS} FROM api_keys WHERE organization_id = ? ORDER BY created_at, id`).all(organizationId);
    },

    /** By id alone: the operator's commands name a key without its organization. */
    byId(id: string): KeyRow | null {
      return sqlite.query<KeyRow, [string]>(`SELECT ${COLUMNS} FROM api_keys WHERE id = ?`).get(id) ?? null;
    },

    byHash(keyHash: string): KeyHolder | null {
      return (
        sqlite
          .query<KeyHolder, [string]>(
            `SELECT k.id, k.organization_id, k.scopes, k.expires_at, k.revoked_at, o.plan, o.rate_limit
               FROM api_keys k JOIN organizations o ON o.id = k.organization_id WHERE k.key_hash = ?`,
          )
          .get(keyHash) ?? null
      );
    },

    /** Sets revoked_at unless the key is revoked already. */
    revoke(id: string, at: string) {
      sqlite.query(`UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL`).run(at, id);
    },

    setLastUsed(id: string, at: string) {
      sqlite.query(`UPDATE api_keys SET last_used_at = ? WHERE id = ?`).run(at, id);
    },
  };
}
