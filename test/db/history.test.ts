// The history's query module (src/db/history.ts, src/db/pg/history.ts) on the store under test: the
// same answers on both engines, one organization's rows never another's. Flows, dossiers, contacts
// and links have no query module on PostgreSQL yet (flows aside): the tests insert them as rows
// (insertRows); the stays are the triggers' (migration 0008, drizzle-pg/0001).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { HistoryRow } from "../../src/db/history";
import { ENGINES, insertRows, twoOrgs, type Engine, type EngineStore } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts); PostgreSQL starts once

const T0 = "2026-01-01T00:00:00.000Z";
const T1 = "2026-01-02T00:00:00.000Z";

const item = (kind: string, at: string, changes: Partial<HistoryRow> = {}): HistoryRow => ({
  at,
  kind,
  actor_type: "key",
  actor_id: "k1",
  actor_name: "Zapier",
  changes: "{}",
  ...changes,
});

/** o1: flow f1 (stages a, b), dossiers d1, d2, contacts c1, c2; o2: flow f9 (stage z), dossier d9, contact c9. */
async function withDossiers(engine: Engine): Promise<EngineStore> {
  const s = await twoOrgs(engine);
  const st = (id: string, flowId: string, position: number) => ({ id, flow_id: flowId, name: id, position, deadline_days: null, win_probability: 0, color: "#fff" });
  await s.write(async () => {
    await s.flows.insert({ id: "f1", organization_id: "o1", name: "Hiring", type: "candidate", is_default: true, overdue_tasks: true, created_at: T0, stages: [st("a", "f1", 1), st("b", "f1", 2)] });
    await s.flows.insert({ id: "f9", organization_id: "o2", name: "Hiring", type: "candidate", is_default: true, overdue_tasks: true, created_at: T0, stages: [st("z", "f9", 1)] });
  });
  const dossier = { type: "candidate", status: "active", created_at: T0, updated_at: T0, stage_entered_at: T0 };
  await insertRows(s, "dossiers", [
    { ...dossier, id: "d1", organization_id: "o1", flow_id: "f1", name: "One", current_stage_id: "a" },
    { ...dossier, id: "d2", organization_id: "o1", flow_id: "f1", name: "Two", current_stage_id: "a" },
    { ...dossier, id: "d9", organization_id: "o2", flow_id: "f9", name: "Nine", current_stage_id: "z" },
  ]);
  const contact = { kind: "[\"candidate\"]", kind_mask: 1, created_at: T0, updated_at: T0 };
  await insertRows(s, "contacts", [
    { ...contact, id: "c1", organization_id: "o1", full_name: "Ada" },
    { ...contact, id: "c2", organization_id: "o1", full_name: "Bob" },
    { ...contact, id: "c9", organization_id: "o2", full_name: "Nine" },
  ]);
  return s;
}

