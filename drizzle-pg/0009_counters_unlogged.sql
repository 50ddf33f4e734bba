-- Hand-written (drizzle-kit generate --custom): the shared counters (src/db/pg/counters.ts) write no
-- WAL. A count needs no durability: a crash of the database server empties them, as a restart
-- empties SQLite's counts in memory, and every request pays a write to them.
ALTER TABLE "rate_counters" SET UNLOGGED;
--> statement-breakpoint
ALTER TABLE "rate_hits" SET UNLOGGED;
--> statement-breakpoint
ALTER TABLE "sign_in_failures" SET UNLOGGED;
