// C7 / C10 webhook delivery against a real receiver on 127.0.0.1: signing, retries, 410, redirects,
// Retry-After, ordering, isolation between organizations, the outbox's rollback, restarts.
//
// The dispatcher's time is a clock the tests move (ctx.now): a retry goes out only once the test
// has moved the clock to its due time, and every delay is read on that clock, never on the
// machine's. The dispatcher's scan runs every 50 ms of real time so that it notices a moved clock.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { AppOptions, DossierApp } from "../../src/app";
import type { Store } from "../../src/db/store";
import { listDeliveries, retryDelivery, DeliveryError } from "../../src/services/deliveries";
import { recordEvent, type EventType } from "../../src/services/outbox";
import { rotateSecret, setEndpoint, unsetEndpoint } from "../../src/services/webhooks";
import { makeOrg, setUp, until } from "../helpers";
import { ENGINES, appOn, queryRows, type Engine } from "../helpers/stores";
import { verifySignature } from "../helpers/webhooks";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

// ---------------------------------------------------------------- helpers

interface Received {
  at: number; // the dispatcher's clock when the request arrived
  path: string;
  headers: Headers;
  body: string;
}

type Respond = (request: Received, index: number) => Response | Promise<Response>;

const servers: { stop(force?: boolean): unknown }[] = [];
afterAll(() => {
  for (const server of servers.splice(0)) server.stop(true);
});

/** The clock the dispatcher reads (ctx.now), moved only by the test. */
class TestClock {
  at = Date.parse("2030-01-01T00:00:00.000Z");
  readonly now = () => new Date(this.at);
}

const HOUR = 3_600_000;

/** A real HTTP receiver on 127.0.0.1; `respond` decides each answer (default 200 "ok"). */
function receiver(respond: Respond = () => new Response("ok"), clock?: TestClock) {
  const received: Received[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const entry: Received = { at: clock?.at ?? NaN, path: new URL(request.url).pathname, headers: request.headers, body: await request.text() };
      received.push(entry);
      return respond(entry, received.length - 1);
    },
  });
  servers.push(server);
  return {
    url: `http://127.0.0.1:${server.port}/hook`,
    received,
    stop: () => server.stop(true),
    /** Waits (bounded) until `count` requests have arrived. */
    async waitFor(count: number, timeoutMs = 60_000) {
      await until(() => received.length >= count, timeoutMs, `${count} deliveries (got ${received.length})`);
      return received;
    },
  };
}


const FAST: AppOptions["config"] = { webhookRetrySchedule: [50, 100], webhookTimeoutMs: 500 };

type App = DossierApp<Store>;

/** What opens an app whose dispatcher runs on `clock`, its scan every 50 ms. */
const onClock = (clock: TestClock, config: AppOptions["config"] = FAST): AppOptions => ({
  webhooks: true,
  now: clock.now,
  config: { webhookScanMs: 50, ...config },
});

/** An app on `engine` whose dispatcher runs on `clock`; each its own database (the dispatchers of
 * two apps on one PostgreSQL database would share its deliveries, as two nodes do). */
function webhookApp(engine: Engine, config: AppOptions["config"] = FAST, clock = new TestClock()): Promise<App> {
  return appOn(engine, onClock(clock, config));
}

/** The options that open `app`'s store again: the same data folder (SQLite) or database. */
const sameStore = (app: App) => ({
  dataDir: app.dossier.config.dataDir,
  env: app.dossier.store.engine === "postgres" ? { DOSSIER_DATABASE_URL: app.dossier.config.databaseUrl! } : {},
});

/** Records one event in its own committed transaction, as a route would. */
async function emit(app: App, orgId: string, type: EventType = "dossier.created", data: unknown = { id: crypto.randomUUID() }): Promise<string> {
  const ctx = app.dossier;
  return await ctx.store.write(() => recordEvent(ctx, orgId, type, data));
}

type EventRow = {
  seq: number;
  status: string;
  attempts: number;
  next_attempt_at: number | null;
  body: string;
  last_status_code: number | null;
};

/** The delivery's row beneath the API, on either engine (PostgreSQL's bigints read as numbers). */
async function eventRow(app: App, eventId: string): Promise<EventRow> {
  const [row] = await queryRows<EventRow>(app, `SELECT seq, status, attempts, next_attempt_at, body, last_status_code FROM events WHERE id = ?`, eventId);
  return { ...row!, seq: Number(row!.seq), next_attempt_at: row!.next_attempt_at === null ? null : Number(row!.next_attempt_at) };
}

const deliveryOf = async (app: App, orgId: string, eventId: string) => (await listDeliveries(app.dossier, orgId, { eventId })).data[0];

/** Waits until the delivery leaves `pending` (or reaches `status`); with a clock, moves it to
 * each retry's due time as the retry is recorded. */
