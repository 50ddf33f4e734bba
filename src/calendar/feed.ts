// A member's private calendar feed (C22): an RFC 5545 calendar of their open tasks with a due date,
// written with ical.js (Mozilla's iCalendar library: it writes VTODO, escapes TEXT values, folds
// lines at 75 octets without splitting a character, ends lines with CRLF). Each task is a VTODO
// and, for calendar apps that ignore VTODO (Google Calendar), a VEVENT:
//   - due at 00:00 exactly in the member's time zone: an all-day event on that date (DTSTART and
//     DTEND as DATE values), the to-do DUE that date;
//   - due at any other time: a 30-minute event starting at the due time, written in UTC (`Z`), so no
//     VTIMEZONE is needed and every app shows it at the right instant in its own zone.
// UIDs are stable per task (`<task id>@<domain>` and `<task id>-event@<domain>`) and DTSTAMP is the
// task's `updated_at`: the same tasks always give the same bytes, hence the same ETag, and an app
// refreshing the feed sees an unchanged task as unchanged. Pure: no clock is read.
import { createHash } from "node:crypto";
import ICAL from "ical.js";
import { addDays, checkTimeZone, localDateTime, type LocalDate } from "../mail/digest-time";

/** What the feed needs of a task (C22's task fields; the feed shows open tasks with a due date). */
export interface TaskForCalendar {
  id: string;
  title: string;
  notes: string | null;
  /** ISO 8601 date-time. */
  due_at: string | null;
  status: "open" | "done";
  created_at: string;
  updated_at: string;
  dossier_id?: string | null;
  contact_id?: string | null;
  assigned_to?: string | null;
  /** Where the task is seen in the console: the events' URL and a line of their description. */
  url?: string | null;
}

export interface CalendarFeedOptions {
  /** The member's IANA zone: which due times are all-day (local midnight), and X-WR-TIMEZONE. */
  timeZone: string;
  /** The calendar's name as apps show it. */
  name: string;
  /** The right-hand side of UIDs: the installation's host name (e.g. of DOSSIER_PUBLIC_URL). */
  uidDomain: string;
  /** How often subscribers should refresh, in minutes (REFRESH-INTERVAL, X-PUBLISHED-TTL). */
  refreshMinutes?: number;
}

// ical.js folds a line after 75 octets and then puts the continuation's leading space before the
// next 75: 76 octets, one more than RFC 5545 3.1 allows (the space counts). At 74 every physical
// line, the first included, is at most 75 (test/calendar/feed.test.ts measures each line).
ICAL.foldLength = 74;

export const CALENDAR_PRODID = "-//Dossier//Tasks//EN";
/** The length of a timed task's event. */
export const EVENT_MINUTES = 30;
/** The feed's media type. */
export const CALENDAR_CONTENT_TYPE = "text/calendar; charset=utf-8";

/** Whether a task due at `dueAt` is an all-day task for a member in `zone`: due at 00:00:00.000
 * local time. The local date is returned, or null for a timed task. */
export function allDayDate(dueAt: string, zone: string): LocalDate | null {
  const ms = Date.parse(dueAt);
  if (ms % 1000 !== 0) return null;
  const t = localDateTime(ms, zone);
  if (t.hour !== 0 || t.minute !== 0 || t.second !== 0) return null;
  return `${String(t.year).padStart(4, "0")}-${String(t.month).padStart(2, "0")}-${String(t.day).padStart(2, "0")}`;
}

