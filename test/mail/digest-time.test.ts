// C22: the morning digest at 08:00 in the member's IANA time zone, with Intl, across DST changes,
// half- and quarter-hour zones and a day a zone skipped; an invalid zone is an error.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import {
  addDays,
  checkTimeZone,
  dueDigest,
  InvalidTimeZoneError,
  isTimeZone,
  localDate,
  localDateTime,
  localDayRange,
  memberTimeZone,
  nextDigestAt,
  offsetAt,
  zonedInstant,
} from "../../src/mail/digest-time";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const iso = (d: Date) => d.toISOString();
const next = (after: string, zone: string) => {
  const slot = nextDigestAt(new Date(after), zone);
  return [iso(slot.at), slot.date];
};

describe("nextDigestAt: 08:00 local, the first strictly after the given instant", () => {
  const rows: [string, string, string, string, string][] = [
    // zone, after, expected at, expected local date, why
    ["UTC", "2026-06-10T07:59:59.999Z", "2026-06-10T08:00:00.000Z", "2026-06-10", "just before"],
    ["UTC", "2026-06-10T08:00:00.000Z", "2026-06-11T08:00:00.000Z", "2026-06-11", "at the instant: the next day's"],
    ["Europe/Paris", "2026-01-15T12:00:00.000Z", "2026-01-16T07:00:00.000Z", "2026-01-16", "winter, +01:00"],
    ["Europe/Paris", "2026-07-15T12:00:00.000Z", "2026-07-16T06:00:00.000Z", "2026-07-16", "summer, +02:00"],
    ["Europe/Paris", "2026-03-28T07:00:00.000Z", "2026-03-29T06:00:00.000Z", "2026-03-29", "clocks go forward at 02:00 on 29 March: 08:00 is an hour earlier in UTC"],
    ["Europe/Paris", "2026-03-28T06:59:00.000Z", "2026-03-28T07:00:00.000Z", "2026-03-28", "the day before the change"],
    ["Europe/Paris", "2026-03-29T00:30:00.000Z", "2026-03-29T06:00:00.000Z", "2026-03-29", "from inside the short night"],
    ["Europe/Paris", "2026-10-24T06:00:00.000Z", "2026-10-25T07:00:00.000Z", "2026-10-25", "clocks go back at 03:00 on 25 October"],
    ["Europe/Paris", "2026-10-25T00:30:00.000Z", "2026-10-25T07:00:00.000Z", "2026-10-25", "from the first 02:30 of the repeated hour"],
    ["Europe/Paris", "2026-10-25T01:30:00.000Z", "2026-10-25T07:00:00.000Z", "2026-10-25", "from the second 02:30"],
    ["America/New_York", "2026-03-07T13:00:00.000Z", "2026-03-08T12:00:00.000Z", "2026-03-08", "EST to EDT on 8 March"],
    ["America/New_York", "2026-03-07T12:59:00.000Z", "2026-03-07T13:00:00.000Z", "2026-03-07", "the last EST digest"],
    ["America/New_York", "2026-10-31T12:00:00.000Z", "2026-11-01T13:00:00.000Z", "2026-11-01", "EDT to EST on 1 November"],
    ["America/New_York", "2026-11-01T03:00:00.000Z", "2026-11-01T13:00:00.000Z", "2026-11-01", "from the evening before, local"],
    ["Asia/Kolkata", "2026-06-14T20:00:00.000Z", "2026-06-15T02:30:00.000Z", "2026-06-15", "+05:30: 01:30 local, the same day's"],
    ["Asia/Kolkata", "2026-06-15T02:30:00.000Z", "2026-06-16T02:30:00.000Z", "2026-06-16", "+05:30, no DST"],
    ["Pacific/Chatham", "2026-09-25T19:00:00.000Z", "2026-09-25T19:15:00.000Z", "2026-09-26", "+12:45"],
    ["Pacific/Chatham", "2026-09-25T19:15:00.000Z", "2026-09-26T18:15:00.000Z", "2026-09-27", "+12:45 to +13:45 at 02:45 on 27 September"],
    ["Pacific/Chatham", "2026-04-03T18:15:00.000Z", "2026-04-04T19:15:00.000Z", "2026-04-05", "+13:45 to +12:45 on 5 April"],
    ["Pacific/Chatham", "2026-04-02T18:15:00.000Z", "2026-04-03T18:15:00.000Z", "2026-04-04", "the last +13:45 digest"],
    ["Pacific/Kiritimati", "2026-06-15T12:00:00.000Z", "2026-06-15T18:00:00.000Z", "2026-06-16", "+14:00: the local day is ahead of UTC's"],
    ["Pacific/Pago_Pago", "2026-06-15T12:00:00.000Z", "2026-06-15T19:00:00.000Z", "2026-06-15", "-11:00"],
  ];
  for (const [zone, after, at, date, why] of rows) {
    test(`${zone} after ${after}: ${why}`, () => expect(next(after, zone)).toEqual([at, date]));
  }

  test("a day with no 08:00: Pacific/Apia skipped 30 December 2011 whole; the next digest is the 31st's, sent once", () => {
    expect(next("2011-12-29T17:00:00.000Z", "Pacific/Apia")).toEqual(["2011-12-29T18:00:00.000Z", "2011-12-29"]); // 08:00 at -10:00
    expect(next("2011-12-29T18:00:00.000Z", "Pacific/Apia")).toEqual(["2011-12-30T18:00:00.000Z", "2011-12-31"]); // 08:00 at +14:00
    expect(next("2011-12-30T18:00:00.000Z", "Pacific/Apia")).toEqual(["2011-12-31T18:00:00.000Z", "2012-01-01"]);
    expect(localDayRange("2011-12-30", "Pacific/Apia")).toEqual({ start: new Date("2011-12-30T10:00:00.000Z"), end: new Date("2011-12-30T10:00:00.000Z") });
  });

  test("every zone the runtime knows, around each of its 2026 offset changes and on ordinary days: one digest a local day, at 08:00 local, in order", () => {
    const zones = Intl.supportedValuesOf("timeZone");
    expect(zones.length).toBeGreaterThan(300);
    const DAY = 86_400_000;
    const year = Date.parse("2026-01-01T00:00:00.000Z");
    const problems: string[] = [];
    let changes = 0;
    for (const zone of zones) {
      // Days whose offset differs from the day before's (a DST change, a zone's new rule), and two
      // ordinary starting points.
      const starts = [year, year + 180 * DAY];
      for (let d = 1, last = offsetAt(year, zone); d <= 366; d++) {
        const offset = offsetAt(year + d * DAY, zone);
        if (offset !== last) starts.push(year + (d - 3) * DAY);
        last = offset;
      }
      changes += starts.length - 2;
      for (const start of starts) {
        let previous: { at: Date; date: string } | null = null;
        let after = start;
        for (let i = 0; i < 6; i++) {
          const slot = nextDigestAt(after, zone);
          const local = localDateTime(slot.at, zone);
          if (local.hour !== 8 || local.minute !== 0 || local.second !== 0) problems.push(`${zone} ${iso(slot.at)}: local ${local.hour}:${local.minute}`);
          if (previous && slot.date !== addDays(previous.date, 1)) problems.push(`${zone}: ${previous.date} then ${slot.date}`);
          const gap = previous ? slot.at.getTime() - previous.at.getTime() : DAY;
          if (gap < 22 * 3_600_000 || gap > 26 * 3_600_000) problems.push(`${zone} ${iso(slot.at)}: ${gap / 3_600_000} h after the last`);
          previous = slot;
          after = slot.at.getTime();
        }
      }
    }
    expect(changes).toBeGreaterThan(100); // the sweep did meet DST changes
    expect(problems).toEqual([]);
  });
});

