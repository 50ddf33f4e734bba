import type { Database } from "bun:sqlite";

/** Whether any webhook secret is stored sealed under the data folder's master key. The question is
 * about the whole installation (the key is the folder's, not an organization's), so it is the one
 * query here not scoped by organization. */
export function holdsSealedSecrets(sqlite: Database): boolean {
  return sqlite.query<{ ok: number }, []>(`SELECT 1 AS ok FROM webhook_endpoints LIMIT 1`).get() !== null;
}
