// Cursor pages (issue 38) seek an index to the cursor's key on both engines, so a page deep in a
// list costs what the first one does: EXPLAIN of the statements the query modules run for a page
// with `after` (the dossiers' from src/db/dossier-page.ts, the others as written in their modules),
// on databases the real migrations made. PostgreSQL is told not to scan or sort where it can avoid
// it (its tables are empty here, where a scan is cheapest), so the plan shows whether an index
// serves the order. The answers themselves: test/http/cursor-pages.test.ts.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { dossierListWhere, seekSql } from "../../src/db/dossier-page";
import { makeApp } from "../helpers";
import { appOn, queryRows } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const ORG = crypto.randomUUID();
const ID = crypto.randomUUID();
const AT = "2026-11-01T00:00:00.000Z";

describe("SQLite: a cursor page seeks its list's index, no sort", () => {
  const app = makeApp();
  const planOf = (sql: string, ...params: unknown[]) =>
    app.dossier.store.sqlite
      .query<{ detail: string }, never[]>(`EXPLAIN QUERY PLAN ${sql}`)
      .all(...(params as never[]))
      .map((row) => row.detail)
      .join(" | ");

  test("dossiers, unfiltered and filtered", () => {
    for (const [filters, index] of [[{}, "dossiers_org_created_cover"], [{ type: "sales" as const }, "dossiers_org_created"]] as const) {
      const { where, params } = dossierListWhere(filters, ORG, AT);
      const plan = planOf(seekSql("id", where), ...params, AT, ID, 26);
      expect(plan).toContain(`${index} (organization_id=? AND (created_at,id)<(?,?))`);
      expect(plan).not.toContain("TEMP B-TREE");
    }
  });

  test("contacts, notes, deliveries, imports", () => {
    const plans = [
      planOf(`SELECT c.id FROM contacts c WHERE c.organization_id = ?1 AND (c.kind_mask & ?2) != 0 AND (c.created_at, c.id) < (?3, ?4) ORDER BY c.created_at DESC, c.id DESC LIMIT 26`, ORG, 1, AT, ID),
      planOf(`SELECT id FROM notes WHERE dossier_id = ?1 AND organization_id = ?2 AND (created_at, id) > (?5, ?6) ORDER BY created_at, id LIMIT ?3 OFFSET ?4`, ID, ORG, 26, 0, AT, ID),
      planOf(`SELECT seq FROM events WHERE organization_id = ?1 AND (?2 IS NULL OR status = ?2) AND (?3 IS NULL OR type = ?3) AND seq < ?4 ORDER BY seq DESC LIMIT ?5`, ORG, null, null, 9, 26),
      planOf(`SELECT id FROM imports WHERE organization_id = ?1 AND resource IN (SELECT value FROM json_each(?2)) AND (created_at, id) < (?5, ?6) ORDER BY created_at DESC, id DESC LIMIT ?3 OFFSET ?4`, ORG, '["contacts"]', 26, 0, AT, ID),
    ];
    expect(plans[0]).toContain("contacts_org_created_kind (organization_id=? AND (created_at,id)<(?,?))");
    expect(plans[1]).toContain("notes_dossier_created (dossier_id=? AND (created_at,id)>(?,?))");
    expect(plans[2]).toContain("events_org_seq (organization_id=? AND seq<?)");
    expect(plans[3]).toContain("imports_org_created (organization_id=? AND (created_at,id)<(?,?))");
    for (const plan of plans) expect(plan).not.toContain("TEMP B-TREE");
  });

  test("tasks: the dated ones after the position, then the undated ones, each by tasks_org_due", () => {
    const dated = planOf(
      `SELECT id FROM tasks WHERE organization_id = ? AND status = ? AND due_at IS NOT NULL AND (due_at, created_at, id) > (?, ?, ?) ORDER BY due_at, created_at, id LIMIT ?`,
      ORG, "open", AT, AT, ID, 26,
    );
    const undated = planOf(`SELECT id FROM tasks WHERE organization_id = ? AND status = ? AND due_at IS NULL AND (created_at, id) > (?, ?) ORDER BY due_at, created_at, id LIMIT ?`, ORG, "open", AT, ID, 26);
    expect(dated).toContain("tasks_org_due (organization_id=? AND (due_at,created_at,id)>(?,?,?))");
    expect(undated).toContain("tasks_org_due (organization_id=? AND due_at=? AND (created_at,id)>(?,?))");
    for (const plan of [dated, undated]) expect(plan).not.toContain("TEMP B-TREE");
  });
});

describe("PostgreSQL: a cursor page seeks its list's index, no sort", async () => {
  const app = await appOn("postgres");
  // queryRows reads on one connection of its own: these settings hold for the plans below.
  await queryRows(app, "SET enable_seqscan = off");
  await queryRows(app, "SET enable_sort = off");
  const planOf = async (sql: string, ...params: unknown[]) =>
    (await queryRows<{ "QUERY PLAN": string }>(app, `EXPLAIN ${sql}`, ...params)).map((row) => row["QUERY PLAN"]).join(" | ");

  test("dossiers, contacts, notes, deliveries, imports, tasks", async () => {
    const plans = {
      dossiers_org_created: await planOf(
        `SELECT id FROM dossiers WHERE organization_id = ? AND status <> 'archived' AND (created_at, id) < (?::text, ?::text) ORDER BY created_at DESC, id DESC LIMIT 26`, ORG, AT, ID),
      contacts_org_created: await planOf(
        `SELECT c.id FROM contacts c WHERE c.organization_id = ? AND (c.created_at, c.id) < (?::text, ?::text) ORDER BY c.created_at DESC, c.id DESC LIMIT 26`, ORG, AT, ID),
      notes_dossier_created: await planOf(
        `SELECT id FROM notes WHERE dossier_id = ? AND organization_id = ? AND (created_at, id) > (?::text, ?::text) ORDER BY created_at, id LIMIT 26`, ID, ORG, AT, ID),
      events_org_seq: await planOf(`SELECT seq FROM events WHERE organization_id = ? AND events.seq < ?::bigint ORDER BY events.seq DESC LIMIT 26`, ORG, 9),
      tasks_org_due: await planOf(
        `SELECT id FROM tasks WHERE organization_id = ? AND due_at IS NOT NULL AND (due_at, created_at, id) > (?::text, ?::text, ?::text)
           ORDER BY due_at, created_at, id LIMIT 26`, ORG, AT, AT, ID),
      imports_org_created: await planOf(
        `SELECT id FROM imports WHERE organization_id = ? AND resource IN (SELECT jsonb_array_elements_text(?::text::jsonb))
           AND (imports.created_at, imports.id) < (?::text, ?::text) ORDER BY imports.created_at DESC, imports.id DESC LIMIT 26`, ORG, '["contacts"]', AT, ID),
    };
    for (const [index, plan] of Object.entries(plans)) {
      expect(plan).toContain(`using ${index} on`);
      expect(plan).toMatch(/Index Cond: .*(ROW\((due_at, )?created_at, id\) [<>] ROW|seq < )/);
      expect(plan).not.toContain("Sort");
    }
    const undated = await planOf(
      `SELECT id FROM tasks WHERE organization_id = ? AND due_at IS NULL AND (created_at, id) > (?::text, ?::text) ORDER BY due_at, created_at, id LIMIT 26`, ORG, AT, ID);
    expect(undated).toContain("using tasks_org_due on");
    expect(undated).toContain("(due_at IS NULL) AND (ROW(created_at, id) > ROW(");
    expect(undated).not.toContain("Sort");
  });
});
