// docs/scaling.md's load balancer configurations, as printed there, in front of three real nodes
// (C19): requests reach every node, a write through it is read through it, a 5 MB CV passes, and
// after kill -9 of a node reads still succeed and a write retried with its Idempotency-Key makes
// one dossier. Each balancer runs only where it is installed (Debian: nginx-light, haproxy, caddy).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { createServer, type AddressInfo } from "node:net";
import { onCleanup } from "../helpers";
import { startCluster } from "../helpers/cluster";
import { pdf } from "../intake/compose";
import { BALANCERS, balancerProgram, startBalancer } from "./balancers";

setDefaultTimeout(120_000);

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => done(port));
    });
  });
}

describe("docs/scaling.md's balancers", () => {
  for (const kind of BALANCERS) {
    test.skipIf(balancerProgram(kind) === null)(`${kind}: spreads, reads its writes, takes a 5 MB CV, survives kill -9 of a node`, async () => {
      const cluster = await startCluster({ env: { DOSSIER_TRUST_PROXY: "1", DOSSIER_RATE_LIMIT: "1000000" } });
      const balancer = await startBalancer(kind, cluster.nodes.map((node) => new URL(node.url).host), await freePort());
      onCleanup(() => balancer.stop());
      try {
        const auth = { authorization: `Bearer ${cluster.key}` };
        const json = { ...auth, "content-type": "application/json" };

        // Every node answers some of 12 requests (each logs the request id it was given).
        for (let i = 0; i < 12; i++) {
          const answer = await fetch(`${balancer.url}/api/v1/flows`, { headers: { ...auth, "x-request-id": `${kind}-spread-${i}` } });
          expect(answer.status).toBe(200);
          expect(answer.headers.get("x-request-id")).toBe(`${kind}-spread-${i}`);
        }
        for (const node of cluster.nodes) expect(node.stderr()).toContain(`"request_id":"${kind}-spread-`);

        const made = await fetch(`${balancer.url}/api/v1/dossiers`, { method: "POST", headers: json, body: JSON.stringify({ name: "Ada", type: "candidate" }) });
        expect(made.status).toBe(201);
        const { id } = ((await made.json()) as { data: { id: string } }).data;
        for (let i = 0; i < 3; i++) expect((await fetch(`${balancer.url}/api/v1/dossiers/${id}`, { headers: auth })).status).toBe(200);

        const form = new FormData();
        form.set("type", "candidate");
        form.set("name", "Grace");
        form.set("cv", new Blob([pdf(5 * 1024 * 1024)], { type: "application/pdf" }), "cv.pdf");
        const withCv = await fetch(`${balancer.url}/api/v1/dossiers`, { method: "POST", headers: auth, body: form });
        expect({ status: withCv.status, body: withCv.status === 201 ? "" : await withCv.text() }).toEqual({ status: 201, body: "" });

        await cluster.kill(1);
        for (let i = 0; i < 12; i++) expect((await fetch(`${balancer.url}/api/v1/flows`, { headers: auth })).status).toBe(200);
        // A write may meet the dead node once (no balancer resends a sent POST): the client retries it with its key.
        let status = 0;
        for (let attempt = 0; attempt < 5 && status !== 201; attempt++) {
          const answer = await fetch(`${balancer.url}/api/v1/dossiers`, {
            method: "POST",
            headers: { ...json, "idempotency-key": `${kind}-after-kill` },
            body: JSON.stringify({ name: "After the kill", type: "candidate" }),
          });
          status = answer.status;
          await answer.arrayBuffer();
        }
        expect(status).toBe(201);
        const listed = (await (await fetch(`${balancer.url}/api/v1/dossiers?q=After%20the%20kill`, { headers: auth })).json()) as { meta: { total: number } };
        expect(listed.meta.total).toBe(1);
      } finally {
        await balancer.stop();
        await cluster.stop();
      }
    });
  }
});
