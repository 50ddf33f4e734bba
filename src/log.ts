// One JSON line per record on stderr (or a readable line with DOSSIER_LOG=pretty).
import type { Config } from "./config";

/** debug: everything (nothing is logged at debug yet, so it shows what info shows); info: one line
 * per request and per webhook attempt, start and stop; warn: failed webhook deliveries and disabled
 * endpoints; error: unexpected errors (500s) and a dispatcher that cannot read or write the outbox. */
const LEVELS = { debug: 10, info: 20, warn: 30, error: 40 } as const;
const PLAIN = /^[^\s"=]+$/;
export type Level = keyof typeof LEVELS;

export interface Logger {
  log(level: Level, msg: string, fields?: Record<string, unknown>): void;
  /** False when a record of this level would be dropped: callers skip building its fields. */
  enabled(level: Level): boolean;
}

export function createLogger(config: Pick<Config, "log" | "logLevel">): Logger {
  const threshold = LEVELS[config.logLevel];
  const enabled = (level: Level) => config.log !== "off" && LEVELS[level] >= threshold;
  return {
    enabled,
    log(level, msg, fields = {}) {
      if (!enabled(level)) return;
      const time = new Date().toISOString();
      if (config.log === "pretty") {
        // One line per record here too: a string with a space, a quote, an = or a line break (a
        // stack, an error message) is written JSON-quoted, so that it cannot run into the next field.
        const rest = Object.entries(fields).map(([k, v]) => `${k}=${typeof v === "string" && PLAIN.test(v) ? v : JSON.stringify(v)}`);
        process.stderr.write(`${[time, level.toUpperCase(), msg, ...rest].join(" ")}\n`);
      } else {
        process.stderr.write(JSON.stringify({ time, level, msg, ...fields }) + "\n");
      }
    },
  };
}
