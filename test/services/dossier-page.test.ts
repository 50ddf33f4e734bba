// Past the first page, GET /dossiers picks the page's rowids first and then reads those rows
// (src/db/dossier-page.ts). Every page of every filter must still be exactly the slice of the
// full newest-first order (C3: created_at desc, then id desc, ties included), with and without the
// covering index of migration 0004.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { archiveDossier, createDossier, listDossiers, updateDossier, type ListDossiersQuery } from "../../src/services/dossiers";
import { COVER_INDEX, pageSql } from "../../src/db/dossier-page";
import { openContext } from "../../src/context";
import { makeApp, makeOrg, tempDir } from "../helpers";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

type Filters = Omit<ListDossiersQuery, "page" | "perPage">;

const COVER_SQL = `CREATE INDEX IF NOT EXISTS ${COVER_INDEX} ON dossiers (organization_id, created_at DESC, id DESC, status)`;

/** An app whose organization has 90 dossiers of both types and every status, created in bursts that
 * share a created_at (so the id tie-break matters), plus another organization's dossiers. */
async function seeded(withCover: boolean, dataDir?: string) {
  let clock = Date.parse("2026-11-22T10:00:00.000Z");
  const app = makeApp({ now: () => new Date(clock), ...(dataDir ? { dataDir } : {}) });
  const ctx = app.dossier;
  ctx.store.sqlite.run(withCover ? COVER_SQL : `DROP INDEX IF EXISTS ${COVER_INDEX}`);
  const org = await makeOrg(app);
  const other = await makeOrg(app, { name: "Other" });
  const stages = ctx.store.sqlite
    .query<{ id: string }, [string]>(`SELECT s.id FROM stages s JOIN flows f ON f.id = s.flow_id WHERE f.organization_id = ? AND f.type = 'candidate' ORDER BY s.position`)
    .all(org.id);
  for (let i = 0; i < 90; i++) {
    if (i % 4 === 0) clock += 1000; // bursts of four dossiers with the same created_at
    const type = i % 3 === 0 ? "sales" : "candidate";
    const dossier = await createDossier(ctx, org.id, { type, name: `D${i}`, email: `d${i}@example.com` });
    if (i % 5 === 1) await updateDossier(ctx, org.id, dossier.id, { status: "won" });
    if (i % 7 === 2) await archiveDossier(ctx, org.id, dossier.id);
    if (type === "candidate" && i % 2 === 0) await updateDossier(ctx, org.id, dossier.id, { current_stage_id: stages[1].id });
    if (i % 10 === 0) await createDossier(ctx, other.id, { type, name: `Other ${i}` });
  }
  return { app, org, stages };
}

async function checkEveryPage(withCover: boolean) {
  const { app, org, stages } = await seeded(withCover);
  const ctx = app.dossier;
  const filters: [string, Filters][] = [
    ["none", {}],
    ["status=won", { status: "won" }],
    ["status=archived", { status: "archived" }],
    ["type=sales", { type: "sales" }],
    ["stage_id", { stageId: stages[1].id }],
    ["q", { q: "d1" }],
  ];
  for (const [name, filter] of filters) {
    const expected = (await listDossiers(ctx, org.id, { ...filter, page: 1, perPage: 100 })).data.map((d) => d.id);
    expect(expected.length, name).toBeGreaterThan(0);
    for (const perPage of [1, 7, 25]) {
      const seen: string[] = [];
      for (let page = 1; page <= Math.ceil(expected.length / perPage) + 1; page++) {
        const result = await listDossiers(ctx, org.id, { ...filter, page, perPage });
        expect(result.total, name).toBe(expected.length);
        seen.push(...result.data.map((d) => d.id));
      }
      expect(seen, `${name}, per_page ${perPage}`).toEqual(expected);
    }
  }
  // The reference itself: the first page (a direct read) in C3's order.
  const all = (await listDossiers(ctx, org.id, { page: 1, perPage: 100 })).data;
  const sorted = [...all].sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1));
  expect(all.map((d) => d.id)).toEqual(sorted.map((d) => d.id));
  expect(all.every((d) => d.organization_id === org.id && d.status !== "archived")).toBe(true);
  return app;
}

describe("pages past the first", () => {
  test("without the covering index: every page of every filter is the right slice", async () => {
    await checkEveryPage(false);
  });

  test("with the covering index: the same, and the rowids come from the index alone", async () => {
    const app = await checkEveryPage(true);
    const plan = app.dossier.store.sqlite
      .query<{ detail: string }, [string, number, number]>(
        `EXPLAIN QUERY PLAN ${pageSql("id", "organization_id = ? AND status <> 'archived'", { offset: 25, cover: true })}`,
      )
      .all("00000000-0000-4000-8000-000000000000", 25, 25)
      .map((r) => r.detail);
    expect(plan.join(" | ")).toContain(`COVERING INDEX ${COVER_INDEX}`);
    expect(plan.join(" | ")).toContain("USING INTEGER PRIMARY KEY (rowid=?)");
  });
});

describe("remembered page boundaries (seek instead of OFFSET)", () => {
  /** The page as OFFSET gives it, straight from SQL: the reference. */
  const reference = (app: ReturnType<typeof makeApp>, orgId: string, page: number, perPage: number) =>
    app.dossier.store.sqlite
      .query<{ id: string }, [string, number, number]>(
        `SELECT id FROM dossiers WHERE organization_id = ? AND status <> 'archived' ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
      )
      .all(orgId, perPage, (page - 1) * perPage)
      .map((r) => r.id);
  const ids = async (app: ReturnType<typeof makeApp>, orgId: string, page: number, perPage: number) =>
    (await listDossiers(app.dossier, orgId, { page, perPage })).data.map((d) => d.id);

  test("the same page asked again, a write of this app, and a write of another connection", async () => {
    const dir = tempDir();
    {
      const { app, org } = await seeded(true, dir);
      for (let round = 0; round < 2; round++) {
        for (const page of [3, 3, 4, 2, 3]) expect((await ids(app, org.id, page, 7))).toEqual(reference(app, org.id, page, 7));
      }
      // In this app: a new dossier comes first and shifts every later page by one.
      await createDossier(app.dossier, org.id, { type: "candidate", name: "Newest" });
      for (const page of [3, 4]) expect((await ids(app, org.id, page, 7))).toEqual(reference(app, org.id, page, 7));
      // Another connection on the same file archives a dossier of page 2: later pages move up.
      const victim = reference(app, org.id, 2, 7)[0];
      const other = openContext({ dataDir: dir, config: { log: "off" } });
      await archiveDossier(other, org.id, victim);
      await other.store.close();
      for (const page of [3, 4, 3]) expect((await ids(app, org.id, page, 7))).toEqual(reference(app, org.id, page, 7));
      expect((await ids(app, org.id, 2, 7))).not.toContain(victim);
    }
  });
});
