// C18 GET /flows/{id}/stats, C20 "Stats definitions", "Stats edge cases", "Stats left, active":
// a sales flow lives through a seeded sequence of moves and status changes over a few weeks; each
// figure of the answer is checked against the test's own log of what it did and against a
// COUNT/SUM over the same rows (docs/figures.md defines each one).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { call, makeOrg, setUp, type Org } from "../helpers";
import { ENGINES, appOn, queryRows } from "../helpers/stores";
import { writeKey } from "../../src/services/keys";
import { seededRandom as random } from "../../src/random";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

const DAY = 86_400_000;
const HOUR = 3_600_000;

function clock(start = "2026-05-01T08:00:00.000Z") {
  let time = Date.parse(start);
  return { now: () => new Date(time), tick: (ms = HOUR) => void (time += ms) };
}

interface Stay { dossier: string; stage: string; entered: string; left: string | null; next: string | null }

async function ok(answer: Promise<{ status: number; json: any; text: string }>) {
  const got = await answer;
  if (got.status >= 300) throw new Error(`${got.status} ${got.text}`);
  return got.json?.data;
}

describe.each(ENGINES)("stats on %s", async (engine) => {
  const time = clock();
  const app = await appOn(engine, { now: time.now });
  /** count(*) of a raw read (PostgreSQL answers it as a string). */
  const count = async (text: string, ...values: string[]) => Number((await queryRows<{ n: number | string }>(app, text, ...values))[0].n);

  /** The organization's default flow of a type, with its stages by position. */
  async function flowOf(org: Org, type: "sales" | "candidate") {
    const flows = (await ok(call(app, "GET", `/flows?type=${type}`, { key: org.key }))) as { id: string; is_default: boolean; stages: { id: string; position: number; win_probability: number }[] }[];
    return flows.find((f) => f.is_default)!;
  }

  describe("C18: GET /flows/{id}/stats against the log of what happened and COUNT/SUM over the rows", async () => {
    const org = await makeOrg(app, { rateLimit: 1_000_000 });
    const flow = await flowOf(org, "sales");
    const stages = flow.stages;
    const position = new Map(stages.map((s) => [s.id, s.position]));
    const stays: Stay[] = [];
    const outcomes = new Map<string, { status: string; at: string }>();
    const status = new Map<string, string>();
    const rand = random(7);
    const pick = <T>(items: T[]) => items[Math.floor(rand() * items.length)];
    const ids: string[] = [];

    const moveTo = async (id: string, stage: string | null) => {
      await ok(call(app, "PATCH", `/dossiers/${id}`, { key: org.key, body: { current_stage_id: stage } }));
      const now = time.now().toISOString();
      const open = stays.find((s) => s.dossier === id && s.left === null);
      if (open && open.stage !== stage) {
        open.left = now;
        open.next = stage;
      }
      if (stage !== null && open?.stage !== stage) stays.push({ dossier: id, stage, entered: now, left: null, next: null });
    };

    for (let i = 0; i < 40; i++) {
      const body: Record<string, unknown> = { type: "sales", name: `Deal ${i}` };
      if (i % 5 !== 4) Object.assign(body, { deal_size: 1000 + i * 250, deal_currency: i % 3 === 0 ? "USD" : "EUR" });
      const d = await ok(call(app, "POST", "/dossiers", { key: org.key, body }));
      ids.push(d.id);
      status.set(d.id, "active");
      stays.push({ dossier: d.id, stage: stages[0].id, entered: time.now().toISOString(), left: null, next: null });
      time.tick(3 * HOUR);
    }
    for (let step = 0; step < 200; step++) {
      time.tick(Math.floor(rand() * 8 * HOUR) + 1);
      const id = pick(ids);
      const roll = rand();
      if (roll < 0.7) await moveTo(id, rand() < 0.05 ? null : pick(stages).id);
      else {
        const next = pick(["won", "lost", "active", "active", "archived"]);
        await ok(call(app, "PATCH", `/dossiers/${id}`, { key: org.key, body: { status: next } }));
        if (status.get(id) !== next && (next === "won" || next === "lost")) outcomes.set(id, { status: next, at: time.now().toISOString() });
        status.set(id, next);
      }
    }
    time.tick(2 * DAY);
    const first = Date.parse(stays[0].entered);
    const from = new Date(first + 5 * DAY).toISOString();
    const to = new Date(time.now().getTime() - 3 * DAY).toISOString();
    const inPeriod = (at: string | null) => at !== null && at >= from && at <= to;
    const stats = await ok(call(app, "GET", `/flows/${flow.id}/stats?from=${from}&to=${to}`, { key: org.key }));

    test("the period is the one asked for, and every stage is there by position", () => {
      expect(stats.from).toBe(from);
      expect(stats.to).toBe(to);
      expect(stats.stages.map((s: { stage_id: string }) => s.stage_id)).toEqual(stages.map((s) => s.id));
    });

    test("C20: active = the dossiers now in the stage whose status is active (COUNT over dossiers and the log)", async () => {
      for (const s of stats.stages) {
        const counted = await count(`SELECT count(*) AS n FROM dossiers WHERE organization_id = ? AND current_stage_id = ? AND status = 'active'`, org.id, s.stage_id);
        const logged = ids.filter((id) => status.get(id) === "active" && stays.find((v) => v.dossier === id && v.left === null)?.stage === s.stage_id).length;
        expect([s.stage_id, s.active]).toEqual([s.stage_id, counted]);
        expect(s.active).toBe(logged);
      }
    });

    test("overdue = active with stage_due_at at or before now (COUNT over dossiers)", async () => {
      const now = time.now().toISOString();
      let total = 0;
      for (const s of stats.stages) {
        const counted = await count(
          `SELECT count(*) AS n FROM dossiers WHERE organization_id = ? AND current_stage_id = ? AND status = 'active' AND stage_due_at <= ?`,
          org.id, s.stage_id, now,
        );
        expect([s.stage_id, s.overdue]).toEqual([s.stage_id, counted]);
        total += s.overdue;
      }
      expect(total).toBeGreaterThan(0);
    });

    test("C20: entered counts entries in the period, creation into the first stage included", async () => {
      for (const s of stats.stages) {
        const logged = stays.filter((v) => v.stage === s.stage_id && inPeriod(v.entered)).length;
        const counted = await count(
          `SELECT count(*) AS n FROM stage_visits WHERE organization_id = ? AND stage_id = ? AND entered_at BETWEEN ? AND ?`,
          org.id, s.stage_id, from, to,
        );
        expect([s.stage_id, s.entered]).toEqual([s.stage_id, logged]);
        expect(s.entered).toBe(counted);
      }
    });

    test("C20: left counts moves to another stage in the period (not to no stage, not won or lost); went_on those to a higher position", () => {
      let moves = 0;
      for (const s of stats.stages) {
        const left = stays.filter((v) => v.stage === s.stage_id && inPeriod(v.left) && v.next !== null);
        const wentOn = left.filter((v) => position.get(v.next!)! > s.position);
        expect([s.stage_id, s.left, s.went_on]).toEqual([s.stage_id, left.length, wentOn.length]);
        expect(s.went_on_share).toBe(left.length === 0 ? null : wentOn.length / left.length);
        moves += left.length;
      }
      expect(moves).toBeGreaterThan(10);
    });

    test("C20: median_days over the stays that left in the period", () => {
      for (const s of stats.stages) {
        const days = stays
          .filter((v) => v.stage === s.stage_id && inPeriod(v.left) && v.next !== null)
          .map((v) => (Date.parse(v.left!) - Date.parse(v.entered)) / DAY)
          .sort((a, b) => a - b);
        const mid = Math.floor(days.length / 2);
        const median = days.length === 0 ? null : days.length % 2 ? days[mid] : (days[mid - 1] + days[mid]) / 2;
        if (median === null) expect(s.median_days).toBeNull();
        else expect(s.median_days).toBeCloseTo(median, 9);
      }
    });

    test("C20: won and lost count dossiers now so whose last change to it falls in the period; win rate = won / (won + lost)", () => {
      const count = (which: string) => [...outcomes].filter(([id, o]) => status.get(id) === which && o.status === which && inPeriod(o.at)).length;
      expect({ won: stats.won, lost: stats.lost }).toEqual({ won: count("won"), lost: count("lost") });
      expect(stats.won + stats.lost).toBeGreaterThan(0);
      expect(stats.win_rate).toBe(stats.won / (stats.won + stats.lost));
    });

    test("C20: open pipeline = active sales dossiers, per currency, and weighted by the stage's win_probability (SUM over dossiers)", async () => {
      // Numbers on both engines: PostgreSQL answers a sum of numerics as a string.
      const sums = (await queryRows<{ currency: string; open_value: number | string; weighted_value: number | string }>(
          app,
          `SELECT d.deal_currency AS currency, sum(d.deal_size) AS open_value, sum(d.deal_size * coalesce(s.win_probability, 0) / 100.0) AS weighted_value
             FROM dossiers d LEFT JOIN stages s ON s.id = d.current_stage_id
            WHERE d.organization_id = ? AND d.flow_id = ? AND d.status = 'active' AND d.deal_size IS NOT NULL GROUP BY d.deal_currency ORDER BY d.deal_currency`,
          org.id, flow.id,
        )).map((p) => ({ currency: p.currency, open_value: Number(p.open_value), weighted_value: Number(p.weighted_value) }));
      expect(stats.pipeline.map((p: { currency: string; open_value: number }) => [p.currency, p.open_value])).toEqual(sums.map((p) => [p.currency, p.open_value]));
      // Summed per stage, then per currency: the same sum in another order, equal to rounding.
      sums.forEach((sum, i) => expect(stats.pipeline[i].weighted_value).toBeCloseTo(sum.weighted_value, 6));
      expect(sums.length).toBe(2);
    });
  });

  describe("C18: GET /flows/{id}/stats: the period, the flow, the scopes", async () => {
    const org = await makeOrg(app);

    test("the default period is the last 90 days, to now", async () => {
      const flow = await flowOf(org, "candidate");
      const stats = await ok(call(app, "GET", `/flows/${flow.id}/stats`, { key: org.key }));
      expect(stats.to).toBe(time.now().toISOString());
      expect(stats.from).toBe(new Date(time.now().getTime() - 90 * DAY).toISOString());
      expect(stats).toMatchObject({ won: 0, lost: 0, win_rate: null, pipeline: null });
      expect(stats.stages[0]).toMatchObject({ active: 0, entered: 0, left: 0, median_days: null, went_on_share: null });
    });

    test("a dossier created now counts as entered into the first stage and active there", async () => {
      const fresh = await makeOrg(app);
      const flow = await flowOf(fresh, "candidate");
      await ok(call(app, "POST", "/dossiers", { key: fresh.key, body: { type: "candidate", name: "New" } }));
      const stats = await ok(call(app, "GET", `/flows/${flow.id}/stats`, { key: fresh.key }));
      expect(stats.stages[0]).toMatchObject({ active: 1, entered: 1, left: 0 });
    });

    for (const [name, query] of [
      ["a from that is not ISO 8601", "from=yesterday"],
      ["a to that is not a date", "to=2026-13-45T00:00:00Z"],
      ["from after to", "from=2026-05-02T00:00:00Z&to=2026-05-01T00:00:00Z"],
    ]) {
      test(`C18: ${name} → 400 invalid_body`, async () => {
        const flow = await flowOf(org, "sales");
        const answer = await call(app, "GET", `/flows/${flow.id}/stats?${query}`, { key: org.key });
        expect(answer.status).toBe(400);
        expect(answer.json.error.code).toBe("invalid_body");
      });
    }

    test("C3: an unknown flow, or another organization's, is 404 (before the query's 400)", async () => {
      const flow = await flowOf(org, "sales");
      const other = await makeOrg(app);
      expect((await call(app, "GET", `/flows/${flow.id}/stats?from=bad`, { key: other.key })).status).toBe(404);
      expect((await call(app, "GET", `/flows/${crypto.randomUUID()}/stats`, { key: org.key })).status).toBe(404);
    });

    test("C18: it needs flows:read and dossiers:read", async () => {
      const flow = await flowOf(org, "sales");
      for (const scopes of [["flows:read"], ["dossiers:read"]] as const) {
        const key = await setUp(app.dossier, async () => (await writeKey(app.dossier, { organizationId: org.id, scopes: [...scopes] })).key);
        expect((await call(app, "GET", `/flows/${flow.id}/stats`, { key })).json.error.code).toBe("forbidden");
      }
      const both = await setUp(app.dossier, async () => (await writeKey(app.dossier, { organizationId: org.id, scopes: ["flows:read", "dossiers:read"] })).key);
      expect((await call(app, "GET", `/flows/${flow.id}/stats`, { key: both })).status).toBe(200);
    });
  });
});
