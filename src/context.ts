// What every service receives: the store, the settings, the clock and the outbox's wake-up call.
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { databasePath, filesPath, loadConfig, type Config } from "./config";
import { openStore, type Store } from "./db/client";
import { createLogger, type Logger } from "./log";
import { loadMasterKey } from "./secrets";

export interface Context {
  store: Store;
  config: Config;
  filesDir: string;
  logger: Logger;
  /** Seals webhook secrets at rest (src/secrets.ts). */
  masterKey: Buffer;
  now(): Date;
  /** Called after a transaction that recorded outbox events has committed. */
  onEventsCommitted(): void;
}

export interface ContextOptions {
  /** The data folder; ignored with `memory`. Default: the config's (env DOSSIER_DATA, ./data). */
  dataDir?: string;
  /** An in-memory database, with CV files in a fresh temporary folder. */
  memory?: boolean;
  env?: Record<string, string | undefined>;
  config?: Partial<Config>;
  now?: () => Date;
}

export function openContext(options: ContextOptions = {}): Context {
  const config = loadConfig(options.env ?? process.env, {
    ...options.config,
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
  });
  const memory = options.memory === true;
  const filesDir = memory ? mkdtempSync(join(tmpdir(), "dossier-files-")) : filesPath(config.dataDir);
  mkdirSync(filesDir, { recursive: true, mode: 0o700 }); // CVs: private, as the database (docs/security.md)
  const store = openStore(memory ? ":memory:" : databasePath(config.dataDir), config.sync);
  const masterKey = loadMasterKey(memory ? null : config.dataDir);
  return {
    store,
    config,
    filesDir,
    logger: createLogger(config),
    masterKey,
    now: options.now ?? (() => new Date()),
    onEventsCommitted: () => {},
  };
}

/** Runs `work` in one immediate transaction; wakes the webhook dispatcher after a commit. */
export function transact<T>(ctx: Context, work: () => T): T {
  const result = ctx.store.sqlite.transaction(work).immediate();
  ctx.onEventsCommitted();
  return result;
}
