// Settings read from the environment once, at start (C1, C2, C7, C8). Every environment variable is
// read in this file and nowhere else, so one place lists what the environment can change.
import { join, resolve } from "node:path";
import { checkTimeZone } from "./mail/digest-time";
import { parseMailSettings, type MailSettings } from "./mail/settings";
import { MASTER_KEY_FILE } from "./secrets";

/** Where settings are read from: the process's environment unless a caller passes its own (a test,
 * a program embedding the app: createApp's `env`). Only this file reads the environment. */
export type Env = Record<string, string | undefined>;

export interface Config {
  dataDir: string;
  /** DOSSIER_MASTER_KEY_FILE (C19): the key that seals webhook secrets and intake tokens, given to
   * every node of one database; unset, `<data>/master.key`. */
  masterKeyFile: string;
  /** DOSSIER_DATABASE_URL (C19): a PostgreSQL database (postgres://user:pass@host:5432/db) holds
   * the data instead of the data folder's SQLite file; null: SQLite. */
  databaseUrl: string | null;
  /** DOSSIER_DATABASE_POOL: connections to PostgreSQL one process keeps at most (C19). */
  databasePool: number;
  /** DOSSIER_FILES_URL (C19): CVs in an S3-compatible bucket (s3://bucket/prefix) instead of the
   * data folder's files/; null: the data folder. */
  files: S3Files | null;
  /** How long one call to S3 may take before the request gets 503 storage_unavailable: a bucket that
   * hangs must not hold the writer (a replaced CV is put inside the unit of work). Not an env
   * setting: tests shorten it. */
  filesTimeoutMs: number;
  sync: "full" | "normal";
  defaultRateLimit: number;
  webhookRetrySchedule: number[]; // ms
  webhookTimeoutMs: number;
  /** How often the dispatcher looks for work another process queued (C10: within 5 s). Not an env
   * setting: tests that tell this scan from an immediate send lengthen it. */
  webhookScanMs: number;
  /** DOSSIER_LEASE (C19): how long a node's claim on shared work (a webhook organization's lane, a
   * job's run) lasts unless renewed, on PostgreSQL with several nodes: a node killed mid-work leaves
   * it to the others after this. 55 s unless set, so that a dead node's work is taken over within
   * C19's 60 s (the others look every 5 s); from 1 s (tests, faster takeovers) to 60 s. */
  leaseMs: number;
  /** How long a request body may stall: from the headers, or from its last byte (C20). */
  bodyTimeoutMs: number;
  /** DOSSIER_BODY_MEMORY: how many bytes of request bodies the server holds at once, counted by
   * their Content-Length from their arrival (a chunked body as it arrives); a body beyond it is
   * refused with 503 server_busy (src/http/body-memory.ts). */
  bodyMemoryBytes: number;
  log: "json" | "pretty" | "off";
  logLevel: "debug" | "info" | "warn" | "error";
  /** DOSSIER_CACHE: whether reads may be answered from the in-memory answer caches (remembered
   * dossier lists and page boundaries, contact search results and pages, authenticated keys). Off,
   * every read is answered from SQLite: the bench measures what the caches are worth that way. */
  cache: boolean;
  /** DOSSIER_PUBLIC_URL: the `<base>` of setup links (C12, C20), without a trailing slash; null
   * when unset (the server then uses its own address, the CLI http://127.0.0.1:8080). */
  publicUrl: string | null;
  /** DOSSIER_WEBHOOK_ALLOW_PRIVATE (C20): "1" (default) lets webhook URLs reach loopback and private
   * addresses (a single team's receivers usually sit on its own network); "0" refuses them, for an
   * installation hosting organizations it does not trust. Link-local addresses are always refused. */
  webhookAllowPrivate: boolean;
  /** DOSSIER_INTAKE_DOMAIN (C15): the domain part of intake addresses; not checked on receipt. */
  intakeDomain: string;
  /** DOSSIER_INTAKE_RATE_LIMIT (C20): messages a minute per intake token, by SMTP and HTTP together. */
  intakeRateLimit: number;
  /** DOSSIER_EVENT_RETENTION (C17): how long events are kept, and how far back the feed reads, in ms. */
  eventRetentionMs: number;
  /** DOSSIER_TRUST_PROXY=1: a proxy in front says who the client is and how it came, so the
   * right-most X-Forwarded-For is the client's address (the sign-in throttle) and
   * X-Forwarded-Proto: https makes the session cookie Secure (C12, C20). Off, both are ignored:
   * anyone could send them. */
  trustProxy: boolean;
  /** DOSSIER_SMTP_URL and DOSSIER_MAIL_FROM (C22): outgoing mail's server and sender; null when
   * DOSSIER_SMTP_URL is unset: nothing is queued, reminders show in the console only. */
  mail: MailSettings | null;
  /** DOSSIER_TIME_ZONE (C22): the IANA zone of members who chose none (their digest's 08:00);
   * null: UTC. */
  timeZone: string | null;
  /** How often the job runner looks for work (overdue stages, reminders, digests, mail): C22's
   * "within a minute". Not an env setting: tests move the clock and run the jobs themselves. */
  jobScanMs: number;
}

