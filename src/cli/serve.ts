import { databaseLabel, databasePath, listenAddress, smtpSettings, type Config, type SmtpSettings } from "../config";
import { mailStartupNotice } from "../mail/settings";
import { bootstrap } from "../services/bootstrap";
import { checkDataDir, configOf, firstLine, openFailure, optional, parse, type Parsed, UsageError } from "./args";

export const SERVE_HELP = `dossier serve [--host H] [--port P] [--smtp-port P] [--no-bootstrap] [--data DIR]
  Runs the API (docs at /docs, the OpenAPI document at /openapi.json); logs go to stderr. SIGTERM
  or SIGINT stop it gracefully. On a data folder with no organization, the first start creates
  "Default" (Growth plan, default flows) and prints an API key of every scope and the owner's
  console setup link (Console: <base>/console/setup#token=...) once on stderr; it answers no
  request (/healthz included) before they are printed.
  One server per data folder: it is locked while a server runs, and a second serve on it exits 1.
  At start it takes group and others' permissions off the database, master.key and the CV files
  (a restored or copied folder), and logs what it changed.
  It exits 1 too when DIR/master.key (or DOSSIER_MASTER_KEY_FILE) is missing while the database
  holds webhook secrets sealed with it (restore FILE.key from the backup), or holds another key
  than the one that sealed them (every node of one database needs the same key).
  --host H        the address to listen on (default: env DOSSIER_HOST, else 127.0.0.1)
  --port P        the port to listen on, 0 for any free one (default: env DOSSIER_PORT, else 8080)
  --smtp-port P   also take in applications by email on this port, 0 for any free one (C15,
                  docs/email-intake.md; default: env DOSSIER_SMTP_PORT, else off)
  --no-bootstrap  create no first organization and key (default off: create them when there is none)
  --data DIR      the data folder (default: env DOSSIER_DATA, else ./data); with DOSSIER_DATABASE_URL
                  it holds the CV files (unless DOSSIER_FILES_URL) and master.key only
  env: DOSSIER_DATABASE_URL            postgres://user:password@host:5432/database: the data in PostgreSQL 15 or later
                                       instead of the data folder's SQLite file (C19, docs/operations.md; default: SQLite)
       DOSSIER_MASTER_KEY_FILE         the key that seals webhook secrets, the same file on every node of one database (default DIR/master.key)
       DOSSIER_DATABASE_POOL           connections to PostgreSQL this process keeps at most (default 10)
       DOSSIER_FILES_URL               s3://bucket/prefix: CVs in an S3-compatible bucket (C19, docs/operations.md) (default: DIR/files)
       DOSSIER_S3_ENDPOINT             the S3 endpoint, e.g. http://127.0.0.1:9000 (default: AWS's for DOSSIER_S3_REGION)
       DOSSIER_S3_REGION               the bucket's region (default us-east-1)
       AWS_ACCESS_KEY_ID               with DOSSIER_FILES_URL: the bucket's key id, and AWS_SECRET_ACCESS_KEY its secret (default: none, required)
       DOSSIER_HOST                    see --host (default 127.0.0.1)
       DOSSIER_PORT                    see --port (default 8080)
       DOSSIER_DATA                    the data folder when --data is not given (default ./data)
       DOSSIER_SYNC                    full: an acknowledged write survives a power loss; normal: faster (default full)
       DOSSIER_RATE_LIMIT              requests per 60 s of an organization created without one (default 600)
       DOSSIER_WEBHOOK_RETRY_SCHEDULE  the waits between webhook attempts, each ±20 % (default 5s,5m,30m,2h,5h,10h,14h,20h,24h)
       DOSSIER_WEBHOOK_TIMEOUT         how long a webhook receiver has to answer 2xx (default 10s)
       DOSSIER_BODY_TIMEOUT            a request body that stalls this long gets 408, as one slower than 10 KB/s after it (default 30s)
       DOSSIER_BODY_MEMORY             the bytes of request bodies held at once; beyond, 503 server_busy (default 256MB)
       DOSSIER_LOG                     json, pretty or off (default json)
       DOSSIER_LOG_LEVEL               error: 500s; warn: + failed deliveries; info: + every request and webhook attempt; debug: as info (default info)
       DOSSIER_WEBHOOK_ALLOW_PRIVATE   1: webhook URLs may reach loopback and private addresses; 0: refused (default 1)
       DOSSIER_SMTP_PORT               see --smtp-port (default off)
       DOSSIER_SMTP_HOST               the address the SMTP listener takes (default 127.0.0.1)
       DOSSIER_SMTP_TLS_CERT, _KEY     PEM files: the SMTP listener offers STARTTLS with them (default: no STARTTLS)
       DOSSIER_INTAKE_DOMAIN           the domain of intake addresses (default localhost)
       DOSSIER_INTAKE_RATE_LIMIT       messages a minute one intake address takes, SMTP and HTTP together (default 60)
       DOSSIER_PUBLIC_URL              the base of setup links, e.g. https://dossier.example.com (default: http://<host>:<port> of this server)
       DOSSIER_TRUST_PROXY             1 behind a proxy that sets X-Forwarded-For (the sign-in throttle's address) and X-Forwarded-Proto (a Secure cookie) (default 0)
       DOSSIER_CACHE                   on: repeated reads may be answered from memory; off: every read from the database, for measuring (default on)
       DOSSIER_SMTP_URL                outgoing mail (reminders, digests): smtp://user:pass@host:587 (STARTTLS required) or smtps://user:pass@host:465 (default off: reminders show in the console only)
       DOSSIER_MAIL_FROM               the sender of outgoing mail, e.g. Dossier <dossier@example.com> (required with DOSSIER_SMTP_URL)
       DOSSIER_TIME_ZONE               the IANA time zone of members who chose none: their digest comes at 08:00 there (default UTC)`;

