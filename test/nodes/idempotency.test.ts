// C16, C19: one Idempotency-Key sent to two nodes at the same moment has one effect. Each node
// keeps its running keys in memory, so the other node cannot answer 409 from them: the database
// decides, and the request that loses answers the winner's answer (replayed) or 409 while it runs.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { startCluster } from "../helpers/cluster";

setDefaultTimeout(120_000);

const KEYS = 24;

describe("Idempotency-Key across nodes", () => {
  test("the same key and body sent to two nodes at once: one dossier, answers that agree", async () => {
    const cluster = await startCluster();
    try {
      const headers = { authorization: `Bearer ${cluster.key}`, "content-type": "application/json" };
      for (let i = 0; i < KEYS; i++) {
        const body = JSON.stringify({ name: `Twin ${i}`, type: "candidate" });
        const send = (node: number) =>
          fetch(`${cluster.nodes[node % 3].url}/api/v1/dossiers`, { method: "POST", headers: { ...headers, "idempotency-key": `twin-${i}` }, body });
        const answers = await Promise.all([send(i), send(i + 1)]);
        const seen = await Promise.all(answers.map(async (a) => ({ status: a.status, replayed: a.headers.get("idempotent-replayed"), body: (await a.json()) as any })));
        const made = seen.filter((a) => a.status === 201);
        expect(made.length).toBeGreaterThanOrEqual(1);
        expect(made.filter((a) => a.replayed === null).length).toBe(1);
        for (const other of seen) {
          if (other.status === 201) expect(other.body).toEqual(made[0].body);
          else {
            expect(other.status).toBe(409);
            expect(other.body.error.code).toBe("idempotency_key_in_use");
          }
        }
        // The same key again, later, on the third node: the first answer replayed.
        const again = await send(i + 2);
        expect(again.status).toBe(201);
        expect(again.headers.get("idempotent-replayed")).toBe("true");
        expect(await again.json()).toEqual(made[0].body);
      }
      const listed = await cluster.fetch(`/api/v1/dossiers?per_page=100`);
      const { data, meta } = (await listed.json()) as { data: { name: string }[]; meta: { total: number } };
      expect(meta.total).toBe(KEYS);
      expect(new Set(data.map((d) => d.name)).size).toBe(KEYS);
    } finally {
      await cluster.stop();
    }
  });
});