async function settled(app: App, eventId: string, clock?: TestClock, status?: string) {
  await until(async () => {
    const row = await eventRow(app, eventId);
    if (clock && row.status === "pending" && row.attempts > 0 && row.next_attempt_at !== null) clock.at = Math.max(clock.at, row.next_attempt_at);
    return status ? row.status === status : row.status !== "pending";
  }, 60_000, `${eventId} settled`);
  return eventRow(app, eventId);
}

/** Waits until the delivery's attempt number `attempts` is recorded (still pending: a retry is
 * due at its next_attempt_at); the clock is left where it is. */
const attempted = (app: App, eventId: string, attempts: number) =>
  until(async () => {
    const row = await eventRow(app, eventId);
    return row.attempts === attempts && row.status === "pending" && row.next_attempt_at !== null && row;
  }, 60_000, `attempt ${attempts} of ${eventId} recorded`);

/** The attempt's retry: moves the clock to its due time and returns that time. */
async function toRetry(app: App, clock: TestClock, eventId: string, attempts: number): Promise<number> {
  const due = (await attempted(app, eventId, attempts)).next_attempt_at!;
  clock.at = Math.max(clock.at, due);
  return due;
}

/** The receiver's check of a signature (C7), its clock the dispatcher's. */
const verifyAt = (clock: TestClock) => (header: string, body: string, secret: string) => verifySignature(header, body, secret, 300, clock.at);

const signatures = (header: string) => header.split(",").filter((part) => part.startsWith("v1="));

async function setup(engine: Engine, respond?: Respond, config?: AppOptions["config"], clock = new TestClock()) {
  const app = await webhookApp(engine, config, clock);
  const org = await makeOrg(app);
  const hook = receiver(respond, clock);
  const { secret } = await setEndpoint(app.dossier, org.id, hook.url);
  return { app, org, hook, secret, clock };
}

