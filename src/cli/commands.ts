// The commands of `dossier` (C2), loaded by src/main.ts once it has decided how the process runs.
import { UnknownIdError, UsageError } from "./args";
import { BACKUP_HELP, backupCommand } from "./backup";
import { EXPORT_HELP, exportCommand, IMPORT_HELP, importCommand } from "./csv";
import { FLOW_HELP, FLOW_SUB_HELP, flowCommand } from "./flow";
import { KEY_HELP, KEY_SUB_HELP, keyCommand } from "./key";
import { MEMBER_HELP, MEMBER_SUB_HELP, memberCommand } from "./member";
import { MIGRATE_HELP, migrateCommand } from "./migrate";
import { ORG_HELP, ORG_SUB_HELP, orgCommand } from "./org";
import { SEED_HELP, seedCommand } from "./seed";
import { SERVE_HELP, serveCommand } from "./serve";
import { WEBHOOK_HELP, WEBHOOK_SUB_HELP, webhookCommand } from "./webhook";
import { printsStacks } from "../config";
import { VERSION } from "../version";

const COMMON_HELP = `Every command takes --data DIR (env DOSSIER_DATA, default ./data); those that print a result
take --json and then print exactly one JSON object on stdout. Exit status: 0 done, 1 unknown id
(or another failure, named on stderr), 2 bad arguments. Only org create and serve start a data
folder that does not exist yet; every other command exits 1 there ("no data folder at DIR").`;

interface Command {
  help: string;
  /** `dossier <command> <sub> --help`: each subcommand's own help (without it, the command's). */
  subHelp?: Record<string, string>;
  run(sub: string | undefined, args: string[], all: string[]): void | Promise<void>;
}

const COMMANDS: Record<string, Command> = {
  serve: { help: SERVE_HELP, run: (_sub, _args, all) => serveCommand(all) },
  org: { help: ORG_HELP, subHelp: ORG_SUB_HELP, run: orgCommand },
  key: { help: KEY_HELP, subHelp: KEY_SUB_HELP, run: keyCommand },
  member: { help: MEMBER_HELP, subHelp: MEMBER_SUB_HELP, run: memberCommand },
  flow: { help: FLOW_HELP, subHelp: FLOW_SUB_HELP, run: flowCommand },
  webhook: { help: WEBHOOK_HELP, subHelp: WEBHOOK_SUB_HELP, run: webhookCommand },
  backup: { help: BACKUP_HELP, run: (_sub, _args, all) => backupCommand(all) },
  migrate: { help: MIGRATE_HELP, run: (_sub, _args, all) => migrateCommand(all) },
  seed: { help: SEED_HELP, run: (_sub, _args, all) => seedCommand(all) },
  import: { help: IMPORT_HELP, run: (_sub, _args, all) => importCommand(all) },
  export: { help: EXPORT_HELP, run: (_sub, _args, all) => exportCommand(all) },
};

const HELP = `dossier ${VERSION}: recruitment and sales pipelines in one executable.

Usage: dossier <command> [options]     dossier <command> --help     dossier version

${Object.values(COMMANDS).map((c) => c.help).join("\n\n")}

${COMMON_HELP}`;

async function run(argv: string[]) {
  const [name, ...rest] = argv;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    process.stdout.write(HELP + "\n");
    return;
  }
  if (name === "version" || name === "--version") {
    process.stdout.write(rest.includes("--json") ? JSON.stringify({ version: VERSION }) + "\n" : `dossier ${VERSION}\n`);
    return;
  }
  const command = COMMANDS[name];
  if (!command) throw new UsageError(`unknown command "${name}"; see dossier --help`);
  if (rest.includes("--help") || rest.includes("-h")) {
    const sub = rest[0] !== undefined && command.subHelp && Object.hasOwn(command.subHelp, rest[0]) ? command.subHelp[rest[0]] : undefined;
    process.stdout.write(`${sub ?? command.help}\n\n${COMMON_HELP}\n`);
    return;
  }
  const sub = rest[0]?.startsWith("-") ? undefined : rest[0];
  await command.run(sub, sub === undefined ? rest : rest.slice(1), rest);
}

// C2: whatever goes wrong, one line on stderr; an operator reads a cause, not a stack trace.
// Bad arguments exit 2, unknown ids 1, and any other failure 1 too. An unexpected failure's
// stack still follows with DOSSIER_LOG_LEVEL=debug, for a bug report.
try {
  await run(process.argv.slice(2));
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`dossier: ${message.split("\n")[0]}\n`);
  const expected = error instanceof UsageError || error instanceof UnknownIdError;
  if (!expected && printsStacks() && error instanceof Error) process.stderr.write(`${error.stack}\n`);
  process.exit(error instanceof UsageError ? 2 : 1);
}
