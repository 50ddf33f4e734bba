// The CV files' query module (src/db/cv-files.ts, src/db/pg/cv-files.ts) on the store under test:
// the same answers on both engines, one organization's rows never another's. Events and dossiers
// have no query module on PostgreSQL yet: the tests insert them as rows (insertRows).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { ENGINES, insertRows, twoOrgs, type Engine, type EngineStore } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts); PostgreSQL starts once

const T0 = "2026-01-01T00:00:00.000Z";
const CV = "/v1/dossiers/d1/cv";

/** o1 with event e1 and dossier d1 (its cv_url CV), d2 (none); o2 with nothing. */
async function withRows(engine: Engine): Promise<EngineStore> {
  const s = await twoOrgs(engine);
  const body = JSON.stringify({ id: "e1", type: "dossier.created", data: { id: "d1" } });
  await insertRows(s, "events", [{ seq: 1, id: "e1", organization_id: "o1", type: "dossier.created", created_at: T0, body, status: "pending", attempts: 0 }]);
  const dossier = { organization_id: "o1", type: "candidate", status: "active", created_at: T0, updated_at: T0 };
  await insertRows(s, "dossiers", [
    { ...dossier, id: "d1", name: "One", cv_url: CV },
    { ...dossier, id: "d2", name: "Two", cv_url: null },
  ]);
  return s;
}

describe.each(ENGINES)("CV files' questions on %s", (engine) => {
  test("eventRecorded: the event is in the database, in its organization only", async () => {
    const s = await withRows(engine);
    expect(await s.cvFiles.eventRecorded("o1", "e1")).toBe(true);
    expect(await s.read(() => s.cvFiles.eventRecorded("o1", "e1"))).toBe(true);
    expect(await s.write(() => s.cvFiles.eventRecorded("o1", "e1"))).toBe(true);
    expect(await s.cvFiles.eventRecorded("o2", "e1")).toBe(false);
    expect(await s.cvFiles.eventRecorded("o1", "e2")).toBe(false);
  });

  test("eventCommitted: true outside a unit (in a read snapshot too), false inside one, false for another organization", async () => {
    const s = await withRows(engine);
    expect(await s.cvFiles.eventCommitted("o1", "e1")).toBe(true);
    expect(await s.read(() => s.cvFiles.eventCommitted("o1", "e1"))).toBe(true);
    expect(await s.write(() => s.cvFiles.eventCommitted("o1", "e1"))).toBe(false);
    expect(await s.cvFiles.eventCommitted("o2", "e1")).toBe(false);
    expect(await s.cvFiles.eventCommitted("o1", "e2")).toBe(false);
  });

  test("dossierHasCv: the dossier of that organization points at that URL", async () => {
    const s = await withRows(engine);
    expect(await s.cvFiles.dossierHasCv("o1", "d1", CV)).toBe(true);
    expect(await s.read(() => s.cvFiles.dossierHasCv("o1", "d1", CV))).toBe(true);
    expect(await s.cvFiles.dossierHasCv("o1", "d1", "/v1/dossiers/d1/cv?v=2")).toBe(false);
    expect(await s.cvFiles.dossierHasCv("o1", "d2", CV)).toBe(false);
    expect(await s.cvFiles.dossierHasCv("o2", "d1", CV)).toBe(false);
    expect(await s.cvFiles.dossierHasCv("o1", "d9", CV)).toBe(false);
  });

  test("namingTheirCv: of the ids asked, those of that organization whose cv_url is <org>/dossiers/<id>/cv.pdf (the S3 sweep's question)", async () => {
    const s = await withRows(engine);
    const dossier = { organization_id: "o1", type: "candidate", status: "active", created_at: T0, updated_at: T0 };
    await insertRows(s, "dossiers", [
      { ...dossier, id: "d3", name: "Three", cv_url: "o1/dossiers/d3/cv.pdf" },
      { ...dossier, id: "d4", name: "Four", cv_url: "o1/dossiers/d4/cv.pdf" },
      { ...dossier, id: "d5", name: "Five", cv_url: "o1/dossiers/d3/cv.pdf" }, // another dossier's key is not its own
    ]);
    expect((await s.read(() => s.cvFiles.namingTheirCv("o1", ["d1", "d2", "d3", "d4", "d5", "d9"]))).sort()).toEqual(["d3", "d4"]);
    expect(await s.read(() => s.cvFiles.namingTheirCv("o1", []))).toEqual([]);
    expect(await s.read(() => s.cvFiles.namingTheirCv("o2", ["d3", "d4"]))).toEqual([]);
  });
});
