// Shared argument handling for the `dossier` command (C2): bad arguments exit 2, unknown ids exit 1.
import { existsSync, statSync } from "node:fs";
import { userInfo } from "node:os";
import { basename, resolve } from "node:path";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { setProcessActor } from "../actor";
import { databaseLabel, databasePath, type Config } from "../config";
import { contextConfig, openConfiguredContext, type Context } from "../context";
import { DataFolderInUseError } from "../data-lock";
import { MasterKeyMismatchError, MasterKeyMissingError } from "../secrets";
import { getOrg } from "../services/orgs";

export class UsageError extends Error {}
export class UnknownIdError extends Error {}

type Options = NonNullable<ParseArgsConfig["options"]>;

const COMMON: Options = {
  data: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
};

export interface Parsed {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

export function parse(argv: string[], options: Options, positionals = 0): Parsed {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { ...COMMON, ...options }, allowPositionals: true, strict: true });
  } catch (error) {
    // node:util's first line, without its advice about "--" (which names no problem).
    throw new UsageError(firstLine(error).replace(/\. To specify a positional argument.*$/, ""));
  }
  if (parsed.positionals.length > positionals) throw new UsageError(`unexpected argument "${parsed.positionals[positionals]}"`);
  return parsed as Parsed;
}

export function required(parsed: Parsed, name: string): string {
  const value = parsed.values[name];
  if (typeof value !== "string" || value === "") throw new UsageError(`--${name} is required`);
  return value;
}

export function optional(parsed: Parsed, name: string): string | undefined {
  const value = parsed.values[name];
  return typeof value === "string" ? value : undefined;
}

/** The first line of an error's message: C2 wants one line on stderr, never a stack. */
export const firstLine = (error: unknown) => (error instanceof Error ? error.message : String(error)).split("\n")[0];

/** The settings from the environment, with --data: a bad value is a bad argument (C2, exit 2). */
export function configOf(parsed: Parsed): Config {
  const dataDir = optional(parsed, "data");
  try {
    return contextConfig(dataDir ? { dataDir: resolve(dataDir) } : {});
  } catch (error) {
    throw new UsageError(firstLine(error));
  }
}

/** Checks that the data folder can be one, before opening it names a less helpful cause. */
export function checkDataDir(dataDir: string) {
  if (existsSync(dataDir) && !statSync(dataDir).isDirectory()) throw new UsageError(`the data folder ${dataDir} is not a folder`);
}

/** Opens the data folder named by --data (or env DOSSIER_DATA, or ./data). Bad settings, or a
 * --data that names no folder, are bad arguments (C2, exit 2); a database that cannot be opened
 * is a failure (exit 1, see openFailure). Only a command that creates (`org create`) may start a
 * data folder: for any other, a folder without a database holds nothing it could use, and opening
 * one would leave an empty database wherever a mistyped --data pointed. That is reported like an
 * unknown id (exit 1). */
export async function open(parsed: Parsed, options: { create?: boolean } = {}): Promise<Context> {
  const config = configOf(parsed);
  checkDataDir(config.dataDir);
  // On PostgreSQL (C19) the data folder holds the CVs and master.key only: a new one is fine.
  if (!options.create && config.databaseUrl === null) checkDataExists(config.dataDir);
  setProcessActor(cliActor());
  try {
    return await openConfiguredContext({ config });
  } catch (error) {
    throw openFailure(error, config);
  }
}

/** `open`, for a command about one organization: exits 1 when the data folder has no such one. */
export async function openOrg(parsed: Parsed, organizationId: string): Promise<Context> {
  const ctx = await open(parsed);
  if (!(await getOrg(ctx, organizationId))) throw new UnknownIdError(`no organization ${organizationId}`);
  return ctx;
}

/** What the CLI changes is the operator's: the history names the system user who ran it (C18). */
function cliActor() {
  let user = "cli";
  try {
    user = userInfo().username || user;
  } catch {
    // A user with no entry in the system's user list (a container's): still the CLI.
  }
  return { type: "cli" as const, id: user, name: user };
}

/** A data folder with its SQLite database, else exit 1 (reported like an unknown id). */
export function checkDataExists(dataDir: string) {
  if (!existsSync(dataDir)) throw new UnknownIdError(`no data folder at ${dataDir}`);
  if (!existsSync(databasePath(dataDir))) throw new UnknownIdError(`no data folder at ${dataDir}: it holds no ${basename(databasePath(dataDir))}`);
}

/** What to report when opening the data folder failed. None of it is a fault of the arguments,
 * so the command exits 1, not 2: a corrupt or unreadable database (named with its folder), a
 * database another process keeps locked past the busy timeout, a folder a server holds, a missing
 * master key, another node's master key (the last four say so themselves). */
export function openFailure(error: unknown, config: Pick<Config, "dataDir" | "databaseUrl">): unknown {
  const busy = String((error as { code?: unknown }).code).startsWith("SQLITE_BUSY");
  if (busy || error instanceof DataFolderInUseError || error instanceof MasterKeyMissingError || error instanceof MasterKeyMismatchError) return error;
  if (config.databaseUrl !== null) return new Error(`cannot open the PostgreSQL database ${databaseLabel(config.databaseUrl)}: ${firstLine(error)}`);
  return new Error(`cannot open the data folder ${config.dataDir}: ${firstLine(error)}`);
}

/** Prints `result` as one JSON object with --json, else as `human` text. */
export function output(parsed: Parsed, result: unknown, human: string) {
  process.stdout.write(parsed.values.json ? JSON.stringify(result) + "\n" : human + "\n");
}

/** An ISO 8601 date-time, as UTC with milliseconds. Date.parse rolls an impossible day over
 * (2026-02-30 would become March 2nd), so the calendar date is checked on its own. */
export function checkIso(value: string, name: string): string {
  const time = Date.parse(value);
  const date = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!date || Number.isNaN(time)) throw new UsageError(`--${name} must be an ISO 8601 date-time`);
  if (!isCalendarDate(Number(date[1]), Number(date[2]), Number(date[3]))) throw new UsageError(`--${name}: ${date[0]} is not a date`);
  return new Date(time).toISOString();
}

function isCalendarDate(year: number, month: number, day: number): boolean {
  const probe = new Date(0);
  probe.setUTCFullYear(year, month - 1, day); // not Date.UTC, which reads years 0-99 as 1900-1999
  return probe.getUTCFullYear() === year && probe.getUTCMonth() === month - 1 && probe.getUTCDate() === day;
}

/** The env vars every command that opens the data folder reads, as its --help lists them (C2). */
export const STORE_ENV_HELP = `  env: DOSSIER_DATA       the data folder when --data is not given (default ./data)
       DOSSIER_DATABASE_URL  postgres://user:password@host:5432/database: the data in PostgreSQL instead of SQLite (default: SQLite)
       DOSSIER_SYNC       full or normal: how durable each write is (default full)
       DOSSIER_LOG        json, pretty or off (default json); this command writes no log lines
       DOSSIER_LOG_LEVEL  debug also prints the stack of an unexpected failure; info, warn, error (default info)`;
