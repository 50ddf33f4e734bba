// Issue 7 item 1: property-based fuzzing (fast-check) of every route in the app's route table with
// random and hostile bodies, query strings, path ids and headers. Every answer is a success or the
// error envelope with a documented code and status (api-v1 "Errors", C9); never a 500, never a hang
// (each request races a timeout); a rejected (non-2xx) request changes nothing (a fingerprint of
// every table and of the files folder, before and after); no answer echoes a key.
// Bounded here (env DOSSIER_FUZZ_RUNS, default below); scripts/fuzz-long.ts runs it longer.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { makeApp, makeKey } from "../helpers";
import { appFingerprint, fingerprintDiff } from "../helpers/fingerprint";
import { checkEnvelope, pdf, seedOrg, type Seeded } from "./fixtures";
import { createKey } from "../../src/services/keys";
import { createOrg } from "../../src/services/orgs";
import { revokeKey } from "../../src/services/keys";

const RUNS = Number(process.env.DOSSIER_FUZZ_RUNS ?? 1000);
const SEED = process.env.DOSSIER_FUZZ_SEED ? Number(process.env.DOSSIER_FUZZ_SEED) : undefined;
const REQUEST_TIMEOUT_MS = 10_000;
// Per test: generous, since the runs are bounded by RUNS; a hang is caught per request above.
const TEST_TIMEOUT_MS = Math.max(60_000, RUNS * 400);

const app = makeApp();
let A: Seeded;
let B: Seeded;
const keys: Record<string, string> = {};

beforeAll(async () => {
  A = await seedOrg(app, "Alpha");
  B = await seedOrg(app, "Bravo");
  keys.read = makeKey(app, A, ["dossiers:read", "contacts:read"]);
  keys.expired = makeKey(app, A, ["dossiers:read"], "2001-01-01T00:00:00.000Z");
  const revoked = createKey(app.dossier, { organizationId: A.id, scopes: ["dossiers:write"] });
  revokeKey(app.dossier, revoked.id);
  keys.revoked = revoked.key;
  const free = createOrg(app.dossier, { name: "Free org", plan: "free" });
  keys.free = createKey(app.dossier, { organizationId: free.id, scopes: ["dossiers:read", "dossiers:write"] }).key;
});

const OUTSIDE = (path: string) => path === "/healthz" || path === "/openapi.json" || path.startsWith("/docs");
const apiRoutes = () => app.routes.filter((r) => !OUTSIDE(r.path)).map((r) => ({ method: r.method.toUpperCase(), path: r.path }));

// ---- building blocks ---------------------------------------------------------------------------

const NASTY = [
  "", " ", "\u0000", "null", "undefined", "NaN", "-1", "0", "1e309", "__proto__", "constructor", "prototype", "toString",
  "' OR 1=1 --", "\"; DROP TABLE dossiers; --", "%", "%00", "%zz", "../../etc/passwd", "..%2f..%2f", "<script>alert(1)</script>",
  "\u202e\u0041", "\ud800", "\udfff", "😀".repeat(50), "ß", "İ", "\ufeff", "a".repeat(201), "x".repeat(20_001), "true", "[]", "{}",
  "svc_live_", "00000000-0000-0000-0000-000000000000", "2026-13-45T99:99:99Z", "-0", "9007199254740993",
];

const text = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 300 }) },
);

const leaf = fc.oneof(
  text,
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -1, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 0.1, -0.0000001, 1e-320),
  fc.boolean(),
  fc.constant(null),
);
const junk = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: "small", withCrossShrink: true }, leaf, tie("array"), tie("object")),
  array: fc.array(tie("value"), { maxLength: 4 }),
  object: fc.array(fc.tuple(fc.oneof(fc.constantFrom("__proto__", "constructor", "prototype", "name", "type", "id"), fc.string({ maxLength: 8 })), tie("value")), { maxLength: 4 }),
})).value;

/** JSON text of a value, keeping `[key, value][]` pairs as objects (so "__proto__" and duplicate
 * keys reach the server as they are). */
