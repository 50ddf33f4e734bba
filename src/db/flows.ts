// Flows and their stages (api-v1 "Flows", C4): their rows, nothing else.
import type { Static } from "@sinclair/typebox";
import type { Flow, FlowType, Stage } from "../schemas/flows";
import type { QueryDeps } from "./queries";

type FlowRecord = Static<typeof Flow>;
type StageRecord = Static<typeof Stage>;
type FlowRow = Omit<FlowRecord, "stages" | "is_default" | "overdue_tasks"> & { is_default: number; overdue_tasks: number };

/** A flow as written: its stages carry no organization of their own, they take the flow's. */
export interface NewFlow extends FlowRecord {
  created_at: string;
}

const FLOW_COLUMNS = `id, organization_id, name, type, is_default, overdue_tasks`;
const STAGE_COLUMNS = `id, flow_id, name, position, deadline_days, win_probability, color`;

export function flowQueries({ sqlite }: QueryDeps) {
  /** The flow's stages by position. */
  const stagesOf = (organizationId: string, flowId: string): StageRecord[] =>
    sqlite
      .query<StageRecord, [string, string]>(`SELECT ${STAGE_COLUMNS} FROM stages WHERE flow_id = ? AND organization_id = ? ORDER BY position`)
      .all(flowId, organizationId);

  const withStages = (row: FlowRow): FlowRecord => ({ ...row, is_default: row.is_default === 1, overdue_tasks: row.overdue_tasks === 1, stages: stagesOf(row.organization_id, row.id) });

  return {
    stagesOf,

    exists(organizationId: string, flowId: string): boolean {
      const row = sqlite.query<{ ok: number }, [string, string]>(`SELECT 1 AS ok FROM flows WHERE id = ? AND organization_id = ?`).get(flowId, organizationId);
      return Boolean(row);
    },

    count(organizationId: string, type?: Static<typeof FlowType>): number {
      const row = type
        ? sqlite.query<{ n: number }, [string, string]>(`SELECT count(*) AS n FROM flows WHERE organization_id = ? AND type = ?`).get(organizationId, type)
        : sqlite.query<{ n: number }, [string]>(`SELECT count(*) AS n FROM flows WHERE organization_id = ?`).get(organizationId);
      return row!.n;
    },

    /** By name, then id; each with its stages. */
    page(organizationId: string, type: Static<typeof FlowType> | undefined, limit: number, offset: number): FlowRecord[] {
      const rows = type
        ? sqlite
            .query<FlowRow, [string, string, number, number]>(
              `SELECT ${FLOW_COLUMNS} FROM flows WHERE organization_id = ? AND type = ? ORDER BY name, id LIMIT ? OFFSET ?`,
            )
            .all(organizationId, type, limit, offset)
        : sqlite
            .query<FlowRow, [string, number, number]>(`SELECT ${FLOW_COLUMNS} FROM flows WHERE organization_id = ? ORDER BY name, id LIMIT ? OFFSET ?`)
            .all(organizationId, limit, offset);
      return rows.map(withStages);
    },

    /** Takes the default flag off the organization's current default flow of this type. */
    clearDefault(organizationId: string, type: Static<typeof FlowType>) {
      sqlite.query(`UPDATE flows SET is_default = 0 WHERE organization_id = ? AND type = ? AND is_default = 1`).run(organizationId, type);
    },

    /** The flow, with its stages; null when it is not the organization's. */
    byId(organizationId: string, flowId: string): FlowRecord | null {
      const row = sqlite.query<FlowRow, [string, string]>(`SELECT ${FLOW_COLUMNS} FROM flows WHERE id = ? AND organization_id = ?`).get(flowId, organizationId);
      return row ? withStages(row) : null;
    },

    rename(organizationId: string, flowId: string, name: string) {
      sqlite.query(`UPDATE flows SET name = ? WHERE id = ? AND organization_id = ?`).run(name, flowId, organizationId);
    },

    /** C22: whether the flow's overdue stages make follow-up tasks. */
    setOverdueTasks(organizationId: string, flowId: string, on: boolean) {
      sqlite.query(`UPDATE flows SET overdue_tasks = ? WHERE id = ? AND organization_id = ?`).run(on ? 1 : 0, flowId, organizationId);
    },

    makeDefault(organizationId: string, flowId: string) {
      sqlite.query(`UPDATE flows SET is_default = 1 WHERE id = ? AND organization_id = ?`).run(flowId, organizationId);
    },

    stageById(organizationId: string, stageId: string): StageRecord | null {
      return sqlite.query<StageRecord, [string, string]>(`SELECT ${STAGE_COLUMNS} FROM stages WHERE id = ? AND organization_id = ?`).get(stageId, organizationId);
    },

    stageCount(organizationId: string, flowId: string): number {
      return sqlite.query<{ n: number }, [string, string]>(`SELECT count(*) AS n FROM stages WHERE flow_id = ? AND organization_id = ?`).get(flowId, organizationId)!.n;
    },

    /** Whether any dossier, archived ones too, is in the stage. */
    stageHoldsDossiers(organizationId: string, stageId: string): boolean {
      const row = sqlite
        .query<{ ok: number }, [string, string]>(`SELECT 1 AS ok FROM dossiers WHERE current_stage_id = ? AND organization_id = ? LIMIT 1`)
        .get(stageId, organizationId);
      return row !== null;
    },

    /** Moves the flow's stages at positions `from` to `to` (inclusive) by `delta`. In two steps, as
     * the (flow, position) index is checked row by row: out of the way (negative) first, then back. */
    shiftStages(organizationId: string, flowId: string, from: number, to: number, delta: number) {
      sqlite
        .query(`UPDATE stages SET position = -(position + ?) WHERE flow_id = ? AND organization_id = ? AND position BETWEEN ? AND ?`)
        .run(delta, flowId, organizationId, from, to);
      sqlite.query(`UPDATE stages SET position = -position WHERE flow_id = ? AND organization_id = ? AND position < 0`).run(flowId, organizationId);
    },

    insertStage(organizationId: string, stage: StageRecord) {
      sqlite
        .query(`INSERT INTO stages (id, flow_id, organization_id, name, position, deadline_days, win_probability, color) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
        .run(stage.id, stage.flow_id, organizationId, stage.name, stage.position, stage.deadline_days, stage.win_probability, stage.color);
    },

    /** Writes every field of the stage as given (its position must be free). */
    updateStage(organizationId: string, stage: StageRecord) {
      sqlite
        .query(`UPDATE stages SET name = ?, position = ?, deadline_days = ?, win_probability = ?, color = ? WHERE id = ? AND organization_id = ?`)
        .run(stage.name, stage.position, stage.deadline_days, stage.win_probability, stage.color, stage.id, organizationId);
    },

    /** Sets the stage's position alone, e.g. to 0 to free its place while the others move. */
    placeStage(organizationId: string, stageId: string, position: number) {
      sqlite.query(`UPDATE stages SET position = ? WHERE id = ? AND organization_id = ?`).run(position, stageId, organizationId);
    },

    deleteStage(organizationId: string, stageId: string) {
      sqlite.query(`DELETE FROM stages WHERE id = ? AND organization_id = ?`).run(stageId, organizationId);
    },

    /** Inserts the flow and its stages (in the order of `flow.stages`). */
    insert(flow: NewFlow) {
      sqlite
        .query(`INSERT INTO flows (id, organization_id, name, type, is_default, created_at) VALUES (?, ?, ?, ?, ?, ?)`)
        .run(flow.id, flow.organization_id, flow.name, flow.type, flow.is_default ? 1 : 0, flow.created_at);
      const stage = sqlite.query(
        `INSERT INTO stages (id, flow_id, organization_id, name, position, deadline_days, win_probability, color) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      for (const s of flow.stages) stage.run(s.id, flow.id, flow.organization_id, s.name, s.position, s.deadline_days, s.win_probability, s.color);
    },
  };
}
