// The one eviction rule of the store's caches: a Map bounded by its number of entries and by the
// total weight its caller gives each (characters of text, ids in a list), the oldest set going
// first. A caller that wants "least recently used" rather than "oldest" touches an entry on a hit.

export interface Bounds {
  maxEntries: number;
  /** Of all entries together; Infinity when only their number counts. */
  maxWeight: number;
}

export class BoundedMap<K, V> {
  private readonly entries = new Map<K, { value: V; weight: number }>();
  private total = 0;

  constructor(private readonly bounds: Bounds) {}

  get(key: K): V | undefined {
    return this.entries.get(key)?.value;
  }

  /** Remembers `value` as the newest entry, dropping the oldest ones until both bounds hold. A
   * value heavier than maxWeight alone is not remembered (false), nor is anything dropped for it. */
  set(key: K, value: V, weight = 0): boolean {
    if (weight > this.bounds.maxWeight) return false;
    this.delete(key);
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size < this.bounds.maxEntries && this.total + weight <= this.bounds.maxWeight) break;
      this.entries.delete(oldest);
      this.total -= entry.weight;
    }
    this.entries.set(key, { value, weight });
    this.total += weight;
    return true;
  }

  /** Makes the entry under `key`, if any, the newest. */
  touch(key: K): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.entries.set(key, entry);
  }

  delete(key: K): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.total -= entry.weight;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The weight of all entries together. */
  get weight(): number {
    return this.total;
  }
}
