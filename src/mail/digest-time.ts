// When a member's morning digest goes (C22): 08:00 in the member's `time_zone`, an IANA name, worked
// out with Intl from the zone's own rules for each day, never with a fixed offset ("08:00 in
// Europe/Paris" is 07:00 UTC in winter and 06:00 UTC in summer). Pure: the instant is an argument.
//
// Local times that a zone skips or repeats follow Temporal's "compatible" choice: a time in a gap
// (02:30 on the night clocks go forward) is moved forward by the gap's length (03:30); a time that
// happens twice (02:30 on the night clocks go back) is the earlier one. So every local day that
// exists has exactly one digest instant, and a day a zone skipped whole (Pacific/Apia, 30 December
// 2011) has its digest at the next day's, which is then sent once, not twice.

export class InvalidTimeZoneError extends Error {
  override name = "InvalidTimeZoneError";
}

/** A local date, `YYYY-MM-DD`. */
export type LocalDate = string;

export interface LocalDateTime {
  year: number;
  month: number; // 1-12
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's canonical spelling (`europe/paris` → `Europe/Paris`); throws InvalidTimeZoneError for
 * anything that is not an IANA zone name: unknown names, and the fixed offsets (`+01:00`) that the
 * runtime's Intl would otherwise take. */
export function checkTimeZone(zone: string): string {
  return formatter(zone).resolvedOptions().timeZone;
}

/** Whether `zone` is an IANA zone name the runtime knows. */
export function isTimeZone(zone: string): boolean {
  try {
    checkTimeZone(zone);
    return true;
  } catch {
    return false;
  }
}

function formatter(zone: string): Intl.DateTimeFormat {
  let format = formatters.get(zone);
  if (format) return format;
  if (typeof zone !== "string" || zone.trim() === "" || /^[+\-\u2212]|^\d/.test(zone.trim()) || zone.length > 100) {
    throw new InvalidTimeZoneError(`invalid time zone ${JSON.stringify(zone)}: expected an IANA name such as Europe/Paris or UTC`);
  }
  try {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
  } catch {
    throw new InvalidTimeZoneError(`invalid time zone ${JSON.stringify(zone)}: expected an IANA name such as Europe/Paris or UTC`);
  }
  if (formatters.size > 1000) formatters.clear();
  formatters.set(zone, format);
  return format;
}

/** The wall-clock time in `zone` at `instant`. */
export function localDateTime(instant: Date | number, zone: string): LocalDateTime {
  const parts: Record<string, number> = {};
  for (const part of formatter(zone).formatToParts(new Date(instant))) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour === 24 ? 0 : parts.hour, minute: parts.minute, second: parts.second };
}

/** The local date in `zone` at `instant`. */
export function localDate(instant: Date | number, zone: string): LocalDate {
  const t = localDateTime(instant, zone);
  return formatDate(t.year, t.month, t.day);
}

/** The zone's offset from UTC at `instant`, in ms (+02:00 → 7,200,000). */
export function offsetAt(instant: Date | number, zone: string): number {
  const ms = Math.floor(new Date(instant).getTime() / 1000) * 1000; // Intl shows whole seconds
  const t = localDateTime(ms, zone);
  return Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second) - ms;
}

/** The instant at which `zone`'s clocks show the local date and time given; a time the zone skips
 * is moved forward by the gap, a time it repeats is the earlier of the two. */
export function zonedInstant(date: LocalDate, time: { hour: number; minute?: number }, zone: string): Date {
  const [year, month, day] = parseDate(date);
  const minute = time.minute ?? 0;
  if (!Number.isInteger(time.hour) || time.hour < 0 || time.hour > 23 || !Number.isInteger(minute) || minute < 0 || minute > 59) {
    throw new RangeError(`invalid local time ${time.hour}:${minute}`);
  }
  const wall = Date.UTC(year, month - 1, day, time.hour, minute);
  // The offsets a day either side hold the one before and the one after any change near `wall`.
  const before = offsetAt(wall - DAY, zone);
  const after = offsetAt(wall + DAY, zone);
  const shows = (t: number) => {
    const local = localDateTime(t, zone);
    return Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute) === wall;
  };
  const candidates = [...new Set([wall - before, wall - after])].filter(shows).sort((a, b) => a - b);
  if (candidates.length > 0) return new Date(candidates[0]); // the earlier when the time repeats
  // Skipped: the same wall time read with the offset from before the change, which lands after it.
  return new Date(wall - before);
}

/** When the local day `date` begins and ends in `zone` (a day may last 23, 25 or even 0 hours):
 * tasks due that day have `start <= due_at < end`. */
export function localDayRange(date: LocalDate, zone: string): { start: Date; end: Date } {
  return { start: zonedInstant(date, { hour: 0 }, zone), end: zonedInstant(addDays(date, 1), { hour: 0 }, zone) };
}

/** The digest's hour (C22: 08:00 local). */
export const DIGEST_TIME = { hour: 8, minute: 0 } as const;

export interface DigestSlot {
  /** When the digest goes. */
  at: Date;
  /** The local day it is the digest of: its "due that day". */
  date: LocalDate;
}

/** The instant of the digest of local day `date` in `zone`, and the day it lands on. */
export function digestSlot(date: LocalDate, zone: string, time: { hour: number; minute?: number } = DIGEST_TIME): DigestSlot {
  const at = zonedInstant(date, time, zone);
  return { at, date: localDate(at, zone) };
}

/** The first digest strictly after `after` for a member in `zone`: what a job runner waits for. */
export function nextDigestAt(after: Date | number, zone: string, time: { hour: number; minute?: number } = DIGEST_TIME): DigestSlot {
  const from = new Date(after).getTime();
  let date = localDate(from, zone);
  for (let i = 0; i < 4; i++, date = addDays(date, 1)) {
    const slot = digestSlot(date, zone, time);
    if (slot.at.getTime() > from) return slot;
  }
  throw new Error(`no digest time found after ${new Date(from).toISOString()} in ${zone}`); // a zone that skips three days
}

/** Today's digest in `zone` once its time has come (at or before `now`), else null: what a job
 * runner sends when the member has not had that day's yet (after downtime too, later that same
 * day; never a past day's). */
export function dueDigest(now: Date | number, zone: string, time: { hour: number; minute?: number } = DIGEST_TIME): DigestSlot | null {
  const slot = digestSlot(localDate(now, zone), zone, time);
  return slot.at.getTime() <= new Date(now).getTime() ? slot : null;
}

/** `date` plus `days` calendar days. */
export function addDays(date: LocalDate, days: number): LocalDate {
  const [year, month, day] = parseDate(date);
  const next = new Date(Date.UTC(year, month - 1, day + days));
  return formatDate(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate());
}

function parseDate(date: LocalDate): [number, number, number] {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) throw new RangeError(`invalid local date ${JSON.stringify(date)}: expected YYYY-MM-DD`);
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) throw new RangeError(`invalid local date ${JSON.stringify(date)}`);
  return [year, month, day];
}

function formatDate(year: number, month: number, day: number): LocalDate {
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/** The zone a member's digest and times use (C22): the member's `time_zone`, else the server's
 * DOSSIER_TIME_ZONE, else UTC; a name the runtime no longer knows is passed over, not fatal. */
export function memberTimeZone(memberZone: string | null | undefined, serverZone: string | null | undefined): string {
  for (const zone of [memberZone, serverZone]) {
    if (zone && isTimeZone(zone)) return checkTimeZone(zone);
  }
  return "UTC";
}
