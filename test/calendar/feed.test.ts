// C22: the private calendar feed, written with ical.js and read back with node-ical (another parser)
// and by hand against RFC 5545's rules: CRLF, lines folded at 75 octets without splitting a
// character, DTSTAMP and UID in every component, UIDs stable per task, a VTODO and a VEVENT per
// open task with a due date (all-day at local midnight, else timed in UTC), and an ETag that
// follows the content.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import ical, { type VEvent, type VTodo } from "node-ical";
import { allDayDate, CALENDAR_PRODID, calendarETag, calendarFeed, feedTasks, type TaskForCalendar } from "../../src/calendar/feed";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const task = (id: string, due_at: string | null, extra: Partial<TaskForCalendar> = {}): TaskForCalendar => ({
  id,
  title: `Task ${id}`,
  notes: null,
  due_at,
  status: "open",
  created_at: "2026-11-01T09:00:00.000Z",
  updated_at: "2026-11-02T10:15:30.000Z",
  ...extra,
});

const OPTIONS = { timeZone: "Europe/Paris", name: "Dossier: Zoë's tasks, work; all", uidDomain: "dossier.example.com" };

const longTitle = "Rappeler Léa Dupont-Martin, à propos de l'offre; vérifier le préavis 東京 🎉 ".repeat(4).trim();
const tasks: TaskForCalendar[] = [
  task("tsk_timed", "2026-11-27T13:05:00.000Z", { title: longTitle, notes: "First line\r\nSecond, with; a backslash \\ and a comma", url: "https://dossier.example.com/dossiers/d1?task=tsk_timed" }),
  task("tsk_allday", "2026-11-28T23:00:00.000Z", { title: "All day in Paris" }), // 00:00 on the 29th in Paris
  task("tsk_done", "2026-11-20T10:00:00.000Z", { status: "done" }),
  task("tsk_nodue", null),
];

/** The feed's physical lines, checked against RFC 5545 3.1 on the way. */
function physicalLines(body: string): string[] {
  expect(body.endsWith("\r\n")).toBe(true);
  expect(/(^|[^\r])\n/.test(body)).toBe(false); // no bare LF
  expect(/\r(?!\n)/.test(body)).toBe(false); // no bare CR
  const lines = body.slice(0, -2).split("\r\n");
  for (const line of lines) {
    const bytes = Buffer.from(line, "utf8");
    expect(bytes.length).toBeLessThanOrEqual(75); // octets, CRLF excluded
    expect(Buffer.from(bytes.toString("utf8"), "utf8").equals(bytes)).toBe(true);
  }
  return lines;
}

/** The logical lines: folds undone (CRLF followed by one space or tab). */
const unfold = (body: string) => body.replace(/\r\n[ \t]/g, "").split("\r\n").filter(Boolean);

/** Components as lists of logical lines, by their BEGIN name. */
function components(body: string, name: string): string[][] {
  const out: string[][] = [];
  let current: string[] | null = null;
  for (const line of unfold(body)) {
    if (line === `BEGIN:${name}`) current = [];
    else if (line === `END:${name}` && current) {
      out.push(current);
      current = null;
    } else current?.push(line);
  }
  return out;
}

