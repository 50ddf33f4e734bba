import { createKey, listKeys, revokeKey, SCOPES, type Scope } from "../services/keys";
import { getOrg } from "../services/orgs";
import { checkIso, open, optional, output, parse, required, STORE_ENV_HELP, UnknownIdError, UsageError } from "./args";

export const KEY_HELP = `dossier key create --org ID --scopes LIST|all [--expires-at ISO] [--name N] [--data DIR] [--json]
dossier key list --org ID [--data DIR] [--json]
dossier key revoke ID [--data DIR] [--json]
  create            a new API key, printed once: only its SHA-256 hash is stored
  list              the organization's keys: prefix, scopes, expiry, revocation, last use
  revoke            the key answers 401 from the next request on
  --org ID          the organization's id (required)
  --scopes LIST     comma separated: dossiers:read, dossiers:write, contacts:read, contacts:write,
                    flows:read, notes:read, notes:write; or all (required)
  --expires-at ISO  an ISO 8601 date-time after which the key answers 401 (default: never)
  --name N          a label for the key (default: none)
  --data DIR        the data folder (default: env DOSSIER_DATA, else ./data)
  --json            print exactly one JSON object on stdout (default: text)
${STORE_ENV_HELP}`;

function scopes(list: string): Scope[] {
  if (list === "all") return [...SCOPES];
  const given = [...new Set(list.split(",").map((s) => s.trim()).filter(Boolean))];
  if (given.length === 0) throw new UsageError("--scopes needs at least one scope, or all");
  for (const scope of given) {
    if (!SCOPES.includes(scope as Scope)) throw new UsageError(`unknown scope "${scope}"; known: ${SCOPES.join(", ")}`);
  }
  return given as Scope[];
}

export function keyCommand(sub: string | undefined, argv: string[]) {
  switch (sub) {
    case "create": {
      const parsed = parse(argv, { org: { type: "string" }, scopes: { type: "string" }, "expires-at": { type: "string" }, name: { type: "string" } });
      const organizationId = required(parsed, "org");
      const input = {
        organizationId,
        scopes: scopes(required(parsed, "scopes")),
        expiresAt: optional(parsed, "expires-at") === undefined ? null : checkIso(optional(parsed, "expires-at")!, "expires-at"),
        name: optional(parsed, "name") ?? null,
      };
      const ctx = open(parsed);
      if (!getOrg(ctx, organizationId)) throw new UnknownIdError(`no organization ${organizationId}`);
      const key = createKey(ctx, input);
      output(parsed, key, `${key.key}\n(shown once: store it now; id ${key.id}, scopes ${key.scopes.join(",")})`);
      return;
    }
    case "list": {
      const parsed = parse(argv, { org: { type: "string" } });
      const organizationId = required(parsed, "org");
      const ctx = open(parsed);
      if (!getOrg(ctx, organizationId)) throw new UnknownIdError(`no organization ${organizationId}`);
      const keys = listKeys(ctx, organizationId);
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
      const revoked = revokeKey(open(parsed), id);
      if (!revoked) throw new UnknownIdError(`no key ${id}`);
      output(parsed, revoked, `revoked ${revoked.id} at ${revoked.revoked_at}`);
      return;
    }
    default:
      throw new UsageError(sub ? `unknown key command "${sub}"` : "key needs a command: create, list or revoke");
  }
}
