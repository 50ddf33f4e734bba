-- The counted requests of one check are one row of rate_hits, not one each (the ALTER is drizzle-kit's;
-- the function after it hand-written). A check's requests share their time, so a row holding places
-- cum - n + 1 to cum says as much as n rows did: every lookup by place (`cum >= x ORDER BY cum
-- LIMIT 1`) finds the row that holds place x, and the window's edge is the first place of its oldest
-- row, less one. An admission of 4 to 8 requests (what one node sends at once under load) writes one
-- row, and the sweep deletes one, where they were 4 to 8 (docs/performance.md). Rows written by a
-- node before this migration have n = 1, each a check of its own: the same arithmetic.
ALTER TABLE "rate_hits" ADD COLUMN "n" integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
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
  SELECT greatest(now_ms, h.at) INTO at_ms FROM rate_hits h WHERE h.subject = subj AND h.cum = counted_before;
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
