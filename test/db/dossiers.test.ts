// Dossiers' query module with the list of GET /dossiers (src/db/dossiers.ts + dossier-page.ts,
// src/db/pg/dossiers.ts) on the store under test: the same answers on both engines, the list's JSON
// text byte for byte (deal sizes SQLite and JavaScript print differently among them), one
// organization's dossiers never another's.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Static } from "@sinclair/typebox";
import type { ListDossiersQuery } from "../../src/db/dossier-page";
import type { NewFlow } from "../../src/db/flows";
import type { Dossier as DossierSchema } from "../../src/schemas/dossiers";
import type { Stage as StageSchema } from "../../src/schemas/flows";
import { ENGINES, insertRows, twoOrgs, type Engine, type EngineStore } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts); PostgreSQL starts once

type Dossier = Static<typeof DossierSchema>;
type Stage = Static<typeof StageSchema>;

const T0 = "2026-01-01T00:00:00.000Z";
const T1 = "2026-01-02T00:00:00.000Z";
const T2 = "2026-01-03T00:00:00.000Z";

const stage = (id: string, flowId: string, position: number, deadline: number | null): Stage => ({
  id, flow_id: flowId, name: `Stage ${id}`, position, deadline_days: deadline, win_probability: 0, color: "#aabbcc",
});
const FLOWS: NewFlow[] = [
  { id: "f1", organization_id: "o1", name: "Hiring", type: "candidate", is_default: true, overdue_tasks: true, created_at: T0, stages: [stage("s2", "f1", 2, null), stage("s1", "f1", 1, 5)] },
  { id: "f2", organization_id: "o1", name: "Sales", type: "sales", is_default: false, overdue_tasks: true, created_at: T0, stages: [] },
  { id: "f9", organization_id: "o2", name: "Other", type: "sales", is_default: true, overdue_tasks: true, created_at: T0, stages: [stage("s9", "f9", 1, 2)] },
];

const dossier = (id: string, organizationId: string, fields: Partial<Dossier> = {}): Dossier => ({
  id, organization_id: organizationId, flow_id: "f1", type: "candidate", name: `Name ${id}`, email: null, phone: null, company: null, role: null,
  contact_person: null, status: "active", current_stage_id: "s1", assigned_to: null, deal_size: null, deal_currency: null, intake_notes: null,
  cv_url: null, contact_id: null, stage_entered_at: T0, stage_due_at: null, created_at: T0, updated_at: T0, metadata: {}, ...fields,
});

// Names and amounts that differ if the engines fold or print otherwise.
const DOSSIERS: Dossier[] = [
  dossier("d1", "o1", { name: "Élodie Durand", email: "E@X.example", deal_size: 15000, intake_notes: 'quote " and \\ and \u2028 and \u0001', stage_due_at: T1 }),
  dossier("d2", "o1", { name: "ÉLODIE 100%", type: "sales", flow_id: "f2", current_stage_id: null, deal_size: 0.1 + 0.2, deal_currency: "EUR", created_at: T1, assigned_to: "m1" }),
  dossier("d3", "o1", { name: "İstanbul_ΣΑΣ", company: "Straße", deal_size: 1 / 3, status: "archived", created_at: T1, updated_at: T2 }),
  dossier("d4", "o1", { name: "Plain", current_stage_id: "s2", deal_size: 1e21, created_at: T2, stage_due_at: T2, status: "won" }),
  dossier("d9", "o2", { name: "Élodie Other", flow_id: "f9", type: "sales", current_stage_id: "s9", created_at: T2 }),
];

async function withDossiers(engine: Engine): Promise<EngineStore> {
  const s = await twoOrgs(engine);
  await s.write(async () => {
    for (const flow of FLOWS) await s.flows.insert(flow);
    for (const d of DOSSIERS) expect(await s.dossiers.insert(d)).toEqual(d);
  });
  return s;
}

const list = (q: Partial<ListDossiersQuery> = {}): ListDossiersQuery => ({ page: 1, perPage: 25, ...q });

