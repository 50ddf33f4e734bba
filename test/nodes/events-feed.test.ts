// C17, C19: the events feed read while three nodes write. Four writers spread their dossiers and
// notes over the nodes; a reader pages GET /events?after= on the nodes in turn the whole time.
// What it read is the final feed exactly (nothing missed, nothing twice, in the same order), ids
// ascending (commit order), with an event for every acknowledged write.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { startCluster, type Cluster } from "../helpers/cluster";
import { writer } from "./writers";

setDefaultTimeout(180_000);

const WRITERS = 4;
const WRITES = 60;

interface FeedEvent {
  id: string;
  type: string;
  data: { id: string };
}

/** One page of the feed after `after`, from the next node. */
async function page(cluster: Cluster, after: string | null): Promise<{ data: FeedEvent[]; meta: { has_more: boolean; next_after: string | null } }> {
  const answer = await cluster.fetch(`/api/v1/events?limit=100${after ? `&after=${after}` : ""}`);
  expect(answer.status).toBe(200);
  return (await answer.json()) as { data: FeedEvent[]; meta: { has_more: boolean; next_after: string | null } };
}

describe("the events feed across nodes", () => {
  test("a reader paging on every node while four writers write on all three misses nothing and sees nothing twice", async () => {
    const cluster = await startCluster({ env: { DOSSIER_RATE_LIMIT: "1000000" } });
    try {
      let writing = true;
      const writes = Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(cluster, w, WRITES))).finally(() => (writing = false));

      const seen: FeedEvent[] = [];
      let after: string | null = null;
      let pages = 0;
      // Bounded: at most one page per event to read, plus one poll per 10 ms of writing.
      for (let polls = 0; polls < 100_000; polls++) {
        const done = !writing;
        const { data, meta } = await page(cluster, after);
        pages++;
        seen.push(...data);
        if (data.length > 0) after = meta.next_after;
        if (meta.has_more) continue;
        if (done) break; // a page read after the last write was acknowledged came back complete
        await Bun.sleep(10);
      }
      const written = await writes;

      const final: FeedEvent[] = [];
      let cursor: string | null = null;
      for (let i = 0; i < 1_000; i++) {
        const { data, meta } = await page(cluster, cursor);
        final.push(...data);
        cursor = meta.next_after;
        if (!meta.has_more) break;
      }

      const ids = seen.map((e) => e.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual(final.map((e) => e.id));
      expect([...ids].sort()).toEqual(ids);
      expect(pages).toBeGreaterThan(3); // the reader read while the writers wrote

      const dossiers = written.flatMap((w) => w.dossiers);
      const notes = written.flatMap((w) => w.notes);
      expect(written.reduce((n, w) => n + w.failed, 0)).toBe(0);
      expect(dossiers).toHaveLength(WRITERS * WRITES);
      const created = new Set(seen.filter((e) => e.type === "dossier.created").map((e) => e.data.id));
      const noted = new Set(seen.filter((e) => e.type === "note.created").map((e) => e.data.id));
      expect(created).toEqual(new Set(dossiers));
      expect(noted).toEqual(new Set(notes));
      expect(seen).toHaveLength(dossiers.length + notes.length);
    } finally {
      await cluster.stop();
    }
  });
});
