// One schema, two engines (C19, issue 34): src/db/schema.ts is the one declaration;
// src/db/pg/schema.ts is generated from it (src/db/pg/schema-gen.ts) and drizzle-pg/ from that. Fails
// when someone edited one side only: the committed pg-core file is not the generator's output; or
// when they drift apart all the same: tables, columns (names, nullability, kinds mapped), primary
// keys, indexes (names, columns, unique, partial), foreign keys, triggers (names, tables, events),
// and what the triggers keep (counts, generations, search rows, stage visits, outcomes) after the
// same writes. The differences that are meant are listed below, each with its reason
// (docs/decisions.md, "PostgreSQL schema").
import { Database } from "bun:sqlite";
import { SQL } from "bun";
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { is, SQL as DrizzleSQL, Column } from "drizzle-orm";
import { getTableConfig as pgConfig, PgDialect, PgTable } from "drizzle-orm/pg-core";
import { getTableConfig as sqliteConfig, SQLiteSyncDialect, SQLiteTable } from "drizzle-orm/sqlite-core";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { migrate } from "../../src/db/migrate";
import { embeddedPgMigrations, migratePg } from "../../src/db/pg/migrate";
import { pgSchemaSource } from "../../src/db/pg/schema-gen";
import * as pgSchema from "../../src/db/pg/schema";
import * as sqliteSchema from "../../src/db/schema";
import { freshDatabase } from "../helpers/postgres";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const root = join(import.meta.dir, "../..");

/** A table as both engines can state it, in SQLite's words: kinds are text, integer or real. */
interface Shape {
  columns: Record<string, { kind: string; notNull: boolean }>;
  primaryKey: string[];
  /** name → "unique? (columns) partial?" */
  indexes: Record<string, string>;
}
type Shapes = Record<string, Shape>;

// PostgreSQL kinds in SQLite's words. booleans are integers 0/1 there; bigint and double precision
// are SQLite's integer and real (both 64-bit).
const PG_KIND: Record<string, string> = { text: "text", integer: "integer", bigint: "integer", boolean: "integer", "double precision": "real" };

const indexText = (unique: boolean, columns: string[], partial: boolean) => `${unique ? "unique " : ""}(${columns.join(", ")})${partial ? " where" : ""}`;

// --- what is meant to differ -------------------------------------------------------------------

/** SQLite's FTS5 trigram index of contact search (drizzle/0001): a virtual table and its shadow tables. */
const SQLITE_ONLY_TABLE = /^contacts_fts/;
/** The triggers that keep contacts_fts in step with contact_search: PostgreSQL's GIN index keeps itself. */
const SQLITE_ONLY_TRIGGERS = ["contact_search_ad", "contact_search_ai", "contact_search_au"];
/** What stands for contacts_fts on PostgreSQL (drizzle-pg/0001). */
function withoutPgSearch(shapes: Shapes): Shapes {
  const search = shapes.contact_search;
  expect(search.columns.search_text).toEqual({ kind: "text", notNull: true });
  expect(search.indexes.contact_search_trgm).toBe(indexText(false, ["organization_id", "search_text"], false));
  // SQLite's (organization_id) index ends with the rowid, which is id: PostgreSQL's says so.
  expect(search.indexes.contact_search_org).toBe(indexText(false, ["organization_id", "id"], false));
  const { search_text: _, ...columns } = search.columns;
  const { contact_search_trgm: __, ...indexes } = search.indexes;
  return { ...shapes, contact_search: { ...search, columns, indexes: { ...indexes, contact_search_org: indexText(false, ["organization_id"], false) } } };
}

// --- the drizzle schemas -----------------------------------------------------------------------

const sqliteTables = (Object.values(sqliteSchema) as unknown[]).filter((v): v is SQLiteTable => is(v, SQLiteTable));
const pgTables = (Object.values(pgSchema) as unknown[]).filter((v): v is PgTable => is(v, PgTable));

