// One declaration per route: from it come the key check, the reading of the path, query and body,
// and the route's OpenAPI operation, so that what the document says is what the route does.
//
// A request goes through C3's order of checks:
//   1. the key, plan, rate limit and scopes (401 → 402 → 429 → 403, src/http/auth.ts);
//   2. the path ids (a non-uuid names nothing: 404), then `load`, the path's resource (404);
//   3. the query, by its schema (400), then the body (400, 413, 415);
//   4. the handler, with all of it read.
// Elysia validates nothing itself (no Elysia `params`, `query` or `body` schema), since it would do
// so before step 1.
import type { Static, TObject, TSchema, TUndefined } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { asActor, type Actor } from "../actor";
import type { Context } from "../context";
import { notFound, type ErrorCode } from "../errors";
import type { Scope } from "../services/keys";
import type { Guard, Principal } from "./auth";
import { operation, type Answer } from "./openapi-doc";
import { parseQuery, pathId, readJson, searchParams } from "./request";

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
  load?: (asked: Asked<NoInfer<P>>) => L;
  /** The query parameters, all optional: `t.Optional`, or with a `default`, or an array (may repeat). */
  query?: Q;
  /** The JSON body, read with readJson unless `read` is given. */
  body?: S;
  /** The other media types the route reads, for the document; `read` reads them. */
  bodies?: Record<string, TSchema>;
  /** Reads the body when it is not only JSON; `json()` reads it as `body`. */
  read?: (request: Request, json: () => Promise<Static<S>>) => Promise<B>;
  /** The success answers. When there is one, it is the status answered. */
  responses: Record<number, Answer>;
  /** Error codes the route can answer beyond those its declaration implies (`implied`). */
  errors?: ErrorCode[];
  handler: (call: Call<NoInfer<P>, L, Static<Q>, B>) => unknown;
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

/** The failures that come with what a route declares: an id in the path may name nothing (404), a
 * query or a JSON body may be malformed (400), a JSON body too large (413), and a change may find
 * the database refusing writes (503). Authentication's come with every route (openapi-doc.ts). */
function implied(spec: { method: Method; params?: object; query?: TObject; body?: TSchema }): ErrorCode[] {
  return [
    ...(spec.params ? (["not_found"] as const) : []),
    ...(spec.query || spec.body ? (["invalid_body"] as const) : []),
    ...(spec.body ? (["payload_too_large"] as const) : []),
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
    }),
    ...(readsBody ? { parse: "none" as const } : {}),
  };

  // Synchronous up to the body, so that a route that reads none answers without a promise.
  const handle = (ctx: Context, guard: Guard) => (request: Request, raw: Record<string, string>, set: Reply) => {
    const principal = guard(spec.scopes, request, set.headers);
    // Only a change has a history to record its actor in; reads go on without the context.
    if (spec.method === "GET") return afterGuard(ctx, request, raw, set, principal);
    return asActor(actorOf(principal), () => afterGuard(ctx, request, raw, set, principal));
  };
  const afterGuard = (ctx: Context, request: Request, raw: Record<string, string>, set: Reply, principal: Principal) => {
    const params = {} as Record<P, string>;
    for (const name of declared) params[name] = spec.idPattern ? matchingId(spec.idPattern, raw[name]) : pathId(raw[name]);
    const asked = { ctx, principal, params };
    const resource = spec.load ? spec.load(asked) : (undefined as L);
    const query = (spec.query ? parseQuery(spec.query, searchParams(request)) : {}) as Static<Q>;
    const answer = (body: B) => {
      const value = spec.handler({ ...asked, resource, query, body, request, set });
      return value instanceof Promise ? value.then(withStatus) : withStatus(value);
    };
    const withStatus = (value: unknown) => {
      if (only !== undefined && (set.status === undefined || set.status === 200)) set.status = only;
      return value;
    };
    if (!readsBody) return answer(undefined as B);
    const json = () => readJson(request, spec.body!);
    return (spec.read ? spec.read(request, json) : (json() as Promise<B>)).then(answer);
  };

  return { id: spec.id, method: spec.method, path: spec.path, hook, handle };
}

function matchingId(pattern: RegExp, id: string): string {
  if (!pattern.test(id)) throw notFound();
  return id;
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
