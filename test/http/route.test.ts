// defineRoute (src/http/route.ts): a declaration that cannot be served as it says is refused when
// the route is defined, not when a client first calls it; parseQuery reads what a query schema says.
import { Type as t } from "@sinclair/typebox";
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { defineRoute } from "../../src/http/route";
import { parseQuery } from "../../src/http/request";
import { PageQuery } from "../../src/schemas/common";
import { ContactQuery } from "../../src/schemas/contacts";
import { DossierQuery } from "../../src/schemas/dossiers";
import type { Scope } from "../../src/services/keys";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const base = { summary: "s", tag: "T", scopes: [] as Scope[], responses: {}, handler: () => null };

describe("defineRoute refuses a declaration that does not match its route", () => {
  test("a path parameter left undeclared", () => {
    expect(() => defineRoute({ ...base, id: "a", method: "GET", path: "/x/:id" })).toThrow("params  do not match the path /x/:id");
  });
  test("a declared parameter the path does not have", () => {
    expect(() => defineRoute({ ...base, id: "b", method: "GET", path: "/x", params: { id: "The x" } })).toThrow("params id do not match");
  });
  test("a query parameter a client could not leave out", () => {
    const query = t.Object({ q: t.String() });
    expect(() => defineRoute({ ...base, id: "c", method: "GET", path: "/x", query })).toThrow("query parameter q must be optional");
  });
  test("a body of another media type with nothing to read it", () => {
    const bodies = { "application/pdf": t.String({ format: "binary" }) };
    expect(() => defineRoute({ ...base, id: "g", method: "POST", path: "/x", bodies })).toThrow("reads them (read)");
  });
  test("a route that matches its path is defined, its document entry with it", () => {
    const route = defineRoute({ ...base, id: "d", method: "GET", path: "/x/:id/y/:other_id", params: { id: "The x", other_id: "The y" }, query: PageQuery });
    expect(route.hook.detail.operationId).toBe("d");
    expect(route.hook).not.toHaveProperty("parse");
  });
  test("the failures its declaration implies are documented: 404 for a path id, 400 and 413 for a JSON body, 503 for a change", () => {
    const body = t.Object({ name: t.String() }, { additionalProperties: false });
    const route = defineRoute({ ...base, id: "e", method: "PATCH", path: "/x/:id", params: { id: "The x" }, body, errors: ["duplicate_contact"] });
    const statuses = Object.keys((route.hook.detail as { responses: object }).responses);
    expect(statuses).toEqual(expect.arrayContaining(["400", "404", "408", "409", "413", "503"]));
    const read = defineRoute({ ...base, id: "f", method: "GET", path: "/x" });
    expect(Object.keys((read.hook.detail as { responses: object }).responses).sort()).toEqual(["401", "402", "403", "429", "500"]);
  });
});

describe("parseQuery", () => {
  const read = (schema: Parameters<typeof parseQuery>[0], query: string) => parseQuery(schema, new URLSearchParams(query));
  test("absent parameters: defaults, [] for a repeatable one, nothing for the others", () => {
    expect(read(PageQuery, "")).toEqual({ page: 1, per_page: 25 });
    expect(read(ContactQuery, "")).toEqual({ kind: [], page: 1, per_page: 25 });
  });
  test("each value converted by its schema; unknown parameters ignored", () => {
    const id = "2F6D8A1C-4B3E-4D5F-9A7B-8C9D0E1F2A3B";
    expect(read(DossierQuery, `type=sales&overdue=false&flow_id=${id}&q=&page=3&per_page=100&colour=red`)).toEqual({
      type: "sales",
      overdue: false,
      flow_id: id.toLowerCase(),
      q: "",
      page: 3,
      per_page: 100,
    });
    expect(read(ContactQuery, "kind=client&kind=partner&pool=expired")).toEqual({ kind: ["client", "partner"], pool: "expired", page: 1, per_page: 25 });
  });
});
