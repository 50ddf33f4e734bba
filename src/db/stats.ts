// The figures of a flow (C18 GET /flows/{id}/stats), each read from the rows that define it
// (docs/figures.md): dossiers for `active`, `overdue` and the pipeline (one pass over an index of
// the active ones), stage_visits (migration 0008) for `entered`, `left`, the median and `went_on`,
// and dossier_outcomes for won and lost. Every statement reads an index alone (migration 0011;
// test/db/stats-read-paths.test.ts). Periods are inclusive at both ends: from <= at <= to.
import type { QueryDeps } from "./queries";

export interface FlowStage {
  id: string;
  name: string;
  position: number;
  win_probability: number;
}

export interface StaysLeft {
  days: Float64Array;
  went_on: number;
}

export interface PipelineRow {
  currency: string;
  open_value: number;
  weighted_value: number;
}

export interface ActiveGroup {
  stage_id: string | null;
  currency: string | null;
  active: number;
  overdue: number;
  /** Null when none of the group has a deal size. */
  open_value: number | null;
  weighted_value: number | null;
}

// A day in ms: durations are whole milliseconds, as the timestamps are.
const DAYS = `round((julianday(left_at) - julianday(entered_at)) * 86400000) / 86400000.0`;

export function statsQueries({ sqlite }: QueryDeps) {
  return {
    flow(organizationId: string, flowId: string): { id: string; type: "candidate" | "sales" } | null {
      return sqlite
        .query<{ id: string; type: "candidate" | "sales" }, [string, string]>(`SELECT id, type FROM flows WHERE id = ? AND organization_id = ?`)
        .get(flowId, organizationId);
    },

    /** By position. */
    stages(organizationId: string, flowId: string): FlowStage[] {
      return sqlite
        .query<FlowStage, [string, string]>(
          `SELECT id, name, position, win_probability FROM stages WHERE flow_id = ? AND organization_id = ? ORDER BY position`,
        )
        .all(flowId, organizationId);
    },

    /** The flow's active dossiers, in one pass, per (stage, currency): how many, how many overdue
     * (stage_due_at at or before `now`, as GET /dossiers?overdue), and the sums of deal_size and of
     * deal_size × the stage's win_probability / 100 over those with a deal size. */
    activeByStage(organizationId: string, flowId: string, now: string): ActiveGroup[] {
      return sqlite
        .query<ActiveGroup, [string, string, string]>(
          `SELECT d.current_stage_id AS stage_id, d.deal_currency AS currency, count(*) AS active, coalesce(sum(d.stage_due_at <= ?), 0) AS overdue,
                  sum(d.deal_size) AS open_value, sum(d.deal_size * coalesce(s.win_probability, 0) / 100.0) AS weighted_value
             FROM dossiers d INDEXED BY dossiers_flow_active_figures LEFT JOIN stages s ON s.id = d.current_stage_id
            WHERE d.organization_id = ? AND d.flow_id = ? AND d.status = 'active'
            GROUP BY d.current_stage_id, d.deal_currency`,
        )
        .all(now, organizationId, flowId);
    },

    entered(organizationId: string, stageId: string, from: string, to: string): number {
      return sqlite
        .query<{ n: number }, [string, string, string, string]>(
          `SELECT count(*) AS n FROM stage_visits WHERE organization_id = ? AND stage_id = ? AND entered_at >= ? AND entered_at <= ?`,
        )
        .get(organizationId, stageId, from, to)!.n;
    },

    /** The stays that ended in the period by a move to another stage, in one pass: each one's
     * length in days, and how many went on to one of the flow's stages of a higher position than
     * `position` (those stages listed once, not looked up per stay; a dossier moves only within
     * its flow). The lengths come back unsorted (a sort in JavaScript beats SQLite's sorter) and
     * are streamed, so that a read holds a number per stay, not a row object. */
    staysLeft(organizationId: string, flowId: string, stageId: string, position: number, from: string, to: string): StaysLeft {
      const stays = sqlite
        .query<{ days: number; went_on: number }, [string, string, string, string, string, number]>(
          `SELECT ${DAYS} AS days, next_stage_id IN (SELECT id FROM stages WHERE organization_id = ?1 AND flow_id = ?5 AND position > ?6) AS went_on
             FROM stage_visits
            WHERE organization_id = ?1 AND stage_id = ?2 AND left_at >= ?3 AND left_at <= ?4 AND next_stage_id IS NOT NULL`,
        )
        .iterate(organizationId, stageId, from, to, flowId, position);
      const days: number[] = [];
      let wentOn = 0;
      for (const stay of stays) {
        days.push(stay.days);
        wentOn += stay.went_on;
      }
      return { days: Float64Array.from(days), went_on: wentOn };
    },

    /** Dossiers of the flow whose status is now won (or lost) and last became so in the period:
     * dossier_outcomes holds only the outcomes that still stand (migration 0011). */
    outcomes(organizationId: string, flowId: string, from: string, to: string): { won: number; lost: number } {
      return sqlite
        .query<{ won: number; lost: number }, [string, string, string, string]>(
          `SELECT (SELECT count(*) FROM dossier_outcomes WHERE organization_id = ?1 AND flow_id = ?2 AND status = 'won' AND at >= ?3 AND at <= ?4) AS won,
                  (SELECT count(*) FROM dossier_outcomes WHERE organization_id = ?1 AND flow_id = ?2 AND status = 'lost' AND at >= ?3 AND at <= ?4) AS lost`,
        )
        .get(organizationId, flowId, from, to)!;
    },
  };
}
