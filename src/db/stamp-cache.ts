// Single records as a GET shows them (a dossier, a contact, a page of notes), remembered while
// nothing at all has been committed since they were read (the commit stamp,
// src/db/commit-stamp.ts). Their generations would cost a statement, as much as reading the record
// again; the stamp costs none, so a record read over and over between writes (a page that polls, a
// client fetching what a list named) is answered from memory, and its ETag is computed once
// (src/http/etag.ts keeps the tag of a frozen value). Any commit anywhere makes every entry stale:
// under writes this saves nothing and costs a map lookup.
//
// Entries are bounded in number and in weight: the characters of their strings and a little for
// every other value, so that records of long text (a note is up to 20,000 characters, a page up
// to 100 of them) cannot hold more than `maxWeight` between them. The oldest go first.
import type { Database } from "bun:sqlite";
import { BoundedMap } from "./bounded-map";
import { inWriteTransaction, readStamp } from "./snapshot";

export interface StampLimits {
  maxEntries: number;
  /** Characters of text, all entries together (a value's other fields count 8 each). */
  maxWeight: number;
}

export class StampCache<V extends object> {
  private readonly entries: BoundedMap<string, { stamp: number; value: V }>;

  constructor(
    private readonly sqlite: Database,
    limits: StampLimits,
  ) {
    this.entries = new BoundedMap(limits);
  }

  /** The value under `key` as of now: remembered if nothing was committed since it was read, else
   * what `load` reads (remembered, frozen, unless read inside a transaction that may write). */
  get(key: string, load: () => V | null): V | null {
    const stamp = readStamp(this.sqlite);
    if (stamp === -1) return load();
    const entry = this.entries.get(key);
    if (entry?.stamp === stamp) return entry.value;
    const value = load();
    if (value === null || inWriteTransaction(this.sqlite)) return value;
    this.entries.delete(key);
    this.entries.set(key, { stamp, value }, frozenWeight(value));
    return value;
  }
}

/** Freezes the value and the objects and arrays in it (one remembered value is shared by every
 * request that gets it, and none may change it for the others), and returns its weight. */
function frozenWeight(value: unknown): number {
  if (typeof value === "string") return value.length;
  if (value === null || typeof value !== "object") return 8;
  let weight = 8;
  for (const inner of Object.values(value)) weight += frozenWeight(inner);
  Object.freeze(value);
  return weight;
}
