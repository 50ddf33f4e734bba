// A dossier read ahead by its request's admission (GET /dossiers/{id} on PostgreSQL) is kept as any
// read record, and one remembered under the same generations is answered instead: the same record,
// frozen, whose ETag etagOf computes once (src/db/pg/answer-cache.ts). The queries are never asked
// here: every read below was read ahead.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { cachedReads } from "../../../src/db/pg/answer-cache";
import type { EngineQueries } from "../../../src/db/pg/queries";
import type { CacheGenerations, ReadAheadDone } from "../../../src/db/store";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

type Dossier = NonNullable<ReadAheadDone["dossier"]>;

function reads() {
  let seen: CacheGenerations = { organizationId: "org", dossiers: 1, contacts: 1 };
  let ahead: ReadAheadDone | undefined;
  const unasked = () => {
    throw new Error("read ahead: the queries are not asked");
  };
  const queries = { dossiers: { shown: unasked }, contacts: { shown: unasked } } as unknown as { dossiers: EngineQueries<"dossiers">; contacts: EngineQueries<"contacts"> };
  const cached = cachedReads(queries, () => seen, () => ahead, (load) => load());
  return {
    /** GET /dossiers/{id} of `dossier` as its admission read it, under the dossiers generation `generation`. */
    get: (dossier: Dossier, generation: number, remember = true) => {
      seen = { ...seen, dossiers: generation };
      ahead = { organizationId: "org", dossierId: dossier.id, dossier };
      return cached.dossiers.shown("org", dossier.id, { remember });
    },
  };
}

const dossier = (name: string) => ({ id: "d1", name }) as unknown as Dossier;

describe("a dossier read ahead, remembered (PostgreSQL's answer cache)", () => {
  test("read again under the same generation: the record remembered, frozen, not the new copy", async () => {
    const { get } = reads();
    const first = await get(dossier("Ada"), 1);
    expect(Object.isFrozen(first)).toBe(true);
    const copy = dossier("Ada");
    const again = await get(copy, 1);
    expect(again).toBe(first);
    expect(again).not.toBe(copy);
  });

  test("a new generation: the new read is answered and kept in its place", async () => {
    const { get } = reads();
    await get(dossier("Ada"), 1);
    const changed = await get(dossier("Ada Lovelace"), 2);
    expect(changed?.name).toBe("Ada Lovelace");
    expect(await get(dossier("Ada Lovelace"), 2)).toBe(changed);
  });

  test("a read not to remember (an answer with derived fields that move) is answered as read, nothing kept", async () => {
    const { get } = reads();
    const copy = dossier("Ada");
    expect(await get(copy, 1, false)).toBe(copy);
    expect(Object.isFrozen(copy)).toBe(false);
    const next = dossier("Ada");
    expect(await get(next, 1)).toBe(next);
  });
});
