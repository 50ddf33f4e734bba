// What every service receives: the store, the settings, the clock and the outbox's wake-up call.
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { databasePath, filesPath, loadConfig, type Config, type Env } from "./config";
import { openStore, type SqliteStore } from "./db/client";
import type { Store } from "./db/store";
import { openFileStore, type FileStore } from "./files";
import { createLogger, type Logger } from "./log";
import { loadMasterKey } from "./secrets";

export interface Context<S extends Store = Store> {
  store: S;
  config: Config;
  /** The data folder's files/: CVs without DOSSIER_FILES_URL, and imports' uploaded files. */
  filesDir: string;
  /** Where CVs are kept: filesDir, or an S3 bucket (C19, src/files/index.ts). */
  readonly files: FileStore;
  logger: Logger;
  /** Seals webhook secrets and intake tokens at rest (src/secrets.ts). Read from config.masterKeyFile on first use, so
   * that a command that needs no key still runs when it is missing (C20); throws
   * MasterKeyMissingError when it is missing while the database holds secrets sealed with it. */
  readonly masterKey: Buffer;
  now(): Date;
}

export interface ContextOptions {
  /** The data folder; ignored with `memory`. Default: the config's (env DOSSIER_DATA, ./data). */
  dataDir?: string;
  /** An in-memory database, with CV files in a fresh temporary folder. */
  memory?: boolean;
  /** The environment the settings are read from. Default: the process's. */
  env?: Env;
  config?: Partial<Config>;
  now?: () => Date;
  /** The server's store: commits grouped and flushed off the thread that answers (C11). Without
   * it (the CLI) each write commits at synchronous=FULL on its own. */
  groupCommit?: boolean;
}

/** The settings a context opened with these options has. */
export function contextConfig(options: ContextOptions = {}): Config {
  return loadConfig(options.env, {
    ...options.config,
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
  });
}

/** A context on the data folder's SQLite file (or an in-memory one). */
export function openContext(options: ContextOptions = {}): Context<SqliteStore> {
  const config = contextConfig(options);
  const logger = createLogger(config);
  const store = openStore(options.memory === true ? ":memory:" : databasePath(config.dataDir), {
    sync: config.sync,
    flushOffThread: options.groupCommit === true,
    logger,
  });
  return contextOn(store, config, logger, options);
}

/** A context on the database `config` names: PostgreSQL with DOSSIER_DATABASE_URL (C19), else as
 * openContext. */
export async function openConfiguredContext(options: ContextOptions = {}): Promise<Context> {
  const config = contextConfig(options);
  if (config.databaseUrl === null || options.memory === true) return openContext(options);
  const logger = createLogger(config);
  // Loaded only here: SQLite's users never load the PostgreSQL driver's module.
  const { openPgStore } = await import("./db/pg/client");
  const store = await openPgStore(config.databaseUrl, { logger, pool: config.databasePool });
  return contextOn(store, config, logger, options);
}

function contextOn<S extends Store>(store: S, config: Config, logger: Logger, options: ContextOptions): Context<S> {
  const memory = options.memory === true;
  let filesDir: string;
  try {
    filesDir = memory ? mkdtempSync(join(tmpdir(), "dossier-files-")) : filesPath(config.dataDir);
    mkdirSync(filesDir, { recursive: true, mode: 0o700 }); // CVs: private, as the database (docs/security.md)
  } catch (error) {
    void store.close();
    throw error;
  }
  let masterKey: Buffer | undefined;
  let files: FileStore | undefined;
  const ctx: Context<S> = {
    store,
    config,
    filesDir,
    get files() {
      // Made on first use, for this context (copies of it share it: src/http/route.ts).
      return (files ??= openFileStore(ctx));
    },
    logger,
    get masterKey() {
      // A new key only for a database that holds no secret sealed with the old one (C20).
      return (masterKey ??= loadMasterKey(memory ? null : config.masterKeyFile, () => !store.holdsSealedSecrets()));
    },
    now: options.now ?? (() => new Date()),
  };
  return ctx;
}
