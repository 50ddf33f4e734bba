// The stored first answers of Idempotency-Key requests on PostgreSQL: src/db/idempotency.ts's
// statements, the same answers.
import type { RememberedAnswer, StoredAnswer } from "../idempotency";
import type { Db } from "./client";
import type { EngineQueries } from "./queries";

export function pgIdempotencyQueries(db: Db): EngineQueries<"idempotency"> {
  return {
    /** The answer stored for the principal's key at or after `since`, or null. */
    async find(organizationId: string, principalId: string, key: string, since: string) {
      const [row] = await db()<StoredAnswer[]>`SELECT method, path, body_hash, status, content_type, location, body FROM idempotency_keys
        WHERE organization_id = ${organizationId} AND principal_id = ${principalId} AND key = ${key} AND created_at >= ${since}`;
      return row ?? null;
    },

    /** Stores the key's first answer unless a live answer (stored at or after `since`) is there:
     * false then. Another node's request with the key that has not committed yet holds the row's
     * index entry: this insert waits for its commit, then finds its answer (or, after a rollback,
     * claims the key). */
    async claim(row: RememberedAnswer, since: string) {
      const claimed = await db()`INSERT INTO idempotency_keys (organization_id, principal_id, key, method, path, body_hash, status, content_type, location, body, created_at)
        VALUES (${row.organization_id}, ${row.principal_id}, ${row.key}, ${row.method}, ${row.path}, ${row.body_hash}, ${row.status},
          ${row.content_type}, ${row.location}, ${row.body}, ${row.created_at})
        ON CONFLICT (organization_id, principal_id, key) DO UPDATE SET method = excluded.method, path = excluded.path,
          body_hash = excluded.body_hash, status = excluded.status, content_type = excluded.content_type,
          location = excluded.location, body = excluded.body, created_at = excluded.created_at
        WHERE idempotency_keys.created_at < ${since}
        RETURNING 1 AS claimed`;
      return claimed.length > 0;
    },

    /** Stores (or replaces: a later unit of the same request) the key's answer. */
    async remember(row: RememberedAnswer) {
      await db()`INSERT INTO idempotency_keys (organization_id, principal_id, key, method, path, body_hash, status, content_type, location, body, created_at)
        VALUES (${row.organization_id}, ${row.principal_id}, ${row.key}, ${row.method}, ${row.path}, ${row.body_hash}, ${row.status},
          ${row.content_type}, ${row.location}, ${row.body}, ${row.created_at})
        ON CONFLICT (organization_id, principal_id, key) DO UPDATE SET method = excluded.method, path = excluded.path,
          body_hash = excluded.body_hash, status = excluded.status, content_type = excluded.content_type,
          location = excluded.location, body = excluded.body, created_at = excluded.created_at`;
    },

    /** Removes the keys stored before `before`, in every organization: retention is the same for
     * all (one statement over the created_at index). */
    async sweep(before: string) {
      return (await db()`DELETE FROM idempotency_keys WHERE created_at < ${before}`).count;
    },
  };
}
