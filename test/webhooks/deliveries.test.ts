// The delivery log's shape (C2 `webhook deliveries`), the retry schedule's arithmetic (C7, C10),
// Retry-After parsing and the signature format, without a network.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { createHmac } from "node:crypto";
import { DeliveryError, listDeliveries } from "../../src/services/deliveries";
import { recordEvent } from "../../src/services/outbox";
import { setEndpoint } from "../../src/services/webhooks";
import { attemptOutcome, retryDelay, jittered } from "../../src/webhooks/schedule";
import { MAX_RETRY_AFTER_MS, parseRetryAfter } from "../../src/webhooks/send";
import { signatureHeader, signingSecrets } from "../../src/webhooks/signature";
import { makeOrg, setUp } from "../helpers";
import { ENGINES, queryRows, sharedApp } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

describe("C7 retry schedule", () => {
  const schedule = [5_000, 300_000, 1_800_000];

  test("the n-th failure waits schedule[n-1] ±20 %; after the last one there is none", () => {
    expect(retryDelay(schedule, 1, null, () => 0)).toBe(4_000);
    expect(retryDelay(schedule, 1, null, () => 1)).toBe(6_000);
    expect(retryDelay(schedule, 2, null, () => 0.5)).toBe(300_000);
    expect(retryDelay(schedule, 3, null, () => 0.5)).toBe(1_800_000);
    expect(retryDelay(schedule, 4)).toBeNull();
    expect(retryDelay([], 1)).toBeNull();
    for (let i = 0; i < 200; i++) {
      const wait = jittered(1000);
      expect(wait).toBeGreaterThanOrEqual(800);
      expect(wait).toBeLessThanOrEqual(1200);
    }
  });

  test("Retry-After lengthens a wait, never shortens it, and adds no attempt", () => {
    expect(retryDelay(schedule, 1, 60_000, () => 0.5)).toBe(60_000);
    expect(retryDelay(schedule, 2, 60_000, () => 0.5)).toBe(300_000);
    expect(retryDelay(schedule, 3, 60_000)).not.toBeNull();
    expect(retryDelay(schedule, 4, 60_000)).toBeNull();
  });

  test("an answer's outcome: 2xx succeeds, 410 disables at once, 3xx and others retry from the attempt's end until the schedule is used up (C7, C10)", () => {
    const answer = (statusCode: number | null, retryAfterMs: number | null = null) => ({
      statusCode,
      retryAfterMs,
      error: statusCode === null ? "timeout" : null,
      durationMs: 5,
      responseSnippet: null,
    });
    const ended = 1_000_000;
    const half = () => 0.5;
    expect(attemptOutcome(answer(204), 1, ended, schedule, half)).toEqual({ outcome: "succeeded" });
    expect(attemptOutcome(answer(410), 1, ended, schedule, half)).toEqual({ outcome: "endpoint_disabled" });
    expect(attemptOutcome(answer(302), 1, ended, schedule, half)).toEqual({ outcome: "retry", at: ended + 5_000 });
    expect(attemptOutcome(answer(null), 2, ended, schedule, half)).toEqual({ outcome: "retry", at: ended + 300_000 });
    expect(attemptOutcome(answer(503, 60_000), 1, ended, schedule, half)).toEqual({ outcome: "retry", at: ended + 60_000 });
    expect(attemptOutcome(answer(500), 4, ended, schedule, half)).toEqual({ outcome: "failed" });
    expect(attemptOutcome(answer(410), 4, ended, schedule, half)).toEqual({ outcome: "endpoint_disabled" });
  });

  test("the default schedule adds up to about three days (C7)", () => {
    const total = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000, 72_000_000, 86_400_000].reduce((a, b) => a + b);
    expect(total / 86_400_000).toBeGreaterThan(3);
    expect(total / 86_400_000).toBeLessThan(3.3);
  });

  test("Retry-After: delta seconds or an HTTP date, at most 24 h", () => {
    const now = new Date("2026-11-22T10:00:00.000Z");
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter(" 0 ", now)).toBe(0);
    expect(parseRetryAfter("Sun, 22 Nov 2026 10:05:00 GMT", now)).toBe(300_000);
    expect(parseRetryAfter("Sun, 22 Nov 2026 09:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("999999999", now)).toBe(MAX_RETRY_AFTER_MS);
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter("-5", now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });
});

describe("C7 signature format", () => {
  test("t=<unix s>,v1=<hex HMAC-SHA256 of `<t>.<body>` keyed with the whole secret string>", () => {
    const body = '{"id":"evt_x","data":{"name":"Zoë"}}';
    const secret = "whsec_abcdefghijklmnopqrstuvwxyz012345";
    const expected = createHmac("sha256", Buffer.from(secret, "utf8")).update(`1700000000.${body}`).digest("hex");
    expect(signatureHeader([secret], 1700000000, body)).toBe(`t=1700000000,v1=${expected}`);
  });

  test("the previous secret signs until its expiry, after the current one", () => {
    const now = new Date("2026-11-22T10:00:00.000Z");
    const endpoint = { secret: "whsec_new", previous_secret: "whsec_old", previous_secret_expires_at: "2026-11-23T09:00:00.000Z" };
    expect(signingSecrets(endpoint, now)).toEqual(["whsec_new", "whsec_old"]);
    expect(signingSecrets({ ...endpoint, previous_secret_expires_at: "2026-11-22T10:00:00.000Z" }, now)).toEqual(["whsec_new"]);
    expect(signingSecrets({ ...endpoint, previous_secret: null }, now)).toEqual(["whsec_new"]);
  });
});

describe.each(ENGINES)("C2 `webhook deliveries`: listDeliveries on %s", (engine) => {
  async function seeded() {
    // One app per engine for the file: each test's organizations are its own.
    const app = await sharedApp(engine);
    const ctx = app.dossier;
    const org = await makeOrg(app);
    const other = await makeOrg(app, { name: "other" });
    const skipped = await ctx.store.write(() => recordEvent(ctx, org.id, "note.created", { id: 1 }));
    await setEndpoint(ctx, org.id, "http://127.0.0.1:9/hook");
    await setEndpoint(ctx, other.id, "http://127.0.0.1:9/hook");
    const failed = await ctx.store.write(() => recordEvent(ctx, org.id, "dossier.created", { id: 2 }));
    const pending = await ctx.store.write(() => recordEvent(ctx, org.id, "dossier.updated", { id: 3 }));
    const foreign = await ctx.store.write(() => recordEvent(ctx, other.id, "dossier.created", { id: 4 }));
    // What the dispatcher would have recorded: two failed attempts.
    await setUp(ctx, async () => {
      const [{ seq }] = await queryRows<{ seq: number }>(app, `SELECT seq FROM events WHERE id = ?`, failed);
      await queryRows(app, `UPDATE events SET status = 'failed', attempts = 2, next_attempt_at = NULL, last_status_code = 500, last_error = 'HTTP 500' WHERE seq = ?`, seq);
      const attempt = `INSERT INTO delivery_attempts (event_seq, at, status_code, error, duration_ms, response_snippet) VALUES (?, ?, ?, ?, ?, ?)`;
      await queryRows(app, attempt, seq, "2026-11-22T10:00:00.000Z", null, "ConnectionRefused: refused", 3, null);
      await queryRows(app, attempt, seq, "2026-11-22T10:00:05.000Z", 500, "HTTP 500", 12, "boom");
    });
    return { app, ctx, org, other, skipped, failed, pending, foreign };
  }

  test("newest first, every field, scoped to the organization", async () => {
    const { ctx, org, skipped, failed, pending } = await seeded();
    const { data } = await listDeliveries(ctx, org.id);
    expect(data.map((d) => d.event_id)).toEqual([pending, failed, skipped]);
    expect(data[0]).toEqual({
      event_id: pending,
      type: "dossier.updated",
      status: "pending",
      attempts: 0,
      next_attempt_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      last_status_code: null,
      last_error: null,
    });
    expect(data[1]).toEqual({ event_id: failed, type: "dossier.created", status: "failed", attempts: 2, next_attempt_at: null, last_status_code: 500, last_error: "HTTP 500" });
    expect(data.every((d) => !("attempt_log" in d))).toBe(true);
    expect((await listDeliveries(ctx, org.id, { limit: 1 })).data.map((d) => d.event_id)).toEqual([pending]);
  });

  test("--status filters", async () => {
    const { ctx, org, skipped, failed, pending } = await seeded();
    expect((await listDeliveries(ctx, org.id, { status: "pending" })).data.map((d) => d.event_id)).toEqual([pending]);
    expect((await listDeliveries(ctx, org.id, { status: "failed" })).data.map((d) => d.event_id)).toEqual([failed]);
    expect((await listDeliveries(ctx, org.id, { status: "skipped" })).data.map((d) => d.event_id)).toEqual([skipped]);
    expect((await listDeliveries(ctx, org.id, { status: "succeeded" })).data).toEqual([]);
    expect(() => listDeliveries(ctx, org.id, { status: "done" as never })).toThrow(TypeError);
  });

  test("--event gives that event with its attempt log, oldest attempt first", async () => {
    const { ctx, org, other, failed, foreign } = await seeded();
    expect((await listDeliveries(ctx, org.id, { eventId: failed })).data).toEqual([
      {
        event_id: failed,
        type: "dossier.created",
        status: "failed",
        attempts: 2,
        next_attempt_at: null,
        last_status_code: 500,
        last_error: "HTTP 500",
        attempt_log: [
          { at: "2026-11-22T10:00:00.000Z", status_code: null, error: "ConnectionRefused: refused", duration_ms: 3, response_snippet: null },
          { at: "2026-11-22T10:00:05.000Z", status_code: 500, error: "HTTP 500", duration_ms: 12, response_snippet: "boom" },
        ],
      },
    ]);
    expect((await listDeliveries(ctx, org.id, { eventId: failed, status: "pending" })).data).toEqual([]);
    expect((await listDeliveries(ctx, other.id, { eventId: foreign })).data[0].attempt_log).toEqual([]);
    // Another organization's event, or no such event: not found (the CLI exits 1).
    for (const eventId of [foreign, "evt_unknown"]) {
      let error: unknown;
      try {
        await listDeliveries(ctx, org.id, { eventId });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(DeliveryError);
      expect((error as DeliveryError).code).toBe("not_found");
    }
  });
});
