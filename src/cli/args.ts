// Shared argument handling for the `dossier` command (C2): bad arguments exit 2, unknown ids exit 1.
import { parseArgs, type ParseArgsConfig } from "node:util";
import { openContext, type Context } from "../context";

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
    throw new UsageError((error as Error).message.split("\n")[0]);
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

/** Opens the data folder named by --data (or env DOSSIER_DATA, or ./data). */
export function open(parsed: Parsed): Context {
  const dataDir = optional(parsed, "data");
  return openContext({ dataDir });
}

/** Prints `result` as one JSON object with --json, else as `human` text. */
export function output(parsed: Parsed, result: unknown, human: string) {
  process.stdout.write(parsed.values.json ? JSON.stringify(result) + "\n" : human + "\n");
}

export function checkIso(value: string, name: string): string {
  const time = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(time)) throw new UsageError(`--${name} must be an ISO 8601 date-time`);
  return new Date(time).toISOString();
}
