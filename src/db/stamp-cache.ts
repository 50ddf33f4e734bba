// Single records as a GET shows them (a dossier, a contact), remembered while nothing at all has
// been committed since they were read (the commit stamp, src/db/commit-stamp.ts). Their
// generations would cost a statement, as much as reading the record again; the stamp costs none,
// so a record read over and over between writes (a page that polls, a client fetching what a list
// named) is answered from memory, and its ETag is computed once (src/http/etag.ts keeps the tag of
// a frozen value). Any commit anywhere makes every entry stale: under writes this saves nothing and
// costs a map lookup.
import type { Database } from "bun:sqlite";
import { inWriteTransaction, readStamp } from "./snapshot";

interface Entry<V> {
  stamp: number;
  value: V;
}

export class StampCache<V extends object> {
  private readonly entries = new Map<string, Entry<V>>();

  constructor(
    private readonly sqlite: Database,
    private readonly maxEntries: number,
  ) {}

  /** The value under `key` as of now: remembered if nothing was committed since it was read, else
   * what `load` reads (remembered, frozen, unless read inside a transaction that may write). */
  get(key: string, load: () => V | null): V | null {
    const stamp = readStamp(this.sqlite);
    if (stamp === -1) return load();
    const entry = this.entries.get(key);
    if (entry?.stamp === stamp) return entry.value;
    const value = load();
    if (value === null || inWriteTransaction(this.sqlite)) return value;
    if (entry) this.entries.delete(key);
    else if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { stamp, value: deepFreeze(value) });
    return value;
  }
}

/** The value and the objects and arrays in it, frozen: one remembered value is shared by every
 * request that gets it, and none may change it for the others. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
