import type { Database } from "bun:sqlite";
import { migrationJournal, migrationSql } from "./migrations";

export interface Migration {
  tag: string;
  when: number;
  sql: string;
}

export const embeddedMigrations: Migration[] = migrationJournal.entries.map((entry) => {
  const text = migrationSql[entry.tag];
  if (text === undefined) throw new Error(`migration ${entry.tag} is in the journal but not embedded`);
  return { tag: entry.tag, when: entry.when, sql: text };
});

// Applies, in one transaction each, the migrations newer than the last one recorded. It keeps
// drizzle's own bookkeeping table, so drizzle-kit and this runner agree on what has been applied.
export function migrate(db: Database, migrations: Migration[] = embeddedMigrations): number {
  db.run(`CREATE TABLE IF NOT EXISTS "__drizzle_migrations" (id INTEGER PRIMARY KEY AUTOINCREMENT, hash text NOT NULL, created_at numeric)`);
  const last = db.query<{ created_at: number }, []>(`SELECT created_at FROM "__drizzle_migrations" ORDER BY created_at DESC LIMIT 1`).get();
  const pending = migrations.filter((m) => last === null || m.when > Number(last.created_at));
  for (const migration of pending) {
    db.transaction(() => {
      for (const statement of migration.sql.split("--> statement-breakpoint")) {
        if (statement.trim() !== "") db.run(statement);
      }
      const hash = new Bun.CryptoHasher("sha256").update(migration.sql).digest("hex");
      db.run(`INSERT INTO "__drizzle_migrations" (hash, created_at) VALUES (?, ?)`, [hash, migration.when]);
    }).immediate();
  }
  return pending.length;
}