/** An index column as text: a column's name, "name desc", or "expr" for an expression. */
function indexColumn(column: unknown, render: (sql: DrizzleSQL) => string): string {
  if (is(column, Column)) return column.name;
  if (is(column, DrizzleSQL)) {
    const m = /^(?:"\w+"\.)?"(\w+)"(?:\s+(asc|desc))?$/i.exec(render(column).trim());
    return m ? `${m[1]}${m[2]?.toLowerCase() === "desc" ? " desc" : ""}` : "expr";
  }
  // pg-core's IndexedColumn: a column with its order.
  const indexed = column as { name: string; indexConfig?: { order?: string } };
  return `${indexed.name}${indexed.indexConfig?.order === "desc" ? " desc" : ""}`;
}

const sqliteDialect = new SQLiteSyncDialect();
const pgDialect = new PgDialect();

function sqliteSchemaShapes(): Shapes {
  const out: Shapes = {};
  for (const table of sqliteTables) {
    const c = sqliteConfig(table);
    out[c.name] = {
      columns: Object.fromEntries(c.columns.map((col) => [col.name, { kind: col.getSQLType(), notNull: col.notNull }])),
      primaryKey: c.primaryKeys.length > 0 ? c.primaryKeys[0].columns.map((col) => col.name) : c.columns.filter((col) => col.primary).map((col) => col.name),
      indexes: Object.fromEntries(
        c.indexes.map((i) => [i.config.name, indexText(i.config.unique, i.config.columns.map((col) => indexColumn(col, (s) => sqliteDialect.sqlToQuery(s).sql)), i.config.where !== undefined)]),
      ),
    };
  }
  return out;
}

function pgSchemaShapes(): Shapes {
  const out: Shapes = {};
  for (const table of pgTables) {
    const c = pgConfig(table);
    out[c.name] = {
      columns: Object.fromEntries(c.columns.map((col) => [col.name, { kind: PG_KIND[col.getSQLType()] ?? col.getSQLType(), notNull: col.notNull }])),
      primaryKey: c.primaryKeys.length > 0 ? c.primaryKeys[0].columns.map((col) => col.name) : c.columns.filter((col) => col.primary).map((col) => col.name),
      indexes: Object.fromEntries(
        c.indexes.map((i) => [i.config.name!, indexText(i.config.unique, i.config.columns.map((col) => indexColumn(col, (s) => pgDialect.sqlToQuery(s).sql)), i.config.where !== undefined)]),
      ),
    };
  }
  return out;
}

// --- the migrated databases --------------------------------------------------------------------

function sqliteDatabase(): Database {
  const db = new Database(":memory:");
  migrate(db);
  return db;
}

