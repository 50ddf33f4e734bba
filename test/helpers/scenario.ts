// Rule tests as tables (style.md "Scenario tables"): each row is one request and what the spec
// says it answers and writes. `scenarios()` registers one bun test per row; each row gets its own
// organizations and fixtures, so no row depends on another's order or state (`--randomize` passes).
//
// What every row checks, beside its `status` and `json` (a partial match):
// - `events`: the types of the outbox events this request added, in order (`[]` when left out);
// - an answer of 400 or more is the error envelope `{error: {code, message, param?, request_id}}` and changes no row
//   of any table and no file (row counts and a fingerprint of the contents, before and after);
// - `unchanged: true` asks the same of a successful answer (a PATCH that changes nothing).
import { describe, expect, test } from "bun:test";
import type { AppOptions, DossierApp } from "../../src/app";
import type { Store } from "../../src/db/store";
import type { Scope } from "../../src/services/keys";
import { createMember, operator } from "../../src/services/members";
import { updateOrg, type Plan } from "../../src/services/orgs";
import { redeemSetupLink } from "../../src/services/sessions";
import { engineFingerprint, fingerprintDiff } from "./fingerprint";
import { call, makeKey, makeOrg, type CallOptions, type Org } from "./index";
import { ENGINES, appOn, queryRows, rowCountsOf, sharedApp, type Engine } from "./stores";

/** Who sends a row's request: a key with every scope of the row's organization (the default);
 * none; a key with no scope; the second organization's key; the row's organization on another
 * plan; or a key of the row's organization with exactly the scopes listed. */
export type Principal = "all scopes" | "no key" | "no scopes" | "another org" | "free plan" | "pro plan" | Scope[] | Role;

/** A member of the row's organization with this role, signed in: its cookie and CSRF header (C12). */
export type Role = "viewer" | "member" | "admin" | "owner";
const ROLES: readonly string[] = ["viewer", "member", "admin", "owner"];
const isRole = (as: Principal): as is Role => typeof as === "string" && ROLES.includes(as);

export interface SignedInMember {
  id: string;
  email: string;
  /** The session cookie's value. */
  token: string;
  csrf: string;
  /** The headers of a request this member sends from our own pages: cookie and X-CSRF-Token. */
  headers: Record<string, string>;
}

let members = 0;

/** A new member of `organizationId` with `role`, signed in through its setup link (the operator
 * makes it, as `dossier member add` does). */
