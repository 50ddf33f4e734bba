// Issue 38: `?metadata[key]=value` is an index lookup. On SQLite (whose planner has no statistics
// here) the lists' statements lead from dossier_metadata_lookup / contact_metadata_lookup and read
// the matching rows by id, rather than walking the organization's rows in the list's order and
// probing each. (PostgreSQL plans from its statistics: the same filter is a semi-join on the same
// index once the tables are large enough for it to matter.)
import { expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { openStore } from "../../src/db/client";
import { scanWhere } from "../../src/db/contacts";
import { dossierListWhere, pageSql } from "../../src/db/dossier-page";
import { onCleanup, tempDir } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const store = openStore(join(tempDir(), "dossier.db"));
onCleanup(() => store.close());

const plan = (sql: string, ...params: unknown[]) =>
  store.sqlite
    .query<{ detail: string }, never[]>(`EXPLAIN QUERY PLAN ${sql}`)
    .all(...(params as never[]))
    .map((row) => row.detail);

test("GET /dossiers?metadata[k]=v: its page, deep page and total lead from dossier_metadata_lookup", () => {
  const { where, params } = dossierListWhere({ metadata: { erp: "E-1", region: "eu" }, type: "sales" }, "o1", "");
  for (const steps of [
    plan(pageSql("id", where, { offset: 0, cover: false }), ...params, 25, 0),
    plan(pageSql("id", where, { offset: 50, cover: false }), ...params, 25, 50),
    plan(`SELECT count(*) AS n FROM dossiers WHERE ${where}`, ...params),
  ]) {
    expect(steps).toContain("SEARCH dossier_metadata USING COVERING INDEX dossier_metadata_lookup (organization_id=? AND key=? AND value=?)");
    expect(steps).toContain("SEARCH dossiers USING INDEX sqlite_autoindex_dossiers_1 (id=?)");
    expect(steps.some((step) => step.startsWith("SCAN dossiers") || step.includes("dossiers_org_"))).toBe(false);
  }
});

test("GET /contacts?metadata[k]=v: the page leads from contact_metadata_lookup", () => {
  const { clause, params } = scanWhere({ organizationId: "o1", mask: 3, updatedSince: null, metadata: { crm: "C-1" } });
  const steps = plan(`SELECT c.id FROM contacts c WHERE ${clause} ORDER BY c.created_at DESC, c.id DESC LIMIT $limit OFFSET $offset`, {
    ...params, limit: 25, offset: 0,
  });
  expect(steps).toContain("SEARCH contact_metadata USING COVERING INDEX contact_metadata_lookup (organization_id=? AND key=? AND value=?)");
  expect(steps).toContain("SEARCH c USING INDEX sqlite_autoindex_contacts_1 (id=?)");
});
