// C17's filters seek an index (migration 0010) instead of reading every row of the organization:
// GET /events?dossier_id= (the dossier an event is about, an expression over its body) and
// updated_since on GET /dossiers and GET /contacts. Checked on the query modules' own statements
// with EXPLAIN QUERY PLAN, on a file the real migrations made; the answers themselves are checked
// by test/http/events.test.ts and test/http/updated-since.test.ts.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { scanWhere } from "../../src/db/contacts";
import { dossierListWhere, pageSql } from "../../src/db/dossier-page";
import { feedSql } from "../../src/db/events";
import { makeApp } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

function planOf(app: ReturnType<typeof makeApp>, sql: string, ...params: unknown[]): string {
  return app.dossier.store.sqlite
    .query<{ detail: string }, never[]>(`EXPLAIN QUERY PLAN ${sql}`)
    .all(...(params as never[]))
    .map((row) => row.detail)
    .join(" | ");
}

const ORG = crypto.randomUUID();
const SINCE = "2026-11-01T00:00:00.000Z";

describe("C17: the feed's and updated_since's filters are indexed (migration 0010)", () => {
  test("C20 Events dossier_id: the feed seeks (organization, dossier, seq) and needs no sort", () => {
    const app = makeApp();
    const plan = planOf(app, feedSql(true), ORG, 0, SINCE, null, 51, crypto.randomUUID());
    expect(plan).toContain("SEARCH events USING INDEX events_org_dossier_seq (organization_id=? AND <expr>=? AND seq>?)");
    expect(plan).not.toContain("TEMP B-TREE");
    const typed = planOf(app, feedSql(true), ORG, 0, SINCE, JSON.stringify(["note.created"]), 51, crypto.randomUUID());
    expect(typed).toContain("USING INDEX events_org_dossier_seq");
  });

  test("C17: the feed without dossier_id reads the organization's events in seq order", () => {
    const app = makeApp();
    const plan = planOf(app, feedSql(false), ORG, 0, SINCE, null, 51);
    expect(plan).toContain("SEARCH events USING INDEX events_org_seq (organization_id=? AND seq>?)");
    expect(plan).not.toContain("TEMP B-TREE");
  });

  test("C17 updated_since on GET /dossiers: the total and the page seek (organization, updated_at)", () => {
    const app = makeApp();
    const { where, params } = dossierListWhere({ updatedSince: SINCE }, ORG, SINCE);
    expect(planOf(app, `SELECT count(*) AS n FROM dossiers WHERE ${where}`, ...params)).toContain("USING INDEX dossiers_org_updated (organization_id=? AND updated_at>?)");
    for (const offset of [0, 50]) {
      expect(planOf(app, pageSql("id, created_at", where, { offset, cover: false }), ...params, 25, offset)).toContain("USING INDEX dossiers_org_updated (organization_id=? AND updated_at>?)");
    }
  });

  test("C17 updated_since on GET /contacts: the total and the page seek (organization, updated_at)", () => {
    const app = makeApp();
    const { clause, params } = scanWhere({ organizationId: ORG, mask: 0, updatedSince: SINCE });
    expect(planOf(app, `SELECT count(*) AS n FROM contacts c WHERE ${clause}`, params)).toContain("USING COVERING INDEX contacts_org_updated (organization_id=? AND updated_at>?)");
    const page = planOf(app, `SELECT c.id FROM contacts c WHERE ${clause} ORDER BY c.created_at DESC, c.id DESC LIMIT 25 OFFSET 0`, params);
    expect(page).toContain("USING INDEX contacts_org_updated (organization_id=? AND updated_at>?)");
  });
});
