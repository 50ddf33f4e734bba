const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// Ids lead with their creation time (UUIDv7; ULID-like event ids), so each index keyed by an id
// takes new rows at one edge instead of at a random page: at a million rows a commit touches, and
// a WAL checkpoint writes back, half as many scattered pages (docs/performance.md).
export const newId = () => Bun.randomUUIDv7();
export const isUuid = (value: unknown): value is string => typeof value === "string" && UUID.test(value);

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** `length` characters of [A-Za-z0-9] from a cryptographic source, without modulo bias. */
export function randomAlphanumeric(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < 248 && out.length < length) out += ALPHANUMERIC[byte % 62];
    }
  }
  return out;
}

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** 26 characters of [0-9A-Z]: 10 for the milliseconds since 1970, then 80 random bits (a ULID). */
export function timeOrderedId(now = Date.now()): string {
  let time = "";
  for (let i = 0, t = now; i < 10; i++, t = Math.floor(t / 32)) time = CROCKFORD[t % 32] + time;
  let random = "";
  for (const byte of crypto.getRandomValues(new Uint8Array(16))) random += CROCKFORD[byte % 32];
  return time + random;
}
