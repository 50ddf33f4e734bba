// C22 "My tasks": which group an open task is in (overdue, today, upcoming, no date), in the
// browser's local day; pure, the instant given.
import { expect, setDefaultTimeout, test } from "bun:test";
import { fromLocalInput, groupOf } from "../../src/console/tasks/words";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

test("C22: overdue before now, today until the local midnight, upcoming after, undated without a due date", () => {
  const now = new Date(2026, 10, 30, 10, 0, 0); // local time
  const at = (day: number, hour: number) => new Date(2026, 10, day, hour, 0, 0).toISOString();
  expect(groupOf({ due_at: at(30, 9) }, now)).toBe("overdue");
  expect(groupOf({ due_at: at(29, 23) }, now)).toBe("overdue");
  expect(groupOf({ due_at: at(30, 10) }, now)).toBe("today");
  expect(groupOf({ due_at: at(30, 23) }, now)).toBe("today");
  expect(groupOf({ due_at: new Date(2026, 11, 1, 0, 0, 0).toISOString() }, now)).toBe("upcoming");
  expect(groupOf({ due_at: null }, now)).toBe("undated");
});

test("C22: a datetime-local value is the browser's local time; empty is no date", () => {
  expect(fromLocalInput("")).toBeNull();
  expect(fromLocalInput("2030-05-04T10:30")).toBe(new Date(2030, 4, 4, 10, 30).toISOString());
  expect(fromLocalInput("not a date")).toBeNull();
});
