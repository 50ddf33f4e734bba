import { Elysia } from "elysia";
import { ApiError, type ErrorCode } from "../errors";
import type { Context } from "../context";
import { asksForPage, notFoundPage } from "./console";
import { pathOf } from "./url";

// A message may quote what the client sent (an unknown field's name, C3); an API key in it is
// never echoed: keys appear in no answer and no log.
const KEY_IN_TEXT = /svc_live_[A-Za-z0-9]{32}/g;
const redacted = (message: string) => message.replace(KEY_IN_TEXT, "svc_live_[redacted]");

const API_PREFIX = "/api/v1";

/** Whether a path is the API's, whose failures answer in its error envelope (api-v1 "Errors"). */
const isApiPath = (path: string) => path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);

interface Failure {
  status: number;
  code: ErrorCode;
  message: string;
  /** The body field or query parameter at fault (issue 38). */
  param?: string;
}

/** What a failure Elysia reports by its code is, for the client; null for an unexpected one. */
function knownFailure(code: unknown, error: unknown): Failure | null {
  if (error instanceof ApiError) return { status: error.status, code: error.code, message: error.message, param: error.param };
  switch (code) {
    case "NOT_FOUND":
      return { status: 404, code: "not_found", message: "no such route" };
    case "PARSE":
    case "VALIDATION":
      return { status: 400, code: "invalid_body", message: "the request is malformed" };
    default:
      return null;
  }
}

const INTERNAL: Failure = { status: 500, code: "internal", message: "an unexpected error occurred; it is safe to retry" };

/** Renders every failure: as `{ error: { code, message, param?, request_id } }` under /api/v1
 * (api-v1 "Errors", C3; `param` names the body field or query parameter at fault, `request_id` is
 * the answer's X-Request-Id, issue 38),
 * and for a path no route serves, wherever it is (C10: unknown paths are 404 `not_found`). A
 * failure of a route outside the API (/healthz, /docs, the console's pages) is that status with
 * its message as plain text: such a route answers in its own type, never in the API's envelope,
 * and one that wants another answer for a failure catches it itself (this hook runs before any
 * route's own). Anything unexpected is a 500 whose details go to the log only. */
export const errors = (ctx: Context) =>
  // The hook names each member of the context it reads: Elysia reads how a hook takes its context
  // to decide what to prepare, and a hook that takes it whole makes it parse every body first
  // (so a refused request would wait for a stalled body, C20).
  new Elysia({ name: "errors" }).onError({ as: "global" }, ({ code, error, set, request, route, params }) => {
    const path = pathOf(request.url);
    let failure = knownFailure(code, error);
    if (!failure) {
      failure = INTERNAL;
      const err = error as Error;
      // The route's pattern, never the path: a path may carry a secret (an intake token,
      // docs/security.md), and the request's own line names the route the same way.
      const secret = (params as Record<string, string> | undefined)?.token;
      const hide = (text: string | undefined) => (text && secret ? text.split(secret).join(":token") : text);
      ctx.logger.log("error", "unhandled error", {
        request_id: set.headers["x-request-id"],
        method: request.method,
        route: route || "(unmatched)",
        error: hide(err?.message ?? String(error)),
        stack: hide(err?.stack),
      });
    }
    set.status = failure.status;
    // Every 401 names the scheme to authenticate with (RFC 9110, issue 38).
    if (failure.status === 401) set.headers["www-authenticate"] = "Bearer";
    if (error instanceof ApiError && error.retryAfter !== undefined) set.headers["retry-after"] = String(Math.max(1, Math.ceil(error.retryAfter)));
    // A browser that asks for a page that does not exist, outside the API, gets a page (issue 32).
    if (code === "NOT_FOUND" && !isApiPath(path) && asksForPage(request)) return notFoundPage(set);
    // The type is set, not left to Elysia: a route may have set its own before it failed.
    if (isApiPath(path) || code === "NOT_FOUND") {
      set.headers["content-type"] = "application/json;charset=utf-8";
      const param = failure.param === undefined ? {} : { param: redacted(failure.param) };
      // The answer's X-Request-Id (src/http/request-id.ts), so that a client that logs only the body
      // can still quote it (issue 38).
      const id = set.headers["x-request-id"];
      const requestId = typeof id === "string" ? { request_id: id } : {};
      return { error: { code: failure.code, message: redacted(failure.message), ...param, ...requestId } };
    }
    set.headers["content-type"] = "text/plain;charset=utf-8";
    return redacted(failure.message);
  });
