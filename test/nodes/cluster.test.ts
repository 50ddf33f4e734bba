// C19: three `dossier serve` nodes on one PostgreSQL database and one S3 bucket, requests spread
// round-robin: a write acknowledged by one node is read by every node, a CV uploaded through one
// node downloaded through every other.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { startCluster } from "../helpers/cluster";

setDefaultTimeout(120_000);

describe("three nodes on one database", () => {
  test("a dossier made on one node is read by every node at once", async () => {
    const cluster = await startCluster();
    try {
      const json = { "content-type": "application/json" };
      for (let i = 0; i < 6; i++) {
        const made = await cluster.fetch("/api/v1/dossiers", { method: "POST", headers: json, body: JSON.stringify({ name: `Ada ${i}`, type: "candidate" }) });
        expect(made.status).toBe(201);
        const { data } = (await made.json()) as { data: { id: string } };
        for (const node of cluster.nodes) {
          const read = await fetch(`${node.url}/api/v1/dossiers/${data.id}`, { headers: { authorization: `Bearer ${cluster.key}` } });
          expect(read.status).toBe(200);
        }
      }
      const lists = await Promise.all(
        cluster.nodes.map(async (node) => {
          const answer = await fetch(`${node.url}/api/v1/dossiers`, { headers: { authorization: `Bearer ${cluster.key}` } });
          return ((await answer.json()) as { meta: { total: number } }).meta.total;
        }),
      );
      expect(lists).toEqual([6, 6, 6]);
    } finally {
      await cluster.stop();
    }
  });

  test("a CV uploaded through one node is downloaded through every node, the same bytes, and is in the bucket", async () => {
    const cluster = await startCluster();
    try {
      const bytes = new TextEncoder().encode("%PDF-1.7\nGrace's CV\n%%EOF\n");
      const form = new FormData();
      form.append("type", "candidate");
      form.append("name", "Grace");
      form.append("cv", new File([bytes], "cv.pdf", { type: "application/pdf" }));
      const made = await fetch(`${cluster.nodes[0].url}/api/v1/dossiers`, { method: "POST", headers: { authorization: `Bearer ${cluster.key}` }, body: form });
      expect(made.status).toBe(201);
      const { data } = (await made.json()) as { data: { id: string; cv_url: string } };
      for (const node of cluster.nodes) {
        const cv = await fetch(`${node.url}/api/v1/dossiers/${data.id}/cv`, { headers: { authorization: `Bearer ${cluster.key}` } });
        expect(cv.status).toBe(200);
        expect(new Uint8Array(await cv.arrayBuffer())).toEqual(bytes);
      }
      expect(await cluster.s3!.client().file(`cvs/${data.cv_url}`).exists()).toBe(true);
    } finally {
      await cluster.stop();
    }
  });
});