export const DEFAULT_RETRY_SCHEDULE = ["5s", "5m", "30m", "2h", "5h", "10h", "14h", "20h", "24h"];

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses `<number><unit>` with unit ms, s, m, h (C10, "Durations in env") or d (C20) into ms;
 * throws on anything else (no unit, another unit, a sign, inner spaces). */
export function parseDuration(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/.exec(text.trim());
  if (!match) throw new Error(`invalid duration "${text}": expected <number><unit> with unit ms, s, m, h or d, e.g. 5s`);
  return Number(match[1]) * UNIT_MS[match[2]];
}

/** DOSSIER_WEBHOOK_RETRY_SCHEDULE (C7): comma separated durations; each is checked. */
export function parseRetrySchedule(text: string, name = "DOSSIER_WEBHOOK_RETRY_SCHEDULE"): number[] {
  return text.split(",").map((part) => {
    try {
      return parseDuration(part);
    } catch {
      throw new Error(`invalid ${name} "${text}": "${part.trim()}" is not a duration; expected durations like 5s,5m,2h (unit ms, s, m, h or d), comma separated`);
    }
  });
}

/** DOSSIER_WEBHOOK_TIMEOUT (C7): one duration above zero. */
/** C19: a claim lasts at most 60 s unless renewed; by default 5 s less, the time other nodes take
 * to look again (their scan), so that a dead node's work is taken on within 60 s. */
export const LEASE_MAX_MS = 60_000;
const LEASE_DEFAULT_MS = 55_000;

/** DOSSIER_LEASE: a duration from 1 s to 60 s. */
function parseLease(text: string): number {
  const ms = parseTimeout(text, "DOSSIER_LEASE");
  if (ms < 1000 || ms > LEASE_MAX_MS) throw new Error(`invalid DOSSIER_LEASE "${text}": a lease lasts from 1s to 60s`);
  return ms;
}

export function parseTimeout(text: string, name = "DOSSIER_WEBHOOK_TIMEOUT"): number {
  let ms: number;
  try {
    ms = parseDuration(text);
  } catch {
    throw new Error(`invalid ${name} "${text}": expected <number><unit> with unit ms, s, m, h or d, e.g. 2s`);
  }
  if (!(ms > 0)) throw new Error(`invalid ${name} "${text}": the time limit must be more than 0`);
  return ms;
}

/** DOSSIER_EVENT_RETENTION (C17, C20): one duration above zero, e.g. 90d. */
export function parseRetention(text: string): number {
  let ms: number;
  try {
    ms = parseDuration(text);
  } catch {
    throw new Error(`invalid DOSSIER_EVENT_RETENTION "${text}": expected <number><unit> with unit ms, s, m, h or d, e.g. 90d`);
  }
  if (!(ms > 0)) throw new Error(`invalid DOSSIER_EVENT_RETENTION "${text}": the retention must be more than 0`);
  return ms;
}

const UNIT_BYTES: Record<string, number> = { B: 1, KB: 1024, MB: 1_048_576, GB: 1_073_741_824 };

/** A size in env, `<number><unit>` with unit B, KB, MB or GB, each 1024 of the one before (C10:
 * 1 MB = 1,048,576 bytes), more than 0 bytes; throws on anything else. */
