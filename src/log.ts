// One JSON line per record on stderr (or a readable line with DOSSIER_LOG=pretty).
import type { Config } from "./config";

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40 } as const;
export type Level = keyof typeof LEVELS;

export interface Logger {
  log(level: Level, msg: string, fields?: Record<string, unknown>): void;
}

export function createLogger(config: Pick<Config, "log" | "logLevel">): Logger {
  const threshold = LEVELS[config.logLevel];
  return {
    log(level, msg, fields = {}) {
      if (config.log === "off" || LEVELS[level] < threshold) return;
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
