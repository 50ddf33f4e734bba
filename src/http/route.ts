// One declaration per route: from it come the key check, the reading of the path, query and body,
// and the route's OpenAPI operation, so that what the document says is what the route does.
//
// A request goes through C3's order of checks:
//   1. the key, plan, rate limit and scopes (401 → 402 → 429 → 403, src/http/auth.ts);
//   2. the path ids (a non-uuid names nothing: 404), then `load`, the path's resource (404);
//   3. the query, by its schema (400), then the body (400, 413, 415);
//   4. the handler, with all of it read.
// Two layers wrap it (C16, C20). Idempotency-Key on POST and PATCH: its format is checked after 429
// and before 403; a stored answer is given again before `load`; a new key's answer is stored in the
// units of work the handler's service makes (`remember`, called last in each), so that the answer
// exists before the commit. Conditional requests on one record (`conditional`): If-Match is checked
// after 404 and before step 3, and again first in each unit, so that of two writers holding one
// ETag only one wins; If-None-Match on GET answers 304.
// Elysia validates nothing itself (no Elysia `params`, `query` or `body` schema), since it would do
// so before step 1.
import type { Static, TObject, TSchema, TUndefined } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { asActor, type Actor } from "../actor";
import { chain, type Awaitable } from "../awaitable";
import type { Context } from "../context";
import type { ReadAhead } from "../db/store";
import { ApiError, notFound, type ErrorCode } from "../errors";
import { isUuid } from "../ids";
import type { Scope } from "../services/keys";
import type { Guard, Principal } from "./auth";
import { etagOf, ifMatchHolds, ifNoneMatchHits, preconditionFailed } from "./etag";
import { fingerprint, Idempotency, idempotencyKey, KeyAnsweredElsewhere, malformedKey, replay, storable, type Answer as StoredAnswer } from "./idempotency";
import { operation, type Answer } from "./openapi-doc";
import { sendsKept, type KeptAnswer } from "./one-write";
import { one, parseQuery, pathId, readBytes, readJson, searchParams } from "./request";

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** What the answer may still be given beside the returned value: its status and headers. */
export interface Reply {
  status?: number | string;
  headers: Record<string, string | number>;
}

/** What `load` gets: who asks, and the path's ids (uuids, lower-cased). */
export interface Asked<P extends string> {
  ctx: Context;
  principal: Principal;
  params: Record<P, string>;
}

/** What the handler gets: everything the request said, read and checked. */
export interface Call<P extends string, L, Q, B> extends Asked<P> {
  /** What `load` returned. */
  resource: L;
  query: Q;
  body: B;
  request: Request;
  set: Reply;
}

export interface RouteSpec<P extends string, L, Q extends TObject, S extends TSchema, B> {
  /** A stable operationId: the method name a generated client gets. */
  id: string;
  method: Method;
  /** Under /api/v1, Elysia's form: `/dossiers/:id`. */
  path: string;
  summary: string;
  tag: string;
  description?: string;
  scopes: Scope[];
  /** Each path parameter (uuids, unless `idPattern`) and what it names. */
  params?: Record<P, string>;
  /** The form of the path's ids when they are not uuids (event ids); one that does not match names
   * nothing (404). */
  idPattern?: RegExp;
  /** The path's resource; throws not_found when there is none. */
  load?: (asked: Asked<NoInfer<P>>) => Awaitable<L>;
  /** The query parameters, all optional: `t.Optional`, or with a `default`, or an array (may repeat). */
  query?: Q;
  /** The JSON body, read with readJson unless `read` is given. */
  body?: S;
  /** The other media types the route reads, for the document; `read` reads them. */
  bodies?: Record<string, TSchema>;
  /** Reads the body when it is not only JSON; `json()` reads it as `body`. */
  read?: (request: Request, json: () => Promise<Static<S>>) => Promise<B>;
  /** The largest body `read` takes, when it is not the 11 MB of a multipart POST /dossiers (C10),
   * and the error of a larger one: the limit of the copy an Idempotency-Key's check reads first
   * (POST /imports: a 50 MB file, C21). */
  bodyLimit?: { bytes: number; tooLarge: () => ApiError };
  /** The success answers. When there is one, it is the status answered. */
  responses: Record<number, Answer>;
  /** Error codes the route can answer beyond those its declaration implies (`implied`). */
  errors?: ErrorCode[];
  handler: (call: Call<NoInfer<P>, L, Static<Q>, B>) => unknown;
  /** The URL of what a 201 created, under /api/v1 (`/dossiers/${created.id}`), from the answer's
   * `data`: the answer's Location (issue 38), stored with an Idempotency-Key and replayed. */
  location?: (created: Record<string, unknown>) => string;
  /** The answer carries a secret shown once (a key, a setup link): Idempotency-Key is ignored,
   * since a replay would show it again (C20). */
  secret?: true;
  /** `load` is one record's representation (a dossier, a contact): ETag, If-Match, If-None-Match. */
  conditional?: true;
  /** On a GET, `load` shows the dossier the path's `id` names: the store may read it with the
   * request's admission (src/db/pg/counters.ts), saving a round trip; nothing else changes. */
  readsAhead?: "dossier";
}

