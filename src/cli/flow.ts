import { ApiError } from "../errors";
import { insertFlow, validateStages, type FlowType } from "../services/flows";
import { intakeAddress, rotateIntakeAddress } from "../services/intake";
import { open, openOrg, output, parse, required, STORE_ENV_HELP, UnknownIdError, UsageError } from "./args";

const FLOW_CREATE_HELP = `dossier flow create --org ID --type candidate|sales --name N --stages JSON [--default] [--data DIR] [--json]
  A new flow of the organization, with its stages in the order given (C4, C10).
  --org ID       the organization's id (required)
  --type T       candidate or sales (required)
  --name N       1 to 200 characters (required)
  --stages JSON  a JSON array of 1 or more stages, in order (required), e.g.
                 [{"name":"Applied","deadline_days":3,"win_probability":10,"color":"#90CAF9"}, ...]
                 name             1 to 200 characters (required)
                 deadline_days    an integer >= 0, 0 = due on entry (default: null, no deadline)
                 win_probability  an integer from 0 to 100 (default 0)
                 color            #RGB or #RRGGBB (default #9E9E9E)
                 position         not given: the stage's 1-based place in the array
  --default      make it the organization's default flow of its type (default: off; the current
                 default flow stays the default)
  --data DIR     the data folder (default: env DOSSIER_DATA, else ./data)
  --json         print the flow with its stages as one JSON object on stdout (default: text)
${STORE_ENV_HELP}`;

const FLOW_INTAKE_HELP = `dossier flow intake --flow ID [--rotate] [--data DIR] [--json]
  The flow's intake address (C15): mail sent to it becomes a dossier of the flow (see
  docs/email-intake.md). Every flow has one; the token is its local part, the domain
  DOSSIER_INTAKE_DOMAIN (default localhost).
  --flow ID      the flow's id (required)
  --rotate       a new address; the old one stops working at once (default: off, the current one)
  --data DIR     the data folder (default: env DOSSIER_DATA, else ./data)
  --json         print {"address": ...} on stdout (default: text, the address)
${STORE_ENV_HELP}
       DOSSIER_INTAKE_DOMAIN  the domain part of the address (default localhost)`;

export const FLOW_HELP = `${FLOW_CREATE_HELP}\n\n${FLOW_INTAKE_HELP}`;
export const FLOW_SUB_HELP: Record<string, string> = { create: FLOW_CREATE_HELP, intake: FLOW_INTAKE_HELP };

export async function flowCommand(sub: string | undefined, argv: string[]) {
  if (sub === "intake") return intakeCommand(argv);
  if (sub !== "create") throw new UsageError(sub ? `unknown flow command "${sub}"` : "flow needs a command: create or intake");
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
  const ctx = await openOrg(parsed, organizationId);
  const flow = await ctx.store.write(() => insertFlow(ctx, organizationId, { type: type as FlowType, name, stages, isDefault: parsed.values.default === true }));
  output(parsed, flow, `${flow.id}  ${flow.name} (${flow.type}${flow.is_default ? ", default" : ""}): ${flow.stages.map((s) => s.name).join(" → ")}`);
}

async function intakeCommand(argv: string[]) {
  const parsed = parse(argv, { flow: { type: "string" }, rotate: { type: "boolean" } });
  const flowId = required(parsed, "flow").toLowerCase();
  const ctx = await open(parsed);
  const organizationId = await ctx.store.intake.flowOrganization(flowId);
  if (!organizationId) throw new UnknownIdError(`no flow ${flowId}`);
  const result = parsed.values.rotate ? await rotateIntakeAddress(ctx, organizationId, flowId) : await intakeAddress(ctx, organizationId, flowId);
  output(parsed, result, result!.address);
}
