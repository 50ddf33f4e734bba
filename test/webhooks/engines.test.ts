// C7 on both engines: the dispatcher of a real app delivers each event once, signed, first
// attempts in event order per organization, while several organizations write side by side (on
// PostgreSQL their units commit side by side too: see src/webhooks/lanes.ts).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { call, makeOrg, until } from "../helpers";
import { ENGINES, appOn } from "../helpers/stores";
import { verifySignature, webhookReceiver } from "../helpers/webhooks";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const ORGS = 4;
const PER_ORG = 15;

describe.each(ENGINES)("webhooks on %s", (engine) => {
  test("every event delivered once, signed, in event order per organization", async () => {
    const app = await appOn(engine, { webhooks: true });
    const receiver = webhookReceiver();
    const orgs = await Promise.all(Array.from({ length: ORGS }, () => makeOrg(app)));
    const secrets = new Map<string, string>();
    for (const org of orgs) {
      const endpoint = await call(app, "PUT", "/webhook-endpoint", { key: org.key, body: { url: receiver.url } });
      expect(endpoint.status).toBe(200);
      secrets.set(org.id, endpoint.json.data.secret);
    }
    // The organizations write side by side, each its own dossiers one after another.
    const made = await Promise.all(
      orgs.map(async (org) => {
        const ids: string[] = [];
        for (let i = 0; i < PER_ORG; i++) {
          const answer = await call(app, "POST", "/dossiers", { key: org.key, body: { name: `D${i}`, type: "candidate" } });
          expect(answer.status).toBe(201);
          ids.push(answer.json.data.id);
        }
        return ids;
      }),
    );
    await until(() => receiver.received.length >= ORGS * PER_ORG, 30_000, "every delivery");
    await app.dossier.store.idle();
    const bodies = receiver.received.map((delivery) => ({ delivery, body: JSON.parse(delivery.body) }));
    expect(bodies).toHaveLength(ORGS * PER_ORG);
    expect(new Set(bodies.map(({ body }) => body.id)).size).toBe(ORGS * PER_ORG);
    orgs.forEach((org, n) => {
      const mine = bodies.filter(({ body }) => body.type === "dossier.created" && body.data.organization_id === org.id);
      expect(mine.map(({ body }) => body.data.id)).toEqual(made[n]);
      for (const { delivery } of mine) expect(verifySignature(delivery.headers.get("x-service-signature") ?? "", delivery.body, secrets.get(org.id)!)).toBe(true);
    });
  });
});