function toJson(value: unknown): string {
  if (Array.isArray(value) && value.every((e) => Array.isArray(e) && e.length === 2 && typeof e[0] === "string") && value.length > 0) {
    return `{${value.map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`).join(",")}}`;
  }
  if (Array.isArray(value)) return `[${value.map(toJson).join(",")}]`;
  return JSON.stringify(value) ?? "null";
}

const FIELDS = [
  "type", "name", "email", "phone", "company", "role", "contact_id", "flow_id", "assigned_to", "intake_notes", "contact_person",
  "deal_size", "deal_currency", "status", "current_stage_id", "content", "is_internal", "role_on_dossier", "is_primary",
  "full_name", "linkedin_url", "city", "kind", "notes", "pool_added_at", "pool_expires_at", "id", "created_at", "dossier_count",
  "__proto__", "constructor", "prototype", "cv",
];

/** Valid-looking bodies per route, to be mutated: most interesting failures are one field off. */
function templates(): Record<string, Record<string, unknown>[]> {
  return {
    "POST /api/v1/dossiers": [
      { type: "candidate", name: "Fuzz candidate", email: "fuzz@alpha.example", role: "Engineer" },
      { type: "sales", name: "Fuzz deal", deal_size: 10, deal_currency: "EUR", contact_person: "Jo", flow_id: A.salesFlow },
      { type: "candidate", name: "Linked", contact_id: A.loose, flow_id: A.flow, assigned_to: A.loose },
    ],
    "PATCH /api/v1/dossiers/:id": [
      { name: "Renamed", status: "won" },
      { current_stage_id: A.stage, intake_notes: "notes" },
      { deal_size: 5, deal_currency: "USD", assigned_to: null },
    ],
    "POST /api/v1/dossiers/:id/notes": [{ content: "A note", is_internal: false }],
    "POST /api/v1/dossiers/:id/contacts": [{ contact_id: A.loose, role_on_dossier: "champion", is_primary: true }],
    "POST /api/v1/contacts": [
      { full_name: "Fuzz contact", email: "c@alpha.example", kind: ["client", "partner"], linkedin_url: "https://x.example/in/a" },
      { full_name: "Pool", pool_added_at: "2020-01-01T00:00:00.000Z", pool_expires_at: "2030-01-01T00:00:00.000Z" },
    ],
    "PATCH /api/v1/contacts/:id": [{ full_name: "Renamed", kind: ["prospect"], notes: null }, { email: "loose@alpha.example" }],
  };
}

type Mutation = { op: "set"; field: string; value: unknown } | { op: "drop"; index: number } | { op: "keep" };
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant("set" as const), field: fc.constantFrom(...FIELDS), value: junk }),
  fc.record({ op: fc.constant("drop" as const), index: fc.nat(10) }),
  fc.constant({ op: "keep" as const }),
);

type Body =
  | { kind: "none" }
  | { kind: "template"; index: number; mutations: Mutation[] }
  | { kind: "json"; value: unknown }
  | { kind: "text"; text: string }
  | { kind: "bytes"; bytes: Uint8Array }
  | { kind: "huge"; size: number }
  | { kind: "deep"; depth: number; open: string }
  | { kind: "pdf"; size: number; valid: boolean }
  | { kind: "form"; fields: [string, string][]; cv: "none" | "pdf" | "text" | "junk" | "twice" | "empty" };

const body: fc.Arbitrary<Body> = fc.oneof(
  { weight: 1, arbitrary: fc.constant({ kind: "none" as const }) },
  { weight: 6, arbitrary: fc.record({ kind: fc.constant("template" as const), index: fc.nat(3), mutations: fc.array(mutation, { maxLength: 3 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("json" as const), value: junk }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("text" as const), text: fc.oneof(fc.json(), fc.string(), fc.constantFrom("{", "{\"a\":", "[1,", "\"\\ud800\"", "{\"name\":\"x\"}garbage")) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("bytes" as const), bytes: fc.uint8Array({ maxLength: 200 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("huge" as const), size: fc.integer({ min: 1_048_000, max: 1_300_000 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("deep" as const), depth: fc.integer({ min: 100, max: 200_000 }), open: fc.constantFrom("[", "{\"a\":") }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("pdf" as const), size: fc.nat(4000), valid: fc.boolean() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("form" as const),
      fields: fc.array(fc.tuple(fc.constantFrom(...FIELDS, "x"), fc.oneof(text, fc.constantFrom("candidate", "sales", "Name", "12.5", "EUR"))), { maxLength: 5 }),
      cv: fc.constantFrom("none", "pdf", "text", "junk", "twice", "empty"),
    }),
  },
);

function buildBody(route: string, b: Body): { raw?: string | Uint8Array | FormData; type?: string } {
  switch (b.kind) {
    case "none":
      return {};
    case "template": {
      const list = templates()[route] ?? templates()["POST /api/v1/dossiers"];
      const entries: [string, unknown][] = Object.entries(list[b.index % list.length]);
      for (const m of b.mutations) {
        if (m.op === "set") {
          const at = entries.findIndex(([k]) => k === m.field);
          if (at >= 0) entries[at] = [m.field, m.value];
          else entries.push([m.field, m.value]);
        } else if (m.op === "drop" && entries.length > 0) entries.splice(m.index % entries.length, 1);
      }
      return { raw: `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`).join(",")}}`, type: "application/json" };
    }
    case "json":
      return { raw: toJson(b.value), type: "application/json" };
    case "text":
      return { raw: b.text, type: "application/json" };
    case "bytes":
      return { raw: b.bytes, type: "application/json" };
    case "huge":
      return { raw: `{"name":"${"a".repeat(b.size)}","type":"candidate"}`, type: "application/json" };
    case "deep":
      return { raw: b.open.repeat(b.depth), type: "application/json" };
    case "pdf": {
      const bytes = pdf(b.size, b.size);
      if (!b.valid) bytes[0] = 0x21;
      return { raw: bytes, type: "application/pdf" };
    }
    case "form": {
      const form = new FormData();
      for (const [k, v] of b.fields) form.append(k, v);
      const file = (bytes: Uint8Array) => new File([bytes], "cv.pdf", { type: "application/pdf" });
      if (b.cv === "pdf") form.append("cv", file(pdf(300, 9)));
      if (b.cv === "text") form.append("cv", "%PDF-1.4 as text");
      if (b.cv === "junk") form.append("cv", file(new TextEncoder().encode("not a pdf")));
      if (b.cv === "twice") form.append("cv", file(pdf(10, 1))), form.append("cv", file(pdf(10, 2)));
      if (b.cv === "empty") form.append("cv", new File([], ""));
      return { raw: form };
    }
  }
}

