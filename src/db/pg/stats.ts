// The figures of a flow on PostgreSQL: src/db/stats.ts's statements, the same answers (periods
// inclusive at both ends, durations in whole milliseconds).
//
// Two places where the same SQL would not give the same numbers:
// - Sums of deal sizes: SQLite's sum() of reals is compensated (Kahan-Babuska-Neumaier, SQLite
//   3.43+), PostgreSQL's sum(float8) adds as it goes (0.1 + 0.2 + 0.3 is 0.6000000000000001). They
//   are summed as numeric (each value as its 15 significant digits, added exactly) and rounded to a
//   double once, which is what the compensated sum gives for amounts of money.
// - A stay's length: julianday() has no PostgreSQL twin; the length is the timestamps' difference in
//   whole milliseconds, divided by a day's milliseconds as a double, as SQLite divides.
import type { ActiveGroup, FlowStage } from "../stats";
import type { Db } from "./client";
import type { EngineQueries } from "./queries";

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
     * sums of deal_size and of deal_size × the stage's win_probability / 100. */
    async activeByStage(organizationId: string, flowId: string, now: string) {
      return [
        ...(await db()<ActiveGroup[]>`SELECT d.current_stage_id AS stage_id, d.deal_currency AS currency, count(*)::integer AS active,
            count(*) FILTER (WHERE d.stage_due_at <= ${now})::integer AS overdue,
            sum(d.deal_size::numeric)::float8 AS open_value,
            sum((d.deal_size * coalesce(s.win_probability, 0) / 100.0::float8)::numeric)::float8 AS weighted_value
          FROM dossiers d LEFT JOIN stages s ON s.id = d.current_stage_id
          WHERE d.organization_id = ${organizationId} AND d.flow_id = ${flowId} AND d.status = 'active'
          GROUP BY d.current_stage_id, d.deal_currency`),
      ];
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
