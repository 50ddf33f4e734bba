// A fingerprint of everything a request could change (issue 7): per table, a hash of its rows
// (sorted, so the order SQLite returns them in does not matter), and per file under the files
// folder, its size and hash. Compare before and after a rejected request: `expect(after).toEqual(before)`
// names the table or the file that changed.
import type { Database } from "bun:sqlite";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import type { DossierApp } from "../../src/app";
import type { Store } from "../../src/db/store";
import { queryRows } from "./stores";

export interface Fingerprint {
  /** table name → `<row count>:<sha256 of the sorted rows>` */
  tables: Record<string, string>;
  /** path under the files folder → `<size>:<sha256>` */
  files: Record<string, string>;
}

/** Columns that change on any authenticated request, by design, and are not data: a key's
 * last use (written at most once a minute, whatever the answer). */
export const BOOKKEEPING: Record<string, string[]> = { api_keys: ["last_used_at"] };

const sha256 = (data: string | Uint8Array) => new Bun.CryptoHasher("sha256").update(data).digest("hex");

function encode(value: unknown): unknown {
  if (value instanceof Uint8Array) return `blob:${Buffer.from(value).toString("hex")}`;
  if (typeof value === "bigint") return `bigint:${value}`;
  return value;
}

/** Row hashes of every table of the database (virtual tables and their shadow tables included). */
export function tableFingerprint(sqlite: Database, ignore: Record<string, string[]> = BOOKKEEPING): Record<string, string> {
  const tables = sqlite
    .query<{ name: string }, []>(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
    .all();
  const out: Record<string, string> = {};
  for (const { name } of tables) {
    const skip = new Set(ignore[name] ?? []);
    const rows = sqlite.query<Record<string, unknown>, []>(`SELECT * FROM "${name.replaceAll('"', '""')}"`).all();
    const lines = rows
      .map((row) => JSON.stringify(Object.entries(row).filter(([column]) => !skip.has(column)).map(([c, v]) => [c, encode(v)])))
      .sort();
    out[name] = `${lines.length}:${sha256(lines.join("\n"))}`;
  }
  return out;
}

/** Every file under `dir` (recursively): relative path → size and hash. A missing folder is empty. */
export function filesFingerprint(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (folder: string) => {
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      return;
    }
    for (const name of names.sort()) {
      const path = join(folder, name);
      let stat;
      try {
        stat = statSync(path);
      } catch {
        continue; // removed while we looked
      }
      if (stat.isDirectory()) walk(path);
      else out[relative(dir, path)] = `${stat.size}:${sha256(readFileSync(path))}`;
    }
  };
  walk(dir);
  return out;
}

export function fingerprint(sqlite: Database, filesDir: string, ignore: Record<string, string[]> = BOOKKEEPING): Fingerprint {
  return { tables: tableFingerprint(sqlite, ignore), files: filesFingerprint(filesDir) };
}

/** The fingerprint of an in-process app (its database and its files folder). */
export function appFingerprint(app: DossierApp, ignore: Record<string, string[]> = BOOKKEEPING): Fingerprint {
  return fingerprint(app.dossier.store.sqlite, app.dossier.filesDir, ignore);
}

/** The fingerprint of an in-process app on either engine (C19): on SQLite appFingerprint; on
 * PostgreSQL, per table of the public schema, its row count and a hash of its sorted rows (each as
 * JSON, the `ignore` columns left out), all in one query, and the files folder's. Compare only
 * fingerprints of one app. */
export async function engineFingerprint(app: DossierApp<Store>, ignore: Record<string, string[]> = BOOKKEEPING): Promise<Fingerprint> {
  if (app.dossier.store.engine === "sqlite") return appFingerprint(app as DossierApp, ignore);
  let query = pgFingerprints.get(app);
  if (!query) {
    // The shared counters (src/db/pg/counters.ts) count refused requests too (C10), and the leases
    // (src/jobs/lease.ts) are taken by the server's own timers (a server's first event sweep, the
    // import worker's scan), whatever the requests: not data. On SQLite they stay empty.
    const names = await queryRows<{ name: string }>(
      app,
      `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename NOT IN ('rate_counters', 'rate_hits', 'sign_in_failures', 'leases') ORDER BY tablename`,
    );
    const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
    const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
    const columns = names.map(({ name }) => {
      const row = `(to_jsonb(t) - ARRAY[${(ignore[name] ?? []).map(literal).join(", ")}]::text[])::text`;
      return `(SELECT count(*) || ':' || coalesce(md5(string_agg(x, E'\\n' ORDER BY x)), '') FROM (SELECT ${row} AS x FROM ${quote(name)} t) s) AS ${quote(name)}`;
    });
    query = `SELECT ${columns.join(", ")}`;
    pgFingerprints.set(app, query);
  }
  const [tables] = await queryRows<Record<string, string>>(app, query);
  return { tables: { ...tables }, files: filesFingerprint(app.dossier.filesDir) };
}

/** The fingerprint query of each app on PostgreSQL (its tables do not change while it runs). */
const pgFingerprints = new WeakMap<DossierApp<Store>, string>();

/** What differs between two fingerprints, as readable lines (empty when equal). */
export function fingerprintDiff(before: Fingerprint, after: Fingerprint): string[] {
  const out: string[] = [];
  for (const kind of ["tables", "files"] as const) {
    const names = new Set([...Object.keys(before[kind]), ...Object.keys(after[kind])]);
    for (const name of [...names].sort()) {
      const a = before[kind][name];
      const b = after[kind][name];
      if (a !== b) out.push(`${kind} ${name}: ${a ?? "(absent)"} → ${b ?? "(absent)"}`);
    }
  }
  return out;
}
