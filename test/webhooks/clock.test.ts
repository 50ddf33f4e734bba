// The dispatcher's time comes from the injected clock (ctx.now): due times, the retry schedule
// (C7 "after the previous attempt", C10) and the signature's t are read from it, so a retry an
// hour away is sent once the clock is moved past it, with no real wait for the schedule.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { recordEvent } from "../../src/services/outbox";
import { setEndpoint } from "../../src/services/webhooks";
import { makeOrg, until } from "../helpers";
import { ENGINES, appOn, queryRows } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const servers: { stop(force?: boolean): unknown }[] = [];
afterAll(() => {
  for (const server of servers.splice(0)) server.stop(true);
});

const HOUR = 3_600_000;

describe.each(ENGINES)("on %s", (engine) => {
  test("C7/C10 a retry due in an hour on the injected clock is sent once the clock moves past it, signed with the clock's time", async () => {
    let clock = Date.parse("2030-01-01T00:00:00.000Z");
    const received: { t: number }[] = [];
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch(request) {
        received.push({ t: Number(/^t=(\d+)/.exec(request.headers.get("x-service-signature") ?? "")?.[1]) });
        return new Response("", { status: 500 });
      },
    });
    servers.push(server);
    // The 50 ms scan stands for "the dispatcher wakes up"; whether a delivery is due is the clock's call.
    const app = await appOn(engine, {
      webhooks: true,
      now: () => new Date(clock),
      config: { webhookRetrySchedule: [HOUR], webhookTimeoutMs: 2000, webhookScanMs: 50 },
    });
    const org = await makeOrg(app);
    await setEndpoint(app.dossier, org.id, `http://127.0.0.1:${server.port}/hook`);
    const ctx = app.dossier;
    const eventId = await ctx.store.write(() => recordEvent(ctx, org.id, "dossier.created", { id: "d1" }));
    const row = async () => {
      const [read] = await queryRows<{ status: string; attempts: number; next_attempt_at: number | null }>(app, `SELECT status, attempts, next_attempt_at FROM events WHERE id = ?`, eventId);
      return { ...read!, next_attempt_at: read!.next_attempt_at === null ? null : Number(read!.next_attempt_at) };
    };

    await until(async () => (await row()).attempts === 1, 60_000, "the first attempt recorded");
    expect(received[0].t).toBe(clock / 1000);
    const due = (await row()).next_attempt_at!;
    // An hour ±20 % after the attempt ended, on the injected clock (not the machine's).
    expect(due).toBeGreaterThanOrEqual(clock + 0.8 * HOUR);
    expect(due).toBeLessThanOrEqual(clock + 1.2 * HOUR);

    // The scan runs several times meanwhile; the clock says the retry is not due, so nothing is sent.
    await Bun.sleep(250);
    expect(received).toHaveLength(1);
    expect(await row()).toMatchObject({ status: "pending", attempts: 1 });

    clock = due + 1000;
    await until(async () => (await row()).status !== "pending", 60_000, "the retry attempted and recorded");
    expect(received).toHaveLength(2);
    expect(received[1].t).toBe(Math.floor(clock / 1000));
    expect(await row()).toMatchObject({ status: "failed", attempts: 2 });
  });
});