/** Mostly a real id of the kind the route names (so that the body is reached), else anything. */
const idFor = (route: { path: string }, param: ":id" | ":contact_id") => {
  const own = param === ":contact_id" ? [A.contact, A.linked, A.loose]
    : route.path.startsWith("/api/v1/contacts") ? [A.contact, A.linked, A.loose]
    : route.path.startsWith("/api/v1/flows") ? [A.flow, A.salesFlow]
    : [A.dossier, A.sales];
  return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...own) }, { weight: 2, arbitrary: idArb() });
};

const idArb = () =>
  fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(A.dossier, A.sales, A.contact, A.linked, A.loose, A.flow, A.salesFlow) },
    { weight: 2, arbitrary: fc.constantFrom(B.dossier, B.contact, B.flow, A.stage, A.note, A.id, A.keyId) },
    { weight: 1, arbitrary: fc.uuid().map((u) => (Math.random() < 0.5 ? u.toUpperCase() : u)) },
    { weight: 1, arbitrary: fc.constantFrom("..", "%2e%2e", "%2F", "%00", "%zz", "%", "__proto__", "constructor", "%E2%80%AE", "a".repeat(3000), A.dossier.toUpperCase(), ` ${A.dossier}`.replace(" ", "%20"), `${A.dossier}%00`) },
    { weight: 1, arbitrary: text.map((s) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, "x")) || "x") },
  );

const QUERY_KEYS = ["page", "per_page", "type", "status", "stage_id", "overdue", "assigned_to", "flow_id", "q", "kind", "pool", "search", "__proto__", "constructor", "x"];
const queryArb = () =>
  fc.array(
    fc.tuple(
      fc.constantFrom(...QUERY_KEYS),
      fc.oneof(
        fc.constantFrom("1", "0", "-1", "100", "101", "1.5", "1e2", " 1", "99999999999999999999", "candidate", "archived", "true", "in_pool", "client", A.stage, B.stage, A.flow, B.flow),
        text,
      ),
      fc.boolean(), // raw (not encoded) when true, for the characters a URL allows as they are
    ),
    { maxLength: 4 },
  );

const AUTH = () => [
  undefined, "", "Bearer", "Bearer ", `bearer ${A.key}`, `Bearer  ${A.key}`, `Bearer ${A.key} `, `Basic ${btoa("a:b")}`,
  `Bearer ${A.key}${A.key}`, `Bearer ${A.key.slice(0, -1)}`, `Bearer svc_live_${"A".repeat(32)}`, `Bearer svc_test_${A.key.slice(9)}`,
  `Bearer ${keys.read}`, `Bearer ${keys.expired}`, `Bearer ${keys.revoked}`, `Bearer ${keys.free}`, `Bearer ${B.key}`,
  `Token ${A.key}`, `Bearer ${A.key.toUpperCase()}`, `Bearer ${encodeURIComponent("ü")}`,
];
const authArb = () =>
  fc.oneof({ weight: 6, arbitrary: fc.constant(`Bearer ${A.key}`) }, { weight: 3, arbitrary: fc.constantFrom(...AUTH()) }, { weight: 1, arbitrary: fc.string({ unit: "binary-ascii", maxLength: 60 }) });

