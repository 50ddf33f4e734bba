// Conditional requests (C16, RFC 9110 §8.8.3, §13): a strong ETag over the whole representation of
// one record, derived fields included (C20), so that two people editing one record do not
// overwrite each other.
import { ApiError } from "../errors";

/** The JSON of a value with every object's keys sorted: a GET and a PATCH's answer build the same
 * record along different paths, and must give it the same tag. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) out += (i > 0 ? "," : "") + canonical(value[i]);
    return out + "]";
  }
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    const keys = sortedKeys(record);
    // A record of plain values and lists of them (most are): JSON.stringify writes its keys in the
    // order given (the list applies to nested objects too, so there must be none).
    if (keys.every((key) => plain(record[key]))) return JSON.stringify(record, keys);
    let out = "{";
    for (const key of keys) {
      const v = record[key];
      if (v === undefined) continue;
      out += (out.length > 1 ? "," : "") + JSON.stringify(key) + ":" + canonical(v);
    }
    return out + "}";
  }
  return JSON.stringify(value) ?? "null";
}

const plain = (value: unknown): boolean =>
  typeof value !== "object" || value === null || (Array.isArray(value) && value.every((item) => typeof item !== "object" || item === null));

// A record's keys come in one of a few orders (the columns of a query, a service's object): each
// order is sorted once. Bounded, since a value's keys may come from input (a history item's changes).
const SORTED_LIMIT = 256;
const sortedOrders = new Map<string, string[]>();

function sortedKeys(record: Record<string, unknown>): string[] {
  const keys = Object.keys(record);
  const order = keys.join("\u0000");
  let sorted = sortedOrders.get(order);
  if (!sorted) {
    sorted = keys.sort();
    if (sortedOrders.size >= SORTED_LIMIT) sortedOrders.clear();
    sortedOrders.set(order, sorted);
  }
  return sorted;
}

/** The strong ETag of a record's representation. A frozen one (a remembered record,
 * src/db/stamp-cache.ts) never changes: its tag is computed once. */
export function etagOf(representation: unknown): string {
  const frozen = representation !== null && typeof representation === "object" && Object.isFrozen(representation);
  let tag = frozen ? frozenTags.get(representation) : undefined;
  if (tag === undefined) {
    tag = `"${new Bun.CryptoHasher("sha256").update(canonical(representation)).digest("base64url").slice(0, 32)}"`;
    if (frozen) frozenTags.set(representation, tag);
  }
  return tag;
}

const frozenTags = new WeakMap<object, string>();

const tags = (header: string) => header.split(",").map((tag) => tag.trim()).filter(Boolean);

/** If-Match (strong comparison: a weak tag never matches; `*` matches any current record). */
export const ifMatchHolds = (header: string, current: string) => tags(header).some((tag) => tag === "*" || tag === current);

/** If-None-Match (weak comparison, §13.1.2): true when the client's copy is the current one. */
export const ifNoneMatchHits = (header: string, current: string) =>
  tags(header).some((tag) => tag === "*" || (tag.startsWith("W/") ? tag.slice(2) : tag) === current);

export const preconditionFailed = () =>
  new ApiError("precondition_failed", "the record has changed since the ETag given in If-Match: read it again, then retry");
