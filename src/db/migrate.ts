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
// Several processes may open a new data folder at once (a server and a CLI command): each step
// takes the write lock first (BEGIN IMMEDIATE) and only then reads what is recorded, so a
// migration another process applied meanwhile is seen as done instead of being run twice.
export function migrate(db: Database, migrations: Migration[] = embeddedMigrations): number {
  // An up-to-date file (the usual case) is recognised without the write lock, so opening it does
  // not wait behind a running server's writes: migrations only ever get added, never undone.
  if (tableExists(db) && nextPending(db, migrations) === undefined) return 0;
  let applied = 0;
  while (db.transaction(() => applyNext(db, migrations)).immediate()) applied++;
  return applied;
}

const tableExists = (db: Database) =>
  db.query(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'`).get() !== null;

function nextPending(db: Database, migrations: Migration[]): Migration | undefined {
  const last = db.query<{ created_at: number }, []>(`SELECT created_at FROM "__drizzle_migrations" ORDER BY created_at DESC LIMIT 1`).get();
  return migrations.find((m) => last === null || m.when > Number(last.created_at));
}

/** Inside the write lock: applies the first migration not yet recorded; false when none is left. */
function applyNext(db: Database, migrations: Migration[]): boolean {
  db.run(`CREATE TABLE IF NOT EXISTS "__drizzle_migrations" (id INTEGER PRIMARY KEY AUTOINCREMENT, hash text NOT NULL, created_at numeric)`);
  const next = nextPending(db, migrations);
  if (!next) return false;
  for (const statement of next.sql.split("--> statement-breakpoint")) {
    if (statement.trim() !== "") db.run(statement);
  }
  const hash = new Bun.CryptoHasher("sha256").update(next.sql).digest("hex");
  db.run(`INSERT INTO "__drizzle_migrations" (hash, created_at) VALUES (?, ?)`, [hash, next.when]);
  return true;
}
