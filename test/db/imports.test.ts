// Imports' query module (src/db/imports.ts, src/db/pg/imports.ts) on the store under test: the same
// answers on both engines (the same JSON: keys in the same order, booleans as booleans), one
// organization's imports never another's, but in `unfinished`, the job runner's scan at start. The
// savepoints keep a refused row out, on PostgreSQL too where a failed statement spoils the
// transaction until its ROLLBACK TO.
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { ImportedRecordRow, ImportRow } from "../../src/db/imports";
import { ENGINES, twoOrgs, type Engine, type EngineStore } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts); PostgreSQL starts once

// A PostgreSQL store keeps its pool of 10 connections open until it is closed, and the test server
// takes 300: each test's stores are closed after it (closing again after the file is harmless).
const opened: EngineStore[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});

const T0 = "2026-01-01T00:00:00.000Z";
const T1 = "2026-01-02T00:00:00.000Z";
const T2 = "2026-01-03T00:00:00.000Z";

/** A queued import of o1's contacts; keys in the order the store gives them. */
const imp = (id: string, createdAt: string, changes: Partial<ImportRow> = {}): ImportRow => {
  const r = {
    organizationId: "o1", resource: "contacts" as const, status: "queued" as const, dryRun: false, mode: "create" as const,
    matchOn: "email" as const, emitEvents: true, settings: '{"mapping":{}}', fileName: "people.csv", file: `imports/${id}.csv`,
    actorType: "key", actorId: "k1", rows: 100, processed: 0, created: 0, updated: 0, skipped: 0, failed: 0, lastRow: 0, errors: "[]",
    failure: null, revertUndone: null, revertSkipped: null, finishedAt: null, revertedAt: null, ...changes,
  };
  return {
    id, organizationId: r.organizationId, resource: r.resource, status: r.status, dryRun: r.dryRun, mode: r.mode, matchOn: r.matchOn,
    emitEvents: r.emitEvents, settings: r.settings, fileName: r.fileName, file: r.file, actorType: r.actorType, actorId: r.actorId, rows: r.rows,
    processed: r.processed, created: r.created, updated: r.updated, skipped: r.skipped, failed: r.failed, lastRow: r.lastRow, errors: r.errors,
    failure: r.failure, revertUndone: r.revertUndone, revertSkipped: r.revertSkipped, createdAt: createdAt, finishedAt: r.finishedAt,
    revertedAt: r.revertedAt,
  };
};

const changed = (importId: string, row: number, changes: Partial<ImportedRecordRow> = {}): ImportedRecordRow => ({
  importId, organizationId: "o1", row, resourceId: `r${row}`, action: "created", previous: null, updatedAt: T1, ...changes,
});

/** o1's imports: i2 and i1 tied (written i2 first), i0 older, i3 of dossiers newest; o2's i9. */
const IMPORTS = [
  imp("i2", T1),
  imp("i1", T1, { status: "running", dryRun: true, emitEvents: false, mode: "upsert", matchOn: "id", actorType: null, actorId: null, fileName: null }),
  imp("i0", T0, { status: "succeeded", file: null, finishedAt: T1, processed: 100, created: 90, skipped: 10, lastRow: 100 }),
  imp("i3", T2, { resource: "dossiers", settings: '{"flow_id":"f1"}' }),
];
const I9 = imp("i9", T0, { organizationId: "o2", status: "running" });
const BY_ID = Object.fromEntries(IMPORTS.map((i) => [i.id, i]));

/** o1 and o2; o1's flow f1 with stages a, b, c (written out of order). */
async function withOrgs(engine: Engine): Promise<EngineStore> {
  const s = await twoOrgs(engine);
  opened.push(s);
  const stage = (id: string, position: number) => ({ id, flow_id: "f1", name: `Stage ${id}`, position, deadline_days: null, win_probability: 0, color: "#aabbcc" });
  await s.write(() =>
    s.flows.insert({
      id: "f1", organization_id: "o1", name: "Hiring", type: "candidate", is_default: true, overdue_tasks: true, created_at: T0,
      stages: [stage("c", 3), stage("a", 1), stage("b", 2)],
    }),
  );
  return s;
}