export function parseSize(text: string, name: string): number {
  const match = /^(\d+(?:\.\d+)?)(B|KB|MB|GB)$/.exec(text.trim());
  const bytes = match ? Math.floor(Number(match[1]) * UNIT_BYTES[match[2]]) : NaN;
  if (!(bytes > 0)) throw new Error(`invalid ${name} "${text}": expected a size more than 0 with unit B, KB, MB or GB, e.g. 256MB`);
  return bytes;
}

/** A 0/1 setting; empty or unset is the default. */
function parseSwitch(text: string | undefined, name: string, fallback: boolean): boolean {
  if (text === undefined || text === "") return fallback;
  if (text === "0" || text === "1") return text === "1";
  throw new Error(`invalid ${name} "${text}": expected 0 or 1`);
}

export function parseRateLimit(text: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < 1 || value > 1_000_000) {
    throw new Error(`invalid rate limit "${text}": expected an integer from 1 to 1000000`);
  }
  return value;
}

/** DOSSIER_PUBLIC_URL: an http(s) URL, kept without its trailing slashes. */
export function parsePublicUrl(text: string): string {
  let url: URL | null = null;
  try {
    url = new URL(text);
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
    throw new Error(`invalid DOSSIER_PUBLIC_URL "${text}": expected an http or https URL, e.g. https://dossier.example.com`);
  }
  return text.replace(/\/+$/, "");
}

/** DOSSIER_TRUST_PROXY: 1 or 0 (unset or empty: 0). */
export function parseTrustProxy(text: string | undefined): boolean {
  if (text === undefined || text === "" || text === "0") return false;
  if (text === "1") return true;
  throw new Error(`invalid DOSSIER_TRUST_PROXY "${text}": expected 1 (behind a proxy that sets X-Forwarded-For and X-Forwarded-Proto) or 0`);
}

/** DOSSIER_TIME_ZONE: an IANA zone name (Europe/Paris, UTC), kept in its canonical spelling. */
export function parseTimeZone(text: string): string {
  try {
    return checkTimeZone(text.trim());
  } catch {
    throw new Error(`invalid DOSSIER_TIME_ZONE "${text}": expected an IANA time zone name such as Europe/Paris or UTC`);
  }
}

/** An integer setting from `min` to `max`. */
function parseCount(text: string, name: string, min: number, max: number): number {
  const value = Number(text.trim());
  if (!/^\d+$/.test(text.trim()) || value < min || value > max) throw new Error(`invalid ${name} "${text}": expected an integer from ${min} to ${max}`);
  return value;
}

/** DOSSIER_DATABASE_URL: a postgres:// or postgresql:// URL with a host. */
export function parseDatabaseUrl(text: string): string {
  let url: URL | null = null;
  try {
    url = new URL(text.trim());
  } catch {}
  if (!url || (url.protocol !== "postgres:" && url.protocol !== "postgresql:") || url.hostname === "") {
    throw new Error("invalid DOSSIER_DATABASE_URL: expected postgres://user:password@host:5432/database");
  }
  return text.trim();
}

/** Where CVs go on S3-compatible object storage (C19): `s3://bucket/prefix` and how to reach it. */
export interface S3Files {
  bucket: string;
  /** The keys' common beginning, without slashes at either end; "" for the bucket's root. */
  prefix: string;
  /** DOSSIER_S3_ENDPOINT, e.g. https://s3.eu-west-3.amazonaws.com or http://127.0.0.1:9000; null:
   * AWS's endpoint of the region. */
  endpoint: string | null;
  /** DOSSIER_S3_REGION; null: the client's default (us-east-1). */
  region: string | null;
  /** AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN (temporary credentials). */
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string | null;
}

/** `s3://bucket/prefix` (DOSSIER_FILES_URL, or migrate's --files) with the S3 settings of `env`. */
export function parseFilesUrl(text: string, env: Env = process.env, name = "DOSSIER_FILES_URL"): S3Files {
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(text.trim());
  if (!match) throw new Error(`invalid ${name} "${text}": expected s3://bucket/prefix (a bucket name of 3 to 63 lower-case letters, digits, dots and dashes)`);
  const prefix = (match[2] ?? "").replace(/^\/+|\/+$/g, "");
  const accessKeyId = env.AWS_ACCESS_KEY_ID ?? "";
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY ?? "";
  if (accessKeyId === "" || secretAccessKey === "") throw new Error(`${name} needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY`);
  const endpoint = env.DOSSIER_S3_ENDPOINT || null;
  if (endpoint !== null && !/^https?:\/\/[^/]+/.test(endpoint)) throw new Error(`invalid DOSSIER_S3_ENDPOINT "${endpoint}": expected an http or https URL`);
  return {
    bucket: match[1], prefix, endpoint, region: env.DOSSIER_S3_REGION || null, accessKeyId, secretAccessKey, sessionToken: env.AWS_SESSION_TOKEN || null,
  };
}

