// Leases on PostgreSQL (C19: several `dossier serve` nodes on one database): the rows of `leases`
// (src/db/schema.ts says what they are) taken, renewed and given back. Times are the database's
// clock (epoch ms), the one clock every node shares: a node's own clock may be ahead or behind.
// Each statement is its own short transaction on the pool, outside any unit of work.
import type { SQL } from "bun";
import type { Db } from "./client";

/** Now by the database's clock, in epoch ms, as SQL. */
export const dbNowMs = (sql: SQL) => sql`(extract(epoch from clock_timestamp()) * 1000)::bigint`;

export type PgLeases = {
  /** Takes the lease `name` for `holder` for `ms` unless another holder has it unexpired: true if
   * `holder` has it now (taken, or renewed when it had it already). */
  take(name: string, holder: string, ms: number): Promise<boolean>;
  /** Extends `holder`'s leases among `names` by `ms` from now; answers the names it still holds
   * (a lease that expired and that another holder took is lost). */
  renew(names: readonly string[], holder: string, ms: number): Promise<string[]>;
  /** Gives back `holder`'s leases among `names`: another node may take them at once. */
  release(names: readonly string[], holder: string): Promise<void>;
};

export function pgLeaseQueries(db: Db): PgLeases {
  return {
    async take(name, holder, ms) {
      const sql = db();
      // Two nodes taking one free lease: the second waits for the first's row, then finds it held.
      const rows = await sql`INSERT INTO leases (name, holder, expires_at) VALUES (${name}, ${holder}, ${dbNowMs(sql)} + ${ms}::bigint)
        ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
          WHERE leases.holder = excluded.holder OR leases.expires_at <= ${dbNowMs(sql)}
        RETURNING 1 AS taken`;
      return rows.length > 0;
    },

    async renew(names, holder, ms) {
      if (names.length === 0) return [];
      const sql = db();
      // Still this holder's, even past its time: no other node took it, so none has acted on it.
      const rows = await sql<{ name: string }[]>`UPDATE leases SET expires_at = ${dbNowMs(sql)} + ${ms}::bigint
        WHERE name = ANY(${names as string[]}::text[]) AND holder = ${holder} RETURNING name`;
      return rows.map((row) => row.name);
    },

    async release(names, holder) {
      if (names.length === 0) return;
      await db()`UPDATE leases SET expires_at = 0 WHERE name = ANY(${names as string[]}::text[]) AND holder = ${holder}`;
    },
  };
}
