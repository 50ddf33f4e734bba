// drizzle-kit's migrations, embedded so that the compiled executable migrates with nothing beside it.
// Add each new file of drizzle/ here; test/db/migrate.test.ts checks this list against the journal.
import journal from "../../drizzle/meta/_journal.json";
import m0000 from "../../drizzle/0000_foundation.sql" with { type: "text" };
import m0001 from "../../drizzle/0001_contacts_search.sql" with { type: "text" };
import m0002 from "../../drizzle/0002_dossier_counts.sql" with { type: "text" };
import m0003 from "../../drizzle/0003_dossier_counts_triggers.sql" with { type: "text" };
import m0004 from "../../drizzle/0004_contacts_counts_search.sql" with { type: "text" };
import m0005 from "../../drizzle/0005_generations.sql" with { type: "text" };
import m0006 from "../../drizzle/0006_members.sql" with { type: "text" };
import m0007 from "../../drizzle/0007_intake.sql" with { type: "text" };
import m0008 from "../../drizzle/0008_history.sql" with { type: "text" };
import m0009 from "../../drizzle/0009_idempotency.sql" with { type: "text" };
import m0010 from "../../drizzle/0010_events_dossier_updated_since.sql" with { type: "text" };
import m0011 from "../../drizzle/0011_stats_read_paths.sql" with { type: "text" };
import m0012 from "../../drizzle/0012_tasks_mail.sql" with { type: "text" };
import m0013 from "../../drizzle/0013_imports.sql" with { type: "text" };
import m0014 from "../../drizzle/0014_overdue_marker.sql" with { type: "text" };
import m0015 from "../../drizzle/0015_leases.sql" with { type: "text" };
import m0016 from "../../drizzle/0016_lane_positions.sql" with { type: "text" };
import m0017 from "../../drizzle/0017_metadata.sql" with { type: "text" };
import m0018 from "../../drizzle/0018_shared_counters.sql" with { type: "text" };
import m0019 from "../../drizzle/0019_batched_hits.sql" with { type: "text" };
import m0020 from "../../drizzle/0020_hit_order.sql" with { type: "text" };

export const migrationSql: Record<string, string> = {
  "0000_foundation": m0000,
  "0001_contacts_search": m0001,
  "0002_dossier_counts": m0002,
  "0003_dossier_counts_triggers": m0003,
  "0004_contacts_counts_search": m0004,
  "0005_generations": m0005,
  "0006_members": m0006,
  "0007_intake": m0007,
  "0008_history": m0008,
  "0009_idempotency": m0009,
  "0010_events_dossier_updated_since": m0010,
  "0011_stats_read_paths": m0011,
  "0012_tasks_mail": m0012,
  "0013_imports": m0013,
  "0014_overdue_marker": m0014,
  "0015_leases": m0015,
  "0016_lane_positions": m0016,
  "0017_metadata": m0017,
  "0018_shared_counters": m0018,
  "0019_batched_hits": m0019,
  "0020_hit_order": m0020,
};

export const migrationJournal: { entries: { idx: number; when: number; tag: string }[] } = journal;
