// C11, C19: `kill -9` of one node while four writers write through all three loses no
// acknowledged write. A request the kill cut may have failed (or committed unanswered); every one
// answered 2xx is there afterwards, on every node, the killed one restarted included. (The
// webhook claims it held are test/nodes/webhooks*'s.)
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { startCluster } from "../helpers/cluster";
import { writer } from "./writers";

setDefaultTimeout(180_000);

const WRITERS = 4;
const WRITES = 60;
const VICTIM = 1;

describe("kill -9 of a node", () => {
  test("four writers through three nodes, one node killed mid-way: no acknowledged write lost", async () => {
    const cluster = await startCluster({ env: { DOSSIER_RATE_LIMIT: "1000000" } });
    try {
      let killed = false;
      const alive = () => cluster.nodes.map((_, i) => i).filter((i) => !killed || i !== VICTIM);
      const writes = Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(cluster, w, WRITES, alive)));
      // Killed while the writers are a quarter through (bounded: the writers end by themselves).
      for (let i = 0; i < 6_000; i++) {
        const total = (await (await fetch(`${cluster.nodes[0].url}/api/v1/dossiers?per_page=1`, { headers: { authorization: `Bearer ${cluster.key}` } })).json()) as { meta: { total: number } };
        if (total.meta.total >= (WRITERS * WRITES) / 4) break;
        await Bun.sleep(10);
      }
      await cluster.kill(VICTIM);
      killed = true;
      const written = await writes;
      await cluster.restart(VICTIM);

      const dossiers = written.flatMap((w) => w.dossiers);
      const notes = written.flatMap((w) => w.notes);
      expect(dossiers.length).toBeGreaterThan(WRITERS * WRITES * 0.9);
      const headers = { authorization: `Bearer ${cluster.key}` };
      for (const node of cluster.nodes) {
        const listed = new Set<string>();
        for (let page = 1; page <= 10; page++) {
          const answer = (await (await fetch(`${node.url}/api/v1/dossiers?per_page=100&page=${page}`, { headers })).json()) as { data: { id: string }[] };
          for (const d of answer.data) listed.add(d.id);
          if (answer.data.length < 100) break;
        }
        const lost = dossiers.filter((id) => !listed.has(id));
        expect(lost).toEqual([]);
      }
      const noted = new Set<string>();
      await Promise.all(
        dossiers.map(async (id, i) => {
          const answer = (await (await fetch(`${cluster.nodes[i % 3].url}/api/v1/dossiers/${id}/notes?per_page=100`, { headers })).json()) as { data: { id: string }[] };
          for (const n of answer.data) noted.add(n.id);
        }),
      );
      expect(notes.filter((id) => !noted.has(id))).toEqual([]);
    } finally {
      await cluster.stop();
    }
  });
});