const typeArb = fc.oneof(
  { weight: 4, arbitrary: fc.constant("(natural)") },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      undefined, "application/json", "application/json; charset=utf-8", "APPLICATION/JSON", "application/json;charset=latin1",
      "text/plain", "multipart/form-data", "multipart/form-data; boundary=xyz", "application/pdf", "application/x-www-form-urlencoded",
      "application/json, text/plain", "application/pdf; x=y", "", "*/*", "application/vnd.api+json",
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: "binary-ascii", maxLength: 40 }) },
);

const requestIdArb = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom("req-1", "a".repeat(100), "a".repeat(101), "", "bad id", "x:y.z_1-2", "<script>"),
  fc.string({ unit: "binary-ascii", maxLength: 120 }),
);

/** Answers seen, by method and status: printed with DOSSIER_FUZZ_STATS=1 to judge the spread. */
const stats = new Map<string, number>();
afterAll(() => {
  if (process.env.DOSSIER_FUZZ_STATS) console.log(Object.fromEntries([...stats].sort()));
});

const ALLOWED_STATUS = new Set([200, 201, 400, 401, 402, 403, 404, 409, 413, 415, 429]);
const SAFE_ID = /^[A-Za-z0-9._:-]{1,100}$/;

interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: { raw?: string | Uint8Array | FormData; type?: string };
}