describe.each(ENGINES)("history on %s", (engine) => {
  test("items: oldest first in the order written (the same `at` too), the dossier's of its organization only; nulls as null", async () => {
    const s = await withDossiers(engine);
    const items = [
      item("created", T1),
      item("updated", T1, { actor_type: null, actor_id: null, actor_name: null, changes: '{"name":["One","Uno"]}' }),
      item("note_added", T0, { actor_type: "member", actor_id: "m1", actor_name: "Ada" }),
    ];
    await s.write(async () => {
      for (const it of items) await s.history.insert("o1", "d1", it);
      await s.history.insert("o1", "d2", item("created", T0));
      await s.history.insert("o2", "d9", item("created", T0));
    });
    const read = await s.read(() => s.history.ofDossier("o1", "d1"));
    expect(read).toEqual(items);
    expect(JSON.stringify(read)).toBe(JSON.stringify(items));
    expect(await s.history.ofDossier("o2", "d1")).toEqual([]);
    expect(await s.history.ofDossier("o2", "d9")).toEqual([item("created", T0)]);
  });

  test("stays: the dossier's of its organization, by entered_at, then the order they began in", async () => {
    const s = await withDossiers(engine);
    // d1 and d9 entered their stage when inserted (the triggers); d1's earlier stays as rows.
    await insertRows(s, "stage_visits", [
      { id: 12, organization_id: "o1", flow_id: "f1", dossier_id: "d1", stage_id: "b", entered_at: "2025-12-01T00:00:00.000Z", left_at: "2025-12-01T00:00:00.000Z", next_stage_id: "a" },
      { id: 11, organization_id: "o1", flow_id: "f1", dossier_id: "d1", stage_id: "a", entered_at: "2025-12-01T00:00:00.000Z", left_at: "2025-12-01T00:00:00.000Z", next_stage_id: "b" },
      { id: 10, organization_id: "o1", flow_id: "f1", dossier_id: "d1", stage_id: "b", entered_at: "2025-11-01T00:00:00.000Z", left_at: "2025-12-01T00:00:00.000Z", next_stage_id: "a" },
    ]);
    const stays = await s.read(() => s.history.staysOfDossier("o1", "d1"));
    expect(stays).toEqual([
      { stage_id: "b", entered_at: "2025-11-01T00:00:00.000Z", left_at: "2025-12-01T00:00:00.000Z" },
      { stage_id: "a", entered_at: "2025-12-01T00:00:00.000Z", left_at: "2025-12-01T00:00:00.000Z" },
      { stage_id: "b", entered_at: "2025-12-01T00:00:00.000Z", left_at: "2025-12-01T00:00:00.000Z" },
      { stage_id: "a", entered_at: T0, left_at: null },
    ]);
    expect(JSON.stringify(stays[0])).toBe('{"stage_id":"b","entered_at":"2025-11-01T00:00:00.000Z","left_at":"2025-12-01T00:00:00.000Z"}');
    expect(await s.history.staysOfDossier("o2", "d1")).toEqual([]);
    expect(await s.history.staysOfDossier("o2", "d9")).toEqual([{ stage_id: "z", entered_at: T0, left_at: null }]);
  });

  test("links: one link as it is (booleans as booleans), a contact's links by dossier, in their organization only", async () => {
    const s = await withDossiers(engine);
    const link = { created_at: T1 };
    await insertRows(s, "dossier_contacts", [
      { ...link, dossier_id: "d2", contact_id: "c1", organization_id: "o1", role_on_dossier: "champion", is_primary: false },
      { ...link, dossier_id: "d1", contact_id: "c1", organization_id: "o1", role_on_dossier: "primary", is_primary: true },
      { ...link, dossier_id: "d1", contact_id: "c2", organization_id: "o1", role_on_dossier: "other", is_primary: false },
      { ...link, dossier_id: "d9", contact_id: "c9", organization_id: "o2", role_on_dossier: "primary", is_primary: true },
    ]);
    expect(await s.read(() => s.history.link("o1", "d1", "c1"))).toEqual({ role_on_dossier: "primary", is_primary: true });
    expect(await s.history.link("o1", "d2", "c1")).toEqual({ role_on_dossier: "champion", is_primary: false });
    expect(await s.history.link("o1", "d2", "c2")).toBeNull();
    expect(await s.history.link("o2", "d1", "c1")).toBeNull();
    const links = await s.history.linksOfContact("o1", "c1");
    expect(links).toEqual([
      { dossier_id: "d1", role_on_dossier: "primary", is_primary: true },
      { dossier_id: "d2", role_on_dossier: "champion", is_primary: false },
    ]);
    expect(JSON.stringify(links[0])).toBe('{"dossier_id":"d1","role_on_dossier":"primary","is_primary":true}');
    expect(await s.history.linksOfContact("o2", "c1")).toEqual([]);
    expect(await s.history.linksOfContact("o1", "c3")).toEqual([]);
  });

  test("actors' names: a key's (null when unnamed) and a member's, in their organization only", async () => {
    const s = await withDossiers(engine);
    await insertRows(s, "api_keys", [
      { id: "k1", organization_id: "o1", name: "Zapier", key_hash: "h1", prefix: "dk_1", scopes: "dossiers:read", created_at: T0 },
      { id: "k2", organization_id: "o1", name: null, key_hash: "h2", prefix: "dk_2", scopes: "dossiers:read", created_at: T0 },
    ]);
    await s.write(async () => {
      await s.members.insert({
        id: "m1", organizationId: "o1", email: "a@x.example", emailFolded: "a@x.example", name: "Ada", role: "owner",
        passwordHash: null, createdAt: T0, lastSignInAt: null, disabledAt: null,
        timeZone: null, digest: true, lastDigestDate: null, calendarTokenHash: null,
      });
    });
    expect(await s.read(() => s.history.keyName("o1", "k1"))).toBe("Zapier");
    expect(await s.history.keyName("o1", "k2")).toBeNull();
    expect(await s.history.keyName("o2", "k1")).toBeNull();
    expect(await s.history.memberName("o1", "m1")).toBe("Ada");
    expect(await s.history.memberName("o2", "m1")).toBeNull();
    expect(await s.history.memberName("o1", "m9")).toBeNull();
  });
});
