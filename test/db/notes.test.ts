// Notes' query module (src/db/notes.ts, src/db/pg/notes.ts) on the store under test: the same answers
// on both engines, one organization's notes never another's. Dossiers have no query module on
// PostgreSQL yet: the tests insert them as rows (insertRows).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { ENGINES, insertRows, twoOrgs, type Engine, type EngineStore } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts); PostgreSQL starts once

const T0 = "2026-01-01T00:00:00.000Z";
const T1 = "2026-01-02T00:00:00.000Z";

const note = (id: string, dossierId: string, createdAt: string, isInternal = true) => ({
  id,
  dossier_id: dossierId,
  content: `Note ${id}`,
  is_internal: isInternal,
  created_at: createdAt,
});

/** o1 with dossiers d1, d2; o2 with dossier d9. */
async function withDossiers(engine: Engine): Promise<EngineStore> {
  const s = await twoOrgs(engine);
  const dossier = { type: "candidate", status: "active", created_at: T0, updated_at: T0 };
  await insertRows(s, "dossiers", [
    { ...dossier, id: "d1", organization_id: "o1", name: "One" },
    { ...dossier, id: "d2", organization_id: "o1", name: "Two" },
    { ...dossier, id: "d9", organization_id: "o2", name: "Nine" },
  ]);
  return s;
}

describe.each(ENGINES)("notes on %s", (engine) => {
  test("a dossier's notes: counted, oldest first, ties of one millisecond by id (not by the order written), pages by limit and offset", async () => {
    const s = await withDossiers(engine);
    await s.write(async () => {
      // Written in another order than their ids: n3 and n1 share T0, n2 is later.
      await s.notes.insert("o1", note("n2", "d1", T1, false));
      await s.notes.insert("o1", note("n3", "d1", T0));
      await s.notes.insert("o1", note("n1", "d1", T0));
      await s.notes.insert("o1", note("n4", "d2", T0));
      await s.notes.insert("o2", note("n9", "d9", T0));
    });
    expect(await s.read(() => s.notes.countOfDossier("o1", "d1"))).toBe(3);
    expect(await s.notes.countOfDossier("o2", "d1")).toBe(0);
    expect(await s.notes.countOfDossier("o2", "d9")).toBe(1);
    const all = await s.read(() => s.notes.pageOfDossier("o1", "d1", 10, 0));
    expect(all).toEqual([note("n1", "d1", T0), note("n3", "d1", T0), note("n2", "d1", T1, false)]);
    expect(JSON.stringify(all[2])).toBe('{"id":"n2","dossier_id":"d1","content":"Note n2","is_internal":false,"created_at":"2026-01-02T00:00:00.000Z"}');
    expect((await s.notes.pageOfDossier("o1", "d1", 1, 1)).map((n) => n.id)).toEqual(["n3"]);
    expect(await s.notes.pageOfDossier("o1", "d1", 5, 3)).toEqual([]);
    expect(await s.notes.pageOfDossier("o2", "d1", 10, 0)).toEqual([]);
  });

  test("shownPage: the page and the total, remembered or not, an offset past the end empty; a new note shows at once", async () => {
    const s = await withDossiers(engine);
    await s.write(async () => {
      await s.notes.insert("o1", note("n1", "d1", T0));
      await s.notes.insert("o1", note("n2", "d1", T1));
      await s.notes.insert("o2", note("n9", "d9", T0));
    });
    for (const remember of [false, true]) {
      expect(await s.read(() => s.notes.shownPage("o1", "d1", 1, 0, { remember }))).toEqual({ data: [note("n1", "d1", T0)], total: 2 });
      expect(await s.read(() => s.notes.shownPage("o1", "d1", 1, 1, { remember }))).toEqual({ data: [note("n2", "d1", T1)], total: 2 });
      expect(await s.read(() => s.notes.shownPage("o1", "d1", 1, 2, { remember }))).toEqual({ data: [], total: 2 });
      expect(await s.read(() => s.notes.shownPage("o2", "d1", 10, 0, { remember }))).toEqual({ data: [], total: 0 });
    }
    await s.write(() => s.notes.insert("o1", note("n3", "d1", T1)));
    expect(await s.read(() => s.notes.shownPage("o1", "d1", 1, 2, { remember: true }))).toEqual({ data: [note("n3", "d1", T1)], total: 3 });
  });
});