async function withImports(engine: Engine): Promise<EngineStore> {
  const s = await withOrgs(engine);
  await s.write(async () => {
    for (const i of [...IMPORTS, I9]) await s.imports.insert(i);
  });
  return s;
}

describe.each(ENGINES)("imports on %s", (engine) => {
  test("insert and byId: the record as written (booleans as booleans, nulls as nulls), in its organization only", async () => {
    const s = await withImports(engine);
    const i1 = await s.read(() => s.imports.byId("o1", "i1"));
    expect(i1).toEqual(BY_ID.i1);
    expect(JSON.stringify(i1)).toBe(JSON.stringify(BY_ID.i1));
    expect(JSON.stringify(i1)).toBe(
      '{"id":"i1","organizationId":"o1","resource":"contacts","status":"running","dryRun":true,"mode":"upsert","matchOn":"id","emitEvents":false,' +
        '"settings":"{\\"mapping\\":{}}","fileName":null,"file":"imports/i1.csv","actorType":null,"actorId":null,"rows":100,"processed":0,' +
        '"created":0,"updated":0,"skipped":0,"failed":0,"lastRow":0,"errors":"[]","failure":null,"revertUndone":null,"revertSkipped":null,' +
        '"createdAt":"2026-01-02T00:00:00.000Z","finishedAt":null,"revertedAt":null}',
    );
    expect(await s.imports.byId("o1", "i0")).toEqual(BY_ID.i0);
    expect(await s.imports.byId("o2", "i1")).toBeNull();
    expect(await s.imports.byId("o1", "i9")).toBeNull();
  });

  test("page: the organization's imports of the given resources, newest first, ties by id descending; the total; offset and limit", async () => {
    const s = await withImports(engine);
    const ids = (p: { rows: ImportRow[] }) => p.rows.map((r) => r.id);
    const both = await s.read(() => s.imports.page("o1", ["contacts", "dossiers"], 0, 10));
    expect(both).toEqual({ rows: [BY_ID.i3, BY_ID.i2, BY_ID.i1, BY_ID.i0], total: 4 });
    expect(await s.imports.page("o1", ["contacts"], 0, 10)).toEqual({ rows: [BY_ID.i2, BY_ID.i1, BY_ID.i0], total: 3 });
    expect(ids(await s.imports.page("o1", ["dossiers"], 0, 10))).toEqual(["i3"]);
    expect(await s.imports.page("o1", [], 0, 10)).toEqual({ rows: [], total: 0 });
    expect(await s.imports.page("o1", ["contacts"], 1, 1)).toEqual({ rows: [BY_ID.i1], total: 3 });
    expect(await s.imports.page("o1", ["contacts"], 3, 1)).toEqual({ rows: [], total: 3 });
    expect(await s.imports.page("o2", ["contacts", "dossiers"], 0, 10)).toEqual({ rows: [I9], total: 1 });
  });

  test("unfinished: every organization's queued and running imports, oldest first, ties by id", async () => {
    const s = await withImports(engine);
    expect(await s.read(() => s.imports.unfinished())).toEqual([
      { organizationId: "o2", id: "i9" },
      { organizationId: "o1", id: "i1" },
      { organizationId: "o1", id: "i2" },
      { organizationId: "o1", id: "i3" },
    ]);
    await s.write(async () => {
      await s.imports.setStatus("o1", "i2", "failed");
      await s.imports.setStatus("o2", "i3", "failed"); // not o2's
      await s.imports.setStatus("o2", "i9", "succeeded");
    });
    expect(await s.imports.unfinished()).toEqual([
      { organizationId: "o1", id: "i1" },
      { organizationId: "o1", id: "i3" },
    ]);
    expect((await s.imports.byId("o1", "i2"))?.status).toBe("failed");
  });

  test("progress: a batch's counts, the failure and finished_at kept unless given, the file kept unless given as null; reverted", async () => {
    const s = await withImports(engine);
    const p = { status: "running" as const, processed: 50, created: 40, updated: 5, skipped: 3, failed: 2, lastRow: 51, errors: '[{"row":7}]' };
    await s.write(async () => {
      await s.imports.progress("o1", "i2", p);
      await s.imports.progress("o2", "i1", p); // not o2's
    });
    const counts = { status: "running" as const, processed: 50, created: 40, updated: 5, skipped: 3, failed: 2, lastRow: 51, errors: '[{"row":7}]' };
    expect(await s.read(() => s.imports.byId("o1", "i2"))).toEqual({ ...BY_ID.i2, ...counts });
    expect(await s.imports.byId("o1", "i1")).toEqual(BY_ID.i1);

    await s.write(() => s.imports.progress("o1", "i2", { ...p, status: "failed", failure: "the file went away", finishedAt: T2, file: null }));
    const failed = { ...BY_ID.i2, ...counts, status: "failed" as const, failure: "the file went away", finishedAt: T2, file: null };
    expect(await s.imports.byId("o1", "i2")).toEqual(failed);
    // Not given (undefined) or null: the failure and the end stay; the file stays when not given.
    await s.write(() => s.imports.progress("o1", "i2", { ...p, status: "succeeded", failure: null, finishedAt: null }));
    expect(await s.imports.byId("o1", "i2")).toEqual({ ...failed, status: "succeeded" });
    await s.write(() => s.imports.progress("o1", "i3", { ...p, processed: 1 }));
    expect((await s.imports.byId("o1", "i3"))?.file).toBe("imports/i3.csv");

    await s.write(async () => {
      await s.imports.reverted("o1", "i0", 85, 5, T2);
      await s.imports.reverted("o2", "i2", 1, 1, T2); // not o2's
    });
    expect(await s.imports.byId("o1", "i0")).toEqual({ ...BY_ID.i0, status: "reverted", revertUndone: 85, revertSkipped: 5, revertedAt: T2 });
    expect((await s.imports.byId("o1", "i2"))?.status).toBe("succeeded");
  });

  test("insertRows and changedRows: what each row changed, last first below `before` (keyset), by limit, in the organization only", async () => {
    const s = await withImports(engine);
    const rows = [
      changed("i0", 2, { action: "updated", previous: '{"city":"Lyon"}', updatedAt: T2 }),
      changed("i0", 5),
      changed("i0", 3),
      changed("i1", 4),
    ];
    await s.write(async () => {
      await s.imports.insertRows(rows);
      await s.imports.insertRows([]);
      await s.imports.insertRows([changed("i9", 1, { organizationId: "o2" })]);
    });
    const first = await s.read(() => s.imports.changedRows("o1", "i0", Number.MAX_SAFE_INTEGER, 2));
    expect(first).toEqual([rows[1], rows[2]]);
    expect(JSON.stringify(first[0])).toBe('{"importId":"i0","organizationId":"o1","row":5,"resourceId":"r5","action":"created","previous":null,"updatedAt":"2026-01-02T00:00:00.000Z"}');
    expect(await s.imports.changedRows("o1", "i0", 3, 2)).toEqual([rows[0]]);
    expect(await s.imports.changedRows("o1", "i0", 2, 2)).toEqual([]);
    expect(await s.imports.changedRows("o2", "i0", 100, 10)).toEqual([]);
    expect(await s.imports.changedRows("o1", "i9", 100, 10)).toEqual([]);
    expect(await s.imports.changedRows("o2", "i9", 100, 10)).toEqual([changed("i9", 1, { organizationId: "o2" })]);
  });

  test("insertRows: a batch of 2,345 rows at once, read back whole in the revert's batches", async () => {
    const s = await withImports(engine);
    const many = Array.from({ length: 2_345 }, (_, i) => changed("i2", i + 1, i % 3 === 0 ? { action: "updated", previous: `{"n":${i}}` } : {}));
    await s.write(() => s.imports.insertRows(many));
    const back: ImportedRecordRow[] = [];
    for (let before = Number.MAX_SAFE_INTEGER; ; ) {
      const batch = await s.read(() => s.imports.changedRows("o1", "i2", before, 500));
      back.push(...batch);
      if (batch.length < 500) break;
      before = batch.at(-1)!.row;
    }
    expect(back).toEqual([...many].reverse());
  });

  test("stagesOfFlow: the flow's stages by position, in its organization only", async () => {
    const s = await withOrgs(engine);
    expect(await s.read(() => s.imports.stagesOfFlow("o1", "f1"))).toEqual([
      { id: "a", name: "Stage a" },
      { id: "b", name: "Stage b" },
      { id: "c", name: "Stage c" },
    ]);
    expect(await s.imports.stagesOfFlow("o2", "f1")).toEqual([]);
    expect(await s.imports.stagesOfFlow("o1", "f9")).toEqual([]);
  });

  test("savepoints: a row rolled back alone (a refused statement too), a released one kept, a dry run's batch undone whole", async () => {
    const s = await withOrgs(engine);
    await s.write(async () => {
      await s.imports.insert(imp("i1", T0));
      // A row whose statement fails: the transaction goes on after its ROLLBACK TO.
      await s.imports.savepoint("import_row");
      await s.imports.insertRows([changed("i1", 1)]);
      await expect(Promise.resolve().then(() => s.imports.insert(imp("i1", T0)))).rejects.toThrow();
      await s.imports.rollbackTo("import_row");
      // A row kept.
      await s.imports.savepoint("import_row");
      await s.imports.insertRows([changed("i1", 2)]);
      await s.imports.release("import_row");
      // A row undone without an error.
      await s.imports.savepoint("import_row");
      await s.imports.insertRows([changed("i1", 3)]);
      await s.imports.rollbackTo("import_row");
      // A dry run's batch: its rows kept inside it, the whole batch undone.
      await s.imports.savepoint("import_batch");
      await s.imports.savepoint("import_row");
      await s.imports.insertRows([changed("i1", 4)]);
      await s.imports.release("import_row");
      await s.imports.progress("o1", "i1", { status: "running", processed: 4, created: 4, updated: 0, skipped: 0, failed: 0, lastRow: 4, errors: "[]" });
      await s.imports.rollbackTo("import_batch");
      await s.imports.setStatus("o1", "i1", "running");
    });
    expect((await s.read(() => s.imports.changedRows("o1", "i1", 100, 10))).map((r) => r.row)).toEqual([2]);
    expect(await s.imports.byId("o1", "i1")).toEqual(imp("i1", T0, { status: "running" }));
    // Savepoint names are the fixed ones only.
    await expect(s.write(() => s.imports.savepoint("x; DROP TABLE imports" as never))).rejects.toThrow("is not a savepoint of the imports");
    expect(await s.imports.byId("o1", "i1")).not.toBeNull();
  });
});

