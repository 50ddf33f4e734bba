import { parseRateLimit } from "../config";
import { createOrg, listOrgs, PLANS, updateOrg, type OrgView, type Plan } from "../services/orgs";
import { open, optional, output, parse, required, UnknownIdError, UsageError } from "./args";

export const ORG_HELP = `dossier org create --name N [--plan free|pro|growth] [--rate-limit R] [--data DIR] [--json]
dossier org update ID [--plan P] [--rate-limit R] [--name N] [--data DIR] [--json]
dossier org list [--data DIR] [--json]
  create          a new organization, with one default flow per type
  update          changes what is given, keeps the rest
  list            every organization
  --name N        1 to 200 characters (required by create)
  --plan P        free, pro or growth; the API answers 402 to free and pro (default growth; update: unchanged)
  --rate-limit R  requests per sliding 60 s window, 1 to 1000000 (default: env DOSSIER_RATE_LIMIT, else 600; update: unchanged)
  --data DIR      the data folder (default: env DOSSIER_DATA, else ./data)
  --json          print exactly one JSON object on stdout (default: text)
  env: DOSSIER_DATA        the data folder when --data is not given (default ./data)
       DOSSIER_RATE_LIMIT  the rate limit of a new organization without --rate-limit (default 600)
       DOSSIER_SYNC        full or normal: how durable each write is (default full)
       DOSSIER_LOG         json, pretty or off (default json); this command writes no log lines
       DOSSIER_LOG_LEVEL   debug also prints the stack of an unexpected failure; info, warn, error (default info)`;

const ORG_ENV = `  env: DOSSIER_DATA        the data folder when --data is not given (default ./data)
       DOSSIER_SYNC        full or normal: how durable each write is (default full)
       DOSSIER_LOG         json, pretty or off (default json); this command writes no log lines
       DOSSIER_LOG_LEVEL   debug also prints the stack of an unexpected failure; info, warn, error (default info)`;

/** `dossier org <sub> --help`: that command alone. */
export const ORG_SUB_HELP: Record<string, string> = {
  create: `dossier org create --name N [--plan free|pro|growth] [--rate-limit R] [--data DIR] [--json]
  A new organization, with one default flow per type (C4). Creates the data folder when it is missing.
  --name N        1 to 200 characters (required)
  --plan P        free, pro or growth; the API answers 402 to free and pro (default growth)
  --rate-limit R  requests per sliding 60 s window, 1 to 1000000 (default: env DOSSIER_RATE_LIMIT, else 600)
  --data DIR      the data folder (default: env DOSSIER_DATA, else ./data)
  --json          print {"id","name","plan","rate_limit"} as one JSON object on stdout (default: text)
${ORG_ENV}
       DOSSIER_RATE_LIMIT  the rate limit of a new organization without --rate-limit (default 600)`,
  update: `dossier org update ID [--plan P] [--rate-limit R] [--name N] [--data DIR] [--json]
  Changes what is given, keeps the rest. An unknown ID, or no data folder: exit 1.
  --plan P        free, pro or growth; the API answers 402 to free and pro (default: unchanged)
  --rate-limit R  requests per sliding 60 s window, 1 to 1000000 (default: unchanged)
  --name N        1 to 200 characters (default: unchanged)
  --data DIR      the data folder (default: env DOSSIER_DATA, else ./data)
  --json          print {"id","name","plan","rate_limit"} as one JSON object on stdout (default: text)
${ORG_ENV}`,
  list: `dossier org list [--data DIR] [--json]
  Every organization. Only reads: no data folder there is exit 1, and none is created.
  --data DIR      the data folder (default: env DOSSIER_DATA, else ./data)
  --json          print {"data":[org...]} as one JSON object on stdout (default: text)
${ORG_ENV}`,
};

const OPTIONS = { name: { type: "string" }, plan: { type: "string" }, "rate-limit": { type: "string" } } as const;

function plan(value: string | undefined): Plan | undefined {
  if (value !== undefined && !PLANS.includes(value as Plan)) throw new UsageError(`--plan must be one of ${PLANS.join(", ")}`);
  return value as Plan | undefined;
}

function rateLimit(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  try {
    return parseRateLimit(value);
  } catch (error) {
    throw new UsageError(`--rate-limit: ${(error as Error).message}`);
  }
}

function name(value: string | undefined): string | undefined {
  if (value !== undefined && (value.trim() === "" || [...value.trim()].length > 200)) throw new UsageError("--name must be 1 to 200 characters");
  return value?.trim();
}

const describe = (org: OrgView) => `${org.id}  ${org.name}  plan=${org.plan}  rate_limit=${org.rate_limit}/min`;

export async function orgCommand(sub: string | undefined, argv: string[]) {
  switch (sub) {
    case "create": {
      const parsed = parse(argv, OPTIONS);
      const input = { name: name(required(parsed, "name"))!, plan: plan(optional(parsed, "plan")), rateLimit: rateLimit(optional(parsed, "rate-limit")) };
      const ctx = await open(parsed, { create: true });
      const org = await createOrg(ctx, input);
      output(parsed, org, describe(org));
      return;
    }
    case "update": {
      const parsed = parse(argv, OPTIONS, 1);
      const id = parsed.positionals[0];
      if (!id) throw new UsageError("org update needs an organization ID");
      const changes = { name: name(optional(parsed, "name")), plan: plan(optional(parsed, "plan")), rateLimit: rateLimit(optional(parsed, "rate-limit")) };
      const org = await updateOrg(await open(parsed), id, changes);
      if (!org) throw new UnknownIdError(`no organization ${id}`);
      output(parsed, org, describe(org));
      return;
    }
    case "list": {
      const parsed = parse(argv, {});
      const orgs = await listOrgs(await open(parsed));
      output(parsed, { data: orgs }, orgs.map(describe).join("\n") || "no organizations");
      return;
    }
    default:
      throw new UsageError(sub ? `unknown org command "${sub}"` : "org needs a command: create, update or list");
  }
}
