// The webhook dispatcher on PostgreSQL (src/webhooks/lanes.ts, C7, C10, C19), with two apps in this
// process on one database standing for two nodes, and a real receiver on 127.0.0.1: each event
// delivered once whichever app writes it, a lane given back by an app that stops and taken on at
// once by the other, retries on their schedule, a 410 that disables the endpoint, and a delivery
// given again with retry.
import { SQL } from "bun";
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { openApp, type AppOptions, type DossierApp } from "../../src/app";
import type { Store } from "../../src/db/store";
import { MASTER_KEY_FILE } from "../../src/secrets";
import { call, makeOrg, onCleanup, tempDir, until, type Org } from "../helpers";
import { migratedDatabase } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

type Respond = (body: { id: string }) => Response | Promise<Response>;

/** A receiver on 127.0.0.1 answering as `respond` says; keeps the event ids in arrival order. */
function receiver(respond: Respond = () => new Response("ok")) {
  const ids: string[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const body = (await request.json()) as { id: string };
      ids.push(body.id);
      return respond(body);
    },
  });
  onCleanup(() => server.stop(true));
  return { url: `http://127.0.0.1:${server.port}/hook`, ids };
}

/** `count` apps ("nodes") on one fresh database, each with a data folder holding the same master.key. */
async function nodes(count: number, config: AppOptions["config"] = {}, url?: string): Promise<DossierApp<Store>[]> {
  url ??= await migratedDatabase();
  const apps: DossierApp<Store>[] = [];
  for (let i = 0; i < count; i++) {
    const dataDir = tempDir();
    if (i > 0) copyFileSync(join(apps[0].dossier.config.dataDir, MASTER_KEY_FILE), join(dataDir, MASTER_KEY_FILE));
    const app = await openApp({
      dataDir,
      webhooks: true,
      env: { DOSSIER_DATABASE_URL: url, DOSSIER_DATABASE_POOL: "3", DOSSIER_LEASE: "3s" },
      config: { log: "off", webhookRetrySchedule: [100, 100], webhookTimeoutMs: 2000, ...config },
    });
    onCleanup(() => app.close());
    apps.push(app);
  }
  return apps;
}

async function endpoint(app: DossierApp<Store>, org: Org, url: string) {
  expect((await call(app, "PUT", "/webhook-endpoint", { key: org.key, body: { url } })).status).toBe(200);
}

async function dossier(app: DossierApp<Store>, org: Org, name: string): Promise<string> {
  const answer = await call(app, "POST", "/dossiers", { key: org.key, body: { name, type: "candidate" } });
  expect(answer.status).toBe(201);
  return answer.json.data.id;
}

async function delivery(app: DossierApp<Store>, org: Org, eventId: string) {
  return (await call(app, "GET", `/webhook-deliveries/${eventId}`, { key: org.key })).json.data;
}

const eventsOf = async (app: DossierApp<Store>, org: Org): Promise<string[]> =>
  (await call(app, "GET", "/events?limit=100", { key: org.key })).json.data.map((event: { id: string }) => event.id);

describe("webhook lanes on PostgreSQL", () => {
  test("two nodes: each event delivered once in event order; a node that stops gives its lanes to the other at once, saying where they stand", async () => {
    const url = await migratedDatabase();
    const [a, b] = await nodes(2, {}, url);
    const hook = receiver();
    const orgs = [await makeOrg(a), await makeOrg(a)];
    for (const org of orgs) await endpoint(a, org, hook.url);
    for (let i = 0; i < 20; i++) await dossier(i % 2 === 0 ? a : b, orgs[i % 4 < 2 ? 0 : 1], `D${i}`);
    await until(() => hook.ids.length >= 20, 30_000, "20 deliveries");
    // The one that holds lanes stops (both, if it comes to that, one after the other): the other goes on.
    await a.close();
    for (let i = 0; i < 10; i++) await dossier(b, orgs[i % 2], `E${i}`);
    await until(() => hook.ids.length >= 30, 30_000, "30 deliveries");
    await b.dossier.store.idle();
    expect(new Set(hook.ids).size).toBe(hook.ids.length);
    const all = [...(await eventsOf(b, orgs[0])), ...(await eventsOf(b, orgs[1]))];
    expect(new Set(hook.ids)).toEqual(new Set(all));
    for (const org of orgs) {
      const feed = await eventsOf(b, org);
      expect(hook.ids.filter((id) => feed.includes(id))).toEqual(feed);
    }
    // Given back on close, each lane at its organization's last event: a next holder reads on from there.
    await b.close();
    const sql = new SQL(url, { max: 1 });
    try {
      for (const org of orgs) {
        const [row] = await sql`SELECT l.position::float8 AS position, (SELECT max(seq)::float8 FROM events WHERE organization_id = ${org.id}) AS last
          FROM leases l WHERE l.name = ${"webhooks:" + org.id}`;
        expect(row.position).toBe(row.last);
      }
    } finally {
      await sql.close();
    }
  });

  test("only events to deliver are announced: an organization with no endpoint sends no notification", async () => {
    const url = await migratedDatabase();
    const [app] = await nodes(1, {}, url);
    const hook = receiver();
    const quiet = await makeOrg(app);
    const delivering = await makeOrg(app);
    await endpoint(app, delivering, hook.url);
    const listener = new SQL(url, { max: 1 });
    const heard: string[] = [];
    const subscription = await listener.listen("dossier_events", (payload) => heard.push(...payload.split(",")));
    try {
      await dossier(app, quiet, "Skipped"); // its event is skipped: no node has work from it
      await dossier(app, delivering, "Delivered");
      // Notifications arrive in commit order: the quiet one's would have come first.
      await until(() => heard.includes(delivering.id), 30_000, "the delivering organization announced");
      expect(heard).not.toContain(quiet.id);
    } finally {
      await subscription.unlisten();
      await listener.close();
    }
  });

  test("a failed attempt is retried on its schedule; retry sends a failed delivery again", async () => {
    const [app] = await nodes(1);
    let failing = true;
    const hook = receiver(() => (failing ? new Response("no", { status: 500 }) : new Response("ok")));
    const org = await makeOrg(app);
    await endpoint(app, org, hook.url);
    await dossier(app, org, "Ada");
    const [eventId] = await eventsOf(app, org);
    // First attempt and two retries, 100 ms apart: then failed.
    await until(async () => (await delivery(app, org, eventId)).status === "failed", 30_000, "the delivery failed");
    expect(hook.ids).toEqual([eventId, eventId, eventId]);
    failing = false;
    expect((await call(app, "POST", `/webhook-deliveries/${eventId}/retry`, { key: org.key })).status).toBe(200);
    await until(async () => (await delivery(app, org, eventId)).status === "succeeded", 30_000, "the retried delivery");
    expect(hook.ids).toEqual([eventId, eventId, eventId, eventId]);
  });

  test("a 410 fails the delivery, disables the endpoint, and what follows is skipped", async () => {
    const [app] = await nodes(1);
    const hook = receiver(() => new Response("gone", { status: 410 }));
    const org = await makeOrg(app);
    await endpoint(app, org, hook.url);
    await dossier(app, org, "Ada");
    const [first] = await eventsOf(app, org);
    await until(async () => (await delivery(app, org, first)).status === "failed", 30_000, "the 410's delivery failed");
    expect((await call(app, "GET", "/webhook-endpoint", { key: org.key })).json.data.enabled).toBe(false);
    await dossier(app, org, "Grace");
    const second = (await eventsOf(app, org))[1];
    expect((await delivery(app, org, second)).status).toBe("skipped");
    expect(hook.ids).toEqual([first]);
  });
});