function sqliteDbShapes(db: Database): Shapes {
  const out: Shapes = {};
  const tables = db
    .query<{ name: string }, []>(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '__drizzle_migrations' ORDER BY name`)
    .all()
    .map((r) => r.name)
    .filter((name) => !SQLITE_ONLY_TABLE.test(name));
  for (const table of tables) {
    const info = db.query<{ name: string; type: string; notnull: number; pk: number }, []>(`SELECT name, type, "notnull", pk FROM pragma_table_info('${table}')`).all();
    const indexes: Record<string, string> = {};
    for (const index of db.query<{ name: string; unique: number; origin: string; partial: number }, []>(`SELECT name, "unique", origin, partial FROM pragma_index_list('${table}')`).all()) {
      if (index.origin !== "c") continue; // the primary key's own index
      const columns = db
        .query<{ name: string | null; desc: number }, []>(`SELECT name, "desc" FROM pragma_index_xinfo('${index.name}') WHERE key = 1 ORDER BY seqno`)
        .all()
        .map((col) => (col.name === null ? "expr" : `${col.name}${col.desc ? " desc" : ""}`));
      indexes[index.name] = indexText(index.unique === 1, columns, index.partial === 1);
    }
    out[table] = {
      // An INTEGER PRIMARY KEY is the rowid: never null, whatever the declaration says.
      columns: Object.fromEntries(info.map((col) => [col.name, { kind: col.type.toLowerCase(), notNull: col.notnull === 1 || (col.pk > 0 && col.type.toUpperCase() === "INTEGER") }])),
      primaryKey: info.filter((col) => col.pk > 0).sort((a, b) => a.pk - b.pk).map((col) => col.name),
      indexes,
    };
  }
  return out;
}

async function pgDbShapes(sql: SQL): Promise<Shapes> {
  const out: Shapes = {};
  const columns = await sql`
    SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns
     WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`;
  for (const col of columns) {
    out[col.table_name] ??= { columns: {}, primaryKey: [], indexes: {} };
    out[col.table_name].columns[col.column_name] = { kind: PG_KIND[col.data_type] ?? col.data_type, notNull: col.is_nullable === "NO" };
  }
  const indexes = await sql`
    SELECT t.relname AS table_name, i.relname AS index_name, x.indisunique AS is_unique, x.indisprimary AS is_primary,
           x.indpred IS NOT NULL AS partial,
           array_to_json(array(
             SELECT CASE WHEN k.attnum = 0 THEN 'expr' ELSE a.attname || CASE WHEN (x.indoption[k.n - 1] & 1) = 1 THEN ' desc' ELSE '' END END
               FROM unnest(x.indkey::int2[]) WITH ORDINALITY AS k(attnum, n)
               LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
              WHERE k.n <= x.indnkeyatts ORDER BY k.n))::text AS columns
      FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
      JOIN pg_namespace s ON s.oid = t.relnamespace
     WHERE s.nspname = 'public'`;
  for (const index of indexes) {
    const cols = JSON.parse(index.columns) as string[];
    if (index.is_primary) out[index.table_name].primaryKey = cols;
    else out[index.table_name].indexes[index.index_name] = indexText(index.is_unique, cols, index.partial);
  }
  return out;
}

type Triggers = Record<string, string>; // name → "table: EVENT [OF columns]"

function sqliteTriggers(db: Database): Triggers {
  const out: Triggers = {};
  for (const t of db.query<{ name: string; sql: string }, []>(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger'`).all()) {
    if (SQLITE_ONLY_TRIGGERS.includes(t.name)) continue;
    const m = /\bAFTER\s+(INSERT|UPDATE|DELETE)(?:\s+OF\s+(.+?))?\s+ON\s+`?(\w+)`?/is.exec(t.sql);
    if (!m) throw new Error(`trigger ${t.name} is not AFTER INSERT/UPDATE/DELETE: update this test`);
    const of = m[2] ? ` OF ${m[2].split(",").map((c) => c.trim().replace(/[`"]/g, "")).sort().join(",")}` : "";
    out[t.name] = `${m[3]}: ${m[1].toUpperCase()}${of}`;
  }
  return out;
}

async function pgTriggers(sql: SQL): Promise<Triggers> {
  const out: Triggers = {};
  const rows = await sql`
    SELECT t.trigger_name, t.event_object_table, t.event_manipulation, t.action_timing,
           (SELECT string_agg(c.event_object_column, ',' ORDER BY c.event_object_column) FROM information_schema.triggered_update_columns c
             WHERE c.trigger_name = t.trigger_name AND c.event_object_table = t.event_object_table) AS columns
      FROM information_schema.triggers t WHERE t.trigger_schema = 'public'`;
  for (const r of rows) {
    expect(`${r.trigger_name} ${r.action_timing}`).toBe(`${r.trigger_name} AFTER`);
    out[r.trigger_name] = `${r.event_object_table}: ${r.event_manipulation}${r.columns ? ` OF ${r.columns}` : ""}`;
  }
  return out;
}

// --- the tests ---------------------------------------------------------------------------------

