// The list's address (C14 screen 3): the query string read into GET /dossiers's query (a value the
// page does not know is left out), a filter changed going back to page 1, and the pages' addresses.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { filtered, queryOf, withFilters } from "../../src/console/list/filters";
import { pageCount, pageHref, whole } from "../../src/console/list/paging";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const params = (query: string) => new URLSearchParams(query);

describe("C14: the list's query string", () => {
  test("C14: every filter of GET /dossiers is read under its API name; page 1 and 25 a page by default", () => {
    expect(queryOf(params("type=sales&status=won&flow_id=f&stage_id=s&assigned_to=m&overdue=true&q=acme"))).toEqual({
      type: "sales", status: "won", flow_id: "f", stage_id: "s", assigned_to: "m", overdue: true, q: "acme", updated_since: undefined, page: 1, per_page: 25,
    });
    expect(queryOf(params("overdue=false&page=3&per_page=10"))).toMatchObject({ overdue: false, page: 3, per_page: 10 });
    // The address holds a day; the API gets that day's start in UTC.
    expect(queryOf(params("updated_since=2026-11-01")).updated_since).toBe("2026-11-01T00:00:00.000Z");
  });

  test.each([
    ["type=robot", { type: undefined }],
    ["status=deleted", { status: undefined }],
    ["overdue=yes", { overdue: undefined }],
    ["q=%20%20", { q: undefined }],
    ["page=0", { page: 1 }],
    ["page=-2", { page: 1 }],
    ["page=1.5", { page: 1 }],
    ["page=abc", { page: 1 }],
    ["per_page=1000", { per_page: 100 }],
    ["updated_since=yesterday", { updated_since: undefined }],
  ])("C14: %s is not sent as it is", (query, expected) => {
    expect(queryOf(params(query))).toMatchObject(expected);
  });

  test("C14: a filter set or emptied goes back to page 1 and keeps the others; an empty value removes it", () => {
    const next = withFilters(params("type=sales&q=acme&page=4"), { q: "", status: "won" });
    expect(next.toString()).toBe("type=sales&status=won");
    expect(filtered(next)).toBe(true);
    expect(filtered(params("page=2&per_page=50"))).toBe(false);
  });

  test("C14: the pages: m of a total, and each page's address keeps the filters (page 1 has none)", () => {
    expect([pageCount(0, 25), pageCount(25, 25), pageCount(26, 25), pageCount(101, 100)]).toEqual([1, 1, 2, 2]);
    expect(pageHref("/dossiers", params("q=acme&page=2"), 3)).toBe("/dossiers?q=acme&page=3");
    expect(pageHref("/dossiers", params("q=acme&page=2"), 1)).toBe("/dossiers?q=acme");
    expect(pageHref("/contacts", params("page=2"), 1)).toBe("/contacts");
    expect([whole(null, 1), whole("7", 1), whole("500", 25, 100)]).toEqual([1, 7, 100]);
  });
});