describe("the body, by RFC 5545's rules", () => {
  const body = calendarFeed(tasks, OPTIONS);

  test("CRLF line ends, lines of at most 75 octets with no character split, a final CRLF", () => {
    const lines = physicalLines(body);
    expect(lines.some((line) => line.startsWith(" "))).toBe(true); // the long title was folded
    expect(lines[0]).toBe("BEGIN:VCALENDAR");
    expect(lines.at(-1)).toBe("END:VCALENDAR");
  });

  test("the calendar: VERSION, PRODID, the name and the member's zone, a refresh hint", () => {
    const head = unfold(body).slice(0, 10);
    expect(head).toEqual(
      expect.arrayContaining([
        "VERSION:2.0",
        `PRODID:${CALENDAR_PRODID}`,
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        "X-WR-TIMEZONE:Europe/Paris",
        "REFRESH-INTERVAL;VALUE=DURATION:PT60M",
        "X-PUBLISHED-TTL:PT60M",
      ]),
    );
  });

  test("one VTODO and one VEVENT per open task with a due date; each with UID and DTSTAMP", () => {
    const todos = components(body, "VTODO");
    const events = components(body, "VEVENT");
    expect(todos.length).toBe(2);
    expect(events.length).toBe(2);
    for (const component of [...todos, ...events]) {
      expect(component.filter((l) => l.startsWith("UID:")).length).toBe(1);
      expect(component.filter((l) => /^DTSTAMP:\d{8}T\d{6}Z$/.test(l)).length).toBe(1);
    }
    expect(todos.map((c) => c.find((l) => l.startsWith("UID:")))).toEqual(["UID:tsk_timed@dossier.example.com", "UID:tsk_allday@dossier.example.com"]);
    expect(events.map((c) => c.find((l) => l.startsWith("UID:")))).toEqual(["UID:tsk_timed-event@dossier.example.com", "UID:tsk_allday-event@dossier.example.com"]);
  });

  test("timed: DUE and DTSTART in UTC, a 30-minute event; all-day: DATE values, the event ending the next day", () => {
    const [timedTodo, allDayTodo] = components(body, "VTODO");
    const [timedEvent, allDayEvent] = components(body, "VEVENT");
    expect(timedTodo).toContain("DUE:20261127T130500Z");
    expect(timedEvent).toEqual(expect.arrayContaining(["DTSTART:20261127T130500Z", "DTEND:20261127T133500Z", "TRANSP:TRANSPARENT"]));
    expect(allDayTodo).toContain("DUE;VALUE=DATE:20261129");
    expect(allDayEvent).toEqual(expect.arrayContaining(["DTSTART;VALUE=DATE:20261129", "DTEND;VALUE=DATE:20261130"]));
  });

  test("TEXT values escaped: commas, semicolons, backslashes, line breaks", () => {
    const [timedTodo] = components(body, "VTODO");
    expect(timedTodo).toContain("DESCRIPTION:First line\\nSecond\\, with\\; a backslash \\\\ and a comma\\n\\nhttps://dossier.example.com/dossiers/d1?task=tsk_timed");
  });
});

describe("read back by node-ical", () => {
  const parsed = ical.sync.parseICS(calendarFeed(tasks, OPTIONS));

  test("the to-dos and events, with their texts unescaped and their times", () => {
    const todo = parsed["tsk_timed@dossier.example.com"] as VTodo;
    expect(todo.type).toBe("VTODO");
    expect(todo.summary).toBe(longTitle);
    expect(todo.description).toBe("First line\nSecond, with; a backslash \\ and a comma\n\nhttps://dossier.example.com/dossiers/d1?task=tsk_timed");
    expect(todo.status).toBe("NEEDS-ACTION");
    expect(new Date(todo.due!).toISOString()).toBe("2026-11-27T13:05:00.000Z");
    expect(new Date(todo.dtstamp).toISOString()).toBe("2026-11-02T10:15:30.000Z");
    expect(new Date(todo.created!).toISOString()).toBe("2026-11-01T09:00:00.000Z");

    const event = parsed["tsk_timed-event@dossier.example.com"] as VEvent;
    expect(event.type).toBe("VEVENT");
    expect(event.summary).toBe(longTitle);
    expect(event.datetype).toBe("date-time");
    expect(new Date(event.start).toISOString()).toBe("2026-11-27T13:05:00.000Z");
    expect(new Date(event.end!).toISOString()).toBe("2026-11-27T13:35:00.000Z");

    const allDay = parsed["tsk_allday-event@dossier.example.com"] as VEvent;
    expect(allDay.datetype).toBe("date");
    const start = allDay.start as Date;
    expect([start.getFullYear(), start.getMonth() + 1, start.getDate()]).toEqual([2026, 11, 29]);
    expect((parsed["tsk_allday@dossier.example.com"] as VTodo).summary).toBe("All day in Paris");
  });

  test("nothing of done tasks or tasks without a due date", () => {
    expect(Object.keys(parsed).filter((key) => /tsk_(done|nodue)/.test(key))).toEqual([]);
  });

  test("the calendar's name, with its comma and semicolon", () => {
    const calendar = Object.values(parsed).find((c) => c?.type === "VCALENDAR") as unknown as Record<string, unknown>;
    expect(calendar["WR-CALNAME"]).toBe(OPTIONS.name);
    expect(calendar.prodid).toBe(CALENDAR_PRODID);
  });
});