describe.each(ENGINES)("dossiers on %s", (engine) => {
  test("reads by id, cv_url, flows and stages, contact, update; another organization's never", async () => {
    const s = await withDossiers(engine);
    expect(await s.read(() => s.dossiers.byId("o1", "d1"))).toEqual(DOSSIERS[0]);
    expect(await s.dossiers.byId("o2", "d1")).toBeNull();
    for (const remember of [false, true]) {
      expect(await s.read(() => s.dossiers.shown("o1", "d2", { remember }))).toEqual(DOSSIERS[1]);
      expect(await s.dossiers.shown("o2", "d2", { remember })).toBeNull();
    }
    expect(await s.dossiers.flow("o1", "f1")).toEqual({ id: "f1", type: "candidate" });
    expect(await s.dossiers.flow("o2", "f1")).toBeNull();
    expect(await s.dossiers.defaultFlow("o1", "candidate")).toEqual({ id: "f1", type: "candidate" });
    expect(await s.dossiers.defaultFlow("o1", "sales")).toBeNull();
    expect(await s.dossiers.defaultFlow("o2", "sales")).toEqual({ id: "f9", type: "sales" });
    expect(await s.dossiers.firstStage("o1", "f1")).toEqual({ id: "s1", deadline_days: 5 });
    expect(await s.dossiers.firstStage("o1", "f2")).toBeNull();
    expect(await s.dossiers.firstStage("o2", "f1")).toBeNull();
    expect(await s.dossiers.stageOfFlow("o1", "f1", "s2")).toEqual({ id: "s2", deadline_days: null });
    expect(await s.dossiers.stageOfFlow("o1", "f2", "s2")).toBeNull();
    expect(await s.dossiers.stageOfFlow("o2", "f1", "s2")).toBeNull();
    await insertRows(s, "contacts", [{ id: "c1", organization_id: "o1", full_name: "C", kind: "[]", kind_mask: 0, created_at: T0, updated_at: T0 }]);
    expect(await s.dossiers.contactExists("o1", "c1")).toBe(true);
    expect(await s.dossiers.contactExists("o2", "c1")).toBe(false);
    expect(await s.dossiers.cvUrl("o1", "d1")).toBeNull();
    const cv = "o1/dossiers/d1/cv.pdf";
    await s.write(async () => {
      await s.dossiers.update("o1", "d1", { cv_url: cv, deal_size: null, name: "Renamed", updated_at: T2 });
      await s.dossiers.update("o2", "d2", { name: "Not o2's" });
    });
    expect(await s.dossiers.cvUrl("o1", "d1")).toBe(cv);
    expect(await s.dossiers.cvUrl("o2", "d1")).toBeNull();
    expect(await s.dossiers.byId("o1", "d1")).toEqual({ ...DOSSIERS[0], cv_url: cv, deal_size: null, name: "Renamed", updated_at: T2 });
    expect((await s.dossiers.byId("o1", "d2"))?.name).toBe("ÉLODIE 100%");
    await expect(Promise.resolve().then(() => s.dossiers.update("o1", "d1", { id: "x" } as never))).rejects.toThrow(/not an updatable column/);
  });

  test("C21: exportPage walks the list's rows in its order, batch after batch from the last row seen, with the list's filters; another organization's never", async () => {
    const s = await withDossiers(engine);
    const walk = async (filters: Partial<ListDossiersQuery>, size: number) => {
      const seen: string[] = [];
      let after: { created_at: string; id: string } | undefined;
      for (let batch = 0; batch < 10; batch++) {
        const rows = await s.read(() => s.dossiers.exportPage("o1", filters, T2, after, size));
        seen.push(...rows.map((d) => d.id));
        if (rows.length < size) break;
        after = { created_at: rows.at(-1)!.created_at, id: rows.at(-1)!.id };
      }
      return seen;
    };
    for (const filters of [{}, { type: "sales" as const }, { status: "archived" as const }, { flowId: "f1" }]) {
      const listed = (await s.read(() => s.dossiers.page("o1", list({ ...filters, perPage: 100 }), T2, { remember: false }))).data.map((d) => d.id);
      expect(await walk(filters, 1)).toEqual(listed);
      expect(await walk(filters, 2)).toEqual(listed);
    }
    const whole = await s.read(() => s.dossiers.exportPage("o1", {}, T2, undefined, 100));
    expect(whole).toEqual((await s.read(() => s.dossiers.page("o1", list({ perPage: 100 }), T2, { remember: false }))).data);
  });

  test("page and pageJson: newest first, every filter, the exact totals, pages past the end", async () => {
    const s = await withDossiers(engine);
    await insertRows(s, "contacts", [{ id: "c1", organization_id: "o1", full_name: "C", kind: "[]", kind_mask: 0, created_at: T0, updated_at: T0 }]);
    await insertRows(s, "dossier_contacts", [
      { dossier_id: "d3", contact_id: "c1", organization_id: "o1", role_on_dossier: "primary", is_primary: true, created_at: T0 },
      { dossier_id: "d1", contact_id: "c1", organization_id: "o1", role_on_dossier: "other", is_primary: false, created_at: T0 },
    ]);
    const cases: [Partial<ListDossiersQuery>, string[], number][] = [
      [{}, ["d4", "d2", "d1"], 3],
      [{ perPage: 1, page: 2 }, ["d2"], 3],
      [{ perPage: 2, page: 3 }, [], 3],
      [{ type: "sales" }, ["d2"], 1],
      [{ status: "archived" }, ["d3"], 1],
      [{ status: "won", type: "candidate" }, ["d4"], 1],
      [{ stageId: "s1" }, ["d1"], 1],
      [{ flowId: "f1" }, ["d4", "d1"], 2],
      [{ assignedTo: "m1" }, ["d2"], 1],
      [{ overdue: true }, ["d1"], 1],
      [{ overdue: false }, ["d4", "d2"], 2],
      [{ overdue: false, status: "archived" }, ["d3"], 1],
      [{ q: "élo" }, ["d2", "d1"], 2],
      [{ q: "ÉLO" }, ["d2", "d1"], 2],
      [{ q: "%" }, ["d2"], 1],
      [{ q: "_" }, [], 0],
      [{ q: "i̇stanbul_σας", status: "archived" }, ["d3"], 1],
      [{ q: "straße", status: "archived" }, ["d3"], 1],
      [{ q: "e@x" }, ["d1"], 1],
      [{ q: "other" }, [], 0],
      [{ updatedSince: T2, status: "archived" }, ["d3"], 1],
      [{ updatedSince: T1 }, [], 0],
      [{ contactId: "c1" }, ["d1"], 1],
      [{ contactId: "c1", status: "archived" }, ["d3"], 1],
      [{ contactId: "c1", page: 2 }, [], 1],
    ];
    for (const [filters, ids, total] of cases) {
      for (const remember of [false, true]) {
        const query = list(filters);
        const page = await s.read(() => s.dossiers.page("o1", query, T1, { remember }));
        expect({ filters, ids: page.data.map((d) => d.id), total: page.total }).toEqual({ filters, ids, total });
        const json = await s.read(() => s.dossiers.pageJson("o1", query, T1, { remember }));
        expect({ filters, json: json.json, total: json.total }).toEqual({ filters, json: JSON.stringify(page.data), total });
      }
    }
    expect((await s.read(() => s.dossiers.page("o2", list(), T1, { remember: true }))).data.map((d) => d.id)).toEqual(["d9"]);
    expect(await s.read(() => s.dossiers.pageJson("o3", list(), T1, { remember: false }))).toEqual({ json: "[]", total: 0, next: null });
  });
});

describe("the list's JSON on both engines", () => {
  test("the same bytes", async () => {
    const stores = await Promise.all(ENGINES.map(withDossiers));
    const cursor = { after: { created_at: T1, id: "d2" }, perPage: 1 }; // a cursor page (issue 38)
    for (const filters of [{}, { status: "archived" as const }, { q: "é" }, { overdue: false }, cursor, { perPage: 1 }]) {
      const [a, b] = await Promise.all(stores.map((s) => s.read(() => s.dossiers.pageJson("o1", list(filters), T1, { remember: false }))));
      expect(b.json).toBe(a.json);
      expect(b.total).toBe(a.total);
      expect(b.next).toEqual(a.next);
    }
  });
});
