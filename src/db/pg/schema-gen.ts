// Writes src/db/pg/schema.ts, the PostgreSQL side of the storage model (C19, issue 34), from
// src/db/schema.ts, the one declaration: `npm run db:generate:pg` runs it, then drizzle-kit.
// test/db/schema-drift.test.ts fails when the committed file is not what this writes.
//
// It reads the sqlite-core tables with drizzle's getTableConfig and writes the same tables,
// columns, keys and indexes with pg-core, by these rules (docs/decisions.md, "Kinds"):
// - text stays text (timestamps included: ISO 8601 UTC with milliseconds, the same bytes as on
//   SQLite, so ETags and cursors match), with its enum;
// - an integer boolean is boolean, real is double precision;
// - an integer is integer, but bigint read as a JavaScript number ({ mode: "number" }: exact up to
//   2^53) for an AUTOINCREMENT key, a column whose foreign key names a bigint, and the columns
//   src/db/schema.ts lists in PG_BIGINT (counters that only grow, epoch milliseconds);
// - an AUTOINCREMENT key is an identity BY DEFAULT, so that `dossier migrate --to` can copy rows
//   with their numbers (then setval the sequence);
// - defaults, primary keys (composite too), foreign keys with their ON DELETE, indexes with their
//   order, uniqueness and `where`, as declared;
// - the SQL of an index or its `where` is SQLite's, with the two spellings PostgreSQL writes
//   otherwise rewritten (SQL_REWRITES below); a column named alone with `desc` is `.desc()`.
// What drizzle cannot say (triggers, contact search, UNLOGGED counters) is hand-written SQL in
// drizzle-pg/ (docs/decisions.md, "PostgreSQL schema"). Anything else this does not know how to
// map throws, rather than guess.
import { Column, getTableColumns, is, SQL, StringChunk } from "drizzle-orm";
import { getTableConfig, SQLiteBaseInteger, SQLiteTable } from "drizzle-orm/sqlite-core";
import { join } from "node:path";
import * as lite from "../schema";

/** SQLite spellings that PostgreSQL writes another way, in the SQL of indexes ("${t.key}" is a column). */
const SQL_REWRITES: { why: string; rewrite: (text: string, booleans: Set<string>) => string }[] = [
  {
    why: "a boolean is 0/1 on SQLite and tested alone on PostgreSQL (is_default = 1 → is_default)",
    rewrite: (text, booleans) => text.replace(/(\$\{t\.\w+\}|\b\w+\b) = 1\b/g, (match, column) => (booleans.has(column) ? column : match)),
  },
  {
    why: "a JSON path on text: SQLite's ->> '$.a.b' is PostgreSQL's ::jsonb -> 'a' ->> 'b'",
    rewrite: (text) =>
      text.replace(/(\$\{t\.\w+\}) ->> '\$\.([\w.]+)'/g, (_, column: string, path: string) => {
        const keys = path.split(".");
        return `${column}::jsonb${keys.map((key, i) => ` ${i === keys.length - 1 ? "->>" : "->"} '${key}'`).join("")}`;
      }),
  },
];

const OUT = join(import.meta.dir, "schema.ts");

interface Named {
  table: string; // the export's name
  key: string; // the column's key in its table
}

