// drizzle-kit's PostgreSQL migrations (drizzle-pg/), embedded as src/db/migrations.ts embeds
// drizzle/, so that the compiled executable migrates a PostgreSQL store with nothing beside it.
// Add each new file of drizzle-pg/ here; test/db/schema-drift.test.ts checks this list against the journal.
import journal from "../../../drizzle-pg/meta/_journal.json";
import m0000 from "../../../drizzle-pg/0000_foundation.sql" with { type: "text" };
import m0001 from "../../../drizzle-pg/0001_triggers_search.sql" with { type: "text" };
import m0002 from "../../../drizzle-pg/0002_tasks_mail.sql" with { type: "text" };
import m0003 from "../../../drizzle-pg/0003_imports.sql" with { type: "text" };
import m0004 from "../../../drizzle-pg/0004_overdue_marker.sql" with { type: "text" };
import m0005 from "../../../drizzle-pg/0005_leases.sql" with { type: "text" };
import m0006 from "../../../drizzle-pg/0006_lane_positions.sql" with { type: "text" };
import m0007 from "../../../drizzle-pg/0007_metadata.sql" with { type: "text" };
import m0008 from "../../../drizzle-pg/0008_shared_counters.sql" with { type: "text" };
import m0009 from "../../../drizzle-pg/0009_counters_unlogged.sql" with { type: "text" };
import m0010 from "../../../drizzle-pg/0010_counting_functions.sql" with { type: "text" };
import m0011 from "../../../drizzle-pg/0011_ordered_hit_times.sql" with { type: "text" };
import m0012 from "../../../drizzle-pg/0012_admission_reads.sql" with { type: "text" };
import m0013 from "../../../drizzle-pg/0013_batched_hits.sql" with { type: "text" };
import m0014 from "../../../drizzle-pg/0014_hit_order.sql" with { type: "text" };
import m0015 from "../../../drizzle-pg/0015_reserved_places.sql" with { type: "text" };
import m0016 from "../../../drizzle-pg/0016_known_dossiers.sql" with { type: "text" };

export const migrationSql: Record<string, string> = {
  "0000_foundation": m0000,
  "0001_triggers_search": m0001,
  "0002_tasks_mail": m0002,
  "0003_imports": m0003,
  "0004_overdue_marker": m0004,
  "0005_leases": m0005,
  "0006_lane_positions": m0006,
  "0007_metadata": m0007,
  "0008_shared_counters": m0008,
  "0009_counters_unlogged": m0009,
  "0010_counting_functions": m0010,
  "0011_ordered_hit_times": m0011,
  "0012_admission_reads": m0012,
  "0013_batched_hits": m0013,
  "0014_hit_order": m0014,
  "0015_reserved_places": m0015,
  "0016_known_dossiers": m0016,
};

export const migrationJournal: { entries: { idx: number; when: number; tag: string }[] } = journal;
