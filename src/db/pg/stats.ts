// The figures of a flow on PostgreSQL: src/db/stats.ts's statements, the same answers (periods
// inclusive at both ends, durations in whole milliseconds).
//
// Two places where the same SQL would not give the same numbers:
// - Sums of deal sizes: SQLite's sum() of reals is compensated (Kahan-Babuska-Neumaier, SQLite
//   3.43+), PostgreSQL's sum(float8) adds as it goes (0.1 + 0.2 + 0.3 is 0.6000000000000001), and a
//   sum as numeric, rounded once, still differs in the last bit now and then (7 sums in 400 groups
//   of up to 300 random amounts). So the group's deal sizes come back as an array, in the order
//   SQLite's sum reads them (the index dossiers_flow_active_figures: stage_due_at, NULL first, then
//   deal_size), and are summed here with SQLite's own steps (sqliteSum): the same doubles, 0
//   differences in the same 400 groups. It costs a number per active dossier on the wire, where
//   SQLite reads them in process anyway.
// - A stay's length: julianday() has no PostgreSQL twin; the length is the timestamps' difference in
//   whole milliseconds, divided by a day's milliseconds as a double, as SQLite divides.
import type { ActiveGroup, FlowStage } from "../stats";
import type { Db } from "./client";
import type { EngineQueries } from "./queries";

/** A group of active dossiers as PostgreSQL gives it: the deal sizes themselves, to be summed here. */
interface GroupRow {
  stage_id: string | null;
  currency: string | null;
  active: number;
  overdue: number;
  win_probability: number;
  /** Null when none of the group has a deal size. */
  sizes: number[] | null;
}

/** sum() of reals as SQLite computes it (func.c, 3.43+: Kahan-Babuska-Neumaier, the error added at
 * the end unless it overflowed), in the order given; null for none, as SQL's sum. */
export function sqliteSum(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  let sum = 0;
  let error = 0;
  for (const value of values) {
    const next = sum + value;
    error += Math.abs(sum) > Math.abs(value) ? sum - next + value : value - next + sum;
    sum = next;
  }
  return Number.isFinite(error) ? sum + error : sum;
}

export function pgStatsQueries(db: Db): EngineQueries<"stats"> {
  return {
    async flow(organizationId: string, flowId: string) {
      const [row] = await db()<{ id: string; type: "candidate" | "sales" }[]>`SELECT id, type FROM flows
        WHERE id = ${flowId} AND organization_id = ${organizationId}`;
      return row ?? null;
    },

    /** By position. */
    async stages(organizationId: string, flowId: string) {
      return [
        ...(await db()<FlowStage[]>`SELECT id, name, position, win_probability FROM stages
          WHERE flow_id = ${flowId} AND organization_id = ${organizationId} ORDER BY position`),
      ];
    },

    /** The flow's active dossiers, in one pass over the partial index dossiers_flow_active_figures
     * (its WHERE written as the index's), per (stage, currency): how many, how many overdue, and the
     * sums of deal_size and of deal_size × the stage's win_probability / 100, each term computed as
     * SQLite computes it. */
    async activeByStage(organizationId: string, flowId: string, now: string) {
      const groups = await db()<GroupRow[]>`SELECT d.current_stage_id AS stage_id, d.deal_currency AS currency, count(*)::integer AS active,
            count(*) FILTER (WHERE d.stage_due_at <= ${now})::integer AS overdue,
            coalesce(max(s.win_probability), 0) AS win_probability,
            array_agg(d.deal_size ORDER BY d.stage_due_at NULLS FIRST, d.deal_size) FILTER (WHERE d.deal_size IS NOT NULL) AS sizes
          FROM dossiers d LEFT JOIN stages s ON s.id = d.current_stage_id
          WHERE d.organization_id = ${organizationId} AND d.flow_id = ${flowId} AND d.status = 'active'
          GROUP BY d.current_stage_id, d.deal_currency`;
      return groups.map(
        (g): ActiveGroup => ({
          stage_id: g.stage_id,
          currency: g.currency,
          active: g.active,
          overdue: g.overdue,
          open_value: sqliteSum(g.sizes ?? []),
          weighted_value: sqliteSum((g.sizes ?? []).map((size) => (size * g.win_probability) / 100)),
        }),
      );
    },

    async entered(organizationId: string, stageId: string, from: string, to: string) {
      const [row] = await db()<{ n: number }[]>`SELECT count(*)::integer AS n FROM stage_visits
        WHERE organization_id = ${organizationId} AND stage_id = ${stageId} AND entered_at >= ${from} AND entered_at <= ${to}`;
      return row.n;
    },

    /** The stays that ended in the period by a move to another stage: each one's length in days
     * (unsorted), and how many went on to one of the flow's stages of a higher position. */
    async staysLeft(organizationId: string, flowId: string, stageId: string, position: number, from: string, to: string) {
      const stays = await db()<{ days: number; went_on: number }[]>`SELECT
            round(extract(epoch FROM left_at::timestamptz - entered_at::timestamptz) * 1000)::float8 / 86400000::float8 AS days,
            (next_stage_id IN (SELECT id FROM stages WHERE organization_id = ${organizationId} AND flow_id = ${flowId} AND position > ${position}::integer))::integer AS went_on
          FROM stage_visits
          WHERE organization_id = ${organizationId} AND stage_id = ${stageId} AND left_at >= ${from} AND left_at <= ${to} AND next_stage_id IS NOT NULL`;
      const days = new Float64Array(stays.length);
      let wentOn = 0;
      for (let i = 0; i < stays.length; i++) {
        days[i] = stays[i].days;
        wentOn += stays[i].went_on;
      }
      return { days, went_on: wentOn };
    },

    /** Dossiers of the flow whose status is now won (or lost) and last became so in the period. */
    async outcomes(organizationId: string, flowId: string, from: string, to: string) {
      const [row] = await db()<{ won: number; lost: number }[]>`SELECT
          (SELECT count(*)::integer FROM dossier_outcomes WHERE organization_id = ${organizationId} AND flow_id = ${flowId} AND status = 'won'
            AND at >= ${from} AND at <= ${to}) AS won,
          (SELECT count(*)::integer FROM dossier_outcomes WHERE organization_id = ${organizationId} AND flow_id = ${flowId} AND status = 'lost'
            AND at >= ${from} AND at <= ${to}) AS lost`;
      return row;
    },
  };
}
