// Applies the embedded PostgreSQL migrations (drizzle-pg/), as src/db/migrate.ts does on SQLite:
// one transaction each, in the journal's order, recorded in drizzle's own bookkeeping table
// (drizzle.__drizzle_migrations, as drizzle-kit's migrator keeps it), so both agree on what is applied.
// Several nodes may start at once on one database (C19): each step takes a transaction-scoped
// advisory lock first and only then reads what is recorded, so one node applies a migration and the
// others see it done. A database migrated by newer code than this one is refused, naming both.
import type { SQL } from "bun";
import { migrationJournal, migrationSql } from "./migrations";
import { MIGRATION_LOCK } from "./lock-classes";

export interface Migration {
  tag: string;
  when: number;
  sql: string;
}


export const embeddedPgMigrations: Migration[] = migrationJournal.entries.map((entry) => {
  const text = migrationSql[entry.tag];
  if (text === undefined) throw new Error(`migration ${entry.tag} is in drizzle-pg's journal but not embedded`);
  return { tag: entry.tag, when: entry.when, sql: text };
});

/** The number of migrations applied (0 when the database was up to date). */
export async function migratePg(sql: SQL, migrations: Migration[] = embeddedPgMigrations): Promise<number> {
  // An up-to-date database (the usual start) is recognised without the lock.
  const last = await lastApplied(sql);
  if (last !== undefined) checkNotNewer(last, migrations);
  if (last !== undefined && pending(last, migrations) === undefined) return 0;
  let applied = 0;
  while (await sql.begin((tx) => applyNext(tx, migrations))) applied++;
  return applied;
}

async function lastApplied(sql: SQL): Promise<number | null | undefined> {
  const [table] = await sql`SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS present`;
  if (!table.present) return undefined;
  const [row] = await sql`SELECT created_at::float8 AS created_at FROM drizzle.__drizzle_migrations ORDER BY created_at DESC LIMIT 1`;
  return row ? Number(row.created_at) : null;
}

const pending = (last: number | null, migrations: Migration[]) => migrations.find((m) => last === null || m.when > last);

function checkNotNewer(last: number | null, migrations: Migration[]): void {
  const newest = migrations.at(-1);
  if (last !== null && newest && last > newest.when) {
    throw new Error(
      `the database's schema is newer than this program's: its last migration was made at ${new Date(last).toISOString()}, ` +
        `this program's last is ${newest.tag} (${new Date(newest.when).toISOString()}); run the newer dossier`,
    );
  }
}

/** Inside the lock: applies the first migration not yet recorded; false when none is left. */
async function applyNext(tx: SQL, migrations: Migration[]): Promise<boolean> {
  await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
  await tx.unsafe(`CREATE SCHEMA IF NOT EXISTS drizzle`);
  await tx.unsafe(`CREATE TABLE IF NOT EXISTS drizzle.__drizzle_migrations (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)`);
  const last = await lastApplied(tx);
  checkNotNewer(last ?? null, migrations);
  const next = pending(last ?? null, migrations);
  if (!next) return false;
  for (const statement of next.sql.split("--> statement-breakpoint")) {
    if (statement.trim() !== "") await tx.unsafe(statement);
  }
  const hash = new Bun.CryptoHasher("sha256").update(next.sql).digest("hex");
  await tx`INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES (${hash}, ${next.when})`;
  return true;
}