/** Where CVs go, as logs show it: never a key, nor a password written in the endpoint's URL. */
export function filesLabel(files: S3Files): string {
  let at = "";
  if (files.endpoint !== null) {
    const url = new URL(files.endpoint);
    at = ` at ${url.protocol}//${url.host}`;
  } else if (files.region !== null) at = ` in ${files.region}`;
  return `s3://${files.bucket}/${files.prefix}${at}`;
}

/** A database URL as logs and messages show it: host, port and database, never the password. */
export function databaseLabel(url: string): string {
  const { hostname, port, pathname } = new URL(url);
  return `postgres://${hostname}:${port || "5432"}${pathname}`;
}

export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const sync = env.DOSSIER_SYNC ?? "full";
  if (sync !== "full" && sync !== "normal") throw new Error(`invalid DOSSIER_SYNC "${sync}": expected full or normal`);
  const log = env.DOSSIER_LOG ?? "json";
  if (log !== "json" && log !== "pretty" && log !== "off") throw new Error(`invalid DOSSIER_LOG "${log}": expected json, pretty or off`);
  const logLevel = env.DOSSIER_LOG_LEVEL ?? "info";
  if (!["debug", "info", "warn", "error"].includes(logLevel)) {
    throw new Error(`invalid DOSSIER_LOG_LEVEL "${logLevel}": expected debug, info, warn or error`);
  }
  const cache = env.DOSSIER_CACHE ?? "on";
  if (cache !== "on" && cache !== "off") throw new Error(`invalid DOSSIER_CACHE "${cache}": expected on or off`);
  // An empty DOSSIER_WEBHOOK_RETRY_SCHEDULE or DOSSIER_WEBHOOK_TIMEOUT counts as unset (as an empty
  // DOSSIER_RATE_LIMIT does): the defaults of C7 apply.
  const schedule = env.DOSSIER_WEBHOOK_RETRY_SCHEDULE
    ? parseRetrySchedule(env.DOSSIER_WEBHOOK_RETRY_SCHEDULE)
    : DEFAULT_RETRY_SCHEDULE.map(parseDuration);
  const dataDir = overrides.dataDir ?? resolve(env.DOSSIER_DATA ?? "./data");
  return {
    dataDir,
    masterKeyFile: env.DOSSIER_MASTER_KEY_FILE ? resolve(env.DOSSIER_MASTER_KEY_FILE) : join(dataDir, MASTER_KEY_FILE),
    databaseUrl: env.DOSSIER_DATABASE_URL ? parseDatabaseUrl(env.DOSSIER_DATABASE_URL) : null,
    databasePool: env.DOSSIER_DATABASE_POOL ? parseCount(env.DOSSIER_DATABASE_POOL, "DOSSIER_DATABASE_POOL", 1, 1000) : 10,
    files: env.DOSSIER_FILES_URL ? parseFilesUrl(env.DOSSIER_FILES_URL, env) : null,
    filesTimeoutMs: 30_000,
    sync,
    defaultRateLimit: env.DOSSIER_RATE_LIMIT ? parseRateLimit(env.DOSSIER_RATE_LIMIT) : 600,
    webhookRetrySchedule: schedule,
    webhookTimeoutMs: parseTimeout(env.DOSSIER_WEBHOOK_TIMEOUT || "10s"),
    webhookScanMs: 5000,
    leaseMs: env.DOSSIER_LEASE ? parseLease(env.DOSSIER_LEASE) : LEASE_DEFAULT_MS,
    bodyTimeoutMs: parseTimeout(env.DOSSIER_BODY_TIMEOUT || "30s", "DOSSIER_BODY_TIMEOUT"),
    bodyMemoryBytes: parseSize(env.DOSSIER_BODY_MEMORY || "256MB", "DOSSIER_BODY_MEMORY"),
    log,
    logLevel: logLevel as Config["logLevel"],
    cache: cache === "on",
    publicUrl: env.DOSSIER_PUBLIC_URL ? parsePublicUrl(env.DOSSIER_PUBLIC_URL) : null,
    webhookAllowPrivate: parseSwitch(env.DOSSIER_WEBHOOK_ALLOW_PRIVATE, "DOSSIER_WEBHOOK_ALLOW_PRIVATE", true),
    intakeDomain: env.DOSSIER_INTAKE_DOMAIN || "localhost",
    intakeRateLimit: env.DOSSIER_INTAKE_RATE_LIMIT ? parseRateLimit(env.DOSSIER_INTAKE_RATE_LIMIT) : 60,
    eventRetentionMs: parseRetention(env.DOSSIER_EVENT_RETENTION || "30d"),
    trustProxy: parseTrustProxy(env.DOSSIER_TRUST_PROXY),
    mail: parseMailSettings({ DOSSIER_SMTP_URL: env.DOSSIER_SMTP_URL, DOSSIER_MAIL_FROM: env.DOSSIER_MAIL_FROM }),
    timeZone: env.DOSSIER_TIME_ZONE ? parseTimeZone(env.DOSSIER_TIME_ZONE) : null,
    jobScanMs: 30_000,
    ...overrides,
  };
}

