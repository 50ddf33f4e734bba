// What a store holds, as text to search for a secret in clear: the SQLite files as they are on
// disk (the database, its WAL, a backup), or every row of every table of a PostgreSQL database
// (its files are the server's, not ours to read).
import { SQL } from "bun";
import { readFileSync } from "node:fs";

/** The bytes of `paths` (latin1, so that any byte sequence survives), a missing one empty. */
export function filesText(...paths: string[]): string {
  return paths
    .map((path) => {
      try {
        return readFileSync(path).toString("latin1");
      } catch {
        return "";
      }
    })
    .join("\n");
}

/** Every row of every table of the PostgreSQL database at `url`, one line a row. */
export async function databaseText(url: string): Promise<string> {
  const sql = new SQL(url, { max: 1 });
  try {
    const tables = await sql<{ name: string }[]>`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`;
    const lines: string[] = [];
    // The names come from the catalogue, quoted: no input in the statement.
    for (const { name } of tables) for (const row of await sql.unsafe(`SELECT t::text AS line FROM "${name}" t`)) lines.push(row.line);
    return lines.join("\n");
  } finally {
    await sql.close();
  }
}