describe("zonedInstant: local times a zone skips or repeats", () => {
  test("Europe/Paris, 29 March 2026: 02:30 does not exist; it is taken as 03:30 (moved forward by the gap)", () => {
    expect(iso(zonedInstant("2026-03-29", { hour: 2, minute: 30 }, "Europe/Paris"))).toBe("2026-03-29T01:30:00.000Z");
    expect(localDateTime(zonedInstant("2026-03-29", { hour: 2, minute: 30 }, "Europe/Paris"), "Europe/Paris")).toMatchObject({ hour: 3, minute: 30 });
    expect(iso(zonedInstant("2026-03-29", { hour: 1, minute: 59 }, "Europe/Paris"))).toBe("2026-03-29T00:59:00.000Z");
    expect(iso(zonedInstant("2026-03-29", { hour: 3 }, "Europe/Paris"))).toBe("2026-03-29T01:00:00.000Z");
  });

  test("Europe/Paris, 25 October 2026: 02:30 happens twice; the earlier is taken", () => {
    expect(iso(zonedInstant("2026-10-25", { hour: 2, minute: 30 }, "Europe/Paris"))).toBe("2026-10-25T00:30:00.000Z");
    expect(iso(zonedInstant("2026-10-25", { hour: 3 }, "Europe/Paris"))).toBe("2026-10-25T02:00:00.000Z");
  });

  test("America/New_York's and Pacific/Chatham's gaps", () => {
    expect(iso(zonedInstant("2026-03-08", { hour: 2, minute: 30 }, "America/New_York"))).toBe("2026-03-08T07:30:00.000Z"); // 03:30 EDT
    expect(iso(zonedInstant("2026-09-27", { hour: 3 }, "Pacific/Chatham"))).toBe("2026-09-26T14:15:00.000Z"); // 04:00 at +13:45
    expect(iso(zonedInstant("2026-04-05", { hour: 3, minute: 0 }, "Pacific/Chatham"))).toBe("2026-04-04T13:15:00.000Z"); // the first 03:00, +13:45
  });

  test("local days are 23, 24 or 25 hours long", () => {
    const hours = (date: string, zone: string) => {
      const { start, end } = localDayRange(date, zone);
      return (end.getTime() - start.getTime()) / 3_600_000;
    };
    expect(hours("2026-03-29", "Europe/Paris")).toBe(23);
    expect(hours("2026-10-25", "Europe/Paris")).toBe(25);
    expect(hours("2026-06-01", "Europe/Paris")).toBe(24);
    expect(localDayRange("2026-03-29", "Europe/Paris")).toEqual({ start: new Date("2026-03-28T23:00:00.000Z"), end: new Date("2026-03-29T22:00:00.000Z") });
    expect(hours("2026-06-15", "Asia/Kolkata")).toBe(24);
    expect(localDayRange("2026-06-15", "Asia/Kolkata").start).toEqual(new Date("2026-06-14T18:30:00.000Z"));
  });

  test("a zone whose clocks change at midnight: the day starts at 01:00 (America/Santiago, 6 September 2026)", () => {
    const { start } = localDayRange("2026-09-06", "America/Santiago");
    expect(localDateTime(start, "America/Santiago")).toMatchObject({ year: 2026, month: 9, day: 6, hour: 1, minute: 0 });
  });

  test("bad local dates and times are refused", () => {
    expect(() => zonedInstant("2026-02-30", { hour: 8 }, "UTC")).toThrow(RangeError);
    expect(() => zonedInstant("2026-6-1", { hour: 8 }, "UTC")).toThrow(RangeError);
    expect(() => zonedInstant("2026-06-01", { hour: 24 }, "UTC")).toThrow(RangeError);
    expect(() => zonedInstant("2026-06-01", { hour: 8, minute: 60 }, "UTC")).toThrow(RangeError);
  });
});