/** Where `dossier serve` listens (C2): --host and --port, else DOSSIER_HOST and DOSSIER_PORT, else
 * 127.0.0.1:8080. Not in Config: only serve reads them, so a bad DOSSIER_PORT stops no other command. */
export function listenAddress(flags: { host?: string; port?: string }, env: Env = process.env): { host: string; port: number } {
  const host = flags.host ?? env.DOSSIER_HOST ?? "127.0.0.1";
  const portText = flags.port ?? env.DOSSIER_PORT ?? "8080";
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) throw new Error(`--port must be an integer from 0 to 65535, not "${portText}"`);
  return { host, port };
}

export interface SmtpSettings {
  host: string;
  port: number;
  /** PEM files for STARTTLS; without both, STARTTLS is not offered (round2-notes). */
  tls: { cert: string; key: string } | null;
}

/** The SMTP listener of `dossier serve` (C15): --smtp-port, else DOSSIER_SMTP_PORT; off when
 * neither is set. Host DOSSIER_SMTP_HOST (default 127.0.0.1); STARTTLS with DOSSIER_SMTP_TLS_CERT
 * and DOSSIER_SMTP_TLS_KEY. */
export function smtpSettings(flags: { smtpPort?: string }, env: Env = process.env): SmtpSettings | null {
  const portText = flags.smtpPort ?? env.DOSSIER_SMTP_PORT;
  if (portText === undefined || portText === "") return null;
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) throw new Error(`--smtp-port must be an integer from 0 to 65535, not "${portText}"`);
  const cert = env.DOSSIER_SMTP_TLS_CERT;
  const key = env.DOSSIER_SMTP_TLS_KEY;
  if (Boolean(cert) !== Boolean(key)) throw new Error("DOSSIER_SMTP_TLS_CERT and DOSSIER_SMTP_TLS_KEY go together: set both or neither");
  return { host: env.DOSSIER_SMTP_HOST || "127.0.0.1", port, tls: cert && key ? { cert, key } : null };
}

/** The environment `serve` of the compiled executable starts again with (src/heap-hint.ts): this
 * one and BUN_JSC_forceRAMSize, the memory JavaScriptCore sizes its collections by, unless the
 * operator set it (then null: it runs as it is). */
export function heapHintedEnvironment(hint: string, env: Env = process.env): Record<string, string> | null {
  if (env.BUN_JSC_forceRAMSize !== undefined) return null;
  const hinted: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined) hinted[name] = value;
  hinted.BUN_JSC_forceRAMSize = hint;
  return hinted;
}

/** Whether a command's unexpected failure prints its stack after its one line (C2): only with
 * DOSSIER_LOG_LEVEL=debug. Read without loadConfig's checks, which may be what failed. */
export const printsStacks = (env: Env = process.env) => env.DOSSIER_LOG_LEVEL === "debug";

export const databasePath = (dataDir: string) => join(dataDir, "dossier.db");
export const filesPath = (dataDir: string) => join(dataDir, "files");
