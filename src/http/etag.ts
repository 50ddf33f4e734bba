// Conditional requests (C16, RFC 9110 §8.8.3, §13): a strong ETag over the whole representation of
// one record, derived fields included (C20), so that two people editing one record do not
// overwrite each other.
import { ApiError } from "../errors";

/** The JSON of a value with every object's keys sorted: a GET and a PATCH's answer build the same
 * record along different paths, and must give it the same tag. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** The strong ETag of a record's representation. */
export const etagOf = (representation: unknown): string =>
  `"${new Bun.CryptoHasher("sha256").update(canonical(representation)).digest("base64url").slice(0, 32)}"`;

const tags = (header: string) => header.split(",").map((tag) => tag.trim()).filter(Boolean);

/** If-Match (strong comparison: a weak tag never matches; `*` matches any current record). */
export const ifMatchHolds = (header: string, current: string) => tags(header).some((tag) => tag === "*" || tag === current);

/** If-None-Match (weak comparison, §13.1.2): true when the client's copy is the current one. */
export const ifNoneMatchHits = (header: string, current: string) =>
  tags(header).some((tag) => tag === "*" || (tag.startsWith("W/") ? tag.slice(2) : tag) === current);

export const preconditionFailed = () =>
  new ApiError("precondition_failed", "the record has changed since the ETag given in If-Match: read it again, then retry");
