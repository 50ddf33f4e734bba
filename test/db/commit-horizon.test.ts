// The dispatcher's cursor over every organization's events on PostgreSQL (src/db/pg/commit-horizon.ts):
// a unit that took a lower event number and has not committed hides the higher numbers committed
// meanwhile, so the cursor never moves past an event still to come. PostgreSQL only: SQLite's one
// writer commits in number order, and its units cannot be held open side by side.
import { expect, setDefaultTimeout, test } from "bun:test";
import type { DossierApp } from "../../src/app";
import type { Store } from "../../src/db/store";
import { makeOrg } from "../helpers";
import { appOn } from "../helpers/stores";

setDefaultTimeout(60_000); // Bun keeps a timeout per test file (test/preload.ts)

/** Records one event of `organizationId` in a unit of its own; the unit commits once `release` resolves. */
async function recordEvent(app: DossierApp<Store>, organizationId: string, numbered: (seq: number) => void, release: Promise<void>) {
  const { store } = app.dossier;
  return store.write(async () => {
    const seq = await store.events.nextSeq(organizationId);
    numbered(seq);
    await store.events.insert({
      seq,
      id: `evt_${String(seq).padStart(26, "0")}`,
      organizationId,
      type: "dossier.created",
      createdAt: new Date(0).toISOString(),
      body: "{}",
      status: "pending",
      nextAttemptAt: 0,
    });
    await release;
  });
}

test("a higher number committed first stays unread until the lower one's unit has committed", async () => {
  const app = await appOn("postgres");
  const [a, b] = [await makeOrg(app), await makeOrg(app)];
  const reader = app.dossier.store.outboxReader;
  const start = await reader.lastSeq();

  let releaseA!: () => void;
  let seqA = 0;
  let seqB = 0;
  const heldA = new Promise<number>((numbered) => {
    void recordEvent(app, a.id, (seq) => ((seqA = seq), numbered(seq)), new Promise<void>((release) => (releaseA = release)));
  });
  await heldA;
  const unitB = recordEvent(app, b.id, (seq) => (seqB = seq), Promise.resolve());
  await unitB;
  expect(seqB).toBeGreaterThan(seqA);

  // B's event is committed, A's not yet: a read shows neither (the cursor stays before A's number).
  expect(await reader.newEvents(start, 100)).toEqual([]);

  releaseA();
  await app.dossier.store.idle();
  const rows = await reader.newEvents(start, 100);
  expect(rows.map((row) => [row.seq, row.organization_id])).toEqual([
    [seqA, a.id],
    [seqB, b.id],
  ]);
});

test("a unit that rolls back after taking a number hides nothing once it has ended", async () => {
  const app = await appOn("postgres");
  const org = await makeOrg(app);
  const { store } = app.dossier;
  const start = await store.outboxReader.lastSeq();
  await expect(
    store.write(async () => {
      await store.events.nextSeq(org.id);
      throw new Error("changed its mind");
    }),
  ).rejects.toThrow("changed its mind");
  await recordEvent(app, org.id, () => {}, Promise.resolve());
  expect(await store.outboxReader.newEvents(start, 100)).toHaveLength(1);
});
