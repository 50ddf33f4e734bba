// C8, C19: an organization's rate limit counts across nodes (N + number of nodes at most in any
// 60 s window), and a write acknowledged by one node is read at once on the others with their
// caches on (C11): three real `dossier serve` processes on one PostgreSQL database.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { dossierRun } from "../cli/helpers";
import { startCluster } from "../helpers/cluster";

setDefaultTimeout(120_000);

const LIMIT = 20;

describe("rate limits and caches across three nodes", () => {
  test(`a limit of ${LIMIT} a minute: 60 requests spread over the nodes, ${LIMIT} accepted (C19 allows ${LIMIT} + 3), the rest 429`, async () => {
    const cluster = await startCluster();
    try {
      const orgs = dossierRun(["org", "list", "--json", "--data", cluster.dataDirs[0]], cluster.env);
      expect(orgs.code).toBe(0);
      const orgId = (orgs.json.data as { id: string }[])[0].id;
      expect(dossierRun(["org", "update", orgId, "--rate-limit", String(LIMIT), "--data", cluster.dataDirs[0]], cluster.env).code).toBe(0);
      // Sent together, a third to each node.
      const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => fetch(`${cluster.nodes[i % 3].url}/api/v1/flows`, { headers: { authorization: `Bearer ${cluster.key}` } })));
      const statuses = answers.map((answer) => answer.status);
      const accepted = statuses.filter((status) => status === 200).length;
      expect(statuses.every((status) => status === 200 || status === 429)).toBe(true);
      // C19 allows N + nodes; the shared window is exact (src/db/pg/counters.ts): N.
      expect(accepted).toBe(LIMIT);
      const refused = answers.find((answer) => answer.status === 429)!;
      expect(refused.headers.get("retry-after")).not.toBeNull();
    } finally {
      await cluster.stop();
    }
  });

  test("a change on one node is read at once on the others, from lists and records they had read (and remembered) before", async () => {
    const cluster = await startCluster();
    try {
      const auth = { authorization: `Bearer ${cluster.key}` };
      const json = { ...auth, "content-type": "application/json" };
      const made = await fetch(`${cluster.nodes[0].url}/api/v1/dossiers`, { method: "POST", headers: json, body: JSON.stringify({ name: "Ada", type: "candidate" }) });
      const { id } = ((await made.json()) as { data: { id: string } }).data;
      // Each node reads (and may remember) the record and the list.
      for (const node of cluster.nodes) {
        expect((await fetch(`${node.url}/api/v1/dossiers/${id}`, { headers: auth })).status).toBe(200);
        expect((await fetch(`${node.url}/api/v1/dossiers`, { headers: auth })).status).toBe(200);
      }
      for (let round = 0; round < 3; round++) {
        const writer = cluster.nodes[round];
        const name = `Ada ${round}`;
        const patched = await fetch(`${writer.url}/api/v1/dossiers/${id}`, { method: "PATCH", headers: json, body: JSON.stringify({ name }) });
        expect(patched.status).toBe(200);
        for (const node of cluster.nodes) {
          const record = (await (await fetch(`${node.url}/api/v1/dossiers/${id}`, { headers: auth })).json()) as { data: { name: string } };
          expect(record.data.name).toBe(name);
          const list = (await (await fetch(`${node.url}/api/v1/dossiers`, { headers: auth })).json()) as { data: { name: string }[] };
          expect(list.data.map((d) => d.name)).toEqual([name]);
        }
      }
    } finally {
      await cluster.stop();
    }
  });
});
