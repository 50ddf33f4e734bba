import { Elysia } from "elysia";
import { ApiError } from "../errors";
import type { Context } from "../context";
import { pathOf } from "./url";

// A message may quote what the client sent (an unknown field's name, C3); an API key in it is
// never echoed (issue 7: keys appear in no answer, no log).
const KEY_IN_TEXT = /svc_live_[A-Za-z0-9]{32}/g;
const envelope = (code: string, message: string) => ({ error: { code, message: message.replace(KEY_IN_TEXT, "svc_live_[redacted]") } });

/** Renders every failure as `{ error: { code, message } }` (api-v1 "Errors", C3): our ApiErrors,
 * Elysia's own routing, parse and validation errors, and anything thrown (500, details logged). */
export const errors = (ctx: Context) =>
  new Elysia({ name: "errors" }).onError({ as: "global" }, ({ code, error, set, request }) => {
    if (error instanceof ApiError) {
      set.status = error.status;
      return envelope(error.code, error.message);
    }
    switch (code) {
      case "NOT_FOUND":
        set.status = 404;
        return envelope("not_found", "no such route");
      case "PARSE":
      case "VALIDATION":
        set.status = 400;
        return envelope("invalid_body", "the request is malformed");
      default: {
        set.status = 500;
        const err = error as Error;
        ctx.logger.log("error", "unhandled error", {
          request_id: set.headers["x-request-id"],
          method: request.method,
          path: pathOf(request.url),
          error: err?.message ?? String(error),
          stack: err?.stack,
        });
        return envelope("internal", "an unexpected error occurred; it is safe to retry");
      }
    }
  });