export interface Route {
  id: string;
  method: Method;
  path: string;
  /** Elysia's hook of the route: its document entry, and whether Elysia leaves its body alone. */
  hook: { detail: ReturnType<typeof operation>; parse?: "none" };
  handle: (ctx: Context, guard: Guard) => (request: Request, params: Record<string, string>, set: Reply) => unknown;
}

const PATH_PARAM = /:([A-Za-z_]+)/g;

/** The largest body a route takes unless it says otherwise (`bodyLimit`): a multipart POST /dossiers (C10). */
const BODY_LIMIT = 11_534_336;
const fileTooLarge = () => new ApiError("file_too_large", "the multipart body is larger than 11 MB");
const payloadTooLarge = () => new ApiError("payload_too_large", "the JSON body is larger than 1 MB");
/** The type Elysia gives an answer that is an object. */
const JSON_TYPE = "application/json;charset=utf-8";

/** The JSON text of a GET's answer `{ data }` whose record is a remembered one (frozen: a dossier,
 * a contact, a page of notes; src/db/stamp-cache.ts), made once per record as its ETag is
 * (src/http/etag.ts): every request that gets the record sends the same text, where Elysia would
 * write it out again for each. */
const rememberedTexts = new WeakMap<object, KeptAnswer>();
function rememberedText(value: unknown): KeptAnswer | null {
  if (value === null || typeof value !== "object") return null;
  const { data } = value as { data?: unknown };
  if (data === null || typeof data !== "object" || !Object.isFrozen(data) || Object.keys(value).length !== 1) return null;
  let text = rememberedTexts.get(data);
  if (text === undefined) {
    const json = JSON.stringify(value);
    text = { text: json, length: Buffer.byteLength(json) };
    rememberedTexts.set(data, text);
  }
  return text;
}

const stringHeaders = (headers: Reply["headers"]) => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, String(v)]));

/** The answer a handler's value becomes, as stored with an Idempotency-Key. */
async function answerOf(value: unknown, set: Reply): Promise<StoredAnswer | null> {
  if (value instanceof Response) {
    return { status: value.status, content_type: value.headers.get("content-type"), location: value.headers.get("location"), body: await value.clone().text() };
  }
  const header = (name: string) => (set.headers[name] === undefined ? null : String(set.headers[name]));
  const status = Number(set.status ?? 200);
  if (typeof value === "string") return { status, content_type: header("content-type") ?? "text/plain;charset=utf-8", location: header("location"), body: value };
  if (value === undefined) return null;
  return { status, content_type: header("content-type") ?? JSON_TYPE, location: header("location"), body: JSON.stringify(value) };
}

const sameAnswer = (a: StoredAnswer, b: StoredAnswer | null) =>
  b !== null && a.status === b.status && a.body === b.body && a.content_type === b.content_type && a.location === b.location;

/** The failures that come with what a route declares: an id in the path may name nothing (404), a
 * query or a JSON body may be malformed (400), a JSON body too large (413), a body may not fit
 * beside the others in flight (503), and a change may find the database refusing writes (503).
 * Authentication's come with every route (openapi-doc.ts). */
