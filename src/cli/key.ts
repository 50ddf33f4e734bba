import { createKey, listKeys, revokeKey, SCOPES, type Scope } from "../services/keys";
import { checkIso, open, openOrg, optional, output, parse, required, STORE_ENV_HELP, UnknownIdError, UsageError } from "./args";

export const KEY_HELP = `dossier key create --org ID --scopes LIST|all [--expires-at ISO] [--name N] [--data DIR] [--json]
dossier key list --org ID [--data DIR] [--json]
dossier key revoke ID [--data DIR] [--json]
  create            a new API key, printed once: only its SHA-256 hash is stored
  list              the organization's keys: prefix, scopes, expiry, revocation, last use
  revoke            the key answers 401 from the next request on
  --org ID          the organization's id (required)
  --scopes LIST     comma separated: dossiers:read, dossiers:write, contacts:read, contacts:write,
                    flows:read, notes:read, notes:write; or all (required)
  --expires-at ISO  an ISO 8601 date-time in the future, after which the key answers 401 (default: never)
  --name N          a label for the key (default: none)
  --data DIR        the data folder (default: env DOSSIER_DATA, else ./data)
  --json            print exactly one JSON object on stdout (default: text)
${STORE_ENV_HELP}`;

/** `KEY_SUB_HELP`'s texts share these lines with KEY_HELP. */
const SCOPES_LINE = `  --scopes LIST     comma separated: dossiers:read, dossiers:write, contacts:read, contacts:write,
                    flows:read, notes:read, notes:write; or all (required)`;
const OUTPUT_LINES = `  --data DIR        the data folder (default: env DOSSIER_DATA, else ./data)
  --json            print exactly one JSON object on stdout (default: text)`;

/** `dossier key <sub> --help`: that command alone. */
export const KEY_SUB_HELP: Record<string, string> = {
  create: `dossier key create --org ID --scopes LIST|all [--expires-at ISO] [--name N] [--data DIR] [--json]
  A new API key, printed once: only its SHA-256 hash is stored.
  --org ID          the organization's id (required)
${SCOPES_LINE}
  --expires-at ISO  an ISO 8601 date-time in the future, after which the key answers 401 (default: never)
  --name N          a label for the key (default: none)
${OUTPUT_LINES}
${STORE_ENV_HELP}`,
  list: `dossier key list --org ID [--data DIR] [--json]
  The organization's keys: prefix, scopes, expiry, revocation, last use (never the key itself).
  Only reads: no data folder there is exit 1, and none is created.
  --org ID          the organization's id (required)
${OUTPUT_LINES}
${STORE_ENV_HELP}`,
  revoke: `dossier key revoke ID [--data DIR] [--json]
  The key answers 401 from the next request on. An unknown ID: exit 1.
${OUTPUT_LINES}
${STORE_ENV_HELP}`,
};

/** The scopes of --scopes: `all` (alone or in the list) stands for every scope; any name that is
 * neither a scope nor `all` is named in the refusal. */
function scopes(list: string): Scope[] {
  const given = [...new Set(list.split(",").map((s) => s.trim()).filter(Boolean))];
  if (given.length === 0) throw new UsageError("--scopes needs at least one scope, or all");
  const unknown = given.filter((scope) => scope !== "all" && !SCOPES.includes(scope as Scope));
  if (unknown.length > 0) {
    const names = unknown.map((scope) => `"${scope}"`).join(", ");
    throw new UsageError(`unknown scope${unknown.length > 1 ? "s" : ""} ${names}; known: ${SCOPES.join(", ")}, or all`);
  }
  return given.includes("all") ? [...SCOPES] : (given as Scope[]);
}

/** --expires-at: a date-time still to come, as a key that has already expired is of no use. */
function expiresAt(value: string | undefined, now: Date): string | null {
  if (value === undefined) return null;
  const iso = checkIso(value, "expires-at");
  if (Date.parse(iso) <= now.getTime()) throw new UsageError(`--expires-at ${value} is in the past: a key must expire later than now`);
  return iso;
}

export async function keyCommand(sub: string | undefined, argv: string[]) {
  switch (sub) {
    case "create": {
      const parsed = parse(argv, { org: { type: "string" }, scopes: { type: "string" }, "expires-at": { type: "string" }, name: { type: "string" } });
      const organizationId = required(parsed, "org");
      const input = {
        organizationId,
        scopes: scopes(required(parsed, "scopes")),
        expiresAt: expiresAt(optional(parsed, "expires-at"), new Date()),
        name: optional(parsed, "name") ?? null,
      };
      const ctx = await openOrg(parsed, organizationId);
      const key = await createKey(ctx, input);
      output(parsed, key, `${key.key}\n(shown once: store it now; id ${key.id}, scopes ${key.scopes.join(",")})`);
      return;
    }
    case "list": {
      const parsed = parse(argv, { org: { type: "string" } });
      const organizationId = required(parsed, "org");
      const ctx = await openOrg(parsed, organizationId);
      const keys = await listKeys(ctx, organizationId);
      output(
        parsed,
        { data: keys },
        keys.map((k) => `${k.id}  ${k.prefix}…  ${k.scopes.join(",")}${k.revoked_at ? "  revoked" : ""}${k.expires_at ? `  expires ${k.expires_at}` : ""}`).join("\n") || "no keys",
      );
      return;
    }
    case "revoke": {
      const parsed = parse(argv, {}, 1);
      const id = parsed.positionals[0];
      if (!id) throw new UsageError("key revoke needs a key ID");
      const revoked = await revokeKey(await open(parsed), id);
      if (!revoked) throw new UnknownIdError(`no key ${id}`);
      output(parsed, revoked, `revoked ${revoked.id} at ${revoked.revoked_at}`);
      return;
    }
    default:
      throw new UsageError(sub ? `unknown key command "${sub}"` : "key needs a command: create, list or revoke");
  }
}
