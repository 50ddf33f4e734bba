// The one rule of the server's caches. A trigger on each cached table (migration 0005) moves the
// generation of (organization, table) in the same transaction as any insert, update or delete of
// that organization's rows. A cache entry keeps the generation it was read under, read in the same
// snapshot as the value; it is valid exactly while that generation is unchanged. Nothing calls a
// "forget": a write by this process, by the CLI from another process, or by a migration is seen
// the same way, and a write in one organization leaves the others' entries alone.
//
// A change of the schema (a migration run by another process, an operator's ALTER) counts as a
// change of every table: the schema's version is part of each generation.
//
// Inside a write unit a value may include the unit's uncommitted changes, and the unit may still
// roll back (its generation with it, so a later commit could reach the same number): values read
// there are returned but never remembered.
//
// An entry also keeps the commit stamp (src/db/commit-stamp.ts) under which its generation was last
// seen to hold: while nothing at all was committed since, the entry holds without reading its
// generation again.
//
// The contacts' cache (src/db/contact-search.ts) follows the same rule on its own table,
// contact_generations (migration 0004), which also counts the edits that reorder a search.
import type { Database, Statement } from "bun:sqlite";
import { BoundedMap } from "./bounded-map";
import { readStamp } from "./snapshot";

export type GenerationTable = "organizations" | "api_keys" | "flows" | "stages" | "dossiers" | "dossier_contacts";

export class Generations {
  /** Generations read so far (for tests: whether a hit read one). */
  reads = 0;
  private readonly statements = new Map<string, Statement<{ generation: number; schema: number }, string[]>>();

  constructor(
    private readonly sqlite: Database,
    /** True while a write unit runs (GroupCommit.inWriteUnit). */
    readonly inWriteUnit: () => boolean,
  ) {}

  /** A value that moves whenever any of `tables` changes for the organization (the sum of counters
   * that only grow, within a committed history) or the schema does. Compare with `===`. */
  of(organizationId: string, tables: readonly GenerationTable[]): string {
    const key = tables.join(",");
    let statement = this.statements.get(key);
    if (!statement) {
      // The table names are this module's constants, never input.
      const names = tables.map(() => "?").join(", ");
      statement = this.sqlite.query(
        `SELECT coalesce(sum(generation), 0) AS generation, (SELECT schema_version FROM pragma_schema_version()) AS schema
           FROM generations WHERE organization_id = ? AND table_name IN (${names})`,
      );
      this.statements.set(key, statement);
    }
    this.reads++;
    const row = statement.get(organizationId, ...tables)!;
    return `${row.schema}:${row.generation}`;
  }

  /** A cache whose entries hold while the generations of `tables` in their organization hold. */
  cache<V>(tables: readonly GenerationTable[], options: CacheLimits<V>): GenerationCache<V> {
    return new GenerationCache<V>(this, this.sqlite, tables, options);
  }
}

/** How much a cache holds: at most `maxEntries`, and with `weigh`, at most `maxWeight` in all (the
 * oldest entries go first). */
export interface CacheLimits<V> {
  maxEntries: number;
  weigh?: (value: V) => number;
  maxWeight?: number;
}

interface Entry<V> {
  organizationId: string;
  generation: string;
  value: V;
  /** The commit stamp under which the generation was last seen to hold (-1: none). */
  stamp: number;
}

export class GenerationCache<V> {
  private readonly entries: BoundedMap<string, Entry<V>>;

  constructor(
    private readonly generations: Generations,
    private readonly sqlite: Database,
    private readonly tables: readonly GenerationTable[],
    private readonly limits: CacheLimits<V>,
  ) {
    this.entries = new BoundedMap({ maxEntries: limits.maxEntries, maxWeight: limits.maxWeight ?? Infinity });
  }

  /** The value remembered under `key` if its organization's generations are unchanged; else what
   * `load` reads (undefined: nothing to remember), remembered unless a write unit is running. A hit
   * costs nothing when nothing was committed since the entry was last checked (the commit stamp,
   * src/db/commit-stamp.ts), else one statement; a miss reads the value and its generation in one
   * snapshot (store.read, or the transaction the caller is in). */
  get(key: string, load: () => { organizationId: string; value: V } | undefined): V | undefined {
    const stamp = readStamp(this.sqlite);
    const entry = this.entries.get(key);
    if (entry) {
      if (stamp !== -1 && stamp === entry.stamp) return entry.value;
      if (this.generations.of(entry.organizationId, this.tables) === entry.generation) {
        entry.stamp = stamp;
        return entry.value;
      }
      this.entries.delete(key);
    }
    if (this.sqlite.inTransaction) return this.fill(key, load, stamp);
    this.sqlite.query("BEGIN").run();
    try {
      return this.fill(key, load, stamp);
    } finally {
      this.sqlite.query("COMMIT").run();
    }
  }

  get size(): number {
    return this.entries.size;
  }

  private fill(key: string, load: () => { organizationId: string; value: V } | undefined, stamp: number): V | undefined {
    const loaded = load();
    if (!loaded || this.generations.inWriteUnit()) return loaded?.value;
    const generation = this.generations.of(loaded.organizationId, this.tables);
    const entry = { organizationId: loaded.organizationId, generation, value: loaded.value, stamp };
    this.entries.set(key, entry, this.limits.weigh?.(loaded.value) ?? 0);
    return loaded.value;
  }
}