/** The tasks the feed shows, in its order: open, with a valid due date, by due time then id. */
export function feedTasks(tasks: readonly TaskForCalendar[]): TaskForCalendar[] {
  return tasks
    .filter((task) => task.status === "open" && task.due_at !== null && !Number.isNaN(Date.parse(task.due_at)))
    .sort((a, b) => Date.parse(a.due_at!) - Date.parse(b.due_at!) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The feed's body: a whole iCalendar object, CRLF line ends, the last line ended too. */
export function calendarFeed(tasks: readonly TaskForCalendar[], options: CalendarFeedOptions): string {
  const zone = checkTimeZone(options.timeZone);
  const refresh = `PT${Math.max(1, Math.round(options.refreshMinutes ?? 60))}M`;
  const calendar = new ICAL.Component(["vcalendar", [], []]);
  calendar.addPropertyWithValue("version", "2.0");
  calendar.addPropertyWithValue("prodid", CALENDAR_PRODID);
  calendar.addPropertyWithValue("calscale", "GREGORIAN");
  calendar.addPropertyWithValue("method", "PUBLISH");
  calendar.addPropertyWithValue("name", options.name); // RFC 7986
  calendar.addPropertyWithValue("x-wr-calname", options.name); // Apple, Google, Outlook
  calendar.addPropertyWithValue("x-wr-timezone", zone);
  calendar.addPropertyWithValue("refresh-interval", ICAL.Duration.fromString(refresh)); // RFC 7986; ical.js adds VALUE=DURATION
  calendar.addPropertyWithValue("x-published-ttl", refresh); // Outlook
  for (const task of feedTasks(tasks)) {
    const allDay = allDayDate(task.due_at!, zone);
    calendar.addSubcomponent(todo(task, allDay, options.uidDomain));
    calendar.addSubcomponent(event(task, allDay, options.uidDomain));
  }
  return `${calendar.toString()}\r\n`;
}

/** A strong ETag of the feed's body (C16: computed over the whole representation). */
export function calendarETag(body: string): string {
  return `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`;
}

function common(component: ICAL.Component, task: TaskForCalendar, uid: string) {
  component.addPropertyWithValue("uid", uid);
  component.addPropertyWithValue("dtstamp", utc(task.updated_at));
  component.addPropertyWithValue("created", utc(task.created_at));
  component.addPropertyWithValue("last-modified", utc(task.updated_at));
  component.addPropertyWithValue("summary", task.title);
  const description = [task.notes?.replace(/\r\n?/g, "\n").trim() || null, task.url ?? null].filter(Boolean).join("\n\n");
  if (description) component.addPropertyWithValue("description", description);
  if (task.url) component.addPropertyWithValue("url", task.url).setParameter("value", "URI");
}

function todo(task: TaskForCalendar, allDay: LocalDate | null, domain: string): ICAL.Component {
  const component = new ICAL.Component("vtodo");
  common(component, task, `${task.id}@${domain}`);
  component.addPropertyWithValue("due", allDay ? date(allDay) : utc(task.due_at!));
  component.addPropertyWithValue("status", "NEEDS-ACTION");
  return component;
}

function event(task: TaskForCalendar, allDay: LocalDate | null, domain: string): ICAL.Component {
  const component = new ICAL.Component("vevent");
  common(component, task, `${task.id}-event@${domain}`);
  if (allDay) {
    component.addPropertyWithValue("dtstart", date(allDay));
    component.addPropertyWithValue("dtend", date(addDays(allDay, 1)));
  } else {
    const start = Date.parse(task.due_at!);
    component.addPropertyWithValue("dtstart", utc(start));
    component.addPropertyWithValue("dtend", utc(start + EVENT_MINUTES * 60_000));
  }
  component.addPropertyWithValue("transp", "TRANSPARENT"); // a reminder, not busy time
  component.addPropertyWithValue("status", "CONFIRMED");
  return component;
}

/** A UTC DATE-TIME value (`20261129T100000Z`): whole seconds, as iCalendar has no smaller unit. */
function utc(value: string | number): ICAL.Time {
  return ICAL.Time.fromJSDate(new Date(Math.floor(new Date(value).getTime() / 1000) * 1000), true);
}

/** A DATE value (`20261129`). */
function date(value: LocalDate): ICAL.Time {
  return ICAL.Time.fromDateString(value);
}
