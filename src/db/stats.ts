// The figures of a flow (C18 GET /flows/{id}/stats), each read from the rows that define it
// (docs/figures.md): dossier_counts for `active`, dossiers for `overdue` and the pipeline,
// stage_visits (migration 0008) for `entered`, `left`, the median and `went_on`, and
// dossier_outcomes for won and lost. Periods are inclusive at both ends: from <= at <= to.
import type { QueryDeps } from "./queries";

export interface FlowStage {
  id: string;
  name: string;
  position: number;
  win_probability: number;
}

export interface LeftFigures {
  left: number;
  went_on: number;
}

export interface PipelineRow {
  currency: string;
  open_value: number;
  weighted_value: number;
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

    /** Active dossiers per stage, from the counts the triggers keep (migration 0003). */
    activeByStage(organizationId: string, flowId: string): Map<string, number> {
      const rows = sqlite
        .query<{ stage_id: string; n: number }, [string, string]>(
          `SELECT stage_id, sum(n) AS n FROM dossier_counts WHERE organization_id = ? AND flow_id = ? AND status = 'active' GROUP BY stage_id`,
        )
        .all(organizationId, flowId);
      return new Map(rows.map((row) => [row.stage_id, row.n]));
    },

    /** Active dossiers per stage whose stage_due_at is at or before `now` (GET /dossiers?overdue). */
    overdueByStage(organizationId: string, flowId: string, now: string): Map<string, number> {
      const rows = sqlite
        .query<{ stage_id: string; n: number }, [string, string, string]>(
          `SELECT current_stage_id AS stage_id, count(*) AS n FROM dossiers
           WHERE organization_id = ? AND status = 'active' AND stage_due_at <= ? AND flow_id = ? GROUP BY current_stage_id`,
        )
        .all(organizationId, now, flowId);
      return new Map(rows.map((row) => [row.stage_id, row.n]));
    },

    entered(organizationId: string, stageId: string, from: string, to: string): number {
      return sqlite
        .query<{ n: number }, [string, string, string, string]>(
          `SELECT count(*) AS n FROM stage_visits WHERE organization_id = ? AND stage_id = ? AND entered_at >= ? AND entered_at <= ?`,
        )
        .get(organizationId, stageId, from, to)!.n;
    },

    /** Stays that ended in the period by a move to another stage; `went_on`: to one of a higher
     * position than `position`. */
    left(organizationId: string, stageId: string, position: number, from: string, to: string): LeftFigures {
      return sqlite
        .query<LeftFigures, [number, string, string, string, string]>(
          `SELECT count(*) AS "left", coalesce(sum(s.position > ?), 0) AS went_on
             FROM stage_visits v LEFT JOIN stages s ON s.id = v.next_stage_id
            WHERE v.organization_id = ? AND v.stage_id = ? AND v.left_at >= ? AND v.left_at <= ? AND v.next_stage_id IS NOT NULL`,
        )
        .get(position, organizationId, stageId, from, to)!;
    },

    /** The `count`-th to (`count`+1)-th shortest stays (in days) of those `left` counts, from `offset`. */
    staysInOrder(organizationId: string, stageId: string, from: string, to: string, offset: number, count: number): number[] {
      return sqlite
        .query<{ days: number }, [string, string, string, string, number, number]>(
          `SELECT ${DAYS} AS days FROM stage_visits
            WHERE organization_id = ? AND stage_id = ? AND left_at >= ? AND left_at <= ? AND next_stage_id IS NOT NULL
            ORDER BY days LIMIT ? OFFSET ?`,
        )
        .all(organizationId, stageId, from, to, count, offset)
        .map((row) => row.days);
    },

    /** Dossiers of the flow whose status is now won (or lost) and last became so in the period. */
    outcomes(organizationId: string, flowId: string, from: string, to: string): { won: number; lost: number } {
      const rows = sqlite
        .query<{ status: "won" | "lost"; n: number }, [string, string, string, string]>(
          `SELECT o.status, count(*) AS n FROM dossier_outcomes o JOIN dossiers d ON d.id = o.dossier_id AND d.status = o.status
            WHERE o.organization_id = ? AND o.flow_id = ? AND o.at >= ? AND o.at <= ? GROUP BY o.status`,
        )
        .all(organizationId, flowId, from, to);
      return { won: rows.find((r) => r.status === "won")?.n ?? 0, lost: rows.find((r) => r.status === "lost")?.n ?? 0 };
    },

    /** Active dossiers of the flow with a deal size and currency: their sum, and the sum weighted by
     * their stage's win_probability (0 without a stage), per currency. */
    pipeline(organizationId: string, flowId: string): PipelineRow[] {
      return sqlite
        .query<PipelineRow, [string, string]>(
          `SELECT d.deal_currency AS currency, sum(d.deal_size) AS open_value,
                  sum(d.deal_size * coalesce(s.win_probability, 0) / 100.0) AS weighted_value
             FROM dossiers d LEFT JOIN stages s ON s.id = d.current_stage_id
            WHERE d.organization_id = ? AND d.status = 'active' AND d.flow_id = ? AND d.deal_size IS NOT NULL AND d.deal_currency IS NOT NULL
            GROUP BY d.deal_currency ORDER BY d.deal_currency`,
        )
        .all(organizationId, flowId);
    },
  };
}
