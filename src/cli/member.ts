import { ApiError } from "../errors";
import type { Config } from "../config";
import { checkEmail, checkName, checkRole, createMember, findMemberByEmail, listMembers, newSetupLink, operator, ROLES } from "../services/members";
import { open, openOrg, output, parse, required, STORE_ENV_HELP, UnknownIdError, UsageError } from "./args";

const PUBLIC_URL_ENV = `       DOSSIER_PUBLIC_URL the start of a setup link (default http://127.0.0.1:8080)`;

export const MEMBER_HELP = `dossier member add --org ID --email E --name N --role R [--data DIR] [--json]
dossier member list --org ID [--data DIR] [--json]
dossier member setup-link EMAIL [--data DIR] [--json]
  add               a new member; prints the setup link, valid 7 days and once, where they choose a password
  list              the organization's members, disabled ones too
  setup-link        a new setup link for the member with this email (the older ones stop working):
                    the way back in for a member, an owner too, who lost the password
  --org ID          the organization's id (required)
  --email E         the member's email, unique in the installation, compared case-insensitively (required)
  --name N          1 to 200 characters (required)
  --role R          ${ROLES.join(", ")} (required)
  --data DIR        the data folder (default: env DOSSIER_DATA, else ./data)
  --json            print exactly one JSON object on stdout (default: text)
${STORE_ENV_HELP}
${PUBLIC_URL_ENV}`;

const OUTPUT_LINES = `  --data DIR        the data folder (default: env DOSSIER_DATA, else ./data)
  --json            print exactly one JSON object on stdout (default: text)`;

/** `dossier member <sub> --help`: that command alone. */
export const MEMBER_SUB_HELP: Record<string, string> = {
  add: `dossier member add --org ID --email E --name N --role R [--data DIR] [--json]
  A new member; prints the setup link (valid 7 days, once) where they choose a password.
  --org ID          the organization's id (required)
  --email E         unique in the installation, compared case-insensitively (required)
  --name N          1 to 200 characters (required)
  --role R          ${ROLES.join(", ")} (required)
${OUTPUT_LINES}
  With --json: {"id","email","name","role","setup_url"}.
${STORE_ENV_HELP}
${PUBLIC_URL_ENV}`,
  list: `dossier member list --org ID [--data DIR] [--json]
  The organization's members, disabled ones too. Only reads.
  --org ID          the organization's id (required)
${OUTPUT_LINES}
  With --json: {"data":[member...]}.
${STORE_ENV_HELP}`,
  "setup-link": `dossier member setup-link EMAIL [--data DIR] [--json]
  A new setup link for the member with this email; their older links stop working. The way back
  in for anyone who lost the password, an owner too. An unknown email: exit 1.
${OUTPUT_LINES}
  With --json: {"setup_url"}.
${STORE_ENV_HELP}
${PUBLIC_URL_ENV}`,
};

/** C20: the CLI has no server, so its links start with DOSSIER_PUBLIC_URL or the default address. */
const base = (config: Config) => config.publicUrl ?? "http://127.0.0.1:8080";

/** A field the service refuses is a bad argument (exit 2), named as its option. */
function argument<T>(check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof ApiError) throw new UsageError(`--${error.message}`);
    throw error;
  }
}

export async function memberCommand(sub: string | undefined, argv: string[]) {
  switch (sub) {
    case "add": {
      const parsed = parse(argv, { org: { type: "string" }, email: { type: "string" }, name: { type: "string" }, role: { type: "string" } });
      const organizationId = required(parsed, "org");
      const input = {
        email: argument(() => checkEmail(required(parsed, "email"))),
        name: argument(() => checkName(required(parsed, "name"))),
        role: argument(() => checkRole(required(parsed, "role"))),
      };
      const ctx = await openOrg(parsed, organizationId);
      const { id, email, name, role, setup_url } = await createMember(ctx, operator(organizationId), input, base(ctx.config));
      output(parsed, { id, email, name, role, setup_url }, `${setup_url}\n(member ${id}, ${role}: send them this link; it works once, for 7 days)`);
      return;
    }
    case "list": {
      const parsed = parse(argv, { org: { type: "string" } });
      const organizationId = required(parsed, "org");
      const ctx = await openOrg(parsed, organizationId);
      const members = await listMembers(ctx, operator(organizationId));
      output(
        parsed,
        { data: members },
        members.map((m) => `${m.id}  ${m.email}  ${m.name}  ${m.role}${m.disabled_at ? "  disabled" : ""}`).join("\n") || "no members",
      );
      return;
    }
    case "setup-link": {
      const parsed = parse(argv, {}, 1);
      const email = parsed.positionals[0];
      if (!email) throw new UsageError("member setup-link needs the member's EMAIL");
      const ctx = await open(parsed);
      const member = await findMemberByEmail(ctx, email);
      if (!member) throw new UnknownIdError(`no member with the email ${email}`);
      const link = await newSetupLink(ctx, operator(member.organization_id), member.id, base(ctx.config));
      output(parsed, link, `${link.setup_url}\n(for ${member.email}: it works once, for 7 days; their older links no longer work)`);
      return;
    }
    default:
      throw new UsageError(sub ? `unknown member command "${sub}"` : "member needs a command: add, list or setup-link");
  }
}