describe("schema drift between SQLite and PostgreSQL", () => {
  test("src/db/pg/schema.ts is what src/db/pg/schema-gen.ts writes from src/db/schema.ts (else: npm run db:generate:pg)", () => {
    expect(readFileSync(join(root, "src/db/pg/schema.ts"), "utf8")).toBe(pgSchemaSource());
  });

  test("the drizzle schemas declare the same tables, columns, keys and indexes", () => {
    expect(pgSchemaShapes()).toEqual(sqliteSchemaShapes());
    // Kinds, precisely: text is text, a boolean is a boolean, real is double precision, an integer is
    // integer or bigint, an AUTOINCREMENT key an identity; enums and defaults are the same.
    const pgByName = new Map(pgTables.map((t) => [pgConfig(t).name, pgConfig(t)]));
    for (const table of sqliteTables) {
      const s = sqliteConfig(table);
      const p = pgByName.get(s.name)!;
      for (const col of s.columns) {
        const other = p.columns.find((c) => c.name === col.name)!;
        const expected: Record<string, string[]> = {
          SQLiteText: ["PgText"],
          SQLiteBoolean: ["PgBoolean"],
          SQLiteReal: ["PgDoublePrecision"],
          SQLiteInteger: ["PgInteger", "PgBigInt53"],
        };
        expect(`${s.name}.${col.name}: ${expected[col.columnType]?.includes(other.columnType)}`).toBe(`${s.name}.${col.name}: true`);
        expect(`${s.name}.${col.name} enum ${JSON.stringify(other.enumValues ?? [])}`).toBe(`${s.name}.${col.name} enum ${JSON.stringify(col.enumValues ?? [])}`);
        expect(`${s.name}.${col.name} default ${JSON.stringify(other.default)}`).toBe(`${s.name}.${col.name} default ${JSON.stringify(col.default)}`);
        const autoIncrement = (col as unknown as { autoIncrement?: boolean }).autoIncrement === true;
        expect(`${s.name}.${col.name} identity ${other.generatedIdentity !== undefined}`).toBe(`${s.name}.${col.name} identity ${autoIncrement}`);
      }
      const fks = (fk: { reference(): { columns: { name: string }[]; foreignColumns: { name: string; table: unknown }[] }; onDelete?: string }, name: (t: never) => string) => {
        const r = fk.reference();
        return `${r.columns.map((c) => c.name)} → ${name(r.foreignColumns[0].table as never)}(${r.foreignColumns.map((c) => c.name)}) on delete ${fk.onDelete ?? "no action"}`;
      };
      expect(p.foreignKeys.map((fk) => fks(fk, (t: PgTable) => pgConfig(t).name)).sort()).toEqual(
        s.foreignKeys.map((fk) => fks(fk, (t: SQLiteTable) => sqliteConfig(t).name)).sort(),
      );
    }
  });

  test("every migration of drizzle-pg/ is embedded, in the journal's order", () => {
    const journal = JSON.parse(readFileSync(join(root, "drizzle-pg/meta/_journal.json"), "utf8"));
    const files = readdirSync(join(root, "drizzle-pg")).filter((f) => f.endsWith(".sql")).sort();
    expect(embeddedPgMigrations.map((m) => m.tag)).toEqual(journal.entries.map((e: { tag: string }) => e.tag));
    expect(files).toEqual(embeddedPgMigrations.map((m) => `${m.tag}.sql`));
    for (const m of embeddedPgMigrations) expect(m.sql).toBe(readFileSync(join(root, "drizzle-pg", `${m.tag}.sql`), "utf8"));
  });

  test("the pg migrations make, on a fresh PostgreSQL, every table, column, index and trigger that SQLite's make", async () => {
    const lite = sqliteDatabase();
    const sql = new SQL(await freshDatabase());
    try {
      expect(await migratePg(sql)).toBe(embeddedPgMigrations.length);
      expect(await migratePg(sql)).toBe(0);
      const pgDb = await pgDbShapes(sql);
      const liteDb = sqliteDbShapes(lite);
      // Every table of the drizzle schema exists, as declared; then the whole store matches SQLite's.
      for (const [name, shape] of Object.entries(pgSchemaShapes())) expect({ [name]: pgDb[name] }).toEqual({ [name]: shape });
      expect(Object.keys(pgDb).sort()).toEqual(Object.keys(liteDb).sort());
      expect(withoutPgSearch(pgDb)).toEqual(liteDb);
      expect(await pgTriggers(sql)).toEqual(sqliteTriggers(lite));
    } finally {
      lite.close();
      await sql.close();
    }
  });

  test("the triggers keep the same counts, generations, search rows, stage visits and outcomes on both", async () => {
    const lite = sqliteDatabase();
    lite.run("PRAGMA foreign_keys = ON");
    const sql = new SQL(await freshDatabase());
    // The same statements on both engines: literals only, booleans as true/false (SQLite reads 1/0).
    const at = (s: number) => `'2026-03-01T10:00:${String(s).padStart(2, "0")}.000Z'`;
    const writes = [
      `INSERT INTO organizations (id, name, plan, rate_limit, created_at) VALUES ('o1', 'One', 'growth', 600, ${at(0)}), ('o2', 'Two', 'free', 60, ${at(0)})`,
      `INSERT INTO api_keys (id, organization_id, prefix, key_hash, scopes, created_at) VALUES ('k1', 'o1', 'svc', 'h1', 'all', ${at(0)})`,
      `UPDATE api_keys SET last_used_at = ${at(1)} WHERE id = 'k1'`, // bookkeeping: no generation
      `UPDATE api_keys SET name = 'ci' WHERE id = 'k1'`,
      `INSERT INTO flows (id, organization_id, name, type, is_default, created_at) VALUES ('f1', 'o1', 'Sales', 'sales', true, ${at(0)})`,
      `INSERT INTO stages (id, flow_id, organization_id, name, position, deadline_days, win_probability, color) VALUES
         ('s1', 'f1', 'o1', 'Lead', 1, 7, 10, 'gray'), ('s2', 'f1', 'o1', 'Offer', 2, NULL, 60, 'blue')`,
      `INSERT INTO dossiers (id, organization_id, flow_id, type, name, status, current_stage_id, stage_entered_at, created_at, updated_at) VALUES
         ('d1', 'o1', 'f1', 'sales', 'Acme', 'active', 's1', ${at(1)}, ${at(1)}, ${at(1)}),
         ('d2', 'o1', 'f1', 'sales', 'Bolt', 'won', 's1', NULL, ${at(2)}, ${at(2)}),
         ('d3', 'o1', NULL, 'candidate', 'Cleo', 'active', NULL, NULL, ${at(3)}, ${at(3)})`,
      `UPDATE dossiers SET current_stage_id = 's2', stage_entered_at = ${at(4)}, updated_at = ${at(4)} WHERE id = 'd1'`,
      `UPDATE dossiers SET status = 'won', updated_at = ${at(5)} WHERE id = 'd1'`,
      `UPDATE dossiers SET status = 'active', updated_at = ${at(6)} WHERE id = 'd2'`,
      `UPDATE dossiers SET current_stage_id = NULL, updated_at = ${at(7)} WHERE id = 'd2'`,
      `UPDATE dossiers SET name = 'Acme Ltd', updated_at = ${at(8)} WHERE id = 'd1'`,
      `INSERT INTO contacts (id, organization_id, full_name, email, email_folded, company, role, kind, kind_mask, created_at, updated_at) VALUES
         ('c1', 'o1', 'Ada LOVELACE', 'Ada@X.org', 'ada@x.org', 'Analytical', NULL, '["candidate"]', 1, ${at(1)}, ${at(1)}),
         ('c2', 'o1', 'Émile Zola', NULL, NULL, 'ÉDITIONS', 'Writer', '["prospect","client"]', 6, ${at(2)}, ${at(2)}),
         ('c3', 'o2', 'Grace Hopper', 'grace@y.org', 'grace@y.org', NULL, 'Admiral', '["candidate"]', 1, ${at(3)}, ${at(3)})`,
      `UPDATE contacts SET role = 'Countess', updated_at = ${at(4)} WHERE id = 'c1'`,
      `UPDATE contacts SET notes = 'met', updated_at = ${at(5)} WHERE id = 'c2'`,
      `UPDATE contacts SET kind = '["candidate","client"]', kind_mask = 5 WHERE id = 'c1'`,
      `UPDATE contacts SET created_at = ${at(0)} WHERE id = 'c2'`,
      `INSERT INTO dossier_contacts (dossier_id, contact_id, organization_id, role_on_dossier, is_primary, created_at) VALUES
         ('d1', 'c1', 'o1', 'primary', true, ${at(6)}), ('d3', 'c2', 'o1', 'other', false, ${at(6)})`,
      `UPDATE dossier_contacts SET role_on_dossier = 'champion' WHERE dossier_id = 'd1'`,
      `DELETE FROM contacts WHERE id = 'c2'`, // cascades to its link
      `DELETE FROM dossier_contacts WHERE dossier_id = 'd1'`,
      `DELETE FROM dossiers WHERE id = 'd3'`,
      `UPDATE organizations SET name = 'Uno' WHERE id = 'o1'`,
    ];
    const reads = {
      dossier_counts: `SELECT organization_id, type, status, flow_id, stage_id, CAST(n AS integer) AS n FROM dossier_counts ORDER BY 1, 2, 3, 4, 5`,
      contact_kind_counts: `SELECT organization_id, CAST(kind_mask AS integer) AS kind_mask, CAST(n AS integer) AS n FROM contact_kind_counts ORDER BY 1, 2`,
      contact_generations: `SELECT organization_id, CAST(generation AS integer) AS generation, CAST(search_edits AS integer) AS search_edits FROM contact_generations ORDER BY 1`,
      generations: `SELECT organization_id, table_name, CAST(generation AS integer) AS generation FROM generations ORDER BY 1, 2`,
      contact_search: `SELECT contact_id, organization_id, full_name, email, company, role, created_at FROM contact_search ORDER BY id`,
      stage_visits: `SELECT organization_id, flow_id, dossier_id, stage_id, entered_at, left_at, next_stage_id FROM stage_visits ORDER BY id`,
      dossier_outcomes: `SELECT dossier_id, organization_id, flow_id, status, at FROM dossier_outcomes ORDER BY 1`,
    };
    try {
      await migratePg(sql);
      for (const write of writes) {
        lite.run(write);
        await sql.unsafe(write);
      }
      for (const [table, read] of Object.entries(reads)) {
        const expected = lite.query(read).all();
        expect(expected.length).toBeGreaterThan(0);
        expect({ [table]: [...(await sql.unsafe(read))] }).toEqual({ [table]: expected } as never);
      }
      // lower() folds ASCII only on both, whatever the database's locale (the service folds the rest).
      const [row] = await sql`SELECT full_name, company FROM contact_search WHERE contact_id = 'c1'`;
      expect(row).toEqual({ full_name: "ada lovelace", company: "analytical" });
      // The trigram index finds a substring within one field, never across two.
      const found = await sql`SELECT contact_id FROM contact_search WHERE organization_id = 'o1' AND search_text LIKE ${"%lovel%"}`;
      expect(found.map((r: { contact_id: string }) => r.contact_id)).toEqual(["c1"]);
      const across = await sql`SELECT contact_id FROM contact_search WHERE organization_id = 'o1' AND search_text LIKE ${"%lovelace ada%"}`;
      expect(across.length).toBe(0);
    } finally {
      lite.close();
      await sql.close();
    }
  });
});
