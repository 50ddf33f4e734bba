// Issue 7 fuzzing, which route answered: the app's own request log (src/http/request-log.ts: one
// "request" record per request, with the route pattern Elysia matched and the request id) is tapped,
// so that hits are counted per route of the app's route table (`app.routes`), and a success is
// checked against the shape of the route that produced it. The tap also keeps every other record:
// an "unhandled error" record (a 500, even one no client saw) fails the fuzzing.
import type { DossierApp } from "../../src/app";
import type { Store } from "../../src/db/store";
import type { Level, Logger } from "../../src/log";

export interface Route {
  method: string;
  path: string;
}

/** `METHOD /pattern`, the key of a route in hit counts. */
export const routeKey = (route: Route) => `${route.method.toUpperCase()} ${route.path}`;

/** The web app's routes (C14): `/`, which redirects there, and everything under /console. */
export const isConsole = (path: string) => path === "/" || path === "/console" || path.startsWith("/console/");

/** C22's links for calendar apps and mail programs, each opened by its own 43-character token or
 * signature (src/http/member-links.ts): not API calls, tested in test/http/my-settings.test.ts and
 * test/jobs/mail.test.ts. */
export const isMemberLink = (path: string) => path.startsWith("/calendar/") || path.startsWith("/unsubscribe/");

/** The routes that fuzzing must reach: the whole route table but HEAD, the /docs assets, the
 * console's pages (served as files: test/console/serving.test.ts) and C22's member links. */
export function fuzzedRoutes(app: DossierApp<Store>): Route[] {
  return app.routes
    .filter((r) => r.method.toUpperCase() !== "HEAD" && !r.path.startsWith("/docs/") && !isConsole(r.path) && !isMemberLink(r.path))
    .map((r) => ({ method: r.method.toUpperCase(), path: r.path }));
}

export interface LogRecord {
  level: Level;
  msg: string;
  fields: Record<string, unknown>;
}

export interface LogTap {
  /** Records since the last `clear()`. */
  records: LogRecord[];
  /** "request" records since the last `clear()`. */
  requests(): LogRecord[];
  /** The route key of the request answered with this X-Request-Id ("(unmatched)" when no route
   * matched), or undefined when no request record carries it. */
  routeOf(requestId: string): string | undefined;
  /** Errors logged since the last `clear()` (e.g. "unhandled error", the log line of a 500). */
  errors(): LogRecord[];
  clear(): void;
  /** Hits per route key over the tap's whole life (not reset by `clear()`). */
  hits: Map<string, number>;
}

/**
 * Taps the app's logger (the app must be built with request lines on, e.g. `config: {log: "json"}`,
 * else src/http/request-log.ts registers no hook). Records are kept, not written to stderr.
 */
export function tapLog(app: DossierApp<Store>): LogTap {
  const records: LogRecord[] = [];
  const hits = new Map<string, number>();
  const original = app.dossier.logger;
  if (!original.enabled("info")) throw new Error("tapLog: build the app with request lines on (config.log json)");
  const logger: Logger = {
    enabled: (level) => original.enabled(level),
    log(level, msg, fields = {}) {
      records.push({ level, msg, fields });
      if (msg === "request" && typeof fields.route === "string" && fields.route !== "(unmatched)") {
        const key = `${String(fields.method).toUpperCase()} ${fields.route}`;
        hits.set(key, (hits.get(key) ?? 0) + 1);
      }
    },
  };
  app.dossier.logger = logger;
  const requests = () => records.filter((r) => r.msg === "request");
  return {
    records,
    requests,
    routeOf(requestId) {
      const record = requests().findLast((r) => r.fields.request_id === requestId);
      if (!record) return undefined;
      return record.fields.route === "(unmatched)" ? "(unmatched)" : `${String(record.fields.method).toUpperCase()} ${record.fields.route}`;
    },
    errors: () => records.filter((r) => r.level === "error"),
    clear: () => void records.splice(0),
    hits,
  };
}

/** Hits per route during `work` (a property's run): the difference of the tap's counts. */
export async function countHits(tap: LogTap, work: () => Promise<void>): Promise<Map<string, number>> {
  const before = new Map(tap.hits);
  await work();
  return new Map([...tap.hits].map(([key, n]) => [key, n - (before.get(key) ?? 0)]));
}

/** The least hits per route to ask of `runs` requests spread evenly over `routes` routes, of which
 * a share `share` reaches a route: 20 (issue 7) when the run is long enough, less for short runs
 * (DOSSIER_FUZZ_RUNS), so that a fair spread is never refused by chance: the bar stays 3.5 standard
 * deviations under the expected count (mean - 3.5·√mean, the count being about Poisson; at the
 * defaults, 45 expected for a bar of 20, a route falls short by chance about once in 100,000). */
export function leastHits(runs: number, routes: number, share = 1): number {
  const mean = (runs * share) / routes;
  return Math.max(0, Math.min(20, Math.floor(mean - 3.5 * Math.sqrt(mean))));
}

/** Throws, naming each short route and its count, unless every route was hit at least `least` times. */
export function expectEveryRouteHit(hits: Map<string, number>, routes: Route[], least: number, what: string): void {
  const short = routes.map(routeKey).filter((key) => (hits.get(key) ?? 0) < least);
  if (short.length > 0) {
    const counts = routes.map(routeKey).map((key) => `  ${key}: ${hits.get(key) ?? 0}`).join("\n");
    throw new Error(`${what}: ${short.length} route(s) hit fewer than ${least} times: ${short.join(", ")}\nhits:\n${counts}`);
  }
}

/** Throws unless a 2xx answer has the shape of the route that produced it (by the request log). */
export function checkSuccess(label: string, route: string | undefined, status: number, contentType: string | null, body: string): void {
  const type = contentType?.split(";")[0].trim().toLowerCase() ?? "";
  const fail = (why: string): never => {
    throw new Error(`${label}: ${status} from ${route ?? "(no request record)"}: ${why}: ${body.slice(0, 200)}`);
  };
  if (route === undefined || route === "(unmatched)") fail("a success that no route produced");
  if (route === "GET /docs") return void (type === "text/html" || fail(`content-type ${contentType}`));
  if (route!.startsWith("GET /docs/")) return void (/javascript|css|font|image/.test(type) || fail(`content-type ${contentType}`));
  if (route === "GET /api/v1/dossiers/:id/cv") {
    if (type !== "application/pdf" || !body.startsWith("%PDF-")) fail(`content-type ${contentType}`);
    return;
  }
  if (route === "GET /api/v1/dossiers/export" || route === "GET /api/v1/contacts/export") {
    // C21: a CSV file, its header row first (the BOM may be decoded away).
    if (type !== "text/csv" || !body.replace(/^\uFEFF/, "").startsWith("id,")) fail(`content-type ${contentType}`);
    return;
  }
  if (type !== "application/json") fail(`content-type ${contentType}`);
  let json: any;
  try {
    json = JSON.parse(body);
  } catch {
    fail("not JSON");
  }
  if (route === "GET /healthz") return void (json?.status === "ok" || fail("not {status: ok}"));
  if (route === "GET /openapi.json") return void (typeof json?.openapi === "string" || fail("not an OpenAPI document"));
  if (!json || typeof json !== "object" || Array.isArray(json) || !("data" in json)) fail("no data member");
}