function implied(spec: { method: Method; params?: object; query?: TObject; body?: TSchema; bodies?: Record<string, TSchema> }): ErrorCode[] {
  return [
    ...(spec.params ? (["not_found"] as const) : []),
    ...(spec.query || spec.body ? (["invalid_body"] as const) : []),
    ...(spec.body ? (["payload_too_large"] as const) : []),
    // A body that does not fit beside the others in flight (src/http/body-memory.ts).
    ...(spec.body || spec.bodies ? (["server_busy"] as const) : []),
    ...(spec.method !== "GET" ? (["storage_unavailable"] as const) : []),
  ];
}

// The defaults are what a route that declares no load, query or body gets: `undefined`, `{}`.
export function defineRoute<P extends string = never, L = undefined, Q extends TObject = TObject<{}>, S extends TSchema = TUndefined, B = Static<S>>(
  spec: RouteSpec<P, L, Q, S, B>,
): Route {
  const declared = Object.keys(spec.params ?? {}) as P[];
  const inPath = [...spec.path.matchAll(PATH_PARAM)].map((m) => m[1]);
  if (declared.join() !== inPath.join()) throw new Error(`${spec.id}: params ${declared.join()} do not match the path ${spec.path}`);
  for (const [name, property] of Object.entries(spec.query?.properties ?? {}) as [string, TSchema][]) {
    const optional = property.type === "array" || property.default !== undefined || spec.query!.required?.includes(name) !== true;
    if (!optional) throw new Error(`${spec.id}: query parameter ${name} must be optional, have a default or be an array`);
  }
  if (spec.bodies && !spec.read) throw new Error(`${spec.id}: a route that takes other media types than JSON reads them (read)`);
  const successes = Object.keys(spec.responses).map(Number);
  const only = successes.length === 1 ? successes[0] : undefined;
  const readsBody = spec.body !== undefined || spec.bodies !== undefined;
  const idempotent = (spec.method === "POST" || spec.method === "PATCH") && !spec.secret && !spec.path.startsWith("/session");
  /** Its answer is the record: it carries the record's ETag (C16). */
  const tagged = spec.conditional === true && spec.method !== "DELETE";

  const hook = {
    detail: operation({
      id: spec.id,
      summary: spec.summary,
      tag: spec.tag,
      scopes: spec.scopes,
      description: spec.description,
      params: spec.params,
      idPattern: spec.idPattern?.source,
      query: spec.query?.properties,
      body: spec.body,
      bodies: spec.bodies,
      responses: spec.responses,
      errors: [...implied(spec), ...(spec.errors ?? [])],
      idempotent,
      conditional: spec.conditional ? (spec.method === "GET" ? "read" : "write") : undefined,
      tagged: tagged && spec.method !== "GET",
      location: spec.location !== undefined,
    }),
    ...(readsBody ? { parse: "none" as const } : {}),
  };

  /** A 201's Location: the URL of what it created, from the answer's `data` (issue 38). */
  const locationOf = (value: unknown): string | null =>
    spec.location && value !== null && typeof value === "object" && "data" in value ? `/api/v1${spec.location(value.data as Record<string, unknown>)}` : null;

  /** A request's context whose units check If-Match first and store the answer last. */
  const withUnits = (ctx: Context, before?: () => Promise<void>, after?: (value: unknown) => Promise<void>): Context => {
    if (!before && !after) return ctx;
    const write = <T>(unit: () => T | Promise<T>) =>
      ctx.store.write(async () => {
        await before?.();
        const value = await unit();
        await after?.(value);
        return value;
      });
    // Copies with their own properties (getters stay getters): a service may spread a context.
    const store = { ...Object.getOwnPropertyDescriptors(ctx.store), write: { value: write, enumerable: true } };
    return Object.defineProperties({} as Context, {
      ...Object.getOwnPropertyDescriptors(ctx),
      store: { value: Object.defineProperties({}, store), enumerable: true },
    });
  };

  // Chained rather than awaited up to the body (src/awaitable.ts): a GET that the engine answers
  // at once (SQLite) goes from its key check to its answer without a promise.
  const run = (ctx: Context, principal: Principal, params: Record<P, string>, request: Request, set: Reply, remember?: (value: unknown) => Promise<void>) => {
    const asked = { ctx, principal, params };
    return chain(spec.load ? spec.load(asked) : (undefined as L), (resource) => answer(asked, resource, request, set, remember));
  };
  const answer = (asked: Asked<P>, resource: L, request: Request, set: Reply, remember?: (value: unknown) => Promise<void>) => {
    let before: (() => Promise<void>) | undefined;
    let current: string | undefined;
    if (spec.conditional) {
      if (spec.method === "GET") {
        current = etagOf(resource);
        set.headers.etag = current;
        const none = request.headers.get("if-none-match");
        if (none !== null && ifNoneMatchHits(none, current)) return new Response(null, { status: 304, headers: stringHeaders(set.headers) });
      }
      // A change's tag of the record before it is needed only to check an If-Match (issue 33: a
      // PATCH hashed the record it was about to change, for nothing, when none was given).
      const match = spec.method === "GET" ? null : request.headers.get("if-match");
      if (match !== null) {
        if (!ifMatchHolds(match, etagOf(resource))) throw preconditionFailed();
        before = async () => {
          if (!ifMatchHolds(match, etagOf(await spec.load!(asked)))) throw preconditionFailed();
        };
      }
    }
    const query = (spec.query ? parseQuery(spec.query, searchParams(request)) : {}) as Static<Q>;
    const inUnits = withUnits(asked.ctx, before, remember);
    const withStatus = (value: unknown) => {
      if (only !== undefined && (set.status === undefined || set.status === 200)) set.status = only;
      const location = Number(set.status) === 201 ? locationOf(value) : null;
      if (location !== null) set.headers.location = location;
      // A GET answers the loaded record itself, whose tag is known already.
      if (tagged && value !== null && typeof value === "object" && "data" in value) set.headers.etag = value.data === resource && current !== undefined ? current : etagOf(value.data);
      const text = spec.method === "GET" ? rememberedText(value) : null;
      if (text === null) return value;
      set.headers["content-type"] = JSON_TYPE;
      // Its length told: a short answer then leaves as it is, a long one from its bytes encoded
      // once (src/http/one-write.ts).
      set.headers["content-length"] = String(text.length);
      sendsKept(request, text);
      return text.text;
    };
    const handled = (body: B) => chain(spec.handler({ ...asked, ctx: inUnits, resource, query, body, request, set }), withStatus);
    if (!readsBody) return handled(undefined as B);
    const json = () => readJson(request, spec.body!);
    return (spec.read ? spec.read(request, json) : (json() as Promise<B>)).then(handled);
  };

  const limit = spec.bodyLimit ?? { bytes: BODY_LIMIT, tooLarge: spec.bodies ? fileTooLarge : payloadTooLarge };
  /** A request with an Idempotency-Key: replayed, refused (422, 409), or run with its answer stored. */
  const once = async (ctx: Context, principal: Principal, params: Record<P, string>, request: Request, set: Reply, key: string) => {
    const keyed = new Idempotency(ctx, { organizationId: principal.organizationId, principalId: principalIdOf(principal), key });
    // Held from before the body is read: a retry sent while the first is still uploading is 409.
    keyed.begin();
    try {
      // Compared byte for byte (C20), so read as bytes before anything else reads them; each
      // route's own limit applies when it reads the copy. A route that reads no body ignores one.
      const bytes = readsBody ? await readBytes(request, limit.bytes, limit.tooLarge) : new Uint8Array();
      const replayed = (stored: StoredAnswer) => {
        // The ETag of the record the stored answer shows, as the first answer had.
        if (tagged && stored.status < 300) set.headers.etag = etagOf((JSON.parse(stored.body) as { data: unknown }).data);
        return replay(stored, set.headers);
      };
      const stored = await keyed.stored(fingerprint(request, bytes));
      if (stored) return replayed(stored);
      // In each unit, the answer a route that answers `{data: <the unit's value>}` gives; a route
      // that answers otherwise (a status chosen by the handler) has its answer stored after the
      // commit instead, which a crash in between loses.
      let kept: StoredAnswer | null = null;
      const remember = (value: unknown) => {
        kept = { status: Number(only ?? 200), content_type: JSON_TYPE, location: only === 201 ? locationOf(one(value)) : null, body: JSON.stringify(one(value)) };
        return keyed.writeAnswer(kept);
      };
      const copy = new Request(request.url, { method: request.method, headers: request.headers, body: bytes.byteLength > 0 ? bytes : null });
      try {
        const value = await run(ctx, principal, params, copy, set, remember);
        const given = await answerOf(value, set);
        // The effect is committed: a failure to store the answer must not turn it into an error.
        if (given && storable(given.status) && !sameAnswer(given, kept)) await ctx.store.write(() => keyed.writeAnswer(given)).catch(() => {});
        return value;
      } catch (error) {
        // Another node ran the key's request meanwhile (C19): its answer (or 422 for another body).
        if (error instanceof KeyAnsweredElsewhere) return replayed(await keyed.answeredElsewhere());
        await keyed.writeRefusal(error);
        throw error;
      }
    } finally {
      keyed.end();
    }
  };

  const handle = (ctx: Context, guard: Guard) => (request: Request, raw: Record<string, string>, set: Reply) =>
    // A read's key check, its resource and its answer see one snapshot, which takes the WAL read
    // lock once (src/db/snapshot.ts): the key check alone, outside it, took and dropped the lock
    // again, which cost more than the check itself.
    spec.method === "GET" ? ctx.store.read(() => checked(ctx, guard, request, raw, set)) : checked(ctx, guard, request, raw, set);
  const checked = (ctx: Context, guard: Guard, request: Request, raw: Record<string, string>, set: Reply) => {
    const key = idempotent ? idempotencyKey(request) : null;
    // A malformed key's 400 comes after 429 and before 403 (C20).
    const refined = (error: unknown) => (key === "malformed" && error instanceof ApiError && error.status === 403 ? malformedKey() : error);
    let principal: Awaitable<Principal>;
    try {
      principal = guard(spec.scopes, request, set.headers, ahead(raw));
    } catch (error) {
      throw refined(error);
    }
    if (principal instanceof Promise) principal = principal.catch((error: unknown) => Promise.reject(refined(error)));
    return chain(principal, (admitted) => {
      if (key === "malformed") throw malformedKey();
      // Only a change has a history to record its actor in; reads go on without the context.
      if (spec.method === "GET") return afterGuard(ctx, request, raw, set, admitted, key);
      return asActor(actorOf(admitted), () => afterGuard(ctx, request, raw, set, admitted, key));
    });
  };
  // The path's id as afterGuard reads it; one that names nothing is not read ahead.
  const ahead = (raw: Record<string, string>): ReadAhead | undefined =>
    spec.readsAhead === "dossier" && spec.method === "GET" && isUuid(raw.id) ? { dossierId: raw.id.toLowerCase() } : undefined;
  const afterGuard = (ctx: Context, request: Request, raw: Record<string, string>, set: Reply, principal: Principal, key: string | null) => {
    const params = {} as Record<P, string>;
    for (const name of declared) params[name] = spec.idPattern ? matchingId(spec.idPattern, raw[name]) : pathId(raw[name]);
    return key === null ? run(ctx, principal, params, request, set) : once(ctx, principal, params, request, set, key);
  };

  return { id: spec.id, method: spec.method, path: spec.path, hook, handle };
}

function matchingId(pattern: RegExp, id: string): string {
  if (!pattern.test(id)) throw notFound();
  return id;
}

/** Whose an Idempotency-Key is (C20): the signed-in member's, else the key's. */
function principalIdOf(principal: Principal): string {
  return principal.kind === "member" ? `member:${principal.memberId}` : principal.keyId;
}

/** Who the principal is, for the history of what the request changes (C18): the signed-in
 * member, else the key (their names are looked up when a change is recorded). */
function actorOf(principal: Principal): Actor {
  return principal.kind === "member" ? { type: "member", id: principal.memberId, name: null } : { type: "key", id: principal.keyId, name: null };
}

/** The routes as one Elysia plugin, each behind `guard`. */
export function mount(ctx: Context, guard: Guard, routes: Route[]) {
  const app = new Elysia();
  for (const route of routes) {
    const handle = route.handle(ctx, guard);
    app.route(route.method, route.path, ({ request, params, set }) => handle(request, params as Record<string, string>, set as Reply), route.hook);
  }
  return app;
}
