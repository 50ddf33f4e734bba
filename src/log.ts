// One JSON line per record on stderr (or a readable line with DOSSIER_LOG=pretty).
import type { Config } from "./config";

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40 } as const;
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
        const rest = Object.entries(fields).map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`);
        process.stderr.write(`${time} ${level.toUpperCase()} ${msg} ${rest.join(" ")}\n`);
      } else {
        process.stderr.write(JSON.stringify({ time, level, msg, ...fields }) + "\n");
      }
    },
  };
}
