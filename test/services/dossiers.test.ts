// The GET /dossiers query (C5 filters) against the schema's indexes, ahead of issue 6's 1M rows:
// every single filter, and the default list, is answered through an index, never a full scan.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { dossierListWhere } from "../../src/db/dossier-page";
import { codePoints, type ListDossiersQuery } from "../../src/services/dossiers";
import { makeApp } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const UUID = "0b7c5f9e-8d3a-4e21-9a6b-2f4c1d0e9a87";

describe("dossierListWhere", () => {
  const app = makeApp();
  const sqlite = app.dossier.store.sqlite;
  const plan = (query: Omit<ListDossiersQuery, "page" | "perPage">) => {
    const { where, params } = dossierListWhere(query, UUID, "2026-01-01T00:00:00.000Z");
    return sqlite
      .query<{ detail: string }, (string | number)[]>(`EXPLAIN QUERY PLAN SELECT * FROM dossiers WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`)
      .all(...params, 25, 0)
      .map((row) => row.detail)
      .join(" | ");
  };

  test.each<[string, Omit<ListDossiersQuery, "page" | "perPage">, string]>([
    ["no filter (C10: archived left out)", {}, "dossiers_org_created"],
    ["status", { status: "won" }, "dossiers_org_status_created"],
    ["type and status", { type: "sales", status: "active" }, "dossiers_org_type_status_created"],
    ["stage_id", { stageId: UUID }, "dossiers_stage_created"],
    ["flow_id", { flowId: UUID }, "dossiers_org_flow_created"],
    ["assigned_to", { assignedTo: UUID }, "dossiers_org_assigned_created"],
    ["overdue=true", { overdue: true }, "dossiers_org_status_due"],
  ])("%s uses %s", (_name, query, index) => {
    const detail = plan(query);
    expect(detail).toContain(`INDEX ${index}`);
    expect(detail).not.toMatch(/SCAN dossiers(?! USING)/);
  });

  test("values are bound, never pasted: the SQL text depends only on which filters are present", () => {
    const a = dossierListWhere({ q: "x'; DROP TABLE dossiers; --", type: "sales" }, UUID, "now");
    const b = dossierListWhere({ q: "other", type: "candidate" }, UUID, "now");
    expect(a.where).toBe(b.where);
    expect(a.where).not.toContain("DROP");
    expect(a.params).toEqual([UUID, "sales", "x'; drop table dossiers; --"]);
  });
});

test("codePoints counts Unicode code points, not UTF-16 units (C10)", () => {
  expect(codePoints("abc")).toBe(3);
  expect(codePoints("😀😀")).toBe(2);
  expect("😀😀".length).toBe(4);
  expect(codePoints("e\u0301")).toBe(2);
});
