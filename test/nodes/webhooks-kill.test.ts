// C19: `kill -9` of one of three nodes while 4 writers run through all three. No acknowledged write
// is lost (every 2xx's dossier is there afterwards, on the nodes left); the lanes the killed node
// held (its claimed deliveries) are taken over by the others once their leases pass (DOSSIER_LEASE
// shortened to 5 s here; 60 s by default) and every event is delivered; an event arrives twice
// only if the killed node had it in flight (its organization's lane was the killed node's), and
// each organization's first arrivals keep its event order. bench/kill-nodes.ts runs it 20 times.
import { SQL } from "bun";
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { until } from "../helpers";
import { createDossier, feedOf, firstArrivals, slowReceiver, webhookCluster } from "./webhooks-cluster";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const ORGS = 6;
const WRITERS = 4;
const PER_WRITER = 150;
/** Writes acknowledged before the kill. */
const KILL_AFTER = 150;

describe("kill -9 of a node under writes", () => {
  test("no acknowledged write lost; the killed node's lanes taken over; every event delivered", async () => {
    const receiver = slowReceiver(20); // deliveries take a while: some are in flight at the kill
    const { cluster, orgs } = await webhookCluster({ orgs: ORGS, url: receiver.url, env: { DOSSIER_LEASE: "5s" } });
    const holders = cluster.nodes.map((node) => /"node":"(node_[^"]+)"/.exec(node.stderr())?.[1]);
    expect(holders.every((holder) => holder !== undefined)).toBe(true);
    const sql = new SQL(cluster.databaseUrl, { max: 1 });
    try {
      const acknowledged: { org: number; id: string }[] = [];
      let killed: { node: number; lanes: string[] } | null = null;
      const kill = async () => {
        // The node holding the most lanes now (their leases unexpired by the database's clock).
        const rows = await sql<{ org: string; holder: string }[]>`SELECT substr(name, 10) AS org, holder FROM leases
          WHERE name LIKE 'webhooks:%' AND expires_at > (extract(epoch from clock_timestamp()) * 1000)::bigint`;
        const held = holders.map((holder) => rows.filter((row) => row.holder === holder).map((row) => row.org));
        const node = held.reduce((best, lanes, i) => (lanes.length > held[best].length ? i : best), 0);
        killed = { node, lanes: held[node] };
        await cluster.kill(node);
      };
      let killing: Promise<void> | null = null;
      await Promise.all(
        Array.from({ length: WRITERS }, async (_, writer) => {
          for (let i = 0; i < PER_WRITER; i++) {
            const org = (writer + i) % ORGS;
            const id = await createDossier(cluster, orgs[org].key, `W${writer} ${i}`);
            if (id !== null) acknowledged.push({ org, id });
            if (acknowledged.length >= KILL_AFTER) killing ??= kill();
          }
        }),
      );
      await killing;
      expect(killed).not.toBeNull();
      const { node: dead, lanes: deadLanes } = killed!;
      const alive = cluster.nodes.filter((_, i) => i !== dead);
      expect(acknowledged.length).toBeGreaterThan(KILL_AFTER);
      expect(deadLanes.length).toBeGreaterThan(0); // it held deliveries to take over

      // 0 acknowledged writes lost: each 2xx's dossier is read on every node left.
      for (const { org, id } of acknowledged) {
        for (const node of alive) {
          const answer = await fetch(`${node.url}/api/v1/dossiers/${id}`, { headers: { authorization: `Bearer ${orgs[org].key}` } });
          expect(answer.status).toBe(200);
          await answer.body?.cancel();
        }
      }
      // Every event of every organization delivered, the killed node's lanes by the others.
      const feeds = await Promise.all(orgs.map((org) => feedOf(alive[0].url, org.key)));
      const events = feeds.flat();
      expect(events.length).toBeGreaterThanOrEqual(acknowledged.length);
      await until(
        () => {
          const got = new Set(receiver.received.map((r) => r.eventId));
          return events.every((id) => got.has(id));
        },
        60_000,
        `all ${events.length} events delivered after the kill`,
      );
      await cluster.stop();

      const arrivals = firstArrivals(receiver.received);
      orgs.forEach((org, n) => expect(arrivals.get(org.id)).toEqual(feeds[n]));
      // More than once only for what the killed node had in flight: its lanes' deliveries.
      const counts = new Map<string, number>();
      for (const r of receiver.received) counts.set(r.eventId, (counts.get(r.eventId) ?? 0) + 1);
      const twice = receiver.received.filter((r) => counts.get(r.eventId)! > 1);
      for (const r of twice) expect(deadLanes).toContain(r.organizationId);
      expect(receiver.received.length - events.length).toBeLessThanOrEqual(deadLanes.length * 4);
      console.log(`kill -9: ${acknowledged.length} writes acknowledged, ${events.length} events, node ${dead} held ${deadLanes.length} lanes, ${receiver.received.length - events.length} sent again`);
    } finally {
      await sql.close();
    }
  }, 300_000);
});
