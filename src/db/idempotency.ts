// The stored first answers of Idempotency-Key requests (C16). `remember` runs inside the unit that
// makes the request's effect; the rules (what is stored, when a key matches) are the HTTP layer's.
import type { QueryDeps } from "./queries";

export interface StoredAnswer {
  method: string;
  path: string;
  body_hash: string;
  status: number;
  content_type: string | null;
  location: string | null;
  body: string;
}

export interface RememberedAnswer extends StoredAnswer {
  organization_id: string;
  principal_id: string;
  key: string;
  created_at: string;
}

export function idempotencyQueries({ sqlite }: QueryDeps) {
  return {
    /** The answer stored for the principal's key at or after `since`, or null. */
    find(organizationId: string, principalId: string, key: string, since: string): StoredAnswer | null {
      return sqlite
        .query<StoredAnswer, [string, string, string, string]>(
          `SELECT method, path, body_hash, status, content_type, location, body FROM idempotency_keys
            WHERE organization_id = ? AND principal_id = ? AND key = ? AND created_at >= ?`,
        )
        .get(organizationId, principalId, key, since);
    },

    /** Stores the key's first answer unless a live answer (stored at or after `since`) is there:
     * false then, and the unit that asked must not commit its effect, which another request with
     * the key made first (another node's, on PostgreSQL: C19). */
    claim(row: RememberedAnswer, since: string): boolean {
      return (
        sqlite
          .query(
            `INSERT INTO idempotency_keys (organization_id, principal_id, key, method, path, body_hash, status, content_type, location, body, created_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
             ON CONFLICT (organization_id, principal_id, key) DO UPDATE SET method = excluded.method, path = excluded.path,
               body_hash = excluded.body_hash, status = excluded.status, content_type = excluded.content_type,
               location = excluded.location, body = excluded.body, created_at = excluded.created_at
             WHERE idempotency_keys.created_at < ?
             RETURNING 1 AS claimed`,
          )
          .get(row.organization_id, row.principal_id, row.key, row.method, row.path, row.body_hash, row.status, row.content_type, row.location, row.body, row.created_at, since) !== null
      );
    },

    /** Stores (or replaces: a later unit of the same request) the key's answer. */
    remember(row: RememberedAnswer) {
      sqlite
        .query(
          `INSERT INTO idempotency_keys (organization_id, principal_id, key, method, path, body_hash, status, content_type, location, body, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (organization_id, principal_id, key) DO UPDATE SET method = excluded.method, path = excluded.path,
             body_hash = excluded.body_hash, status = excluded.status, content_type = excluded.content_type,
             location = excluded.location, body = excluded.body, created_at = excluded.created_at`,
        )
        .run(row.organization_id, row.principal_id, row.key, row.method, row.path, row.body_hash, row.status, row.content_type, row.location, row.body, row.created_at);
    },

    /** Removes the keys stored before `before`, in every organization: retention is the same for
     * all, and one statement over the created_at index beats one per organization. */
    sweep(before: string): number {
      return sqlite.query(`DELETE FROM idempotency_keys WHERE created_at < ?`).run(before).changes;
    },
  };
}
