import { transact } from "../context";
import { ApiError } from "../errors";
import { insertFlow, validateStages, type FlowType } from "../services/flows";
import { getOrg } from "../services/orgs";
import { open, output, parse, required, UnknownIdError, UsageError } from "./args";

export const FLOW_HELP = `dossier flow create --org ID --type candidate|sales --name N --stages JSON [--default]
  JSON: [{"name":"Applied","deadline_days":3,"win_probability":10,"color":"#90CAF9"}, ...]`;

export function flowCommand(sub: string | undefined, argv: string[]) {
  if (sub !== "create") throw new UsageError(sub ? `unknown flow command "${sub}"` : "flow needs a command: create");
  const parsed = parse(argv, { org: { type: "string" }, type: { type: "string" }, name: { type: "string" }, stages: { type: "string" }, default: { type: "boolean" } });
  const organizationId = required(parsed, "org");
  const type = required(parsed, "type");
  if (type !== "candidate" && type !== "sales") throw new UsageError("--type must be candidate or sales");
  const name = required(parsed, "name").trim();
  if (name === "" || [...name].length > 200) throw new UsageError("--name must be 1 to 200 characters");
  let stagesJson: unknown;
  try {
    stagesJson = JSON.parse(required(parsed, "stages"));
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError("--stages must be a JSON array");
  }
  let stages;
  try {
    stages = validateStages(stagesJson);
  } catch (error) {
    throw error instanceof ApiError ? new UsageError(`--stages: ${error.message}`) : error;
  }
  const ctx = open(parsed);
  if (!getOrg(ctx, organizationId)) throw new UnknownIdError(`no organization ${organizationId}`);
  const flow = transact(ctx, () => insertFlow(ctx, organizationId, { type: type as FlowType, name, stages, isDefault: parsed.values.default === true }));
  output(parsed, flow, `${flow.id}  ${flow.name} (${flow.type}${flow.is_default ? ", default" : ""}): ${flow.stages.map((s) => s.name).join(" → ")}`);
}
