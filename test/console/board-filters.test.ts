// The board's filters in the address (C14), without a browser: what an address asks for, what a
// filter writes back, and the GET /dossiers query it becomes.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { apiFilter, isFiltered, NO_FILTER, readFilter, writeFilter } from "../../src/console/board/filters";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const MEMBER = "0b5c3a4e-8f1d-4c2a-9e6b-1d2f3a4b5c6d";
const OTHER = "7e9a1c2b-3d4f-4a5b-8c6d-0e1f2a3b4c5d";

describe("C14: the board's filters in the address", () => {
  test.each([
    ["", NO_FILTER],
    ["assignee=me&overdue=1&q=acme", { assignee: "me", overdue: true, myTasks: false, q: "acme" }],
    [`assignee=${OTHER.toUpperCase()}`, { assignee: OTHER, overdue: false, myTasks: false, q: "" }],
    ["tasks=mine", { ...NO_FILTER, myTasks: true }],
    // What is not understood is left out, not refused: the board still shows.
    ["assignee=nobody&overdue=yes&tasks=all&q=%20%20", NO_FILTER],
    ["q=%20Zeta%20Works%20", { assignee: null, overdue: false, myTasks: false, q: "Zeta Works" }],
  ])("?%s reads as %j", (search, filter) => {
    expect(readFilter(new URLSearchParams(search))).toEqual(filter);
  });

  test("writing a filter replaces its own entries, drops the empty ones and keeps the others", () => {
    const params = new URLSearchParams("assignee=me&overdue=1&q=old&keep=1");
    expect(writeFilter(params, { assignee: OTHER, overdue: false, myTasks: false, q: " new " }).toString()).toBe(`assignee=${OTHER}&q=new&keep=1`);
    expect(writeFilter(params, NO_FILTER).toString()).toBe("keep=1");
    // The address it reads back is the filter it wrote.
    const filter = { assignee: "me", overdue: true, myTasks: true, q: "a&b=c" };
    expect(readFilter(writeFilter(new URLSearchParams(), filter))).toEqual(filter);
  });

  test("a filter is GET /dossiers's assigned_to, overdue, task_assigned_to and q; 'me' is the member signed in", () => {
    expect(apiFilter(NO_FILTER, MEMBER)).toEqual({});
    expect(apiFilter({ assignee: "me", overdue: true, myTasks: false, q: " x " }, MEMBER)).toEqual({ assigned_to: MEMBER, overdue: true, q: "x" });
    expect(apiFilter({ assignee: OTHER, overdue: false, myTasks: false, q: "" }, MEMBER)).toEqual({ assigned_to: OTHER });
    expect(apiFilter({ ...NO_FILTER, myTasks: true }, MEMBER)).toEqual({ task_assigned_to: MEMBER });
    expect(isFiltered({ ...NO_FILTER, myTasks: true })).toBe(true);
    expect(isFiltered(NO_FILTER)).toBe(false);
    expect(isFiltered({ ...NO_FILTER, q: "  " })).toBe(false);
    expect(isFiltered({ ...NO_FILTER, overdue: true })).toBe(true);
  });
});
