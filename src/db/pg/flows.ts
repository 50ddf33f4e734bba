// Flows and their stages on PostgreSQL: src/db/flows.ts's statements, the same answers. A flow is
// read with its stages in one statement (a LEFT JOIN, grouped here), where SQLite reads the stages
// of each flow after it: one round trip per page instead of one per flow, and one state of the
// database even outside a read snapshot.
//
// Inside a unit, every method but the lists' first takes the organization's write order
// (holdOrganization, src/db/pg/events.ts): a unit's checks (a flow's stage count, which position a
// new stage takes, the type's current default) and its writes then see no other unit of the
// organization between them, as under SQLite's one writer. Without it, stages added at once took
// one position twice, and flows made default at once two defaults: a unique index refused one (500).
import type { Static } from "@sinclair/typebox";
import type { NewFlow } from "../flows";
import type { Flow, FlowType, Stage } from "../../schemas/flows";
import type { Db } from "./client";
import { holdOrganization } from "./events";
import type { EngineQueries } from "./queries";

type FlowRecord = Static<typeof Flow>;
type StageRecord = Static<typeof Stage>;

/** A flow's columns beside one of its stages' (null for a flow without stages). */
interface FlowStageRow {
  id: string;
  organization_id: string;
  name: string;
  type: Static<typeof FlowType>;
  is_default: boolean;
  overdue_tasks: boolean;
  stage_id: string | null;
  stage_name: string | null;
  position: number | null;
  deadline_days: number | null;
  win_probability: number | null;
  color: string | null;
}

/** Flows in the rows' order, each with its stages (rows ordered by flow, then position), keyed as
 * SQLite's module gives them. */
function flowsOf(rows: FlowStageRow[]): FlowRecord[] {
  const flows: FlowRecord[] = [];
  for (const row of rows) {
    let flow = flows.at(-1);
    if (flow?.id !== row.id) {
      flow = { id: row.id, organization_id: row.organization_id, name: row.name, type: row.type, is_default: row.is_default, overdue_tasks: row.overdue_tasks, stages: [] };
      flows.push(flow);
    }
    if (row.stage_id === null) continue;
    flow.stages.push({
      id: row.stage_id,
      flow_id: row.id,
      name: row.stage_name!,
      position: row.position!,
      deadline_days: row.deadline_days,
      win_probability: row.win_probability!,
      color: row.color!,
    });
  }
  return flows;
}

/** The methods that read for a list, outside any unit's decisions: no lock. */
const LIST_READS = new Set(["stagesOf", "count", "page"]);

export function pgFlowQueries(db: Db, inUnit: () => boolean): EngineQueries<"flows"> {
  const queries = flowQueries(db);
  const ordered: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(queries)) {
    const call = method as (...args: unknown[]) => Promise<unknown>;
    ordered[name] = LIST_READS.has(name)
      ? call
      : async (...args: unknown[]) => {
          // Each takes the organization's id first, but insert (a flow, which names it).
          const organizationId = typeof args[0] === "string" ? args[0] : (args[0] as NewFlow).organization_id;
          if (inUnit()) await holdOrganization(db(), organizationId);
          return call(...args);
        };
  }
  return ordered as unknown as EngineQueries<"flows">;
}

