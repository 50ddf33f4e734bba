import { Elysia } from "elysia";
import type { Context } from "../context";

interface Timing {
  start: number;
  end?: number;
}
const timings = new WeakMap<Request, Timing>();
const finish = ({ request }: { request: Request }) => {
  const timing = timings.get(request);
  if (timing && timing.end === undefined) timing.end = performance.now();
};

/** One log line per request (issue 8): time, request id, method, route pattern, status, duration
 * and organization; never a key, a secret or a body. The line is written after the response is
 * sent; the duration runs to the end of the handler or error mapping. When request lines would be
 * dropped (DOSSIER_LOG=off, or a level above info), no hook is registered at all: each one costs
 * every request a call, and the after-response hook a setImmediate (issue 6). */
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
        organization_id: principal?.organizationId ?? null,
      });
    });
}