describe("imports: the same JSON on both engines", () => {
  test("byId, the pages, unfinished, changedRows and stagesOfFlow, serialised, are byte-identical", async () => {
    const answers: string[] = [];
    for (const engine of ENGINES) {
      const s = await withImports(engine);
      await s.write(async () => {
        await s.imports.progress("o1", "i1", { status: "succeeded", processed: 100, created: 1, updated: 2, skipped: 3, failed: 94, lastRow: 100, errors: '[{"row":1,"column":"email","message":"no"}]', finishedAt: T2, file: null });
        await s.imports.reverted("o1", "i0", 9, 1, T2);
        await s.imports.insertRows([changed("i1", 2, { action: "updated", previous: '{"name":"Old"}' }), changed("i1", 1)]);
      });
      answers.push(
        JSON.stringify({
          byId: [await s.imports.byId("o1", "i0"), await s.imports.byId("o1", "i1")],
          pages: [await s.imports.page("o1", ["contacts", "dossiers"], 0, 10), await s.imports.page("o1", ["contacts"], 1, 2)],
          unfinished: await s.imports.unfinished(),
          changed: await s.imports.changedRows("o1", "i1", 1_000, 10),
          stages: await s.imports.stagesOfFlow("o1", "f1"),
        }),
      );
    }
    expect(answers[1]).toBe(answers[0]);
  });
});
