// C17: events are kept DOSSIER_EVENT_RETENTION (30 days by default); older ones are deleted with
// their delivery attempts by a sweep the server runs in small batches, off the request path, and
// a delivery still pending is never swept before it succeeds or fails. An `after` older than the
// retention is 410 cursor_expired (C20), before and after its row is gone.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { startServer } from "../../src/server";
import { writeNewDossier } from "../../src/services/dossiers";
import { SWEEP_BATCH, sweepEvents } from "../../src/services/events";
import type { DossierApp } from "../../src/app";
import type { Store } from "../../src/db/store";
import { call, makeOrg, setUp, tempDir, until } from "../helpers";
import { ENGINES, appOn, queryRows } from "../helpers/stores";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const DAY = 86_400_000;

// PostgreSQL answers a bigint as a string: Number() it.
async function eventRows(app: DossierApp<Store>, organizationId: string) {
  return (await queryRows<{ seq: number; id: string; status: string }>(app, `SELECT seq, id, status FROM events WHERE organization_id = ? ORDER BY seq`, organizationId))
    .map((row) => ({ ...row, seq: Number(row.seq) }));
}

describe.each(ENGINES)("C17 retention: the sweep on %s", (engine) => {
  test("events older than the retention go with their delivery attempts, in batches, each its own commit; pending ones stay until they end", async () => {
    let clock = new Date("2026-03-01T00:00:00.000Z");
    const app = await appOn(engine, { now: () => clock });
    const org = await makeOrg(app, { rateLimit: 1_000_000 });
    const old = SWEEP_BATCH * 2 + 17;
    await setUp(app.dossier, async () => {
      for (let i = 0; i < old; i++) await writeNewDossier(app.dossier, org.id, { type: "candidate", name: `old ${i}` });
    });
    const [first, pendingOne] = (await eventRows(app, org.id));
    await queryRows(app, `INSERT INTO delivery_attempts (event_seq, at, status_code, error, duration_ms, response_snippet) VALUES (?, ?, 500, NULL, 3, 'no')`, first.seq, clock.toISOString());
    await queryRows(app, `UPDATE events SET status = 'pending', next_attempt_at = ? WHERE seq = ?`, clock.getTime() + DAY, pendingOne.seq);
    clock = new Date(clock.getTime() + 29 * DAY);
    const d = await call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "recent" } });
    expect(d.status).toBe(201);
    const recent = (await eventRows(app, org.id)).at(-1)!;

    // Within the retention nothing goes, and the oldest event is a valid cursor.
    expect(await sweepEvents(app.dossier)).toBe(0);
    expect((await call(app, "GET", `/events?after=${first.id}&limit=1`, { key: org.key })).status).toBe(200);

    clock = new Date(clock.getTime() + 2 * DAY); // the old ones are 31 days old, `recent` 2
    // C20: pruned even while its row remains.
    expect((await call(app, "GET", `/events?after=${first.id}`, { key: org.key })).json).toMatchObject({ error: { code: "cursor_expired" } });
    const feed = await call(app, "GET", "/events", { key: org.key });
    expect(feed.json.data.map((e: { id: string }) => e.id)).toEqual([recent.id]);

    let commits = 0;
    const stop = app.dossier.store.onCommit(() => commits++);
    const swept = await sweepEvents(app.dossier);
    stop();
    expect(swept).toBe(old - 1);
    expect(commits).toBeGreaterThanOrEqual(Math.ceil((old - 1) / SWEEP_BATCH));
    expect((await eventRows(app, org.id)).map((row) => row.id)).toEqual([pendingOne.id, recent.id]);
    expect(await queryRows(app, `SELECT event_seq FROM delivery_attempts`)).toEqual([]);
    expect((await call(app, "GET", `/events?after=${first.id}`, { key: org.key })).status).toBe(410);

    // Once the pending delivery ends, the next sweep takes it.
    await queryRows(app, `UPDATE events SET status = 'failed', next_attempt_at = NULL WHERE seq = ?`, pendingOne.seq);
    expect(await sweepEvents(app.dossier)).toBe(1);
    expect((await eventRows(app, org.id)).map((row) => row.id)).toEqual([recent.id]);
  });

  test("C20 Durations in env: DOSSIER_EVENT_RETENTION=90d keeps a 40-day-old event readable", async () => {
    let clock = new Date("2026-03-01T00:00:00.000Z");
    const app = await appOn(engine, { now: () => clock, env: { DOSSIER_EVENT_RETENTION: "90d" } });
    const org = await makeOrg(app, { rateLimit: 1_000_000 });
    const d = await call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "kept" } });
    expect(d.status).toBe(201);
    const [event] = (await eventRows(app, org.id));
    clock = new Date(clock.getTime() + 40 * DAY);
    expect(await sweepEvents(app.dossier)).toBe(0);
    expect((await call(app, "GET", `/events/${event.id}`, { key: org.key })).status).toBe(200);
    expect((await call(app, "GET", `/events?after=${event.id}`, { key: org.key })).json).toEqual({ data: [], meta: { has_more: false, next_after: event.id } });
  });

  test("C20 Event ids: a pruned event's sequence is never given again", async () => {
    let clock = new Date("2026-03-01T00:00:00.000Z");
    const app = await appOn(engine, { now: () => clock });
    const org = await makeOrg(app, { rateLimit: 1_000_000 });
    await call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "a" } });
    const [gone] = (await eventRows(app, org.id));
    clock = new Date(clock.getTime() + 31 * DAY);
    expect(await sweepEvents(app.dossier)).toBe(1);
    await call(app, "POST", "/dossiers", { key: org.key, body: { type: "candidate", name: "b" } });
    const [next] = (await eventRows(app, org.id));
    expect(next.seq).toBeGreaterThan(gone.seq);
    expect(next.id > gone.id).toBe(true);
    expect((await call(app, "GET", `/events?after=${gone.id}`, { key: org.key })).status).toBe(410);
  });
});

describe.each(ENGINES)("C17 retention: the server sweeps by itself on %s", (engine) => {
  test("a server started on a folder with events past the retention deletes them without a request", async () => {
    const dataDir = tempDir();
    const before = await appOn(engine, { dataDir, now: () => new Date(Date.now() - 31 * DAY) });
    const org = await makeOrg(before, { rateLimit: 1_000_000 });
    await setUp(before.dossier, () => writeNewDossier(before.dossier, org.id, { type: "candidate", name: "long ago" }));
    expect(await eventRows(before, org.id)).toHaveLength(1);
    // The same store: the data folder's file, or the app's PostgreSQL database.
    const env = engine === "postgres" ? { DOSSIER_DATABASE_URL: before.dossier.config.databaseUrl! } : {};
    await before.close();

    const server = await startServer({ dataDir, port: 0, webhooks: false, env, config: { log: "off" } });
    try {
      await until(async () => (await eventRows(server.app, org.id)).length === 0, 60_000, "the sweep");
    } finally {
      await server.stop();
    }
  });
});
