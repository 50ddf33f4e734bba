// API keys (C8): their rows, nothing else. Only a SHA-256 hash of a key is ever stored.
import type { QueryDeps } from "./queries";

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

    byIdInOrganization(organizationId: string, id: string): KeyRow | null {
      return sqlite.query<KeyRow, [string, string]>(`SELECT ${COLUMNS} FROM api_keys WHERE id = ? AND organization_id = ?`).get(id, organizationId) ?? null;
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
