// What the webhook tests on several nodes share (C7, C19): a cluster of `dossier serve` processes on
// one PostgreSQL database, organizations made on it with a webhook endpoint each, pointing at one
// real receiver on 127.0.0.1, and each organization's events in commit order as its feed says.
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { openApp } from "../../src/app";
import { MASTER_KEY_FILE } from "../../src/secrets";
import { makeOrg, onCleanup, tempDir, type Org } from "../helpers";
import { startCluster, type Cluster } from "../helpers/cluster";

export interface Received {
  eventId: string;
  organizationId: string;
  signature: string;
  body: string;
}

/** A receiver on 127.0.0.1 that answers 200 after `delayMs` and keeps each delivery in arrival
 * order (a request is kept when it arrives, before its answer). */
export function slowReceiver(delayMs: number) {
  const received: Received[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const body = await request.text();
      const parsed = JSON.parse(body) as { id: string; organization_id: string };
      received.push({ eventId: parsed.id, organizationId: parsed.organization_id, signature: request.headers.get("x-service-signature") ?? "", body });
      if (delayMs > 0) await Bun.sleep(delayMs);
      return new Response("ok");
    },
  });
  onCleanup(() => server.stop(true));
  return { url: `http://127.0.0.1:${server.port}/hook`, received };
}

export interface WebhookCluster {
  cluster: Cluster;
  orgs: (Org & { secret: string })[];
}

/** A cluster of `nodes` with `orgs` organizations, each with an endpoint at `url`. */
export async function webhookCluster(options: { orgs: number; url: string; env?: Record<string, string>; nodes?: number }): Promise<WebhookCluster> {
  const cluster = await startCluster({ nodes: options.nodes, env: { DOSSIER_LEASE: "3s", ...options.env } });
  onCleanup(() => cluster.stop());
  // The organizations are made through the store, as `dossier org create` would (the nodes read them
  // on their next request); the endpoints over the API, sealed by a node with the shared master.key.
  const dataDir = tempDir("dossier-orgs-");
  copyFileSync(cluster.masterKeyFile, join(dataDir, MASTER_KEY_FILE));
  const app = await openApp({
    dataDir,
    webhooks: false,
    jobs: false,
    imports: false,
    env: { DOSSIER_DATABASE_URL: cluster.databaseUrl, DOSSIER_DATABASE_POOL: "2" },
    config: { log: "off" },
  });
  try {
    const orgs = [];
    for (let i = 0; i < options.orgs; i++) {
      const org = await makeOrg(app, { name: `Org ${i}` });
      const answer = await fetch(`${cluster.next()}/api/v1/webhook-endpoint`, {
        method: "PUT",
        headers: { authorization: `Bearer ${org.key}`, "content-type": "application/json" },
        body: JSON.stringify({ url: options.url }),
      });
      if (answer.status !== 200) throw new Error(`PUT /webhook-endpoint: ${answer.status} ${await answer.text()}`);
      orgs.push({ ...org, secret: ((await answer.json()) as { data: { secret: string } }).data.secret });
    }
    return { cluster, orgs };
  } finally {
    await app.close();
  }
}

/** A dossier made through the next node: its id, or null when the answer was not 201. */
export async function createDossier(cluster: Cluster, key: string, name: string): Promise<string | null> {
  try {
    const answer = await cluster.fetch("/api/v1/dossiers", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ name, type: "candidate" }),
    });
    if (answer.status !== 201) {
      await answer.body?.cancel();
      return null;
    }
    return ((await answer.json()) as { data: { id: string } }).data.id;
  } catch {
    return null; // the node was killed under the request: not acknowledged
  }
}

/** The organization's event ids in commit order, read from its feed (C17) through `base`. */
export async function feedOf(base: string, key: string): Promise<string[]> {
  const ids: string[] = [];
  let after: string | null = null;
  for (let page = 0; page < 10_000; page++) {
    const query: string = after === null ? "limit=100" : `limit=100&after=${after}`;
    const answer = await fetch(`${base}/api/v1/events?${query}`, { headers: { authorization: `Bearer ${key}` } });
    if (answer.status !== 200) throw new Error(`GET /events: ${answer.status} ${await answer.text()}`);
    const { data, meta } = (await answer.json()) as { data: { id: string }[]; meta: { has_more: boolean; next_after: string | null } };
    ids.push(...data.map((event) => event.id));
    if (!meta.has_more) return ids;
    after = meta.next_after;
  }
  throw new Error("the feed did not end");
}

/** Each organization's deliveries in arrival order, first arrivals only (a repeat after a crash is
 * not a first attempt). */
export function firstArrivals(received: readonly Received[]): Map<string, string[]> {
  const seen = new Set<string>();
  const byOrg = new Map<string, string[]>();
  for (const { eventId, organizationId } of received) {
    if (seen.has(eventId)) continue;
    seen.add(eventId);
    const list = byOrg.get(organizationId);
    if (list) list.push(eventId);
    else byOrg.set(organizationId, [eventId]);
  }
  return byOrg;
}
