-- The window's lookups in an order an index holds whole. rate_hits grows by thousands of rows a
-- minute under load, and its statistics, taken when it held a few (autovacuum analyzes after 10 %
-- of growth; the bench's VACUUM ANALYZE before its load), say a subject has a hit or two. The
-- window's edge, `ORDER BY at, cum LIMIT 1`, which rate_hits_at (subject, at) could not give
-- without a sort, was then planned as the primary key's scan of every hit of the subject and a
-- sort: 7,700 buffers and 6-7 ms a statement at 10,000 hits (auto_explain in the bench, 20 s into
-- its load), ten times the CPU of a request on the backends that kept that plan. rate_hits_at
-- (subject, at, cum) gives the order with no sort (the ALTERs are drizzle-kit's). The last hit's
-- time is read the same way, the newest by (at, cum): since drizzle-pg/0011 a hit's time is never
-- earlier than the one before it, so the newest by time is the last by place (one swept or never
-- written gives the clock's time, as before), where a lookup of place `cum` could now go through
-- the new index (subject, then every at) instead of the primary key. The function after them is
-- hand-written (drizzle-kit generate --custom).
DROP INDEX "rate_hits_at";--> statement-breakpoint
CREATE INDEX "rate_hits_at" ON "rate_hits" USING btree ("subject","at","cum");--> statement-breakpoint
CREATE OR REPLACE FUNCTION "dossier_rate_count"(subj text, lim integer, refusable boolean, want bigint, now_ms bigint, OUT cum bigint, OUT n bigint, OUT edge bigint)
LANGUAGE plpgsql SET enable_seqscan = off SET enable_bitmapscan = off AS $$
DECLARE
  counted_before bigint;
  at_ms bigint;
BEGIN
  SELECT c.cum INTO counted_before FROM rate_counters c WHERE c.subject = subj FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO rate_counters (subject, cum, n) VALUES (subj, 0, 0) ON CONFLICT (subject) DO NOTHING;
    SELECT c.cum INTO counted_before FROM rate_counters c WHERE c.subject = subj FOR UPDATE;
  END IF;
  SELECT greatest(now_ms, h.at) INTO at_ms FROM rate_hits h WHERE h.subject = subj ORDER BY h.at DESC, h.cum DESC LIMIT 1;
  at_ms := coalesce(at_ms, now_ms);
  SELECT h.cum - h.n INTO edge FROM rate_hits h WHERE h.subject = subj AND h.at > at_ms - 60000 ORDER BY h.at, h.cum LIMIT 1;
  edge := coalesce(edge, counted_before);
  n := CASE WHEN refusable THEN least(want, greatest(0, lim - (counted_before - edge))) ELSE want END;
  cum := counted_before + n;
  IF n > 0 THEN
    UPDATE rate_counters SET cum = dossier_rate_count.cum, n = dossier_rate_count.n WHERE subject = subj;
    INSERT INTO rate_hits (subject, cum, at, n) VALUES (subj, counted_before + n, at_ms, n);
  END IF;
END $$;
