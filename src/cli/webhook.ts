import { getOrg } from "../services/orgs";
import { rotateSecret, setEndpoint, unsetEndpoint } from "../services/webhooks";
import { open, output, parse, required, UnknownIdError, UsageError, type Parsed } from "./args";

export const WEBHOOK_HELP = `dossier webhook set --org ID --url URL
dossier webhook rotate-secret --org ID
dossier webhook unset --org ID`;

function orgContext(parsed: Parsed) {
  const organizationId = required(parsed, "org");
  const ctx = open(parsed);
  if (!getOrg(ctx, organizationId)) throw new UnknownIdError(`no organization ${organizationId}`);
  return { ctx, organizationId };
}

function checkUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--url "${value}" is not a URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError("--url must be http or https");
  return value;
}

export function webhookCommand(sub: string | undefined, argv: string[]) {
  switch (sub) {
    case "set": {
      const parsed = parse(argv, { org: { type: "string" }, url: { type: "string" } });
      const url = checkUrl(required(parsed, "url"));
      const { ctx, organizationId } = orgContext(parsed);
      const result = setEndpoint(ctx, organizationId, url);
      output(parsed, result, `endpoint ${result.url}\nsecret ${result.secret}\n(shown once: store it now)`);
      return;
    }
    case "rotate-secret": {
      const parsed = parse(argv, { org: { type: "string" } });
      const { ctx, organizationId } = orgContext(parsed);
      const result = rotateSecret(ctx, organizationId);
      if (!result) throw new UnknownIdError(`organization ${organizationId} has no webhook endpoint`);
      output(parsed, result, `secret ${result.secret}\n(shown once; the previous secret keeps signing for 24 h)`);
      return;
    }
    case "unset": {
      const parsed = parse(argv, { org: { type: "string" } });
      const { ctx, organizationId } = orgContext(parsed);
      output(parsed, unsetEndpoint(ctx, organizationId), "webhook endpoint removed");
      return;
    }
    default:
      throw new UsageError(sub ? `unknown webhook command "${sub}"` : "webhook needs a command: set, rotate-secret, unset, deliveries or retry");
  }
}
