import { loadConfig } from "../config";
import { bootstrap } from "../services/bootstrap";
import { startServer } from "../server";
import { optional, parse, UsageError } from "./args";

export const SERVE_HELP = `dossier serve [--host H] [--port P] [--no-bootstrap] [--data DIR]
  env: DOSSIER_HOST (127.0.0.1), DOSSIER_PORT (8080), DOSSIER_DATA (./data), DOSSIER_SYNC (full|normal),
       DOSSIER_RATE_LIMIT (600), DOSSIER_WEBHOOK_RETRY_SCHEDULE, DOSSIER_WEBHOOK_TIMEOUT (10s),
       DOSSIER_LOG (json|pretty|off), DOSSIER_LOG_LEVEL (info)`;

export async function serveCommand(argv: string[]) {
  const parsed = parse(argv, { host: { type: "string" }, port: { type: "string" }, "no-bootstrap": { type: "boolean" } });
  const host = optional(parsed, "host") ?? process.env.DOSSIER_HOST ?? "127.0.0.1";
  const portText = optional(parsed, "port") ?? process.env.DOSSIER_PORT ?? "8080";
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) throw new UsageError(`--port must be an integer from 0 to 65535, not "${portText}"`);
  let config;
  try {
    config = loadConfig(process.env, optional(parsed, "data") ? { dataDir: loadConfig({ DOSSIER_DATA: optional(parsed, "data") }).dataDir } : {});
  } catch (error) {
    throw new UsageError((error as Error).message);
  }

  const server = startServer({ host, port, config });
  const ctx = server.app.dossier;
  const log = ctx.logger;
  if (!parsed.values["no-bootstrap"]) {
    const first = bootstrap(ctx);
    if (first) {
      process.stderr.write(
        `\nDossier is running at ${server.url}/api/v1 (docs: ${server.url}/docs)\n` +
          `First start: created organization "Default" (${first.organizationId}) with an API key of every scope.\n` +
          `API key (shown once, store it now): ${first.key}\n` +
          `Try: curl -H "Authorization: Bearer ${first.key}" ${server.url}/api/v1/flows\n\n`,
      );
    }
  }
  log.log("info", "listening", { url: server.url, data: ctx.config.dataDir });

  const shutdown = async (signal: string) => {
    log.log("info", "stopping", { signal });
    await server.stop();
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}