export async function signedInMember(app: DossierApp<Store>, organizationId: string, role: Role): Promise<SignedInMember> {
  const email = `${role}-${++members}-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const made = await createMember(app.dossier, operator(organizationId), { email, name: `A ${role}`, role }, "http://127.0.0.1:8080");
  const token = made.setup_url.split("#token=")[1];
  const signed = await redeemSetupLink(app.dossier, { token, password: "a long enough password" });
  return {
    id: made.id,
    email,
    token: signed.token,
    csrf: signed.csrf_token,
    headers: { cookie: `dossier_session=${signed.token}`, "x-csrf-token": signed.csrf_token },
  };
}

/** What every row's fixtures hold: the app, the row's organization (`org`, the one `as` speaks
 * for; on the Growth plan while the fixtures are made) and a second one (`other`, "another org"),
 * both made for this row alone. */
export interface World<S extends Store = Store> {
  app: DossierApp<S>;
  org: Org;
  other: Org;
}

/** A JSON value (a body, or the expected answer, matchers included). */
type Json = string | number | boolean | null | readonly unknown[] | { readonly [field: string]: unknown };

/** A value given as is, or computed from the row's fixtures. */
type Fixed<F, T, S extends Store = Store> = T | ((fixtures: World<S> & F) => T);

export interface Row<F, S extends Store = Store> {
  /** What the row checks, citing the spec ("C3: ...", "api-v1 Notes: ..."). */
  name: string;
  as?: Principal;
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Under /api/v1; `{name}` is replaced by the fixture `name` (its `id` when it is an object). */
  path: Fixed<F, string, S>;
  /** A JSON body. */
  body?: Fixed<F, Json, S>;
  /** A body sent as is, with its Content-Type (none when left out). */
  raw?: Fixed<F, { body: NonNullable<CallOptions["raw"]>; contentType?: string }, S>;
  status: number;
  /** A partial match of the answer (toMatchObject); asymmetric matchers welcome. */
  json?: Fixed<F, Json, S>;
  /** Outbox event types this request must add, in order; `[]` (the default): none. */
  events?: string[];
  /** A successful answer that must change nothing either. */
  unchanged?: boolean;
}

export interface ScenarioOptions {
  /** The app the rows run against (default: the test file's app on each engine, sharedApp, C19). */
  app?: DossierApp<Store>;
  /** The one engine the table runs on (default: each of ENGINES, one table per engine). */
  engine?: Engine;
  /** The table's own app on each engine (`appOn(engine, appOptions)`, a clock of its own...)
   * instead of the test file's. */
  appOptions?: AppOptions;
}

/** Registers `describe(title)` with one test per row, on each engine (`title on sqlite`, `title on
 * postgres`) unless `options` names an app or an engine. `setup` runs at the start of each row's
 * test, after its two organizations are made, and returns the fixtures its paths and bodies use. */
export function scenarios<F extends object, S extends Store = Store>(
  title: string,
  setup: (world: World<S>) => F | Promise<F>,
  rows: Row<NoInfer<F>, NoInfer<S>>[],
  options: ScenarioOptions = {},
): void {
  const table = (name: string, app: () => Promise<DossierApp<Store>>) =>
    describe(name, () => {
      for (const row of rows) test(row.name, async () => runRow((await app()) as DossierApp<S>, setup, row));
    });
  const given = options.app;
  if (given) return table(title, () => Promise.resolve(given));
  for (const engine of options.engine === undefined ? ENGINES : [options.engine]) {
    let made: Promise<DossierApp<Store>> | undefined;
    const app = () => (made ??= options.appOptions ? appOn(engine, options.appOptions) : sharedApp(engine));
    table(options.engine === undefined ? `${title} on ${engine}` : title, app);
  }
}

async function runRow<F extends object, S extends Store>(app: DossierApp<S>, setup: (world: World<S>) => F | Promise<F>, row: Row<F, S>): Promise<void> {
  const as = row.as ?? "all scopes";
  const plan: Plan | undefined = as === "free plan" ? "free" : as === "pro plan" ? "pro" : undefined;
  const world: World<S> = { app, org: (await makeOrg(app, { rateLimit: 1_000_000 })), other: (await makeOrg(app, { rateLimit: 1_000_000 })) };
  const fixtures = { ...world, ...(await setup(world)) };
  // The setup speaks for a Growth organization (the only plan the API serves); the plan changes after.
  if (plan) expect(await updateOrg(app.dossier, world.org.id, { plan })).toMatchObject({ plan });
  const fixed = <T>(value: Fixed<F, T, S>): T => (typeof value === "function" ? (value as (f: World<S> & F) => T)(fixtures) : value);

  const options: CallOptions = isRole(as) ? { headers: (await signedInMember(app, world.org.id, as)).headers } : { key: (await keyFor(app, world, as)) };
  if (row.body !== undefined) options.body = fixed(row.body);
  if (row.raw !== undefined) {
    const raw = fixed(row.raw);
    options.raw = raw.body;
    options.contentType = raw.contentType;
  }
  const path = fill(fixed(row.path), fixtures);

  // What must not change, read only for the rows that say so (an error, or `unchanged`).
  const still = row.status >= 400 || row.unchanged;
  const counts = still ? await rowCountsOf(app) : undefined;
  const contents = still ? await engineFingerprint(app) : undefined;
  const lastEvent = await lastEventSeq(app);
  const answer = await call(app, row.method, path, options);

  expect({ status: answer.status, body: answer.json ?? answer.text }).toMatchObject({ status: row.status });
  if (row.status >= 400) {
    // `param` names the field or query parameter at fault, when one is (issue 38).
    expect(answer.json).toEqual({ error: expect.objectContaining({ code: expect.any(String), message: expect.any(String) }) });
    expect(Object.keys(answer.json.error).filter((k) => !["code", "message", "param", "request_id"].includes(k))).toEqual([]);
    expect(answer.json.error.request_id).toBe(answer.headers.get("x-request-id"));
  }
  // On a copy: Bun's toMatchObject writes the asymmetric matchers it met into the object it checked.
  if (row.json !== undefined) expect(structuredClone(answer.json)).toMatchObject(fixed(row.json) as Record<string, unknown>);
  expect(await eventsSince(app, lastEvent)).toEqual(row.events ?? []);
  if (still) {
    expect(await rowCountsOf(app)).toEqual(counts!);
    expect(fingerprintDiff(contents!, await engineFingerprint(app))).toEqual([]);
  }
}

async function keyFor(app: DossierApp<Store>, world: World<Store>, as: Exclude<Principal, Role>): Promise<string | null> {
  if (Array.isArray(as)) return await makeKey(app, world.org, as);
  switch (as) {
    case "no key":
      return null;
    case "no scopes":
      return await makeKey(app, world.org, []);
    case "another org":
      return world.other.key;
    default:
      return world.org.key;
  }
}

/** Replaces each `{name}` of `path` by the fixture `name`: a string as is, an object by its `id`. */
function fill(path: string, fixtures: Record<string, unknown>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = fixtures[name];
    const id = typeof value === "object" && value !== null && "id" in value ? value.id : value;
    if (typeof id !== "string") throw new Error(`no fixture "${name}" (a string or an object with an id) for the path ${path}`);
    return id;
  });
}

// PostgreSQL answers a bigint as a string: Number() it.
async function lastEventSeq(app: DossierApp<Store>): Promise<number> {
  return Number((await queryRows<{ seq: number }>(app, `SELECT coalesce(max(seq), 0) AS seq FROM events`))[0].seq);
}

async function eventsSince(app: DossierApp<Store>, seq: number): Promise<string[]> {
  return (await queryRows<{ type: string }>(app, `SELECT type FROM events WHERE seq > ? ORDER BY seq`, seq)).map((row) => row.type);
}

/** The `json` of a refused request: the error `code`, and a message naming `field` when given. */
export function refused(code: string, field?: string): { error: Record<string, unknown> } {
  return { error: field === undefined ? { code } : { code, message: expect.stringContaining(field) } };
}