/** Sends one request and checks every rule of the property. */
async function exchange(sent: Sent, loose = false) {
  const label = `${sent.method} ${sent.path}`;
  const before = appFingerprint(app);
  const headers = new Headers();
  let request: Request;
  try {
    for (const [k, v] of Object.entries(sent.headers)) headers.set(k, v);
    request = new Request(`http://localhost${sent.path}`, { method: sent.method, headers, body: sent.body.raw });
  } catch {
    return; // not a request a client can send (e.g. a header value fetch refuses)
  }
  let timer: Timer | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${label}: no answer within ${REQUEST_TIMEOUT_MS} ms`)), REQUEST_TIMEOUT_MS);
  });
  let response: Response;
  let body: string;
  try {
    response = await Promise.race([app.handle(request), timeout]);
    body = await Promise.race([response.text(), timeout]);
  } finally {
    clearTimeout(timer);
  }
  const status = response.status;
  const seen = `${sent.method} ${status}`;
  stats.set(seen, (stats.get(seen) ?? 0) + 1);
  if (loose) {
    if (status >= 500) throw new Error(`${label}: status ${status}`);
    const diff = fingerprintDiff(before, appFingerprint(app));
    if (status >= 300 && diff.length > 0) throw new Error(`${label}: a rejected request (${status}) changed:\n${diff.join("\n")}`);
    return;
  }
  if (!ALLOWED_STATUS.has(status)) throw new Error(`${label}: status ${status} (${body.slice(0, 300)})`);
  if (status >= 300) {
    checkEnvelope(status, body);
    const diff = fingerprintDiff(before, appFingerprint(app));
    if (diff.length > 0) throw new Error(`${label}: a rejected request (${status}) changed:\n${diff.join("\n")}`);
  } else if (response.headers.get("content-type")?.startsWith("application/json")) {
    const json = JSON.parse(body);
    if (!json || typeof json !== "object" || !("data" in json)) throw new Error(`${label}: ${status} without data: ${body.slice(0, 200)}`);
  } else if (!(sent.method === "GET" && sent.path.split("?")[0].endsWith("/cv") && response.headers.get("content-type") === "application/pdf")) {
    throw new Error(`${label}: ${status} with content-type ${response.headers.get("content-type")}`);
  }
  for (const key of [A.key, B.key, ...Object.values(keys)]) {
    if (body.includes(key.slice(9))) throw new Error(`${label}: the answer echoes an API key`);
    for (const [name, value] of response.headers) if (value.includes(key.slice(9))) throw new Error(`${label}: header ${name} echoes an API key`);
  }
  const given = headers.get("x-request-id");
  const answered = response.headers.get("x-request-id");
  if (!answered) throw new Error(`${label}: no X-Request-Id`);
  if (given !== null && SAFE_ID.test(given) && answered !== given) throw new Error(`${label}: X-Request-Id not echoed`);
}

function run(property: fc.IAsyncPropertyWithHooks<any>, runs = RUNS) {
  return fc.assert(property, { numRuns: runs, seed: SEED, endOnFailure: false, interruptAfterTimeLimit: TEST_TIMEOUT_MS - 5_000 });
}

// ---- properties -------------------------------------------------------------------------------

describe("issue 7 fuzzing: every route, hostile input (api-v1 Errors, C3, C8, C9, C10)", () => {
  test("every route in the table is fuzzed (the list comes from app.routes)", () => {
    expect(apiRoutes().length).toBeGreaterThanOrEqual(18);
  });

  test(
    "hostile bodies, query strings, path ids and Content-Types with a valid key: success or a documented error; rejected requests change nothing",
    async () => {
      const routes = apiRoutes();
      await run(
        fc.asyncProperty(
          fc.constantFrom(...routes).chain((route) => fc.tuple(fc.constant(route), idFor(route, ":id"), idFor(route, ":contact_id"))),
          queryArb(), body, typeArb, async ([route, id1, id2], query, b, type) => {
          const path =
            route.path.replace(":id", id1).replace(":contact_id", id2) +
            (query.length ? "?" + query.map(([k, v, raw]) => `${k}=${raw ? v.replace(/[^A-Za-z0-9%._~:-]/g, "") : encodeURIComponent(v.replace(/[\ud800-\udfff]/g, "x"))}`).join("&") : "");
          const built = route.method === "GET" || route.method === "HEAD" ? {} : buildBody(`${route.method} ${route.path}`, b);
          const headers: Record<string, string> = { authorization: `Bearer ${A.key}` };
          const contentType = type === "(natural)" ? built.type : type;
          if (contentType !== undefined) headers["content-type"] = contentType;
          await exchange({ method: route.method, path, headers, body: built });
        }),
      );
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "hostile Authorization, X-Request-Id and methods on every route: 401/402/403/404 before anything is read, nothing changes",
    async () => {
      const routes = apiRoutes();
      const methods = fc.constantFrom("GET", "POST", "PATCH", "PUT", "DELETE", "OPTIONS", "HEAD", "TRACE_", "post");
      await run(
        fc.asyncProperty(
          fc.constantFrom(...routes).chain((route) => fc.tuple(fc.constant(route), idFor(route, ":id"))),
          fc.option(methods, { freq: 4 }),
          authArb(),
          requestIdArb,
          body,
          fc.boolean(),
          async ([route, id], method, auth, requestId, b, trailingSlash) => {
            const verb = method === "TRACE_" ? "TRACE" : (method ?? route.method);
            const path = route.path.replace(":id", id).replace(":contact_id", id) + (trailingSlash ? "/" : "");
            const built = verb === "GET" || verb === "HEAD" ? {} : buildBody(`${route.method} ${route.path}`, b);
            const headers: Record<string, string> = {};
            if (auth !== undefined) headers.authorization = auth;
            if (requestId !== undefined) headers["x-request-id"] = requestId;
            if (built.type) headers["content-type"] = built.type;
            // HEAD, OPTIONS and TRACE are not served by the API: 404 (C10) or the runtime's answer.
            const loose = verb === "HEAD" || verb === "OPTIONS" || verb === "TRACE";
            await exchange({ method: verb.toUpperCase(), path, headers, body: loose ? {} : built }, loose);
          },
        ),
      );
    },
    TEST_TIMEOUT_MS,
  );

  test("found by fuzzing: a page beyond 2^53 - 1 is 400 invalid_body on every paginated list, not a 500 (C3)", async () => {
    for (const path of ["/flows", "/dossiers", "/contacts", `/dossiers/${A.dossier}/notes`]) {
      for (const page of ["99999999999999999999", "9007199254740992", "1e400"]) {
        await exchange({ method: "GET", path: `/api/v1${path}?page=${page}`, headers: { authorization: `Bearer ${A.key}` }, body: {} });
        const response = await app.handle(new Request(`http://localhost/api/v1${path}?page=${page}`, { headers: { authorization: `Bearer ${A.key}` } }));
        expect(response.status).toBe(400);
      }
    }
  });

  test(
    "unknown paths under /api/v1 and outside it: 404 not_found (or the public pages), never a 500",
    async () => {
      const segment = fc.oneof(fc.constantFrom("dossiers", "contacts", "flows", "notes", "cv", "stages", "api", "v1", "v2", "..", "%2e", "", "healthz", "docs"), idArb());
      await run(
        fc.asyncProperty(fc.array(segment, { minLength: 1, maxLength: 5 }), fc.constantFrom("GET", "POST", "PATCH", "DELETE"), async (segments, method) => {
          const path = "/api/v1/" + segments.join("/");
          await exchange({ method, path, headers: { authorization: `Bearer ${A.key}`, "content-type": "application/json" }, body: method === "GET" ? {} : { raw: "{}" } });
        }),
        Math.ceil(RUNS / 3),
      );
    },
    TEST_TIMEOUT_MS,
  );
});