export async function serveCommand(argv: string[]) {
  const parsed = parse(argv, { host: { type: "string" }, port: { type: "string" }, "smtp-port": { type: "string" }, "no-bootstrap": { type: "boolean" } });
  const { host, port } = address(parsed);
  const smtp = smtpAddress(parsed);
  const config = configOf(parsed);
  checkDataDir(config.dataDir);

  // Listening, but answering nothing until the first start below is done and printed (issue 32):
  // a script that waits for /healthz and then reads the key finds it.
  const server = await start(host, port, config);
  const ctx = server.app.dossier;
  const mail = smtp ? await listenForMail(server, smtp) : null;
  const log = ctx.logger;
  if (!parsed.values["no-bootstrap"]) {
    const first = await bootstrap(ctx, server.app.site.base);
    if (first) {
      process.stderr.write(
        `\nDossier is running at ${server.url}/api/v1 (docs: ${server.url}/docs)\n` +
          `First start: created organization "Default" (${first.organizationId}) with an API key of every scope.\n` +
          `API key (shown once, store it now): ${first.key}\n` +
          `Console: ${first.setupUrl}\n` +
          `  (open it within 7 days to choose the owner's email, name and password; it works once)\n` +
          `Try: curl -H "Authorization: Bearer ${first.key}" ${server.url}/api/v1/flows\n\n`,
      );
    }
  }
  server.open();
  const shutdown = async (signal: string) => {
    log.log("info", "stopping", { signal });
    await mail?.stop();
    await server.stop();
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
  // Only now: a supervisor (or a test) that signals as soon as it reads this line gets the
  // graceful stop, not the default action of the signal.
  // C19: which store and which file store this node uses (never the database's password, nor S3's keys).
  const store = ctx.config.databaseUrl === null ? `sqlite ${databasePath(ctx.config.dataDir)}` : `postgres ${databaseLabel(ctx.config.databaseUrl)}`;
  const files = ctx.files.label;
  log.log("info", "listening", { url: server.url, data: ctx.config.dataDir, store, files, ...(mail ? { smtp: `${smtp!.host}:${mail.port}` } : {}) });
  // C22: whether reminders and digests go out by mail, or show in the console only.
  log.log("info", mailStartupNotice(ctx.config.mail));
}

function smtpAddress(parsed: Parsed) {
  try {
    return smtpSettings({ smtpPort: optional(parsed, "smtp-port") });
  } catch (error) {
    throw new UsageError(firstLine(error));
  }
}

/** A port in use for SMTP is a bad argument too (exit 2); the HTTP server stops first. */
async function listenForMail(server: Awaited<ReturnType<typeof start>>, smtp: SmtpSettings) {
  const { startSmtp } = await import("../intake/smtp");
  try {
    return await startSmtp(server.app.dossier, server.app.intake, smtp);
  } catch (error) {
    await server.stop();
    throw new UsageError(`cannot listen for SMTP on ${smtp.host}:${smtp.port}: ${firstLine(error)}`);
  }
}

/** A port that is no port, from --port or DOSSIER_PORT, is a bad argument (C2, exit 2). */
function address(parsed: Parsed) {
  try {
    return listenAddress({ host: optional(parsed, "host"), port: optional(parsed, "port") });
  } catch (error) {
    throw new UsageError(firstLine(error));
  }
}

/** A port in use, or a host that is not this machine's, is a bad argument (C2): one line, exit 2.
 * A data folder another server holds (C20), a missing master key (C20) or a database that cannot
 * be opened is a failure: one line, exit 1. */
async function start(host: string, port: number, config: Config) {
  // Loaded here, not at the top: the HTTP stack (Elysia, every route, the docs page) is most of
  // what a `dossier` process loads, and the other commands need none of it.
  const { ListenError, startServer } = await import("../server");
  try {
    return await startServer({ host, port, config, held: true });
  } catch (error) {
    throw error instanceof ListenError ? new UsageError(error.message) : openFailure(error, config);
  }
}
