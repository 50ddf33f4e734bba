// Seeds a PostgreSQL database for the bench (bench/postgres.ts, issue 34 point 7) with the rows of a
// data folder bench/seed.ts made: the same organization, API key, flows, stages, dossiers,
// contacts, links and notes, ids and times (the SQLite seed's rows follow the app's rules, see
// bench/seed.ts). The schema is the product's (migratePg, the embedded migrations); the rows are
// copied table by table, in batches, through json_populate_recordset (PostgreSQL converts each
// value to its column's type: text as text, 0/1 to boolean), and the product's own triggers fill
// what they fill for the app's writes: dossier_counts, contact_kind_counts, contact_generations,
// contact_search, generations, stage_visits, dossier_outcomes. Afterwards the counts are checked against COUNT(*) and the tables
// ANALYZEd (autovacuum would do it within a minute of such a load on a real server).
import { Database } from "bun:sqlite";
import { SQL } from "bun";
import { join } from "node:path";
import { migratePg } from "../src/db/pg/migrate";

/** The tables copied, parents first. Everything else the app keeps on PostgreSQL is derived by its
 * triggers (above) or empty in a seeded folder (the copy fails if one of those holds rows). */
const COPIED = ["organizations", "api_keys", "flows", "stages", "intake_addresses", "contacts", "dossiers", "dossier_contacts", "notes"];
const DERIVED = new Set(["dossier_counts", "contact_kind_counts", "contact_generations", "generations", "contact_search", "stage_visits", "dossier_outcomes"]);
const BATCH = 5_000;

/** The large tables, loaded with their triggers off (session_replication_role = replica: row
 * triggers, as the foreign keys' checks, do not fire); their insert triggers' work is then done in one
 * statement each by FILL below, their own SQL run over all the rows at once, as bench/seed.ts fills
 * SQLite's search index. Row by row the triggers' upserts of the same few count rows made the copy
 * take about 2 ms a row on this machine (1M: over an hour); every insert trigger of these tables
 * must be one of TRIGGERS_FILLED, or the copy stops. */
const BULK = new Set(["contacts", "dossiers", "dossier_contacts", "notes"]);
const TRIGGERS_FILLED = new Set([
  "contacts_search_ai", "contacts_counts_insert",
  "dossier_counts_insert", "generations_dossiers_insert", "stage_visits_insert", "dossier_outcomes_insert",
  "dossier_contacts_generation_insert", "generations_dossier_contacts_insert",
]);
const FILL = [
  // contacts_search_ai, in the contacts' order of creation (their ids are UUIDv7 of it).
  `INSERT INTO contact_search (contact_id, organization_id, full_name, email, company, role, created_at)
     SELECT id, organization_id, lower(full_name COLLATE "C"), email_folded, lower(company COLLATE "C"), lower(role COLLATE "C"), created_at
     FROM contacts ORDER BY id`,
  // contacts_counts_insert: contact_kind_counts_add(org, mask, 1) and contact_generations_bump(org, 1, 0);
  // dossier_contacts_generation_insert: contact_generations_bump(org, 1, 0).
  `INSERT INTO contact_kind_counts (organization_id, kind_mask, n) SELECT organization_id, kind_mask, count(*) FROM contacts GROUP BY 1, 2
     ON CONFLICT (organization_id, kind_mask) DO UPDATE SET n = contact_kind_counts.n + excluded.n`,
  `INSERT INTO contact_generations (organization_id, generation, search_edits)
     SELECT organization_id, sum(n), 0 FROM (SELECT organization_id, count(*) AS n FROM contacts GROUP BY 1
       UNION ALL SELECT organization_id, count(*) FROM dossier_contacts GROUP BY 1) steps GROUP BY 1
     ON CONFLICT (organization_id) DO UPDATE SET generation = contact_generations.generation + excluded.generation`,
  // dossier_counts_insert.
  `INSERT INTO dossier_counts (organization_id, type, status, flow_id, stage_id, n)
     SELECT organization_id, type, status, coalesce(flow_id, ''), coalesce(current_stage_id, ''), count(*) FROM dossiers GROUP BY 1, 2, 3, 4, 5
     ON CONFLICT (organization_id, type, status, flow_id, stage_id) DO UPDATE SET n = dossier_counts.n + excluded.n`,
  // generations_dossiers_insert, generations_dossier_contacts_insert: one step a row.
  `INSERT INTO generations (organization_id, table_name, generation)
     SELECT organization_id, 'dossiers', count(*) FROM dossiers GROUP BY 1
     UNION ALL SELECT organization_id, 'dossier_contacts', count(*) FROM dossier_contacts GROUP BY 1
     ON CONFLICT (organization_id, table_name) DO UPDATE SET generation = generations.generation + excluded.generation`,
  // stage_visits_insert (WHEN current_stage_id IS NOT NULL), in the dossiers' order of creation.
  `INSERT INTO stage_visits (organization_id, flow_id, dossier_id, stage_id, entered_at)
     SELECT organization_id, flow_id, id, current_stage_id, coalesce(stage_entered_at, created_at) FROM dossiers
     WHERE current_stage_id IS NOT NULL ORDER BY id`,
  // dossier_outcomes_insert (WHEN status IN ('won', 'lost')).
  `INSERT INTO dossier_outcomes (dossier_id, organization_id, flow_id, status, at)
     SELECT id, organization_id, flow_id, status, updated_at FROM dossiers WHERE status IN ('won', 'lost')`,
];

