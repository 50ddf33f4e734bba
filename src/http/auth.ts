import type { Context } from "../context";
import { ApiError } from "../errors";
import { authenticate, type Principal, type Scope } from "../services/keys";
import { RateLimiter } from "./rate-limiter";
import { noteOrganization } from "./request-log";

type Headers = Record<string, string | number>;

/**
 * Authentication, plan, rate limit and scope, in C3's order (401 → 402 → 429 → 403). Every
 * request whose key names an organization is counted and gets the rate-limit headers, whatever
 * its answer, except a 429 (C8, C10).
 */
function admit(ctx: Context, limiter: RateLimiter, required: Scope[], request: Request, headers: Headers): Principal {
  const principal = authenticate(ctx, request.headers.get("authorization"));
  if (!principal) throw new ApiError("unauthorized", "a valid API key is required: Authorization: Bearer svc_live_...");
  // The request log names the organization on a 402, 403 or 429 too.
  noteOrganization(request, principal.organizationId);
  // Only a Growth organization can get a 429: the others get 402 (C3 puts it first), counted (C10).
  const rate = limiter.hit(principal.organizationId, principal.rateLimit, ctx.now().getTime(), principal.plan === "growth");
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
  const missing = required.filter((s) => !principal.scopes.has(s));
  if (missing.length > 0) throw new ApiError("forbidden", `this key lacks the scope ${missing.join(" and ")}`);
  return principal;
}

/** Checks a request's key for `required` scopes, setting the rate-limit headers on `headers`. */
export type Guard = (required: Scope[], request: Request, headers: Headers) => Principal;

/** The guard of one app: its organizations share one rate limiter. */
export const guard =
  (ctx: Context, limiter = new RateLimiter()): Guard =>
  (required, request, headers) =>
    admit(ctx, limiter, required, request, headers);
