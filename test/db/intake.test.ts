// Intake addresses' and messages' query module (src/db/intake.ts, src/db/pg/intake.ts) on the store
// under test: the same answers on both engines, one organization's rows never another's. Flows and
// dossiers have no query module on PostgreSQL yet: the tests insert them as rows (insertRows).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { ENGINES, insertRows, twoOrgs, type Engine, type EngineStore } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts); PostgreSQL starts once

const T0 = "2026-01-01T00:00:00.000Z";
const T1 = "2026-01-02T00:00:00.000Z";
const T2 = "2026-01-03T00:00:00.000Z";

/** o1 (growth) with flows f1 (candidate) and f2 (sales) and dossier d1; o2 (free) with flow f3 and dossier d3. */
async function withFlows(engine: Engine): Promise<EngineStore> {
  const s = await twoOrgs(engine);
  await insertRows(s, "flows", [
    { id: "f1", organization_id: "o1", name: "Hiring", type: "candidate", is_default: true, created_at: T0 },
    { id: "f2", organization_id: "o1", name: "Sales", type: "sales", is_default: true, created_at: T0 },
    { id: "f3", organization_id: "o2", name: "Hiring", type: "candidate", is_default: true, created_at: T0 },
  ]);
  const dossier = { type: "candidate", status: "active", created_at: T0, updated_at: T0 };
  await insertRows(s, "dossiers", [
    { ...dossier, id: "d1", organization_id: "o1", flow_id: "f1", name: "One" },
    { ...dossier, id: "d3", organization_id: "o2", flow_id: "f3", name: "Three" },
  ]);
  return s;
}

const address = (flowId: string, organizationId: string, token: string, createdAt = T0) => ({
  flow_id: flowId,
  organization_id: organizationId,
  token_hash: `hash-${token}`,
  token_sealed: `sealed-${token}`,
  created_at: createdAt,
});

describe.each(ENGINES)("intake on %s", (engine) => {
  test("flowOrganization names a flow's organization, null for an unknown flow", async () => {
    const s = await withFlows(engine);
    expect(await s.read(() => s.intake.flowOrganization("f2"))).toBe("o1");
    expect(await s.intake.flowOrganization("f3")).toBe("o2");
    expect(await s.intake.flowOrganization("f9")).toBeNull();
  });

  test("addresses: set, replaced, found in their organization only; flows without one, of every organization", async () => {
    const s = await withFlows(engine);
    const byId = (rows: { id: string; organization_id: string }[]) => [...rows].sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(byId(await s.intake.flowsWithoutAddress())).toEqual([
      { id: "f1", organization_id: "o1" },
      { id: "f2", organization_id: "o1" },
      { id: "f3", organization_id: "o2" },
    ]);
    expect(await s.intake.address("o1", "f1")).toBeNull();
    await s.write(async () => {
      await s.intake.setAddress(address("f1", "o1", "a"));
      await s.intake.setAddress(address("f3", "o2", "c"));
    });
    expect(await s.read(() => s.intake.address("o1", "f1"))).toEqual({ flow_id: "f1", organization_id: "o1", token_sealed: "sealed-a" });
    expect(await s.intake.address("o2", "f1")).toBeNull();
    expect(await s.read(() => s.intake.flowsWithoutAddress())).toEqual([{ id: "f2", organization_id: "o1" }]);
    await s.write(() => s.intake.setAddress(address("f1", "o1", "b", T1)));
    expect(await s.intake.address("o1", "f1")).toEqual({ flow_id: "f1", organization_id: "o1", token_sealed: "sealed-b" });
    expect(await s.intake.target("hash-a")).toBeNull(); // the old one stops working at once
  });

  test("target: the flow, its type and the organization's plan, by the token's hash alone", async () => {
    const s = await withFlows(engine);
    await s.write(async () => {
      await s.intake.setAddress(address("f2", "o1", "a"));
      await s.intake.setAddress(address("f3", "o2", "c"));
    });
    expect(await s.read(() => s.intake.target("hash-a"))).toEqual({ organization_id: "o1", flow_id: "f2", flow_type: "sales", plan: "growth" });
    expect(await s.intake.target("hash-c")).toEqual({ organization_id: "o2", flow_id: "f3", flow_type: "candidate", plan: "free" });
    expect(await s.intake.target("hash-none")).toBeNull();
  });

  test("messages: recorded once, found since a time in their organization only, an older record dropped", async () => {
    const s = await withFlows(engine);
    await s.write(async () => {
      await s.intake.record({ organization_id: "o1", flow_id: "f1", message_id: "<m1@x>", dossier_id: "d1", received_at: T1 });
      await s.intake.record({ organization_id: "o2", flow_id: "f3", message_id: "<m1@x>", dossier_id: "d3", received_at: T1 });
    });
    await expect(
      s.write(() => s.intake.record({ organization_id: "o1", flow_id: "f1", message_id: "<m1@x>", dossier_id: "d1", received_at: T2 })),
    ).rejects.toThrow();
    expect(await s.write(() => s.intake.previous("o1", "f1", "<m1@x>", T1))).toBe("d1"); // received at `since`: kept
    expect(await s.write(() => s.intake.previous("o1", "f1", "<m2@x>", T0))).toBeNull();
    expect(await s.write(() => s.intake.previous("o2", "f1", "<m1@x>", T2))).toBeNull(); // another organization's: not dropped
    expect(await s.write(() => s.intake.previous("o1", "f1", "<m1@x>", T0))).toBe("d1");
    expect(await s.write(() => s.intake.previous("o1", "f1", "<m1@x>", T2))).toBeNull(); // older: dropped
    expect(await s.write(() => s.intake.previous("o1", "f1", "<m1@x>", T0))).toBeNull();
    await s.write(() => s.intake.record({ organization_id: "o1", flow_id: "f1", message_id: "<m1@x>", dossier_id: "d1", received_at: T2 }));
    expect(await s.write(() => s.intake.previous("o1", "f1", "<m1@x>", T2))).toBe("d1");
    expect(await s.write(() => s.intake.previous("o2", "f3", "<m1@x>", T0))).toBe("d3");
  });
});
