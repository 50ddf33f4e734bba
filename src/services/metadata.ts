// `metadata` on dossiers and contacts (issue 38): the integrator's own key/value pairs, with
// Stripe's rules. At most 50 keys; a key 1 to 40 characters without `[` or `]` (they would not
// survive the list's `metadata[key]=value` filter); a value a string of at most 500 characters
// (code points, C10). On a PATCH the keys sent are merged into those kept; a key set to null or ""
// is removed; `metadata: ""` removes them all. Anything else is 400 invalid_body naming the key
// (`metadata.crm_id`).
//
// One order everywhere (representations, events, ETags, the CSV's columns): the keys sorted by
// code unit, built into an object in that order, which JavaScript then lists integer-like keys
// ("7", "42") first in numeric order. The stored JSON text is JSON.stringify of that object, so
// reading it back (JSON.parse) and printing it again gives the same bytes on both engines.
import { invalidBody } from "../errors";

export type Metadata = Record<string, string>;

export const METADATA_LIMITS = { keys: 50, keyLength: 40, valueLength: 500 } as const;

const codePoints = (text: string) => {
  let n = 0;
  for (const _ of text) n++;
  return n;
};

/** Throws 400 naming `param` unless `key` is a key metadata may have. */
export function checkMetadataKey(key: string, param: string) {
  const length = codePoints(key);
  if (length < 1 || length > METADATA_LIMITS.keyLength) {
    throw invalidBody(`${param}: a metadata key must be 1 to ${METADATA_LIMITS.keyLength} characters`, param);
  }
  if (key.includes("[") || key.includes("]")) throw invalidBody(`${param}: a metadata key cannot contain [ or ]`, param);
}

/** The pairs in the one order (see above). */
export const sortedMetadata = (pairs: Iterable<[string, string]>): Metadata =>
  Object.fromEntries([...pairs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** The metadata's stored text (and its ETag's share). */
export const metadataText = (metadata: Metadata): string => JSON.stringify(metadata);

/**
 * The metadata after `input` is applied to `before` ({} on a create): undefined keeps it; "" clears
 * it (null too, on a create, where C10 reads null as left out); an object merges. Checks every
 * rule, in the input's order.
 */
export function applyMetadata(before: Metadata, input: unknown, { create }: { create: boolean }): Metadata {
  if (input === undefined) return before;
  if (input === "" || (create && input === null)) return {};
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw invalidBody('metadata: must be an object of strings, or "" to remove every key', "metadata");
  }
  const next = new Map(Object.entries(before));
  for (const [key, value] of Object.entries(input)) {
    const param = `metadata.${key}`;
    checkMetadataKey(key, param);
    if (value === null || value === "") {
      next.delete(key);
      continue;
    }
    if (typeof value !== "string") throw invalidBody(`${param}: must be a string, or null or "" to remove the key`, param);
    if (codePoints(value) > METADATA_LIMITS.valueLength) {
      throw invalidBody(`${param}: must be at most ${METADATA_LIMITS.valueLength} characters`, param);
    }
    next.set(key, value);
  }
  if (next.size > METADATA_LIMITS.keys) throw invalidBody(`metadata: at most ${METADATA_LIMITS.keys} keys`, "metadata");
  return sortedMetadata(next);
}

/** The PATCH `metadata` that makes `after` into `before` again: the old values of the keys that
 * changed, null for the keys added (an import's revert, C21). */
export function metadataUndo(before: Metadata, after: Metadata): Record<string, string | null> {
  const undo = new Map<string, string | null>();
  for (const key of Object.keys(after)) if (!Object.hasOwn(before, key)) undo.set(key, null);
  for (const [key, value] of Object.entries(before)) if (after[key] !== value) undo.set(key, value);
  return Object.fromEntries(undo);
}

/** The `metadata[key]=value` filters of a list, checked: 400 naming the parameter. */
export function metadataFilters(filters: Record<string, string> | undefined): Record<string, string> | undefined {
  if (filters === undefined) return undefined;
  const keys = Object.keys(filters);
  if (keys.length > METADATA_LIMITS.keys) throw invalidBody(`metadata: at most ${METADATA_LIMITS.keys} filters`, "metadata");
  for (const key of keys) checkMetadataKey(key, `metadata[${key}]`);
  return keys.length === 0 ? undefined : filters;
}
