// One way to write a moment and a day, by Intl in the reader's locale (issue 39: one date format
// on every screen). A moment has its time of day; a day (a date the API keeps without one) not.
export const MOMENT: Intl.DateTimeFormatOptions = { dateStyle: "medium", timeStyle: "short" };
export const DAY: Intl.DateTimeFormatOptions = { dateStyle: "medium" };

const moment = new Intl.DateTimeFormat(undefined, MOMENT);
const day = new Intl.DateTimeFormat(undefined, DAY);
// A date the API keeps without a time (2026-11-29) is that date, whatever the reader's time zone.
const date = new Intl.DateTimeFormat(undefined, { ...DAY, timeZone: "UTC" });

/** An ISO 8601 moment in words, e.g. "29 Nov 2026, 04:21". */
export const formatMoment = (iso: string) => moment.format(new Date(iso));

/** An ISO 8601 date (or the date of a moment) in words, e.g. "29 Nov 2026". */
export const formatDay = (iso: string) => (iso.length === 10 ? date.format(new Date(`${iso}T00:00:00Z`)) : day.format(new Date(iso)));