describe("stable UIDs and ETag", () => {
  test("the same tasks in another order give the same bytes and ETag; no clock goes into the body", () => {
    const a = calendarFeed(tasks, OPTIONS);
    const b = calendarFeed([...tasks].reverse(), OPTIONS);
    expect(b).toBe(a);
    expect(calendarETag(b)).toBe(calendarETag(a));
    expect(calendarETag(a)).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
  });

  test("a task's UID stays when other tasks come and go and when it changes; DTSTAMP follows updated_at, and the ETag changes", () => {
    const before = calendarFeed(tasks, OPTIONS);
    const changed = tasks.map((t) => (t.id === "tsk_allday" ? { ...t, title: "Renamed", updated_at: "2026-11-05T08:00:00.000Z" } : t));
    const after = calendarFeed([...changed, task("tsk_new", "2026-12-01T10:00:00.000Z")], OPTIONS);
    const uids = (body: string) => unfold(body).filter((l) => l.startsWith("UID:"));
    expect(uids(after)).toEqual(expect.arrayContaining(uids(before)));
    expect(components(after, "VTODO").find((c) => c.includes("UID:tsk_allday@dossier.example.com"))).toContain("DTSTAMP:20261105T080000Z");
    expect(calendarETag(after)).not.toBe(calendarETag(before));
  });

  test("no open task with a due date: a valid empty calendar", () => {
    const body = calendarFeed([task("x", null)], OPTIONS);
    physicalLines(body);
    expect(components(body, "VTODO")).toEqual([]);
    expect(Object.values(ical.sync.parseICS(body)).filter((c) => c?.type === "VEVENT" || c?.type === "VTODO")).toEqual([]);
  });
});

describe("all-day or timed: local midnight in the member's zone", () => {
  test("the same instant is all-day in one zone and timed in another", () => {
    expect(allDayDate("2026-11-28T23:00:00.000Z", "Europe/Paris")).toBe("2026-11-29");
    expect(allDayDate("2026-11-28T23:00:00.000Z", "UTC")).toBeNull();
    expect(allDayDate("2026-11-29T00:00:00.000Z", "UTC")).toBe("2026-11-29");
    expect(allDayDate("2026-11-29T00:00:00.001Z", "UTC")).toBeNull();
    expect(allDayDate("2026-06-14T18:30:00.000Z", "Asia/Kolkata")).toBe("2026-06-15");
    const utcFeed = calendarFeed([task("a", "2026-11-28T23:00:00.000Z")], { ...OPTIONS, timeZone: "UTC" });
    expect(components(utcFeed, "VEVENT")[0]).toContain("DTSTART:20261128T230000Z");
  });

  test("feedTasks: open, with a valid due date, by due time then id", () => {
    const list = [task("b", "2026-11-02T10:00:00.000Z"), task("a", "2026-11-02T10:00:00.000Z"), task("c", "2026-11-01T10:00:00.000Z"), task("d", "not a date")];
    expect(feedTasks(list).map((t) => t.id)).toEqual(["c", "a", "b"]);
  });

  test("an invalid zone is refused", () => {
    expect(() => calendarFeed(tasks, { ...OPTIONS, timeZone: "Mars/Olympus" })).toThrow(/invalid time zone/);
  });
});