describe.each(ENGINES)("the dispatcher on %s", (engine) => {
  // ---------------------------------------------------------------- delivery and signing

  describe("C7 delivery shape and signature", () => {
    // C7's "within 100 ms of its commit" is a speed target: bench/webhooks.ts measures it.
    test("a committed event is POSTed with the exact body and the documented headers", async () => {
      const { app, org, hook, secret, clock } = await setup(engine);
      const verify = verifyAt(clock);
      await Bun.sleep(20); // let the start-up scan pass
      const data = { id: crypto.randomUUID(), name: "Ada Lovelace — ünïcode ✓" };
      const eventId = await emit(app, org.id, "dossier.created", data);
      const [request] = await hook.waitFor(1);

      const row = await eventRow(app, eventId);
      expect(request.body).toBe(row.body);
      const body = JSON.parse(request.body);
      expect(body).toEqual({ id: eventId, type: "dossier.created", created_at: expect.any(String), organization_id: org.id, data });
      expect(body.id).toMatch(/^evt_[A-Za-z0-9]{26,}$/);
      expect(new Date(body.created_at).toISOString()).toBe(body.created_at);

      expect(request.headers.get("content-type")).toBe("application/json");
      expect(request.headers.get("user-agent")).toBe("Dossier-Webhooks/1");
      expect(request.headers.get("x-service-event-id")).toBe(eventId);
      expect(request.headers.get("x-service-event-type")).toBe("dossier.created");
      const header = request.headers.get("x-service-signature")!;
      expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(Number(/^t=(\d+)/.exec(header)![1])).toBe(Math.floor(clock.at / 1000));
      expect(verify(header, request.body, secret)).toBe(true);
      expect(verify(header, request.body + " ", secret)).toBe(false);
      expect(verify(header, request.body, secret + "x")).toBe(false);

      const delivery = (await settled(app, eventId)) && (await deliveryOf(app, org.id, eventId));
      expect(delivery).toMatchObject({ event_id: eventId, type: "dossier.created", status: "succeeded", attempts: 1, next_attempt_at: null, last_status_code: 200, last_error: null });
      expect(delivery.attempt_log).toEqual([
        { at: expect.any(String), status_code: 200, error: null, duration_ms: expect.any(Number), response_snippet: "ok" },
      ]);
    });

    test("rotation: two v1 signatures while the old secret is valid, both verify; one after it expires", async () => {
      const { app, org, hook, secret: oldSecret, clock } = await setup(engine);
      const verify = verifyAt(clock);
      const { secret: newSecret } = (await rotateSecret(app.dossier, org.id))!;
      await emit(app, org.id);
      const [first] = await hook.waitFor(1);
      const header = first.headers.get("x-service-signature")!;
      const [currentSig, previousSig] = signatures(header);
      expect(signatures(header)).toHaveLength(2);
      const t = /^t=(\d+)/.exec(header)![1];
      expect(verify(`t=${t},${currentSig}`, first.body, newSecret)).toBe(true);
      expect(verify(`t=${t},${previousSig}`, first.body, oldSecret)).toBe(true);
      expect(verify(`t=${t},${currentSig}`, first.body, oldSecret)).toBe(false);

      await setUp(app.dossier, () =>
        queryRows(app, `UPDATE webhook_endpoints SET previous_secret_expires_at = ? WHERE organization_id = ?`, new Date(clock.at - 1000).toISOString(), org.id),
      );
      await emit(app, org.id);
      const [, second] = await hook.waitFor(2);
      const after = second.headers.get("x-service-signature")!;
      expect(signatures(after)).toHaveLength(1);
      expect(verify(after, second.body, newSecret)).toBe(true);
      expect(verify(after, second.body, oldSecret)).toBe(false);
    });

    test("each attempt is signed afresh with the current secret (a rotation between attempts)", async () => {
      let answer = 500;
      const { app, org, hook, clock } = await setup(engine, () => new Response("", { status: answer }), { webhookRetrySchedule: [300], webhookTimeoutMs: 500 });
      const verify = verifyAt(clock);
      const eventId = await emit(app, org.id);
      const due = (await attempted(app, eventId, 1)).next_attempt_at!;
      const { secret } = await setEndpoint(app.dossier, org.id, hook.url); // new secret, no overlap
      answer = 200;
      clock.at = due;
      const [first, second] = await hook.waitFor(2);
      expect(verify(second.headers.get("x-service-signature")!, second.body, secret)).toBe(true);
      expect(verify(first.headers.get("x-service-signature")!, first.body, secret)).toBe(false);
      expect(second.body).toBe(first.body);
      expect((await settled(app, eventId)).status).toBe("succeeded");
    });
  });

  // ---------------------------------------------------------------- retries

  describe("C7 retries", () => {
    test("500, 500, then 200: three attempts, and the log shows them", async () => {
      const { app, org, hook, clock } = await setup(engine, (_, index) => (index < 2 ? new Response(`boom ${index}`, { status: 500 }) : new Response("fine")));
      const eventId = await emit(app, org.id);
      const start = clock.at;
      const firstDue = await toRetry(app, clock, eventId, 1);
      const secondDue = await toRetry(app, clock, eventId, 2);
      const requests = await hook.waitFor(3);
      const row = await settled(app, eventId);
      expect(row).toMatchObject({ status: "succeeded", attempts: 3, last_status_code: 200 });
      // Delays count from the end of the previous attempt (the clock stood still during each): 50 ms
      // then 100 ms, each ±20 %; each retry went out at its due time, not before.
      expect(firstDue - start).toBeGreaterThanOrEqual(40);
      expect(firstDue - start).toBeLessThanOrEqual(60);
      expect(secondDue - firstDue).toBeGreaterThanOrEqual(80);
      expect(secondDue - firstDue).toBeLessThanOrEqual(120);
      expect(requests.map((r) => r.at)).toEqual([start, firstDue, secondDue]);
      expect(new Set(requests.map((r) => r.headers.get("x-service-event-id")))).toEqual(new Set([eventId]));
      const log = (await deliveryOf(app, org.id, eventId)).attempt_log!;
      expect(log.map((entry) => [entry.status_code, entry.error, entry.response_snippet])).toEqual([
        [500, "HTTP 500", "boom 0"],
        [500, "HTTP 500", "boom 1"],
        [200, null, "fine"],
      ]);
      expect(log.every((entry) => Number.isInteger(entry.duration_ms) && entry.duration_ms >= 0)).toBe(true);
      expect(Date.parse(log[0].at)).toBeLessThanOrEqual(Date.parse(log[1].at));
    });

    test("C10 each retry delay counts from the END of the previous attempt, not from its start (slow 500 answers, schedule 300ms)", async () => {
      // The receiver takes 400 ms to answer 500, on the clock (and in real time, which the log's
      // duration measures). Counted from the end, the next attempt is due 300 ms ± 20 % after the
      // answer ended; counted from the start it would be due before the answer even ended.
      const clock = new TestClock();
      const answered: number[] = [];
      const { app, org, hook } = await setup(
        engine,
        async () => {
          await Bun.sleep(400);
          clock.at += 400;
          answered.push(clock.at);
          return new Response("slow failure", { status: 500 });
        },
        { webhookRetrySchedule: [300, 300], webhookTimeoutMs: 2000 },
        clock,
      );
      const eventId = await emit(app, org.id);
      const dues = [await toRetry(app, clock, eventId, 1), await toRetry(app, clock, eventId, 2)];
      const [first, second, third] = await hook.waitFor(3);
      for (const [i, due] of dues.entries()) {
        expect(due - answered[i]).toBeGreaterThanOrEqual(240);
        expect(due - answered[i]).toBeLessThanOrEqual(360);
      }
      expect(second.at - first.at).toBeGreaterThanOrEqual(400 + 240);
      expect(third.at).toBe(dues[1]);
      expect(await settled(app, eventId)).toMatchObject({ status: "failed", attempts: 3, last_status_code: 500 });
      const log = (await deliveryOf(app, org.id, eventId)).attempt_log!;
      expect(log.every((entry) => entry.duration_ms >= 390)).toBe(true);
    });

    test("after the last scheduled retry the delivery is failed and kept; `retry` queues it again from the schedule's start (C10, picked up within 5 s)", async () => {
      let healthy = false;
      const { app, org, hook, clock } = await setup(engine, () => new Response(healthy ? "ok" : "down", { status: healthy ? 200 : 503 }));
      const eventId = await emit(app, org.id);
      const row = await settled(app, eventId, clock);
      expect(row).toMatchObject({ status: "failed", attempts: 3, next_attempt_at: null, last_status_code: 503 });
      expect(hook.received).toHaveLength(3);
      clock.at += HOUR;
      await Bun.sleep(250); // the scan runs several times: nothing more is attempted, however late
      expect(hook.received).toHaveLength(3);
      expect((await listDeliveries(app.dossier, org.id, { status: "failed" })).data.map((d) => d.event_id)).toEqual([eventId]);

      healthy = true;
      const retriedAt = clock.at;
      expect(await retryDelivery(app.dossier, eventId)).toEqual({ event_id: eventId, status: "pending" });
      expect(await eventRow(app, eventId)).toMatchObject({ status: "pending", attempts: 0 });
      expect((await deliveryOf(app, org.id, eventId)).attempt_log).toHaveLength(3); // the history stays
      await hook.waitFor(4);
      // Due at once: sent with the clock where the retry left it (C10's "within 5 s" is the scan's
      // period, 5 s by default, which finds it if the wake-up did not).
      expect(hook.received[3].at).toBe(retriedAt);
      expect(await settled(app, eventId)).toMatchObject({ status: "succeeded", attempts: 1, last_status_code: 200 });
      expect((await deliveryOf(app, org.id, eventId)).attempt_log!.map((entry) => entry.status_code)).toEqual([503, 503, 503, 200]);
    });

    test("`retry` refuses anything but a failed delivery, and unknown ids", async () => {
      const app = await appOn(engine);
      const org = await makeOrg(app);
      await setEndpoint(app.dossier, org.id, "http://127.0.0.1:9/hook");
      const pending = await emit(app, org.id);
      const code = async (work: () => Promise<unknown>) => {
        try {
          await work();
        } catch (error) {
          return error instanceof DeliveryError ? error.code : String(error);
        }
        return "no error";
      };
      expect(await code(() => retryDelivery(app.dossier, pending))).toBe("not_failed");
      expect(await code(() => retryDelivery(app.dossier, "evt_nope"))).toBe("not_found");
      await setUp(app.dossier, () => queryRows(app, `UPDATE events SET status = 'failed', next_attempt_at = NULL WHERE id = ?`, pending));
      await unsetEndpoint(app.dossier, org.id);
      expect(await code(() => retryDelivery(app.dossier, pending))).toBe("no_endpoint");
      expect((await eventRow(app, pending)).status).toBe("failed");
    });

    test("Retry-After on 429/503 lengthens the wait but adds no attempt", async () => {
      const { app, org, hook, clock } = await setup(
        engine,
        () => new Response("slow down", { status: 429, headers: { "retry-after": "1" } }),
        { webhookRetrySchedule: [50], webhookTimeoutMs: 500 },
      );
      const eventId = await emit(app, org.id);
      const start = clock.at;
      const due = await toRetry(app, clock, eventId, 1);
      expect(due - start).toBeGreaterThanOrEqual(1000); // 1 s asked, not the 50 ms of the schedule
      const [first, second] = await hook.waitFor(2);
      expect(second.at - first.at).toBe(due - start);
      expect(await settled(app, eventId)).toMatchObject({ status: "failed", attempts: 2, last_status_code: 429 });
      clock.at += HOUR;
      await Bun.sleep(100);
      expect(hook.received).toHaveLength(2);
    });

    test("a Retry-After shorter than the scheduled wait changes nothing; on a 500 it is ignored", async () => {
      const { app, org, hook, clock } = await setup(
        engine,
        (_, index) => new Response("", { status: index === 0 ? 500 : 503, headers: { "retry-after": index === 0 ? "2" : "0" } }),
        { webhookRetrySchedule: [300, 50], webhookTimeoutMs: 500 },
      );
      const eventId = await emit(app, org.id);
      const start = clock.at;
      const firstDue = await toRetry(app, clock, eventId, 1);
      const secondDue = await toRetry(app, clock, eventId, 2);
      expect(firstDue - start).toBeGreaterThanOrEqual(240);
      expect(firstDue - start).toBeLessThanOrEqual(360); // the 500's Retry-After: 2 was not honoured
      expect(secondDue - firstDue).toBeGreaterThanOrEqual(40); // the 503's Retry-After: 0 shortened nothing
      expect(secondDue - firstDue).toBeLessThanOrEqual(60);
      expect((await hook.waitFor(3)).map((r) => r.at)).toEqual([start, firstDue, secondDue]);
      expect((await settled(app, eventId)).status).toBe("failed");
    });

    test("a redirect is not followed: the 3xx is a failed attempt", async () => {
      const { app, org, hook, clock } = await setup(engine, (request) =>
        request.path === "/hook" ? new Response(null, { status: 307, headers: { location: "/elsewhere" } }) : new Response("followed!"),
      );
      const eventId = await emit(app, org.id);
      const row = await settled(app, eventId, clock);
      expect(row).toMatchObject({ status: "failed", attempts: 3, last_status_code: 307 });
      expect(hook.received.map((r) => r.path)).toEqual(["/hook", "/hook", "/hook"]);
      expect((await deliveryOf(app, org.id, eventId)).attempt_log!.map((entry) => entry.error)).toEqual(["HTTP 307", "HTTP 307", "HTTP 307"]);
    });

    test("a network error and a time-out are recorded without a status code", async () => {
      const closed = receiver();
      await closed.stop(); // nothing listens on that port any more
      const { app, org } = await setup(engine, undefined, { webhookRetrySchedule: [], webhookTimeoutMs: 200 });
      await setEndpoint(app.dossier, org.id, closed.url);
      const refused = await emit(app, org.id);
      expect(await settled(app, refused)).toMatchObject({ status: "failed", attempts: 1, last_status_code: null });
      const refusedLog = (await deliveryOf(app, org.id, refused)).attempt_log![0];
      expect(refusedLog.status_code).toBeNull();
      expect(refusedLog.error).toBeTruthy();

      const slow = receiver(async () => {
        await Bun.sleep(600);
        return new Response("late");
      });
      await setEndpoint(app.dossier, org.id, slow.url);
      const timedOut = await emit(app, org.id);
      expect(await settled(app, timedOut)).toMatchObject({ status: "failed", attempts: 1 });
      const timedOutLog = (await deliveryOf(app, org.id, timedOut)).attempt_log![0];
      expect(timedOutLog).toMatchObject({ status_code: null, error: expect.stringContaining("timeout") });
      expect(timedOutLog.duration_ms).toBeGreaterThanOrEqual(190); // the answer that came after it is not what was logged
    });

    test("the log keeps the first 1 KB of the answer", async () => {
      const { app, org } = await setup(engine, () => new Response("é".repeat(600) + "x".repeat(5000), { status: 400 }), { webhookRetrySchedule: [], webhookTimeoutMs: 500 });
      const eventId = await emit(app, org.id);
      await settled(app, eventId);
      const snippet = (await deliveryOf(app, org.id, eventId)).attempt_log![0].response_snippet!;
      expect(new TextEncoder().encode(snippet).length).toBeLessThanOrEqual(1024 + 2);
      expect(snippet.startsWith("é".repeat(512))).toBe(true);
      expect(snippet).not.toContain("x");
    });
  });

  // ---------------------------------------------------------------- 410 and skipped deliveries

  describe("C10 410 Gone and skipped deliveries", () => {
    test("410: the delivery fails at once, the endpoint is disabled, pending and later events are skipped; `webhook set` enables it again", async () => {
      let gone = true;
      const { app, org, hook } = await setup(engine, async (request) => {
        if (!gone) return new Response("ok");
        await Bun.sleep(50); // the others are recorded (and queued) meanwhile
        return new Response("gone", { status: 410 });
      });
      const first = await emit(app, org.id);
      await hook.waitFor(1);
      const queued = [await emit(app, org.id), await emit(app, org.id)];
      expect(await settled(app, first)).toMatchObject({ status: "failed", attempts: 1, last_status_code: 410 });
      const endpoint = async () =>
        (await queryRows<{ disabled_at: string | null }>(app, `SELECT disabled_at FROM webhook_endpoints WHERE organization_id = ?`, org.id))[0]!;
      expect((await endpoint()).disabled_at).not.toBeNull();
      for (const id of queued) expect((await eventRow(app, id)).status).toBe("skipped");
      const later = await emit(app, org.id);
      expect((await eventRow(app, later)).status).toBe("skipped");
      await Bun.sleep(150);
      expect(hook.received).toHaveLength(1);

      gone = false;
      await setEndpoint(app.dossier, org.id, hook.url);
      expect((await endpoint()).disabled_at).toBeNull();
      const revived = await emit(app, org.id);
      await hook.waitFor(2);
      expect((await settled(app, revived)).status).toBe("succeeded");
      for (const id of [...queued, later]) expect((await eventRow(app, id)).status).toBe("skipped"); // nothing skipped is revived
      expect(hook.received.map((r) => r.headers.get("x-service-event-id"))).toEqual([first, revived]);
    });

    test("events recorded while no endpoint is set are skipped, not delivered later", async () => {
      const app = await webhookApp(engine);
      const org = await makeOrg(app);
      const before = await emit(app, org.id);
      expect(await eventRow(app, before)).toMatchObject({ status: "skipped", next_attempt_at: null });
      const hook = receiver();
      await setEndpoint(app.dossier, org.id, hook.url);
      const after = await emit(app, org.id);
      await hook.waitFor(1);
      await Bun.sleep(150);
      expect(hook.received.map((r) => r.headers.get("x-service-event-id"))).toEqual([after]);
      expect((await listDeliveries(app.dossier, org.id, { status: "skipped" })).data).toEqual([
        { event_id: before, type: "dossier.created", status: "skipped", attempts: 0, next_attempt_at: null, last_status_code: null, last_error: null },
      ]);
    });

    test("`webhook unset` skips the pending deliveries, including one waiting for its retry", async () => {
      const { app, org, hook, clock } = await setup(engine, () => new Response("", { status: 500 }), { webhookRetrySchedule: [400, 400], webhookTimeoutMs: 500 });
      const eventId = await emit(app, org.id);
      const due = (await attempted(app, eventId, 1)).next_attempt_at!;
      await unsetEndpoint(app.dossier, org.id);
      expect((await eventRow(app, eventId)).status).toBe("skipped");
      clock.at = due + HOUR;
      await Bun.sleep(250); // the scan runs several times past the retry's due time
      expect(hook.received).toHaveLength(1);
      expect((await eventRow(app, eventId)).status).toBe("skipped");
    });

    test("a rolled-back transaction emits nothing", async () => {
      const { app, org, hook } = await setup(engine);
      const ctx = app.dossier;
      const count = async () => Number((await queryRows<{ n: number }>(app, `SELECT count(*) AS n FROM events`))[0]!.n);
      const before = await count();
      await expect(
        ctx.store.write(async () => {
          await recordEvent(ctx, org.id, "dossier.created", { id: "rolled back" });
          throw new Error("the change fails after recording its event");
        }),
      ).rejects.toThrow("the change fails");
      expect(await count()).toBe(before);
      const kept = await emit(app, org.id);
      await hook.waitFor(1);
      await Bun.sleep(100);
      expect(hook.received.map((r) => JSON.parse(r.body).id)).toEqual([kept]);
    });
  });

  // ---------------------------------------------------------------- order and isolation

  describe("C7 order and isolation", () => {
    test("first attempts go out in event order", async () => {
      const { app, org, hook } = await setup(engine, async () => {
        await Bun.sleep(Math.random() * 5);
        return new Response("ok");
      });
      const ids: string[] = [];
      for (let i = 0; i < 40; i++) {
        ids.push(await emit(app, org.id, i % 2 ? "dossier.updated" : "note.created", { i }));
        if (i % 7 === 0) await Bun.sleep(1);
      }
      await hook.waitFor(40);
      expect(hook.received.map((r) => r.headers.get("x-service-event-id"))).toEqual(ids);
      expect(hook.received.map((r) => JSON.parse(r.body).data.i)).toEqual([...Array(40).keys()]);
    });

    test("a delivery waiting for its retry does not hold back later events", async () => {
      const { app, org, hook, clock } = await setup(engine, (request) =>
        JSON.parse(request.body).data.n === 1 && hook.received.filter((r) => JSON.parse(r.body).data.n === 1).length === 1
          ? new Response("", { status: 500 })
          : new Response("ok"),
        { webhookRetrySchedule: [400], webhookTimeoutMs: 500 },
      );
      const first = await emit(app, org.id, "dossier.created", { n: 1 });
      const due = (await attempted(app, first, 1)).next_attempt_at!;
      const others = await Promise.all([2, 3, 4].map((n) => emit(app, org.id, "dossier.created", { n })));
      await hook.waitFor(4); // the first one's retry is not due: the clock has not moved
      // In event order: the three were written side by side, so their order is the one they were
      // numbered in (on PostgreSQL their units commit side by side, in no set order).
      const numbered = (await Promise.all(others.map((id) => eventRow(app, id)))).sort((a, b) => a.seq - b.seq);
      expect(hook.received.map((r) => JSON.parse(r.body).data.n)).toEqual([1, ...numbered.map((row) => JSON.parse(row.body).data.n)]);
      clock.at = due;
      await hook.waitFor(5);
      expect(JSON.parse(hook.received[4].body).data.n).toBe(1);
      expect((await settled(app, first)).status).toBe("succeeded");
      for (const id of others) expect((await eventRow(app, id)).status).toBe("succeeded");
    });

    test("a slow endpoint does not hold back other organizations", async () => {
      // The slow endpoint answers only when the test lets it (its time-out is past any wait here).
      const app = await webhookApp(engine, { webhookRetrySchedule: [5000], webhookTimeoutMs: 120_000 });
      const slowOrg = await makeOrg(app, { name: "slow" });
      const fastOrg = await makeOrg(app, { name: "fast" });
      const { promise: answerSlow, resolve: letSlowAnswer } = Promise.withResolvers<void>();
      const slow = receiver(async () => {
        await answerSlow;
        return new Response("ok");
      });
      const fast = receiver();
      await setEndpoint(app.dossier, slowOrg.id, slow.url);
      await setEndpoint(app.dossier, fastOrg.id, fast.url);
      await emit(app, slowOrg.id);
      await emit(app, slowOrg.id);
      await slow.waitFor(1);
      for (let i = 0; i < 5; i++) await emit(app, fastOrg.id);
      await fast.waitFor(5);
      expect(slow.received).toHaveLength(1); // still busy with its first: the fast ones did not wait for it
      letSlowAnswer();
      await slow.waitFor(2);
    });

    test("more organizations than concurrent requests: all delivered at once (no wait for the 5 s scan)", async () => {
      // The scan is pushed past the test: only the commit's own wake-up can send them.
      const app = await webhookApp(engine, { ...FAST, webhookScanMs: 600_000 });
      const hook = receiver();
      const orgs = await Promise.all(Array.from({ length: 300 }, (_, i) => makeOrg(app, { name: `org ${i}` })));
      for (const org of orgs) await setEndpoint(app.dossier, org.id, hook.url);
      const ctx = app.dossier;
      await ctx.store.write(async () => {
        for (const org of orgs) await recordEvent(ctx, org.id, "note.created", {});
      });
      await hook.waitFor(300, 30_000);
    });

    test("a backlog larger than the memory queue: a slow organization keeps its order and holds back no one", async () => {
      // The slow organization's endpoint stops answering after its first 10 until the test lets it
      // (its time-out is past any wait here).
      const app = await webhookApp(engine, { webhookRetrySchedule: [50], webhookTimeoutMs: 120_000 });
      const slowOrg = await makeOrg(app, { name: "slow" });
      const fastOrg = await makeOrg(app, { name: "fast" });
      const { promise: answerSlow, resolve: letSlowAnswer } = Promise.withResolvers<void>();
      const slow = receiver(async (_, index) => {
        if (index >= 10) await answerSlow;
        return new Response("ok");
      });
      const fast = receiver();
      await setEndpoint(app.dossier, slowOrg.id, slow.url);
      await setEndpoint(app.dossier, fastOrg.id, fast.url);
      const ctx = app.dossier;
      // 1,500 for the slow organization in one commit (more than a read and than a lane holds), then new events of both.
      await ctx.store.write(async () => {
        for (let i = 0; i < 1500; i++) await recordEvent(ctx, slowOrg.id, "note.created", { i });
      });
      await slow.waitFor(10);
      for (let i = 1500; i < 1550; i++) await emit(app, slowOrg.id, "note.created", { i });
      for (let i = 0; i < 20; i++) await emit(app, fastOrg.id, "note.created", { i });
      // Held back by no one: all of the fast organization's events arrive while the slow one's
      // backlog is still being sent.
      await fast.waitFor(20);
      expect(slow.received.length).toBeLessThan(1550);
      letSlowAnswer();
      await slow.waitFor(1550);
      expect(slow.received.map((r) => JSON.parse(r.body).data.i)).toEqual([...Array(1550).keys()]);
    });

    test("many events to many organizations: each delivered exactly once", async () => {
      const app = await webhookApp(engine);
      const hook = receiver();
      const orgs = await Promise.all(Array.from({ length: 5 }, (_, i) => makeOrg(app, { name: `org ${i}` })));
      for (const org of orgs) await setEndpoint(app.dossier, org.id, hook.url);
      const ids: string[] = [];
      for (let i = 0; i < 300; i++) ids.push(await emit(app, orgs[i % orgs.length].id, "note.created", { i }));
      await hook.waitFor(300);
      await Bun.sleep(100);
      const seen = hook.received.map((r) => r.headers.get("x-service-event-id")!);
      expect(seen.length).toBe(300);
      expect(new Set(seen)).toEqual(new Set(ids));
      for (const org of orgs) {
        const mine = hook.received.filter((r) => JSON.parse(r.body).organization_id === org.id).map((r) => JSON.parse(r.body).data.i);
        expect(mine).toEqual([...mine].sort((a, b) => a - b)); // per organization, in event order
      }
      await until(async () => {
        for (const org of orgs) if ((await listDeliveries(app.dossier, org.id, { status: "pending" })).data.length > 0) return false;
        return true;
      }, 60_000, "all recorded");
      let succeeded = 0;
      for (const org of orgs) succeeded += (await listDeliveries(app.dossier, org.id, { status: "succeeded" })).data.length;
      expect(succeeded).toBe(300);
    });
  });

  // ---------------------------------------------------------------- durability

  describe("C7 / C10 durability", () => {
    test("C10 after a restart, a backlog of due retries larger than the dispatcher holds per organization is all sent at once (no wait for the 5 s scan)", async () => {
      let up = false;
      const hook = receiver(() => new Response(up ? "ok" : "down", { status: up ? 200 : 500 }));
      // Retries 1 s after each failure: the first run, its clock standing still, only makes first
      // attempts before it stops. The scan for other processes' work is pushed past the test, so
      // only the start-up's own pick-up can send the retries.
      const clock = new TestClock();
      const options = onClock(clock, { log: "off" as const, webhookRetrySchedule: [1000, 1000], webhookTimeoutMs: 1000, webhookScanMs: 600_000 });
      const first = await appOn(engine, options);
      const org = await makeOrg(first);
      await setEndpoint(first.dossier, org.id, hook.url);
      const ctx = first.dossier;
      const ids = await ctx.store.write(async () => {
        const recorded: string[] = [];
        for (let i = 0; i < 150; i++) recorded.push(await recordEvent(ctx, org.id, "note.created", { i }));
        return recorded;
      });
      const failedOnce = async () => Number((await queryRows<{ n: number }>(first, `SELECT count(*) AS n FROM events WHERE attempts = 1 AND status = 'pending'`))[0]!.n);
      await until(async () => (await failedOnce()) === 150, 60_000, "every first attempt to fail");
      const lastDue = Number((await queryRows<{ at: number }>(first, `SELECT max(next_attempt_at) AS at FROM events`))[0]!.at);
      await first.close();
      expect(hook.received).toHaveLength(150);
      clock.at = lastDue; // every retry is due now

      up = true;
      const second = await appOn(engine, { ...sameStore(first), ...options });
      await hook.waitFor(300);
      const retried = hook.received.slice(150).map((r) => r.headers.get("x-service-event-id"));
      expect(new Set(retried)).toEqual(new Set(ids));
      for (const id of ids) expect((await settled(second, id)).status).toBe("succeeded");
    });

    test("pending deliveries survive a restart on the same store and are delivered at once", async () => {
      const first = await appOn(engine);
      const org = await makeOrg(first);
      const hook = receiver();
      await setEndpoint(first.dossier, org.id, hook.url);
      const ids = [await emit(first, org.id), await emit(first, org.id), await emit(first, org.id)];
      await first.close();
      expect(hook.received).toHaveLength(0);

      // The scan is pushed past the test: only the start-up's own pick-up can send them.
      const second = await appOn(engine, { ...sameStore(first), webhooks: true, config: { ...FAST, webhookScanMs: 600_000 } });
      await hook.waitFor(3);
      expect(hook.received.map((r) => r.headers.get("x-service-event-id"))).toEqual(ids);
      for (const id of ids) expect((await settled(second, id)).status).toBe("succeeded");
    });

    test("a delivery waiting for its retry keeps its due time across a restart", async () => {
      let up = false;
      const clock = new TestClock();
      const hook = receiver(() => new Response("", { status: up ? 200 : 500 }), clock);
      const options = onClock(clock, { webhookRetrySchedule: [1500], webhookTimeoutMs: 500 });
      const first = await appOn(engine, options);
      const org = await makeOrg(first);
      await setEndpoint(first.dossier, org.id, hook.url);
      const eventId = await emit(first, org.id);
      const due = (await attempted(first, eventId, 1)).next_attempt_at!;
      await first.close();

      up = true;
      const second = await appOn(engine, { ...sameStore(first), ...options });
      clock.at = due - 1;
      await Bun.sleep(250); // the start-up's pick-up and several scans, a millisecond before its due time
      expect(hook.received).toHaveLength(1);
      clock.at = due;
      await hook.waitFor(2);
      expect(hook.received[1].at).toBe(due);
      expect((await settled(second, eventId)).status).toBe("succeeded");
    });

    test("close() waits for the attempts in flight and records them", async () => {
      const hook = receiver(async () => {
        await Bun.sleep(300);
        return new Response("late but fine");
      });
      const app = await appOn(engine, { webhooks: true, config: { ...FAST, webhookTimeoutMs: 2000 } });
      const org = await makeOrg(app);
      await setEndpoint(app.dossier, org.id, hook.url);
      const eventId = await emit(app, org.id);
      await hook.waitFor(1);
      await app.close();

      const reopened = await appOn(engine, sameStore(app));
      expect(await eventRow(reopened, eventId)).toMatchObject({ status: "succeeded", attempts: 1 });
      expect((await deliveryOf(reopened, org.id, eventId)).attempt_log![0].response_snippet).toBe("late but fine");
    });

    test("an attempt whose result was never recorded (a crash) is attempted again after restart", async () => {
      const hook = receiver();
      const first = await appOn(engine);
      const org = await makeOrg(first);
      await setEndpoint(first.dossier, org.id, hook.url);
      const eventId = await emit(first, org.id);
      // What a crash mid-attempt leaves: still pending, due, with no attempt recorded.
      await first.close();
      const second = await appOn(engine, { ...sameStore(first), webhooks: true, config: FAST });
      await hook.waitFor(1);
      expect((await settled(second, eventId)).status).toBe("succeeded");
    });
  });
});
