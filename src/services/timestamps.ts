// Timestamps a client sends as filters (C17's updated_since): read strictly, compared as stored.
import { invalidBody } from "../errors";

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:T([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:\.(\d{1,9}))?)?(Z|[+-](?:[01]\d|2[0-3]):[0-5]\d))?$/;

/**
 * An ISO 8601 timestamp (`2026-11-22T04:21:26.123Z`, an offset instead of Z, or a date alone: its
 * midnight UTC) as stored timestamps are written (toISOString), so that comparing the strings
 * compares the instants. Digits past the millisecond round up: "at or after" stays exact. Anything
 * else: 400 invalid_body naming `name`.
 */
export function parseInstant(name: string, text: string): string {
  const match = ISO.exec(text);
  const [, year, month, day, hour, , , fraction] = match ?? [];
  const date = match ? new Date(Date.UTC(Number(year), Number(month) - 1, Number(day))) : null;
  const calendar = date !== null && date.getUTCFullYear() === Number(year) && date.getUTCMonth() === Number(month) - 1 && date.getUTCDate() === Number(day);
  // A time needs its zone: without one, the instant would depend on the server's.
  const zoned = match !== null && (hour === undefined) === (match[8] === undefined);
  const millis = fraction === undefined ? text : text.replace(`.${fraction}`, `.${fraction.slice(0, 3).padEnd(3, "0")}`);
  const ms = calendar && zoned ? Date.parse(millis) : NaN;
  if (Number.isNaN(ms)) throw invalidBody(`${name} must be an ISO 8601 timestamp, e.g. 2026-11-22T04:21:26.123Z`, name);
  const beyondMs = fraction !== undefined && /[1-9]/.test(fraction.slice(3));
  return new Date(ms + (beyondMs ? 1 : 0)).toISOString();
}
