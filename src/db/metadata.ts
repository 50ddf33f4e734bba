// `metadata` as the stores keep it (issue 38), the same on both engines: the representation's JSON
// text in the row's `metadata` column (made by JSON.stringify in src/services/metadata.ts, so it
// reads back and prints again as the same bytes), and one row per pair in dossier_metadata or
// contact_metadata, written in the same unit, for the lists' `metadata[key]=value` filter.

/** The metadata object of a row's stored text. */
export const metadataOf = (text: string): Record<string, string> => (text === "{}" ? {} : JSON.parse(text));

/** The pairs of a metadata object, for its side table. */
export const pairsOf = (metadata: Record<string, string>): [string, string][] => Object.entries(metadata);

/** The distinct keys of an export's rows in the CSV's column order: by code unit, as the API's. */
export const sortedKeys = (keys: Iterable<string>): string[] => [...new Set(keys)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
