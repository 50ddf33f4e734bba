import { DELIVERY_STATUSES, DeliveryError, listDeliveries, retryDelivery, type Delivery, type DeliveryStatus } from "../services/deliveries";
import { rotateSecret, setEndpoint, unsetEndpoint } from "../services/webhooks";
import { open, openOrg, optional, output, parse, required, STORE_ENV_HELP, type Parsed, UnknownIdError, UsageError } from "./args";

export const WEBHOOK_HELP = `dossier webhook set --org ID --url URL [--data DIR] [--json]
dossier webhook rotate-secret --org ID [--data DIR] [--json]
dossier webhook unset --org ID [--data DIR] [--json]
dossier webhook deliveries --org ID [--status STATUS] [--event EVENT_ID] [--data DIR] [--json]
dossier webhook retry EVENT_ID [--data DIR] [--json]
  set            sets or replaces the organization's endpoint and gives it a new secret (printed once)
  rotate-secret  a new secret (printed once); the previous one keeps signing for 24 h
  unset          removes the endpoint; pending deliveries become skipped
  deliveries     the delivery log, newest first; with --event, that event's attempts
  retry          re-queues a failed delivery now; a running server sends it within 5 s
  --org ID       the organization's id (required)
  --url URL      the http or https URL events are POSTed to (required)
  --status S     only deliveries in this state: ${DELIVERY_STATUSES.join(", ")} (default: all)
  --event ID     only this event (evt_...), with its attempt log (default: every event)
  --data DIR     the data folder (default: env DOSSIER_DATA, else ./data)
  --json         print exactly one JSON object on stdout (default: text)
${STORE_ENV_HELP}`;

const ORG_LINE = "  --org ID       the organization's id (required)";
const OUTPUT_LINES = `  --data DIR     the data folder (default: env DOSSIER_DATA, else ./data)
  --json         print exactly one JSON object on stdout (default: text)`;

/** `dossier webhook <sub> --help`: that command alone. */
export const WEBHOOK_SUB_HELP: Record<string, string> = {
  set: `dossier webhook set --org ID --url URL [--data DIR] [--json]
  Sets or replaces the organization's endpoint, enables it and gives it a new secret (printed once).
${ORG_LINE}
  --url URL      the http or https URL events are POSTed to (required)
${OUTPUT_LINES}
${STORE_ENV_HELP}`,
  "rotate-secret": `dossier webhook rotate-secret --org ID [--data DIR] [--json]
  A new secret (printed once); the previous one keeps signing for 24 h. No endpoint: exit 1.
${ORG_LINE}
${OUTPUT_LINES}
${STORE_ENV_HELP}`,
  unset: `dossier webhook unset --org ID [--data DIR] [--json]
  Removes the endpoint; pending deliveries become skipped.
${ORG_LINE}
${OUTPUT_LINES}
${STORE_ENV_HELP}`,
  deliveries: `dossier webhook deliveries --org ID [--status STATUS] [--event EVENT_ID] [--data DIR] [--json]
  The delivery log, newest first; with --event, that event's attempts. Only reads: no data folder
  there is exit 1, and none is created.
${ORG_LINE}
  --status S     only deliveries in this state: ${DELIVERY_STATUSES.join(", ")} (default: all)
  --event ID     only this event (evt_...), with its attempt log (default: every event)
${OUTPUT_LINES}
${STORE_ENV_HELP}`,
  retry: `dossier webhook retry EVENT_ID [--data DIR] [--json]
  Re-queues a failed delivery now; a running server sends it within 5 s. Not failed, or an unknown
  EVENT_ID: exit 1.
${OUTPUT_LINES}
${STORE_ENV_HELP}`,
};

async function orgContext(parsed: Parsed) {
  const organizationId = required(parsed, "org");
  const ctx = await openOrg(parsed, organizationId);
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

export async function webhookCommand(sub: string | undefined, argv: string[]) {
  switch (sub) {
    case "set": {
      const parsed = parse(argv, { org: { type: "string" }, url: { type: "string" } });
      const url = checkUrl(required(parsed, "url"));
      const { ctx, organizationId } = await orgContext(parsed);
      const result = await setEndpoint(ctx, organizationId, url);
      output(parsed, result, `endpoint ${result.url}\nsecret ${result.secret}\n(shown once: store it now)`);
      return;
    }
    case "rotate-secret": {
      const parsed = parse(argv, { org: { type: "string" } });
      const { ctx, organizationId } = await orgContext(parsed);
      const result = await rotateSecret(ctx, organizationId);
      if (!result) throw new UnknownIdError(`organization ${organizationId} has no webhook endpoint`);
      output(parsed, result, `secret ${result.secret}\n(shown once; the previous secret keeps signing for 24 h)`);
      return;
    }
    case "unset": {
      const parsed = parse(argv, { org: { type: "string" } });
      const { ctx, organizationId } = await orgContext(parsed);
      output(parsed, await unsetEndpoint(ctx, organizationId), "webhook endpoint removed");
      return;
    }
    case "deliveries": {
      const parsed = parse(argv, { org: { type: "string" }, status: { type: "string" }, event: { type: "string" } });
      const status = optional(parsed, "status");
      if (status !== undefined && !(DELIVERY_STATUSES as readonly string[]).includes(status)) {
        throw new UsageError(`--status must be one of ${DELIVERY_STATUSES.join(", ")}`);
      }
      const { ctx, organizationId } = await orgContext(parsed);
      const result = await operatorCall(() =>
        listDeliveries(ctx, organizationId, { status: status as DeliveryStatus | undefined, eventId: optional(parsed, "event") }),
      );
      output(parsed, result, describeDeliveries(result.data));
      return;
    }
    case "retry": {
      const parsed = parse(argv, {}, 1);
      const eventId = parsed.positionals[0];
      if (!eventId) throw new UsageError("webhook retry needs an EVENT_ID");
      const ctx = await open(parsed);
      const result = await operatorCall(() => retryDelivery(ctx, eventId));
      output(parsed, result, `${result.event_id} queued again: a running server sends it within 5 s`);
      return;
    }
    default:
      throw new UsageError(sub ? `unknown webhook command "${sub}"` : "webhook needs a command: set, rotate-secret, unset, deliveries or retry");
  }
}

/** A DeliveryError (unknown event, not failed, no endpoint) exits 1 with its message (C2, C10). */
async function operatorCall<T>(run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof DeliveryError) throw new UnknownIdError(error.message);
    throw error;
  }
}

function describeDeliveries(deliveries: Delivery[]): string {
  if (deliveries.length === 0) return "no deliveries";
  const lines: string[] = [];
  for (const d of deliveries) {
    const last = d.last_error ?? (d.last_status_code === null ? "" : `HTTP ${d.last_status_code}`);
    const next = d.next_attempt_at ? `next ${d.next_attempt_at}` : "";
    lines.push([d.event_id, d.type, d.status, `${d.attempts} attempt${d.attempts === 1 ? "" : "s"}`, last, next].filter(Boolean).join("  "));
    for (const a of d.attempt_log ?? []) {
      lines.push(`  ${a.at}  ${a.error ?? `HTTP ${a.status_code}`}  ${a.duration_ms} ms`);
    }
  }
  return lines.join("\n");
}
