#!/usr/bin/env bun
// The `dossier` command (C2). From source: `bun src/main.ts <command>`.
import { BACKUP_HELP, backupCommand } from "./cli/backup";
import { UnknownIdError, UsageError } from "./cli/args";
import { FLOW_HELP, flowCommand } from "./cli/flow";
import { KEY_HELP, keyCommand } from "./cli/key";
import { ORG_HELP, orgCommand } from "./cli/org";
import { SERVE_HELP, serveCommand } from "./cli/serve";
import { WEBHOOK_HELP, webhookCommand } from "./cli/webhook";
import { VERSION } from "./version";

const HELP = `dossier ${VERSION}: recruitment and sales pipelines, one executable.

Commands:
${[SERVE_HELP, ORG_HELP, KEY_HELP, FLOW_HELP, WEBHOOK_HELP, BACKUP_HELP, "dossier version"].join("\n")}

Every command takes --data DIR (env DOSSIER_DATA, default ./data); those that print a result take --json.`;

async function run(argv: string[]) {
  const [command, ...rest] = argv;
  const sub = rest[0]?.startsWith("-") ? undefined : rest[0];
  const subArgs = sub === undefined ? rest : rest.slice(1);
  switch (command) {
    case "serve":
      return serveCommand(rest);
    case "org":
      return orgCommand(sub, subArgs);
    case "key":
      return keyCommand(sub, subArgs);
    case "flow":
      return flowCommand(sub, subArgs);
    case "webhook":
      return webhookCommand(sub, subArgs);
    case "backup":
      return backupCommand(rest);
    case "version":
    case "--version":
      process.stdout.write(rest.includes("--json") ? JSON.stringify({ version: VERSION }) + "\n" : `dossier ${VERSION}\n`);
      return;
    case undefined:
    case "help":
    case "--help":
    case "-h":
      process.stdout.write(HELP + "\n");
      return;
    default:
      throw new UsageError(`unknown command "${command}"; see dossier --help`);
  }
}

try {
  await run(process.argv.slice(2));
} catch (error) {
  if (error instanceof UsageError) {
    process.stderr.write(`dossier: ${error.message}\n`);
    process.exit(2);
  }
  if (error instanceof UnknownIdError) {
    process.stderr.write(`dossier: ${error.message}\n`);
    process.exit(1);
  }
  throw error;
}
