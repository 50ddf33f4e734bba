-- Hand-written (drizzle-kit generate --custom): a hit's time never earlier than the subject's last
-- hit's. Each node reads its clock before its statement waits for the counter's row lock, so a
-- count committed later could carry an earlier time than the one before it; the window's edge (the
-- oldest hit in the window, by time) then fell inside the window and undercounted it: 60 requests
-- over three nodes under load accepted 24 to 49 of a limit of 20. With times in the counters'
-- order, the oldest hit by time is the first by place, and a clamped hit only stays in the window
-- a little longer (C8 allows N + nodes; this keeps N).
CREATE OR REPLACE FUNCTION "dossier_rate_count"(subj text, lim integer, refusable boolean, want bigint, now_ms bigint, OUT cum bigint, OUT n bigint, OUT edge bigint)
LANGUAGE plpgsql AS $$
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
  SELECT h.cum - 1 INTO edge FROM rate_hits h WHERE h.subject = subj AND h.at > at_ms - 60000 ORDER BY h.at, h.cum LIMIT 1;
  edge := coalesce(edge, counted_before);
  n := CASE WHEN refusable THEN least(want, greatest(0, lim - (counted_before - edge))) ELSE want END;
  cum := counted_before + n;
  IF n > 0 THEN
    UPDATE rate_counters SET cum = dossier_rate_count.cum, n = dossier_rate_count.n WHERE subject = subj;
    INSERT INTO rate_hits (subject, cum, at) SELECT subj, g, at_ms FROM generate_series(counted_before + 1, counted_before + n) g;
  END IF;
END $$;