/** The text of src/db/pg/schema.ts as src/db/schema.ts makes it. */
export function pgSchemaSource(): string {
  const tables = (Object.entries(lite) as [string, unknown][]).filter((entry): entry is [string, SQLiteTable] => is(entry[1], SQLiteTable));
  const names = new Map<Column, Named>();
  for (const [table, value] of tables) for (const [key, column] of Object.entries(getTableColumns(value))) names.set(column, { table, key });
  const nameOf = (column: Column): Named => names.get(column) ?? fail(`column ${column.name} belongs to no exported table`);
  const listed = new Set<Column>(lite.PG_BIGINT);

  const isAutoIncrement = (column: Column) => is(column, SQLiteBaseInteger) && column.autoIncrement;
  const referenced = new Map<Column, Column>(); // a column → the one its foreign key names
  const onDelete = new Map<Column, string>();
  for (const [, table] of tables) {
    for (const fk of getTableConfig(table).foreignKeys) {
      const { columns, foreignColumns, name } = fk.reference();
      if (columns.length !== 1 || name !== undefined) fail(`${getTableConfig(table).name}: a named foreign key or one of several columns (extend the generator)`);
      referenced.set(columns[0], foreignColumns[0]);
      if (fk.onUpdate !== undefined && fk.onUpdate !== "no action") fail(`${columns[0].name}: ON UPDATE (extend the generator)`);
      if (fk.onDelete !== undefined) onDelete.set(columns[0], fk.onDelete);
    }
  }
  const isBigint = (column: Column): boolean => {
    const target = referenced.get(column);
    return isAutoIncrement(column) || listed.has(column) || (target !== undefined && column.columnType === "SQLiteInteger" && isBigint(target));
  };

  const used = new Set<string>(["pgTable"]);
  const use = (name: string) => (used.add(name), name);

  function columnSource(column: Column): string {
    if (column.defaultFn !== undefined || column.onUpdateFn !== undefined || column.generated !== undefined || column.isUnique) {
      fail(`${column.name}: $defaultFn, $onUpdate, generated or unique() (extend the generator)`);
    }
    const name = JSON.stringify(column.name);
    let out: string;
    switch (column.columnType) {
      case "SQLiteText":
        out = column.enumValues ? `${use("text")}(${name}, { enum: ${JSON.stringify(column.enumValues).replaceAll(",", ", ")} })` : `${use("text")}(${name})`;
        break;
      case "SQLiteBoolean":
        out = `${use("boolean")}(${name})`;
        break;
      case "SQLiteReal":
        out = `${use("doublePrecision")}(${name})`;
        break;
      case "SQLiteInteger":
        out = isBigint(column) ? `${use("bigint")}(${name}, { mode: "number" })` : `${use("integer")}(${name})`;
        break;
      default:
        fail(`${column.name}: SQLite kind ${column.columnType} (extend the generator)`);
    }
    if (column.primary) out += ".primaryKey()";
    if (isAutoIncrement(column)) out += ".generatedByDefaultAsIdentity()";
    if (column.notNull && !column.primary) out += ".notNull()";
    if (column.default !== undefined) {
      if (is(column.default, SQL)) fail(`${column.name}: an SQL default (extend the generator)`);
      out += `.default(${JSON.stringify(column.default)})`;
    }
    const target = referenced.get(column);
    if (target !== undefined) {
      const { table, key } = nameOf(target);
      const action = onDelete.get(column);
      out += `.references(() => ${table}.${key}${action ? `, { onDelete: ${JSON.stringify(action)} }` : ""})`;
    }
    return out;
  }

  function tableSource(exported: string, table: SQLiteTable): string {
    const config = getTableConfig(table);
    const booleans = new Set(config.columns.filter((c) => c.columnType === "SQLiteBoolean").flatMap((c) => [c.name, `\${t.${nameOf(c).key}}`]));
    const own = (column: Column) => (column.table === table ? `t.${nameOf(column).key}` : fail(`${config.name}: an index on another table's column`));
    // An SQL fragment as the text of a sql`...` template, its columns as ${t.key}.
    const template = (query: SQL): string => {
      let text = "";
      for (const chunk of query.queryChunks) {
        if (is(chunk, StringChunk)) text += chunk.value.join("").replace(/[`\\]|\$\{/g, (c) => `\\${c}`);
        else if (is(chunk, Column)) text += `\${${own(chunk)}}`;
        else fail(`${config.name}: an index's SQL holds a ${typeof chunk} that is neither text nor a column (extend the generator)`);
      }
      return SQL_REWRITES.reduce((out, { rewrite }) => rewrite(out, booleans), text);
    };
    const indexColumn = (column: unknown): string => {
      if (is(column, Column)) return own(column);
      if (!is(column, SQL)) fail(`${config.name}: an index column that is neither a column nor SQL`);
      const text = template(column);
      const ordered = /^\$\{(t\.\w+)\} (asc|desc)$/i.exec(text.trim());
      if (ordered) return `${ordered[1]}.${ordered[2].toLowerCase()}()`;
      return `${use("sql")}\`${text}\``;
    };

    const columns = Object.entries(getTableColumns(table)).map(([key, column]) => `${key}: ${columnSource(column)},`);
    const extras: string[] = [];
    if (config.primaryKeys.some((pk) => pk.name !== undefined)) fail(`${config.name}: a named primary key (extend the generator)`);
    for (const pk of config.primaryKeys) extras.push(`${use("primaryKey")}({ columns: [${pk.columns.map(own).join(", ")}] })`);
    for (const { config: index } of config.indexes) {
      let out = `${use(index.unique ? "uniqueIndex" : "index")}(${JSON.stringify(index.name)}).on(${index.columns.map(indexColumn).join(", ")})`;
      if (index.where !== undefined) out += `\n      .where(${use("sql")}\`${template(index.where)}\`)`;
      extras.push(out);
    }
    if (config.checks.length > 0 || config.uniqueConstraints.length > 0) fail(`${config.name}: checks or unique constraints (extend the generator)`);
    const name = JSON.stringify(config.name);
    if (extras.length === 0) return `export const ${exported} = pgTable(${name}, {\n${columns.map((c) => `  ${c}\n`).join("")}});\n`;
    return (
      `export const ${exported} = pgTable(\n  ${name},\n  {\n${columns.map((c) => `    ${c}\n`).join("")}  },\n` +
      `  (t) => [\n${extras.map((e) => `    ${e},\n`).join("")}  ],\n);\n`
    );
  }

  const body = tables.map(([exported, table]) => tableSource(exported, table)).join("\n");
  const pgCore = [...used].filter((n) => n !== "sql").sort();
  return [
    "// Generated by src/db/pg/schema-gen.ts from src/db/schema.ts (npm run db:generate:pg): do not edit.",
    "// The PostgreSQL side of the storage model (C19, issue 34); the generator says how each kind maps,",
    "// src/db/schema.ts what each table is for. test/db/schema-drift.test.ts fails when this file is not",
    "// the generator's output.",
    ...(used.has("sql") ? [`import { sql } from "drizzle-orm";`] : []),
    `import { ${pgCore.join(", ")} } from "drizzle-orm/pg-core";`,
    "",
    body,
  ].join("\n");
}

function fail(message: string): never {
  throw new Error(`src/db/pg/schema-gen.ts: ${message}`);
}

if (import.meta.main) await Bun.write(OUT, pgSchemaSource());