export async function seedPostgres(options: { sqlitePath: string; url: string; log: (line: string) => void }): Promise<{ seconds: number; rows: Record<string, number> }> {
  const t0 = performance.now();
  const lite = new Database(options.sqlitePath, { readonly: true });
  // One connection: the load's session settings hold for all of it.
  const sql = new SQL({ url: options.url, max: 1 });
  try {
    await migratePg(sql);
    // The load's own commits need not wait for the disk (the bench's server does: synchronous_commit on).
    await sql`SET synchronous_commit = off`;
    const pgTables = new Set((await sql<{ t: string }[]>`SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'public'`).map((r) => r.t));
    const liteTables = (lite.query(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as { name: string }[]).map((r) => r.name);
    for (const table of liteTables) {
      if (COPIED.includes(table) || DERIVED.has(table) || !pgTables.has(table)) continue;
      const { n } = lite.query(`SELECT count(*) AS n FROM "${table}"`).get() as { n: number };
      if (n > 0) throw new Error(`pg-seed: ${table} holds ${n} rows in the seeded folder and is not copied`);
    }
    // As bench/seed.ts does on SQLite: the non-unique indexes dropped during the load and made again
    // after it (a sort instead of a million inserts into each B-tree and into the trigram GIN index);
    // the unique ones stay, the triggers' upserts need them.
    const indexes = await sql<{ name: string; def: string }[]>`SELECT indexname AS name, indexdef AS def FROM pg_indexes
      WHERE schemaname = 'public' AND indexdef NOT LIKE 'CREATE UNIQUE %'`;
    for (const index of indexes) await sql.unsafe(`DROP INDEX "${index.name}"`);
    const rows: Record<string, number> = {};
    const insertTriggers = await sql<{ t: string; name: string }[]>`SELECT c.relname AS t, tg.tgname AS name FROM pg_trigger tg
      JOIN pg_class c ON c.oid = tg.tgrelid WHERE NOT tg.tgisinternal AND (tg.tgtype & 4) <> 0`;
    const unknown = insertTriggers.filter((r) => BULK.has(r.t) && !TRIGGERS_FILLED.has(r.name));
    if (unknown.length > 0) throw new Error(`pg-seed: insert triggers the bulk fill does not do: ${unknown.map((r) => `${r.t}.${r.name}`).join(", ")}`);
    const viaTriggers = process.env.PGSEED_TRIGGERS === "1"; // the slow path, to check FILL against
    for (const table of COPIED) {
      if (BULK.has(table) && !viaTriggers) await sql`SET session_replication_role = replica`;
      else await sql`SET session_replication_role = origin`;
      const pgColumns = new Set(
        (await sql<{ c: string }[]>`SELECT column_name AS c FROM information_schema.columns WHERE table_schema = 'public' AND table_name = ${table}`).map((r) => r.c),
      );
      const liteColumns = (lite.query(`PRAGMA table_info("${table}")`).all() as { name: string }[]).map((r) => r.name);
      const missing = [...pgColumns].filter((c) => !liteColumns.includes(c));
      const columns = liteColumns.filter((c) => pgColumns.has(c));
      if (missing.length > 0) options.log(`pg-seed: ${table}: PostgreSQL columns not in the SQLite file (left to their defaults): ${missing.join(", ")}`);
      const list = columns.map((c) => `"${c}"`).join(", ");
      const read = lite.query(`SELECT ${list} FROM "${table}"`);
      const insert = (batch: Record<string, unknown>[]) =>
        sql.unsafe(`INSERT INTO "${table}" (${list}) SELECT ${list} FROM json_populate_recordset(NULL::"${table}", $1::text::json)`, [JSON.stringify(batch)]);
      let copied = 0;
      let batch: Record<string, unknown>[] = [];
      for (const row of read.iterate() as IterableIterator<Record<string, unknown>>) {
        batch.push(row);
        if (batch.length < BATCH) continue;
        await insert(batch);
        copied += batch.length;
        batch = [];
      }
      if (batch.length > 0) {
        await insert(batch);
        copied += batch.length;
      }
      rows[table] = copied;
      options.log(`pg-seed: ${table}: ${copied} rows (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
    }
    await sql`SET session_replication_role = origin`;
    if (!viaTriggers) {
      const tFill = performance.now();
      for (const statement of FILL) await sql.unsafe(statement);
      options.log(`pg-seed: the triggers' rows filled in ${((performance.now() - tFill) / 1000).toFixed(1)} s`);
    }
    const tIndexes = performance.now();
    for (const index of indexes) await sql.unsafe(index.def);
    options.log(`pg-seed: ${indexes.length} indexes made again in ${((performance.now() - tIndexes) / 1000).toFixed(1)} s`);
    // The counts the triggers kept, against the rows.
    const [dc] = await sql<{ a: number; b: number }[]>`SELECT (SELECT coalesce(sum(n), 0) FROM dossier_counts)::float8 AS a, (SELECT count(*) FROM dossiers)::float8 AS b`;
    if (dc.a !== dc.b) throw new Error(`pg-seed: dossier_counts holds ${dc.a}, dossiers ${dc.b}`);
    const [kc] = await sql<{ a: number; b: number }[]>`SELECT (SELECT coalesce(sum(n), 0) FROM contact_kind_counts)::float8 AS a, (SELECT count(*) FROM contacts)::float8 AS b`;
    if (kc.a !== kc.b) throw new Error(`pg-seed: contact_kind_counts holds ${kc.a}, contacts ${kc.b}`);
    await sql`SET synchronous_commit = on`;
    await sql.unsafe(`VACUUM ANALYZE`);
    await sql.unsafe(`CHECKPOINT`);
    return { seconds: (performance.now() - t0) / 1000, rows };
  } finally {
    await sql.close({ timeout: 1 });
    lite.close(true);
  }
}

if (import.meta.main) {
  const argv = process.argv.slice(2);
  const flag = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const data = flag("data");
  const url = flag("url");
  if (!data || !url) {
    process.stderr.write("usage: bun bench/pg-seed.ts --data SEEDED_FOLDER --url postgres://...\n");
    process.exit(2);
  }
  const result = await seedPostgres({ sqlitePath: join(data, "dossier.db"), url, log: (l) => process.stderr.write(l + "\n") });
  console.log(JSON.stringify(result, null, 2));
}