describe("dueDigest: today's, once its time has come (a runner back from downtime sends it late, never a past day's)", () => {
  const due = (now: string) => {
    const slot = dueDigest(new Date(now), "Europe/Paris");
    return slot && [iso(slot.at), slot.date];
  };
  test("before 08:00, at 08:00, later that day, after local midnight", () => {
    expect(due("2026-06-10T05:59:59.999Z")).toBeNull();
    expect(due("2026-06-10T06:00:00.000Z")).toEqual(["2026-06-10T06:00:00.000Z", "2026-06-10"]);
    expect(due("2026-06-10T20:00:00.000Z")).toEqual(["2026-06-10T06:00:00.000Z", "2026-06-10"]);
    expect(due("2026-06-10T22:30:00.000Z")).toBeNull(); // 00:30 on the 11th: the 10th's is past
  });
});

describe("time zones", () => {
  test("IANA names, in any case, links included; the canonical spelling is returned", () => {
    expect(checkTimeZone("Europe/Paris")).toBe("Europe/Paris");
    expect(checkTimeZone("europe/paris")).toBe("Europe/Paris");
    expect(checkTimeZone("UTC")).toBe("UTC");
    expect(isTimeZone("Asia/Calcutta")).toBe(true);
    expect(isTimeZone("Etc/GMT+5")).toBe(true);
  });

  for (const zone of ["Mars/Olympus", "", " ", "Europe/Pariss", "+01:00", "-05:30", "\u221205:00", "UTC+1", "GMT+1", "0", "Z"]) {
    test(`refused: ${JSON.stringify(zone)}`, () => {
      expect(isTimeZone(zone)).toBe(false);
      expect(() => nextDigestAt(0, zone)).toThrow(InvalidTimeZoneError);
      expect(() => localDate(0, zone)).toThrow(/invalid time zone/);
    });
  }

  test("offsetAt and localDate", () => {
    expect(offsetAt(new Date("2026-01-15T12:00:00Z"), "Europe/Paris")).toBe(3_600_000);
    expect(offsetAt(new Date("2026-07-15T12:00:00Z"), "Europe/Paris")).toBe(7_200_000);
    expect(offsetAt(new Date("2026-07-15T12:00:00Z"), "Pacific/Chatham")).toBe(12.75 * 3_600_000);
    expect(offsetAt(new Date("2026-07-15T12:00:00Z"), "America/St_Johns")).toBe(-2.5 * 3_600_000);
    expect(localDate(new Date("2026-07-15T23:30:00Z"), "Asia/Kolkata")).toBe("2026-07-16");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addDays("2028-03-01", -1)).toBe("2028-02-29");
  });
});

test("the zone a member's mail uses: the member's, else the server's DOSSIER_TIME_ZONE, else UTC; unknown names passed over", () => {
  expect(memberTimeZone("Asia/Kolkata", "Europe/Paris")).toBe("Asia/Kolkata");
  expect(memberTimeZone(null, "Europe/Paris")).toBe("Europe/Paris");
  expect(memberTimeZone("Mars/Olympus", "europe/paris")).toBe("Europe/Paris");
  expect(memberTimeZone(undefined, null)).toBe("UTC");
  expect(memberTimeZone("", "+01:00")).toBe("UTC");
});
