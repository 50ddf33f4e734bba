// What every service receives: the store, the settings, the clock and the outbox's wake-up call.
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { databasePath, filesPath, loadConfig, type Config } from "./config";
import { isWriteFailure, openStore, type Store } from "./db/client";
import { holdsSealedSecrets } from "./db/sealed-secrets";
import { ApiError } from "./errors";
import { createLogger, type Logger } from "./log";
import { loadMasterKey } from "./secrets";

export interface Context {
  store: Store;
  config: Config;
  filesDir: string;
  logger: Logger;
  /** Seals webhook secrets at rest (src/secrets.ts). Read from the data folder on first use, so
   * that a command that needs no key still runs when it is missing (C20); throws
   * MasterKeyMissingError when it is missing while the database holds secrets sealed with it. */
  readonly masterKey: Buffer;
  now(): Date;
  /** Called after a transaction that recorded outbox events has committed. */
  onEventsCommitted(): void;
  /** Why a write failed, once one has (C11): from then on writes are refused and /healthz says
   * storage_unavailable, until a restart. Null while writes work. */
  storageFailure: string | null;
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

/** The settings a context opened with these options has. */
export function contextConfig(options: ContextOptions = {}): Config {
  return loadConfig(options.env ?? process.env, {
    ...options.config,
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
  });
}

export function openContext(options: ContextOptions = {}): Context {
  const config = contextConfig(options);
  const memory = options.memory === true;
  const filesDir = memory ? mkdtempSync(join(tmpdir(), "dossier-files-")) : filesPath(config.dataDir);
  mkdirSync(filesDir, { recursive: true, mode: 0o700 }); // CVs: private, as the database (docs/security.md)
  const store = openStore(memory ? ":memory:" : databasePath(config.dataDir), config.sync);
  let masterKey: Buffer | undefined;
  return {
    store,
    config,
    filesDir,
    logger: createLogger(config),
    get masterKey() {
      // A new key only for a database that holds no secret sealed with the old one (C20).
      return (masterKey ??= loadMasterKey(memory ? null : config.dataDir, () => !holdsSealedSecrets(store.sqlite)));
    },
    now: options.now ?? (() => new Date()),
    onEventsCommitted: () => {},
    storageFailure: null,
  };
}

export const storageUnavailable = () =>
  new ApiError("storage_unavailable", "the server cannot store changes right now; nothing was saved");

/** C11: after a failed write the state of the file is unknown, so the process takes no more writes
 * (reads go on) until a restart recovers from the WAL. Logged once, with the reason. */
export function storageFailed(ctx: Context, error: unknown) {
  if (ctx.storageFailure !== null) return;
  const err = error as { code?: string; message?: string };
  ctx.storageFailure = `${err.code ?? "error"}: ${err.message ?? String(error)}`;
  ctx.logger.log("error", "a write to the database failed: refusing writes until a restart", { error: ctx.storageFailure });
}

/** Failures of a write (and of every write after one) as the API answers them: 503 (C11). */
function refuseAfterFailure(ctx: Context, error: unknown): unknown {
  if (!isWriteFailure(error)) return error;
  storageFailed(ctx, error);
  return storageUnavailable();
}

/** Runs `work` in one immediate transaction; wakes the webhook dispatcher after a commit. Refused
 * (503) once a write has failed; a write that fails is 503 too, and nothing of it is kept (C11). */
export function transact<T>(ctx: Context, work: () => T): T {
  if (ctx.storageFailure !== null) throw storageUnavailable();
  let result: T;
  try {
    result = ctx.store.sqlite.transaction(work).immediate();
  } catch (error) {
    throw refuseAfterFailure(ctx, error);
  }
  ctx.onEventsCommitted();
  return result;
}
