// C7 and C19 on three `dossier serve` nodes sharing one PostgreSQL database: each delivery attempt
// made by one node. 1,000 events written through all three (writers spread round-robin, several
// organizations, two writers per organization at once) reach a real receiver once each, signed,
// and each organization's first attempts arrive in its event order (its feed's, C17).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { until } from "../helpers";
import { verifySignature } from "../helpers/webhooks";
import { createDossier, feedOf, firstArrivals, slowReceiver, webhookCluster } from "./webhooks-cluster";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const ORGS = 5;
const WRITERS_PER_ORG = 2;
const PER_WRITER = 100; // 5 × 2 × 100 = 1,000 events

describe("webhooks on three nodes", () => {
  test("1,000 events made on 3 nodes: each delivered once, signed, first attempts in event order per organization", async () => {
    const receiver = slowReceiver(0);
    const { cluster, orgs } = await webhookCluster({ orgs: ORGS, url: receiver.url });
    await Promise.all(
      orgs.flatMap((org) =>
        Array.from({ length: WRITERS_PER_ORG }, async (_, writer) => {
          for (let i = 0; i < PER_WRITER; i++) expect(await createDossier(cluster, org.key, `W${writer} ${i}`)).not.toBeNull();
        }),
      ),
    );
    const total = ORGS * WRITERS_PER_ORG * PER_WRITER;
    await until(() => new Set(receiver.received.map((r) => r.eventId)).size >= total, 90_000, `${total} distinct deliveries`);
    const feeds = await Promise.all(orgs.map((org) => feedOf(cluster.next(), org.key)));
    // Stopped (each node records what it has in flight): nothing more can arrive.
    await cluster.stop();

    expect(receiver.received).toHaveLength(total);
    expect(new Set(receiver.received.map((r) => r.eventId)).size).toBe(total);
    const arrivals = firstArrivals(receiver.received);
    orgs.forEach((org, n) => {
      expect(feeds[n]).toHaveLength(WRITERS_PER_ORG * PER_WRITER);
      expect(arrivals.get(org.id)).toEqual(feeds[n]);
    });
    for (const delivery of receiver.received) {
      const org = orgs.find((o) => o.id === delivery.organizationId)!;
      expect(verifySignature(delivery.signature, delivery.body, org.secret)).toBe(true);
    }
  }, 240_000);
});