function flowQueries(db: Db): EngineQueries<"flows"> {
  return {
    /** The flow's stages by position. */
    async stagesOf(organizationId: string, flowId: string) {
      return [
        ...(await db()<StageRecord[]>`SELECT id, flow_id, name, position, deadline_days, win_probability, color FROM stages
          WHERE flow_id = ${flowId} AND organization_id = ${organizationId} ORDER BY position`),
      ];
    },

    async exists(organizationId: string, flowId: string) {
      return (await db()`SELECT 1 AS ok FROM flows WHERE id = ${flowId} AND organization_id = ${organizationId}`).length > 0;
    },

    async count(organizationId: string, type?: Static<typeof FlowType>) {
      const [row] = type
        ? await db()<{ n: number }[]>`SELECT count(*)::integer AS n FROM flows WHERE organization_id = ${organizationId} AND type = ${type}`
        : await db()<{ n: number }[]>`SELECT count(*)::integer AS n FROM flows WHERE organization_id = ${organizationId}`;
      return row.n;
    },

    /** By name, then id; each with its stages. */
    async page(organizationId: string, type: Static<typeof FlowType> | undefined, limit: number, offset: number) {
      const kind = type ?? null;
      return flowsOf(
        await db()<FlowStageRow[]>`SELECT f.id, f.organization_id, f.name, f.type, f.is_default, f.overdue_tasks, s.id AS stage_id, s.name AS stage_name,
            s.position, s.deadline_days, s.win_probability, s.color
          FROM (SELECT id, organization_id, name, type, is_default, overdue_tasks FROM flows
                 WHERE organization_id = ${organizationId} AND (${kind}::text IS NULL OR type = ${kind}::text)
                 ORDER BY name, id LIMIT ${limit}::bigint OFFSET ${offset}::bigint) f
          LEFT JOIN stages s ON s.flow_id = f.id AND s.organization_id = f.organization_id
          ORDER BY f.name, f.id, s.position`,
      );
    },

    /** C22: whether the flow's overdue stages make follow-up tasks. */
    async setOverdueTasks(organizationId: string, flowId: string, on: boolean) {
      await db()`UPDATE flows SET overdue_tasks = ${on} WHERE id = ${flowId} AND organization_id = ${organizationId}`;
    },

    /** Takes the default flag off the organization's current default flow of this type. */
    async clearDefault(organizationId: string, type: Static<typeof FlowType>) {
      await db()`UPDATE flows SET is_default = false WHERE organization_id = ${organizationId} AND type = ${type} AND is_default`;
    },

    /** The flow, with its stages; null when it is not the organization's. */
    async byId(organizationId: string, flowId: string) {
      const [flow] = flowsOf(
        await db()<FlowStageRow[]>`SELECT f.id, f.organization_id, f.name, f.type, f.is_default, f.overdue_tasks, s.id AS stage_id, s.name AS stage_name,
            s.position, s.deadline_days, s.win_probability, s.color
          FROM flows f LEFT JOIN stages s ON s.flow_id = f.id AND s.organization_id = f.organization_id
          WHERE f.id = ${flowId} AND f.organization_id = ${organizationId}
          ORDER BY s.position`,
      );
      return flow ?? null;
    },

    async rename(organizationId: string, flowId: string, name: string) {
      await db()`UPDATE flows SET name = ${name} WHERE id = ${flowId} AND organization_id = ${organizationId}`;
    },

    async makeDefault(organizationId: string, flowId: string) {
      await db()`UPDATE flows SET is_default = true WHERE id = ${flowId} AND organization_id = ${organizationId}`;
    },

    async stageById(organizationId: string, stageId: string) {
      const [row] = await db()<StageRecord[]>`SELECT id, flow_id, name, position, deadline_days, win_probability, color FROM stages
        WHERE id = ${stageId} AND organization_id = ${organizationId}`;
      return row ?? null;
    },

    async stageCount(organizationId: string, flowId: string) {
      const [row] = await db()<{ n: number }[]>`SELECT count(*)::integer AS n FROM stages WHERE flow_id = ${flowId} AND organization_id = ${organizationId}`;
      return row.n;
    },

    /** Whether any dossier, archived ones too, is in the stage. */
    async stageHoldsDossiers(organizationId: string, stageId: string) {
      return (await db()`SELECT 1 AS ok FROM dossiers WHERE current_stage_id = ${stageId} AND organization_id = ${organizationId} LIMIT 1`).length > 0;
    },

    /** Moves the flow's stages at positions `from` to `to` (inclusive) by `delta`. In two steps, as
     * the (flow, position) index is checked row by row on PostgreSQL too (it is not deferrable):
     * out of the way (negative) first, then back. */
    async shiftStages(organizationId: string, flowId: string, from: number, to: number, delta: number) {
      await db()`UPDATE stages SET position = -(position + ${delta}::integer)
        WHERE flow_id = ${flowId} AND organization_id = ${organizationId} AND position BETWEEN ${from}::integer AND ${to}::integer`;
      await db()`UPDATE stages SET position = -position WHERE flow_id = ${flowId} AND organization_id = ${organizationId} AND position < 0`;
    },

    async insertStage(organizationId: string, stage: StageRecord) {
      await db()`INSERT INTO stages (id, flow_id, organization_id, name, position, deadline_days, win_probability, color)
        VALUES (${stage.id}, ${stage.flow_id}, ${organizationId}, ${stage.name}, ${stage.position}, ${stage.deadline_days}, ${stage.win_probability}, ${stage.color})`;
    },

    /** Writes every field of the stage as given (its position must be free). */
    async updateStage(organizationId: string, stage: StageRecord) {
      await db()`UPDATE stages SET name = ${stage.name}, position = ${stage.position}, deadline_days = ${stage.deadline_days},
          win_probability = ${stage.win_probability}, color = ${stage.color}
        WHERE id = ${stage.id} AND organization_id = ${organizationId}`;
    },

    /** Sets the stage's position alone, e.g. to 0 to free its place while the others move. */
    async placeStage(organizationId: string, stageId: string, position: number) {
      await db()`UPDATE stages SET position = ${position} WHERE id = ${stageId} AND organization_id = ${organizationId}`;
    },

    async deleteStage(organizationId: string, stageId: string) {
      await db()`DELETE FROM stages WHERE id = ${stageId} AND organization_id = ${organizationId}`;
    },

    /** Inserts the flow and its stages (in the order of `flow.stages`). */
    async insert(flow: NewFlow) {
      await db()`INSERT INTO flows (id, organization_id, name, type, is_default, created_at)
        VALUES (${flow.id}, ${flow.organization_id}, ${flow.name}, ${flow.type}, ${flow.is_default}, ${flow.created_at})`;
      for (const s of flow.stages) {
        await db()`INSERT INTO stages (id, flow_id, organization_id, name, position, deadline_days, win_probability, color)
          VALUES (${s.id}, ${flow.id}, ${flow.organization_id}, ${s.name}, ${s.position}, ${s.deadline_days}, ${s.win_probability}, ${s.color})`;
      }
    },
  };
}
