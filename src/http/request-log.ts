import { Elysia } from "elysia";
import type { Context } from "../context";

interface Timing {
  start: number;
  end?: number;
  /** The organization the request's key named, noted by the auth check before any refusal. */
  organizationId?: string;
}
const timings = new WeakMap<Request, Timing>();

/** Called by the auth check (src/http/auth.ts) as soon as the key names an organization, before
 * it may refuse the request: a 402, 403 or 429 line then names the organization too, although no
 * `principal` reaches the handler. A no-op when request lines are off (no timing is kept then). */
export function noteOrganization(request: Request, organizationId: string): void {
  const timing = timings.get(request);
  if (timing) timing.organizationId = organizationId;
}
const finish = ({ request }: { request: Request }) => {
  const timing = timings.get(request);
  if (timing && timing.end === undefined) timing.end = performance.now();
};

/** One log line per request: time, request id, method, route pattern, status, duration
 * and organization (also on a 402, 403 or 429: see noteOrganization); never a key, a secret or a body. The line is written after the response is
 * sent; the duration runs to the end of the handler or error mapping. When request lines would be
 * dropped (DOSSIER_LOG=off, or a level above info), no hook is registered at all: each one costs
 * every request a call, and the after-response hook a setImmediate. */
export function requestLog(ctx: Context) {
  const plugin = new Elysia({ name: "request-log" });
  if (!ctx.logger.enabled("info")) return plugin;
  return plugin
    .onRequest(({ request }) => {
      timings.set(request, { start: performance.now() });
    })
    .onAfterHandle({ as: "global" }, finish)
    .onError({ as: "global" }, finish)
    .onAfterResponse({ as: "global" }, (context) => {
      const { request, set, route } = context;
      const principal = (context as { principal?: { organizationId: string } }).principal;
      const timing = timings.get(request);
      ctx.logger.log("info", "request", {
        request_id: set.headers["x-request-id"],
        method: request.method,
        route: route || "(unmatched)",
        status: typeof set.status === "number" ? set.status : 200,
        duration_ms: timing ? Math.round(((timing.end ?? performance.now()) - timing.start) * 100) / 100 : null,
        organization_id: principal?.organizationId ?? timing?.organizationId ?? null,
      });
    });
}
