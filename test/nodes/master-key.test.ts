// C19, C20: every node of one database reads one master key (DOSSIER_MASTER_KEY_FILE). A webhook
// secret sealed by one node signs deliveries made by any node; a node started without the key,
// while sealed secrets exist, refuses to start (exit 1, naming the file, never the key) and the
// others go on serving; so does a node given another key (one it made itself).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers";
import { startCluster } from "../helpers/cluster";
import { MAIN } from "../helpers/process";
import { verifySignature, webhookReceiver } from "../helpers/webhooks";

setDefaultTimeout(120_000);

const json = { "content-type": "application/json" };

describe("the master key across nodes", () => {
  test("one key file for three nodes; a fourth without it exits 1 and the three serve on", async () => {
    const receiver = webhookReceiver();
    const cluster = await startCluster();
    try {
      const auth = { authorization: `Bearer ${cluster.key}` };
      const set = await fetch(`${cluster.nodes[0].url}/api/v1/webhook-endpoint`, {
        method: "PUT",
        headers: { ...auth, ...json },
        body: JSON.stringify({ url: receiver.url }),
      });
      expect(set.status).toBe(200);
      const { secret } = ((await set.json()) as { data: { secret: string } }).data;

      const missing = join(tempDir("dossier-nokey-"), "master.key");
      const fourth = Bun.spawn([process.execPath, MAIN, "serve", "--port", "0", "--no-bootstrap", "--data", tempDir("dossier-node-")], {
        env: { ...process.env, ...cluster.env, DOSSIER_MASTER_KEY_FILE: missing, DOSSIER_LOG: "json" },
        stdout: "ignore",
        stderr: "pipe",
        timeout: 60_000,
      });
      const stderr = await new Response(fourth.stderr).text();
      expect(await fourth.exited).toBe(1);
      expect(stderr).toContain(missing);
      expect(stderr).not.toContain('"msg":"listening"');
      const key = readFileSync(cluster.masterKeyFile, "utf8").trim();
      expect(stderr).not.toContain(key);

      // Another key (a node that made its own): it would fail every delivery, so it refuses too.
      const other = join(tempDir("dossier-otherkey-"), "master.key");
      writeFileSync(other, randomBytes(32).toString("base64") + "\n", { mode: 0o600 });
      const fifth = Bun.spawn([process.execPath, MAIN, "serve", "--port", "0", "--no-bootstrap", "--data", tempDir("dossier-node-")], {
        env: { ...process.env, ...cluster.env, DOSSIER_MASTER_KEY_FILE: other, DOSSIER_LOG: "json" },
        stdout: "ignore",
        stderr: "pipe",
        timeout: 60_000,
      });
      const refused = await new Response(fifth.stderr).text();
      expect(await fifth.exited).toBe(1);
      expect(refused).toContain(`${other} does not open the webhook secrets`);
      expect(refused).not.toContain(readFileSync(other, "utf8").trim());

      // The three nodes go on: each makes a dossier, and each one's delivery is signed with the
      // secret node 0 sealed (whichever node delivers it).
      for (const node of cluster.nodes) {
        const made = await fetch(`${node.url}/api/v1/dossiers`, { method: "POST", headers: { ...auth, ...json }, body: JSON.stringify({ name: "Ada", type: "candidate" }) });
        expect(made.status).toBe(201);
        const { id } = ((await made.json()) as { data: { id: string } }).data;
        const delivery = await receiver.event("dossier.created", id, 30_000);
        expect(verifySignature(delivery.headers.get("x-service-signature") ?? "", delivery.body, secret)).toBe(true);
      }
    } finally {
      await cluster.stop();
    }
  });
});
