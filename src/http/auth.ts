import { chain, type Awaitable } from "../awaitable";
import type { Context } from "../context";
import type { ReadAhead, SharedCounters } from "../db/store";
import { ApiError } from "../errors";
import { admitKey, authenticate, type Principal as KeyHolder, type Scope } from "../services/keys";
import { admitSession, checkCsrf, sessionOf, type SessionPrincipal } from "../services/sessions";
import { RateLimiter, type RateDecision } from "./rate-limiter";
import { noteOrganization } from "./request-log";
import { Site } from "./site";

type Headers = Record<string, string | number>;

/** Who a request speaks for: an API key, or a member signed in by the session cookie (C12). Both
 * carry their organization, plan, rate limit and scopes; `kind` with `keyId` or `memberId` says
 * which, for whatever records who acted. Either is an Actor of the member services. */
export type Principal = KeyPrincipal | SessionPrincipal;
export type KeyPrincipal = KeyHolder & { kind: "key" };

export const SESSION_COOKIE = "dossier_session";

const CHANGES = new Set(["POST", "PATCH", "PUT", "DELETE"]);

/** The value of cookie `name` in the request's Cookie header, or null. */
export function cookieOf(request: Request, name: string): string | null {
  const header = request.headers.get("cookie");
  if (!header) return null;
  for (const part of header.split(";")) {
    const at = part.indexOf("=");
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return null;
}

/** The request's principal, or null: the Authorization header when there is one (it decides, even
 * when a cookie comes too), else the session cookie. */
function principalOf(ctx: Context, request: Request): Awaitable<Principal | null> {
  const authorization = request.headers.get("authorization");
  if (authorization !== null) return chain(authenticate(ctx, authorization), (holder) => (holder ? { kind: "key", ...holder } : null));
  return sessionOf(ctx, cookieOf(request, SESSION_COOKIE));
}

/** On a store whose nodes count together (PostgreSQL, C19): the principal and its count in one
 * statement, which also reads the generations that the request's cached reads are checked against,
 * and what the request reads ahead (src/db/pg/counters.ts). */
function countedPrincipalOf(ctx: Context, counters: SharedCounters, request: Request, ahead: ReadAhead | undefined): Promise<{ principal: Principal; rate: RateDecision } | null> {
  const authorization = request.headers.get("authorization");
  if (authorization !== null) return admitKey(ctx, counters, authorization, ahead).then((found) => found && { ...found, principal: { kind: "key", ...found.principal } });
  return admitSession(ctx, counters, cookieOf(request, SESSION_COOKIE), ahead);
}

/**
 * Authentication, plan, rate limit, the cookie's CSRF and Origin checks, and scope, in C3's order
 * (401 → 402 → 429 → 403 csrf_failed → 403 forbidden, C20). Keys and sessions take the same path:
 * a session spends its organization's budget with its keys. Every request whose principal names
 * an organization is counted and gets the rate-limit headers, whatever its answer, except a 429
 * (C8, C10): by this process's limiter on SQLite, by the database on PostgreSQL, where every node
 * counts in one window (by each node's own limiter while the database refuses writes).
 */
function admit(ctx: Context, limiter: RateLimiter, site: Site, required: Scope[], request: Request, headers: Headers, ahead: ReadAhead | undefined): Awaitable<Principal> {
  const counters = ctx.store.counters;
  if (!counters) return admitHere(ctx, limiter, site, required, request, headers);
  // Absent on PostgreSQL too while the database refuses writes (src/db/pg/client.ts): the principal
  // is then read as on SQLite and counted by this node alone. The statement that finds the refusal
  // first fails the store: that request is admitted the same way, so that its 503 names its
  // organization's count as every other 503 does (C10).
  return countedPrincipalOf(ctx, counters, request, ahead).then(
    (found) => allowed(site, required, request, headers, found?.principal ?? null, found?.rate ?? null),
    (error) => {
      if (ctx.store.counters) throw error;
      return admitHere(ctx, limiter, site, required, request, headers);
    },
  );
}

/** admit with the principal read on its own and counted by this process's limiter. */
function admitHere(ctx: Context, limiter: RateLimiter, site: Site, required: Scope[], request: Request, headers: Headers): Awaitable<Principal> {
  return chain(principalOf(ctx, request), (principal) =>
    // Only a Growth organization can get a 429: the others get 402 (C3 puts it first), counted (C10).
    allowed(site, required, request, headers, principal, principal && limiter.hit(principal.organizationId, principal.rateLimit, ctx.now().getTime(), principal.plan === "growth")),
  );
}

/** `rate`: the principal's count (null without a principal). */
function allowed(site: Site, required: Scope[], request: Request, headers: Headers, principal: Principal | null, rate: RateDecision | null): Principal {
  if (!principal || !rate) throw new ApiError("unauthorized", "a valid API key is required: Authorization: Bearer svc_live_...");
  // The request log names the organization on a 402, 403 or 429 too.
  noteOrganization(request, principal.organizationId);
  headers["x-ratelimit-limit"] = String(rate.limit);
  headers["x-ratelimit-remaining"] = String(rate.remaining);
  headers["x-ratelimit-reset"] = String(rate.reset);
  if (principal.plan !== "growth") {
    throw new ApiError("plan_required", `the API requires the Growth plan; this organization is on ${principal.plan}`);
  }
  if (!rate.allowed) {
    headers["retry-after"] = String(Math.max(1, rate.reset));
    throw new ApiError("rate_limited", `rate limit of ${rate.limit} requests per minute exceeded`);
  }
  if (principal.kind === "member") {
    // A browser sends the cookie with requests other sites' pages make: their Origin gives them
    // away, and a change must also show the token only our pages can read (C12, C20).
    const origin = request.headers.get("origin");
    if (origin !== null && !site.ownOrigin(request, origin)) throw new ApiError("csrf_failed", "the request's Origin is not this server's");
    if (CHANGES.has(request.method)) checkCsrf(principal, request.headers.get("x-csrf-token"));
  }
  const missing = required.filter((s) => !principal.scopes.has(s));
  if (missing.length > 0) {
    throw new ApiError("forbidden", `this ${principal.kind === "key" ? "key" : "member's role"} lacks the scope ${missing.join(" and ")}`);
  }
  return principal;
}

/** Checks a request's principal for `required` scopes, setting the rate-limit headers on `headers`;
 * `ahead`: what the request will show if it passes, which a store may read with its admission. */
export type Guard = (required: Scope[], request: Request, headers: Headers, ahead?: ReadAhead) => Awaitable<Principal>;

/** The guard of one app: its organizations share one rate limiter. */
export const guard =
  (ctx: Context, limiter = new RateLimiter(), site = new Site(ctx.config)): Guard =>
  (required, request, headers, ahead) =>
    admit(ctx, limiter, site, required, request, headers, ahead);
