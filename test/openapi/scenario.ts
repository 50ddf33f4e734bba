// A scenario that uses every route of the API through a client typed by the OpenAPI document
// (openapi-fetch + the openapi-typescript types in ./generated). It is type-checked against freshly
// generated types and run against a real server by contract.test.ts, whose middleware checks each
// answer against the document. Besides the happy path it provokes, route by route, each error
// status the document lists: an expected error code that the document does not list for that route
// does not compile (see `fails`).
import { request as httpRequest, type IncomingMessage } from "node:http";
import createClient, { type Client, type Middleware } from "openapi-fetch";
// The console's client types: one file generated from the served document for both (test/console/serving.test.ts fails when it is stale).
import type { paths } from "../../src/console/api/schema";

export type Api = Client<paths>;

/** How the scenario breaks the server's database, on its engine (C11, C19). */
export interface DatabaseControls {
  /** Makes every later request fail inside the server (500): the keys', intake addresses' and
   * members' tables gone. */
  breakDatabase(): void | Promise<void>;
  /** Takes the database away from the server: /healthz answers 503 unavailable. */
  closeDatabase(): void | Promise<void>;
  /** What a request that needs the database answers once it is closed. */
  closedDatabaseAnswer: { status: 500; code: "internal" } | { status: 503; code: "storage_unavailable" };
  /** Lets the database take no more writes while it still answers reads (SQLite: the file may grow
   * no more, SQLITE_FULL; PostgreSQL: every session read-only, as a standby). */
  fillDatabaseDisk(): void | Promise<void>;
  /** Marks the `all` organization's pending deliveries failed, as the dispatcher would once their
   * schedule is used up (the scenario's server sends none). */
  failPendingDeliveries(): void | Promise<void>;
}

export interface Fixtures extends DatabaseControls {
  baseUrl: string;
  /** Tokens of intake addresses (C15): of an organization on the Pro plan (402), and a spare one
   * of the main organization's sales flow. The server takes at most 20 messages a minute per token. */
  intakeTokens: { pro: string; spare: string };
  keys: {
    /** every scope, Growth plan */
    all: string;
    /** no scope at all (403) */
    none: string;
    /** an organization on the Pro plan (402) */
    pro: string;
    /** an organization whose rate limit is 1 request a minute (429 after the first) */
    limited: string;
  };
  /** Checks every answer against the document. */
  middleware: Middleware;
  /** Fills the disk of the server's CV files (a small tmpfs over the folder): false where that
   * cannot be done (not root), and the scenario then provokes no 507. */
  fillFilesDisk(): boolean;
  /** Undoes fillFilesDisk. */
  freeFilesDisk(): void;
  /** The token of the organization of `keys.all`'s first-start owner link (C12), unused. */
  ownerSetupToken: string;
}

/** Ids the settings calls act on, for the statuses every route shares. */
interface SettingsIds {
  flowId: string;
  stageId: string;
  keyId: string;
  eventId: string;
}

/** A receiver's URL (nothing listens there: the scenario's server sends no webhook). */
const HOOK = "http://127.0.0.1:9/hook";
/** An id that names nothing. */
const NOBODY = "00000000-0000-4000-8000-000000000000";
const OTHER_NOBODY = "00000000-0000-4000-8000-000000000001";
/** An event id that names nothing. */
const NO_EVENT = "evt_99999999999999999999999999";
const PDF = new TextEncoder().encode("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n");
const MB = 1_048_576;

/** A PDF of `size` bytes. */
function pdfOf(size: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  bytes.set(PDF.subarray(0, 9));
  return bytes;
}

type Answer = { data?: unknown; error?: unknown; response: Response };
/** The error codes the document lists for an operation (a union of literals). */
type ErrorCodeOf<R> = R extends { error: { error: { code: infer C } } } ? C : never;

async function describe(r: Answer): Promise<string> {
  return `${r.response.status} ${JSON.stringify(r.error ?? null)}`;
}

/** The body of a success answer with this status. */
async function ok<R extends Answer>(call: Promise<R>, status: 200 | 201 | 202): Promise<NonNullable<R["data"]>> {
  const r = await call;
  if (r.response.status !== status || r.data === undefined) throw new Error(`expected ${status} from ${r.response.url}, got ${await describe(r)}`);
  return r.data as NonNullable<R["data"]>;
}

/** An error answer with this status and code; `code` must be one the document lists for the route. */
async function fails<R extends Answer>(call: Promise<R>, status: number, code: ErrorCodeOf<R>): Promise<void> {
  const r = await call;
  const got = (r.error as { error?: { code?: string } } | undefined)?.error?.code;
  if (r.response.status !== status || got !== code) throw new Error(`expected ${status} ${code} from ${r.response.url}, got ${await describe(r)}`);
}

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`scenario: ${what}`);
}

/** Each request on a connection of its own (node:http without an agent), never a pooled one: the
 * server under test closes a connection idle for its short body timeout and after a refusal, and
 * Bun's fetch sometimes reused such a socket anyway (ECONNRESET), whatever `keepalive` said. A
 * body is written as it comes, so that a stalled one stays stalled. */
async function freshFetch(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const headers = Object.fromEntries(request.headers);
  const answer = await new Promise<IncomingMessage>((resolve, reject) => {
    const outgoing = httpRequest({ host: url.hostname, port: url.port, path: url.pathname + url.search, method: request.method, headers, agent: false }, resolve);
    outgoing.on("error", (error) => reject(new Error(`${request.method} ${request.url}: ${error.message}`, { cause: error })));
    void (async () => {
      if (request.body) for await (const chunk of request.body) outgoing.write(chunk);
      outgoing.end();
    })().catch(reject);
  });
  const chunks: Buffer[] = [];
  for await (const chunk of answer) chunks.push(chunk as Buffer);
  const answered = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) answered.append(name, one);
  }
  const status = answer.statusCode!;
  return new Response(status === 204 || status === 304 ? null : Buffer.concat(chunks), { status, headers: answered });
}

export function client(fixtures: Fixtures, key: string | null): Api {
  const api = createClient<paths>({ baseUrl: fixtures.baseUrl, headers: key ? { Authorization: `Bearer ${key}` } : {}, fetch: freshFetch });
  api.use(fixtures.middleware);
  return api;
}

const big = (bytes: number) => "x".repeat(bytes);

const PASSWORD = "a long enough password";

/** A signed-in member's way in: its cookie, and the CSRF token its changes carry (C12). */
interface SignedIn {
  cookie: string;
  csrf: string;
}

/** The session an answer of POST /session or /session/setup signed in. */
function signedIn(r: { response: Response; data?: { data: { csrf_token: string } } }, what: string): SignedIn {
  const cookie = r.response.headers.get("set-cookie")?.split(";")[0];
  if (r.response.status !== 200 || !cookie || !r.data) throw new Error(`scenario: ${what}: expected 200 and a cookie, got ${r.response.status}`);
  return { cookie, csrf: r.data.data.csrf_token };
}

/** A client that speaks for a signed-in member: the cookie and X-CSRF-Token, and an Origin when given. */
function sessionClient(fixtures: Fixtures, session: SignedIn, origin?: string): Api {
  const headers: Record<string, string> = { Cookie: session.cookie, "X-CSRF-Token": session.csrf, ...(origin ? { Origin: origin } : {}) };
  const api = createClient<paths>({ baseUrl: fixtures.baseUrl, headers });
  api.use(fixtures.middleware);
  return api;
}

const tokenOf = (setupUrl: string) => setupUrl.split("#token=")[1];
/** openapi-fetch's body serializer for the CV's typed bodies: a form (multipart/form-data) becomes
 * FormData, each member a part and a Blob (the CV, typed Blob by src/console/api/generate.ts) a file
 * part; a raw Blob (application/pdf) is sent as it is. No cast: the bodies are the document's types. */
function multipart(body: object): FormData | Blob {
  if (body instanceof Blob) return body;
  const form = new FormData();
  for (const [name, value] of Object.entries(body)) if (value !== undefined && value !== null) form.append(name, value instanceof Blob ? value : String(value));
  return form;
}
const pdfFile = (bytes: Uint8Array<ArrayBuffer>, name = "cv.pdf") => new File([bytes], name, { type: "application/pdf" });
/** A raw application/pdf body. */
const rawPdf = (bytes: Uint8Array<ArrayBuffer> | string, type = "application/pdf") => ({
  body: new Blob([bytes]),
  bodySerializer: multipart,
  headers: { "Content-Type": type },
});

/** A CSV import's form (C21), typed by the document: the file is a Blob. */
const CSV_CONTACTS = "full_name,Email\r\nAda Lovelace,ada.import@example.com\r\n";
const importForm = (csv: string | Uint8Array<ArrayBuffer>, fields: { mapping?: string; mode?: "create" | "update" | "upsert"; dry_run?: "true" | "false" } = {}) => ({
  body: { file: new File([csv], "contacts.csv", { type: "text/csv" }), resource: "contacts" as const, mapping: '{"full_name":"full_name","Email":"email"}', ...fields },
  bodySerializer: multipart,
});

/** Every route once, with plausible input: for the statuses every route shares (401, 402, 403, 429, 500). */
function everyRoute(api: Api, id: string, eventId = NO_EVENT) {
  const path = { path: { id } };
  return [
    api.GET("/api/v1/dossiers"),
    api.POST("/api/v1/dossiers", { body: { type: "candidate", name: "Ada Lovelace" } }),
    api.GET("/api/v1/dossiers/{id}", { params: path }),
    api.PATCH("/api/v1/dossiers/{id}", { params: path, body: { status: "won" } }),
    api.DELETE("/api/v1/dossiers/{id}", { params: path }),
    api.POST("/api/v1/dossiers/{id}/cv", { params: path, ...rawPdf(PDF) }),
    api.GET("/api/v1/dossiers/{id}/cv", { params: path, parseAs: "arrayBuffer" }),
    api.GET("/api/v1/dossiers/{id}/notes", { params: path }),
    api.POST("/api/v1/dossiers/{id}/notes", { params: path, body: { content: "hello" } }),
    api.GET("/api/v1/dossiers/{id}/contacts", { params: path }),
    api.POST("/api/v1/dossiers/{id}/contacts", { params: path, body: { contact_id: id, role_on_dossier: "other" } }),
    api.DELETE("/api/v1/dossiers/{id}/contacts/{contact_id}", { params: { path: { id, contact_id: id } } }),
    api.GET("/api/v1/dossiers/{id}/history", { params: path }),
    api.GET("/api/v1/dossiers/export", { parseAs: "text" }),
    api.GET("/api/v1/contacts/export", { parseAs: "text" }),
    api.POST("/api/v1/imports", importForm(CSV_CONTACTS)),
    api.GET("/api/v1/imports"),
    api.GET("/api/v1/imports/{id}", { params: path }),
    api.POST("/api/v1/imports/{id}/revert", { params: path }),
    api.GET("/api/v1/contacts"),
    api.POST("/api/v1/contacts", { body: { full_name: "Grace Hopper" } }),
    api.GET("/api/v1/contacts/{id}", { params: path }),
    api.PATCH("/api/v1/contacts/{id}", { params: path, body: { city: "Paris" } }),
    api.DELETE("/api/v1/contacts/{id}", { params: path }),
    api.GET("/api/v1/flows"),
    api.GET("/api/v1/flows/{id}/stages", { params: path }),
    api.GET("/api/v1/flows/{id}/intake", { params: path }),
    api.POST("/api/v1/flows/{id}/intake/rotate", { params: path }),
    api.GET("/api/v1/events"),
    api.GET("/api/v1/events/{id}", { params: { path: { id: NO_EVENT } } }),
    api.GET("/api/v1/flows/{id}/stats", { params: path }),
    ...settingsRoutes(api, { flowId: id, stageId: id, keyId: id, eventId }),
    api.GET("/api/v1/members"),
    api.POST("/api/v1/members", { body: { email: "someone@scenario.example", name: "Someone", role: "viewer" } }),
    api.PATCH("/api/v1/members/{id}", { params: path, body: { name: "Renamed" } }),
    api.DELETE("/api/v1/members/{id}", { params: path }),
    api.POST("/api/v1/members/{id}/setup-link", { params: path }),
    ...taskRoutes(api, id),
    api.GET("/api/v1/mail-log"),
  ];
}

/** The task calls (C22), each once, with plausible input. */
function taskRoutes(api: Api, id: string) {
  const path = { path: { id } };
  return [
    api.GET("/api/v1/tasks"),
    api.POST("/api/v1/tasks", { body: { title: "Call back" } }),
    api.GET("/api/v1/tasks/{id}", { params: path }),
    api.PATCH("/api/v1/tasks/{id}", { params: path, body: { status: "done" } }),
    api.DELETE("/api/v1/tasks/{id}", { params: path }),
    api.GET("/api/v1/dossiers/{id}/tasks", { params: path }),
  ];
}

/** A task of the scenario's organization, for the calls on existing resources (set by runScenario). */
let scenarioTask = NOBODY;

/** The settings calls (C13), each once, with plausible input. */
function settingsRoutes(api: Api, ids: SettingsIds) {
  const event = { params: { path: { event_id: ids.eventId } } };
  return [
    api.POST("/api/v1/flows", { body: { type: "sales", name: "Partners", stages: [{ name: "Intro" }] } }),
    api.PATCH("/api/v1/flows/{id}", { params: { path: { id: ids.flowId } }, body: { name: "Renamed" } }),
    api.POST("/api/v1/flows/{id}/stages", { params: { path: { id: ids.flowId } }, body: { name: "Extra" } }),
    api.PATCH("/api/v1/stages/{id}", { params: { path: { id: ids.stageId } }, body: { color: "#123" } }),
    api.DELETE("/api/v1/stages/{id}", { params: { path: { id: ids.stageId } } }),
    api.GET("/api/v1/keys"),
    api.POST("/api/v1/keys", { body: { scopes: ["dossiers:read"] } }),
    api.DELETE("/api/v1/keys/{id}", { params: { path: { id: ids.keyId } } }),
    api.GET("/api/v1/webhook-endpoint"),
    api.PUT("/api/v1/webhook-endpoint", { body: { url: HOOK } }),
    api.DELETE("/api/v1/webhook-endpoint"),
    api.POST("/api/v1/webhook-endpoint/rotate-secret"),
    api.GET("/api/v1/webhook-deliveries"),
    api.GET("/api/v1/webhook-deliveries/{event_id}", event),
    api.POST("/api/v1/webhook-deliveries/{event_id}/retry", event),
  ];
}

/** A raw message for POST /intake/{token} (C15). */
const mail = (body: string | ReadableStream<Uint8Array> | Uint8Array<ArrayBuffer>, type = "message/rfc822") => ({
  body: new Blob([]),
  bodySerializer: () => body,
  headers: { "Content-Type": type },
});
let messages = 0;
const message = (from = "Jane Doe <jane@example.com>") =>
  mail(`From: ${from}\r\nSubject: Application\r\nMessage-ID: <contract-${++messages}@example.com>\r\n\r\nMy CV.\r\n`);

/** The calls about the cookie's session: a key gets 401 from them past its 402, 429 and 500. */
const sessionCalls = (api: Api) => [
  api.GET("/api/v1/session"),
  api.DELETE("/api/v1/session"),
  api.GET("/api/v1/session/member"),
  api.PATCH("/api/v1/session/member", { body: { digest: true } }),
  api.POST("/api/v1/session/calendar-link"),
];

/** A body whose first byte comes and then nothing more (C20): the server answers 408 once the
 * body timeout has passed (contract.test.ts gives its server a short one). */
const stalled = () => new ReadableStream<Uint8Array>({ start: (controller) => controller.enqueue(new TextEncoder().encode("{")) });

/** Every route that reads a body, each sent a body that stalls. */
function everyBodyStalled(api: Api, dossierId: string, contactId: string, ids: SettingsIds, memberId: string) {
  const path = { path: { id: dossierId } };
  const json = { bodySerializer: stalled, headers: { "Content-Type": "application/json" } };
  return [
    api.POST("/api/v1/flows", { body: { type: "sales", name: "Stalled", stages: [{ name: "One" }] }, ...json }),
    api.PATCH("/api/v1/flows/{id}", { params: { path: { id: ids.flowId } }, body: { name: "Stalled" }, ...json }),
    api.POST("/api/v1/flows/{id}/stages", { params: { path: { id: ids.flowId } }, body: { name: "Stalled" }, ...json }),
    api.PATCH("/api/v1/stages/{id}", { params: { path: { id: ids.stageId } }, body: { name: "Stalled" }, ...json }),
    api.POST("/api/v1/keys", { body: { scopes: ["dossiers:read"] }, ...json }),
    api.PUT("/api/v1/webhook-endpoint", { body: { url: HOOK }, ...json }),
    api.POST("/api/v1/dossiers", { body: { type: "candidate", name: "Stalled" }, ...json }),
    api.PATCH("/api/v1/dossiers/{id}", { params: path, body: { name: "Stalled" }, ...json }),
    api.POST("/api/v1/dossiers/{id}/cv", { params: path, ...rawPdf(""), bodySerializer: stalled }),
    api.POST("/api/v1/dossiers/{id}/notes", { params: path, body: { content: "Stalled" }, ...json }),
    api.POST("/api/v1/dossiers/{id}/contacts", { params: path, body: { contact_id: contactId, role_on_dossier: "other" }, ...json }),
    api.POST("/api/v1/contacts", { body: { full_name: "Stalled" }, ...json }),
    api.PATCH("/api/v1/contacts/{id}", { params: { path: { id: contactId } }, body: { city: "Paris" }, ...json }),
    api.POST("/api/v1/imports", { ...importForm(CSV_CONTACTS), bodySerializer: stalled, headers: { "Content-Type": "multipart/form-data; boundary=stalled" } }),
    api.POST("/api/v1/members", { body: { email: "stalled@scenario.example", name: "Stalled", role: "viewer" }, ...json }),
    api.PATCH("/api/v1/members/{id}", { params: { path: { id: memberId } }, body: { name: "Stalled" }, ...json }),
    api.POST("/api/v1/session", { body: { email: "stalled@scenario.example", password: PASSWORD }, ...json }),
    api.POST("/api/v1/session/setup", { body: { token: "stalled", password: PASSWORD }, ...json }),
    api.POST("/api/v1/tasks", { body: { title: "Stalled" }, ...json }),
    api.PATCH("/api/v1/tasks/{id}", { params: { path: { id: scenarioTask } }, body: { title: "Stalled" }, ...json }),
    api.PATCH("/api/v1/session/member", { body: { digest: false }, ...json }),
  ];
}

/** POST /intake/{token} with a body that stalls (C20: 408 too). */
const intakeStalled = (postman: Api, token: string) => postman.POST("/api/v1/intake/{token}", { params: { path: { token } }, ...mail(stalled()) });

/** Every route that writes, on existing resources (C11: each is refused once a write has failed). */
function everyWrite(api: Api, dossierId: string, contactId: string, flowId: string, ids: SettingsIds, memberId: string) {
  const path = { path: { id: dossierId } };
  const member = { params: { path: { id: memberId } } };
  return [
    ...settingsRoutes(api, ids).filter((_, i) => ![5, 8, 12, 13].includes(i)), // the reads: GET /keys, /webhook-endpoint, the log and one delivery
    api.POST("/api/v1/members", { body: { email: "late@scenario.example", name: "Late", role: "viewer" } }),
    api.PATCH("/api/v1/members/{id}", { ...member, body: { name: "Renamed" } }),
    api.DELETE("/api/v1/members/{id}", member),
    api.POST("/api/v1/members/{id}/setup-link", member),
    api.POST("/api/v1/dossiers", { body: { type: "candidate", name: "Ada Lovelace" } }),
    api.PATCH("/api/v1/dossiers/{id}", { params: path, body: { name: "Renamed" } }),
    api.DELETE("/api/v1/dossiers/{id}", { params: path }),
    api.POST("/api/v1/dossiers/{id}/cv", { params: path, ...rawPdf(PDF) }),
    api.POST("/api/v1/dossiers/{id}/notes", { params: path, body: { content: "hello" } }),
    api.POST("/api/v1/dossiers/{id}/contacts", { params: path, body: { contact_id: contactId, role_on_dossier: "other" } }),
    api.DELETE("/api/v1/dossiers/{id}/contacts/{contact_id}", { params: { path: { id: dossierId, contact_id: contactId } } }),
    api.POST("/api/v1/contacts", { body: { full_name: "Grace Hopper" } }),
    api.PATCH("/api/v1/contacts/{id}", { params: { path: { id: contactId } }, body: { city: "Paris" } }),
    api.DELETE("/api/v1/contacts/{id}", { params: { path: { id: contactId } } }),
    api.POST("/api/v1/flows/{id}/intake/rotate", { params: { path: { id: flowId } } }),
    api.POST("/api/v1/tasks", { body: { title: "Late" } }),
    api.PATCH("/api/v1/tasks/{id}", { params: { path: { id: scenarioTask } }, body: { title: "Renamed" } }),
    api.DELETE("/api/v1/tasks/{id}", { params: { path: { id: scenarioTask } } }),
    api.POST("/api/v1/imports", importForm(CSV_CONTACTS)),
    api.POST("/api/v1/imports/{id}/revert", { params: { path: { id: revertable } } }),
  ];
}

/** A succeeded import of the scenario's, that a write refused (C11) would revert. */
let revertable = NOBODY;

/** Every route that takes an Idempotency-Key, sent with `key`; `variant` changes each body, so
 * that the same key with another variant is another request (C16). The ids name nothing or hold
 * the request back (a 400 or 404 that is stored too), so that no call changes anything. */
function everyKeyed(api: Api, key: string, variant: string, dossierId: string): (() => Promise<Answer>)[] {
  const header = { header: { "Idempotency-Key": key } };
  const nobody = { ...header, path: { id: NOBODY } };
  return [
    () => api.POST("/api/v1/dossiers", { params: header, body: { type: "candidate", name: "", email: variant } }),
    () => api.PATCH("/api/v1/dossiers/{id}", { params: nobody, body: { name: variant } }),
    () => api.POST("/api/v1/dossiers/{id}/cv", { params: nobody, ...rawPdf(variant) }),
    () => api.POST("/api/v1/dossiers/{id}/notes", { params: nobody, body: { content: variant } }),
    () => api.POST("/api/v1/dossiers/{id}/contacts", { params: { ...header, path: { id: dossierId } }, body: { contact_id: NOBODY, role_on_dossier: "other", padding: variant } as never }),
    () => api.POST("/api/v1/contacts", { params: header, body: { full_name: "", email: variant } }),
    () => api.PATCH("/api/v1/contacts/{id}", { params: nobody, body: { city: variant } }),
    () => api.POST("/api/v1/flows", { params: header, body: { type: "sales", name: variant, stages: [] } }),
    () => api.PATCH("/api/v1/flows/{id}", { params: nobody, body: { name: variant } }),
    () => api.POST("/api/v1/flows/{id}/stages", { params: nobody, body: { name: variant } }),
    () => api.PATCH("/api/v1/stages/{id}", { params: nobody, body: { name: variant } }),
    () => api.POST("/api/v1/tasks", { params: header, body: { title: "", notes: variant } }),
    () => api.PATCH("/api/v1/tasks/{id}", { params: nobody, body: { title: variant } }),
    () => api.PATCH("/api/v1/members/{id}", { params: nobody, body: { name: variant } }),
    () => api.POST("/api/v1/imports", { params: header, ...importForm(`full_name\r\n${variant}\r\n`, { mapping: '{"nothing":"full_name"}' }) }),
    // No body: another variant is another path (its id, or its query string).
    ...keyedWithoutBody(api, key, variant === "second" ? OTHER_NOBODY : NOBODY),
  ];
}

/** The keyed routes that read no body, on ids (or a query) that name nothing. */
function keyedWithoutBody(api: Api, key: string, id: string): (() => Promise<Answer>)[] {
  const header = { header: { "Idempotency-Key": key } };
  const eventId = `evt_${id.replace(/-/g, "").slice(0, 26).padStart(26, "0")}`;
  return [
    () => api.POST("/api/v1/flows/{id}/intake/rotate", { params: { ...header, path: { id } } }),
    () => api.POST("/api/v1/webhook-deliveries/{event_id}/retry", { params: { ...header, path: { event_id: eventId } } }),
    () => api.POST("/api/v1/imports/{id}/revert", { params: { ...header, path: { id } } }),
  ];
}

/** Each keyed route's 409 idempotency_key_in_use: a first request whose body stalls holds its key
 * while a second with the same key comes. The first must have reached the server before the
 * second: tried again, with a new key and a longer head start, until it has (bounded). */
async function everyKeyInUse(api: Api, dossierId: string): Promise<void> {
  const stalling = { bodySerializer: stalled, headers: { "Content-Type": "application/json" } };
  const held = (key: string) => {
    const header = { header: { "Idempotency-Key": key } };
    const nobody = { ...header, path: { id: NOBODY } };
    return [
      () => api.POST("/api/v1/dossiers", { params: header, body: { type: "candidate", name: "Held" }, ...stalling }),
      () => api.PATCH("/api/v1/dossiers/{id}", { params: nobody, body: { name: "Held" }, ...stalling }),
      () => api.POST("/api/v1/dossiers/{id}/cv", { params: nobody, ...rawPdf(""), bodySerializer: stalled }),
      () => api.POST("/api/v1/dossiers/{id}/notes", { params: nobody, body: { content: "Held" }, ...stalling }),
      () => api.POST("/api/v1/dossiers/{id}/contacts", { params: { ...header, path: { id: dossierId } }, body: { contact_id: NOBODY, role_on_dossier: "other" }, ...stalling }),
      () => api.POST("/api/v1/contacts", { params: header, body: { full_name: "Held" }, ...stalling }),
      () => api.PATCH("/api/v1/contacts/{id}", { params: nobody, body: { city: "Held" }, ...stalling }),
      () => api.POST("/api/v1/flows", { params: header, body: { type: "sales", name: "Held", stages: [{ name: "One" }] }, ...stalling }),
      () => api.PATCH("/api/v1/flows/{id}", { params: nobody, body: { name: "Held" }, ...stalling }),
      () => api.POST("/api/v1/flows/{id}/stages", { params: nobody, body: { name: "Held" }, ...stalling }),
      () => api.PATCH("/api/v1/stages/{id}", { params: nobody, body: { name: "Held" }, ...stalling }),
      () => api.POST("/api/v1/tasks", { params: header, body: { title: "Held" }, ...stalling }),
      () => api.PATCH("/api/v1/tasks/{id}", { params: nobody, body: { title: "Held" }, ...stalling }),
      () => api.PATCH("/api/v1/members/{id}", { params: nobody, body: { name: "Held" }, ...stalling }),
      () => api.POST("/api/v1/imports", { params: header, ...importForm(CSV_CONTACTS), bodySerializer: stalled, headers: { "Content-Type": "multipart/form-data; boundary=stalled" } }),
    ];
  };
  // A route without a body cannot be held by one: its key is in use while its first runs, so
  // requests sent at once find it so (tried again, bounded, until one has).
  for (const [n, route] of keyedWithoutBody(api, "", NOBODY).entries()) {
    let inUse = false;
    for (let attempt = 1; attempt <= 10 && !inUse; attempt++) {
      const key = `no-body-${attempt}-${crypto.randomUUID()}`;
      const answers = await Promise.all(Array.from({ length: 8 }, () => keyedWithoutBody(api, key, NOBODY)[n]()));
      inUse = answers.some((r) => r.response.status === 409);
    }
    check(inUse, `409 idempotency_key_in_use on the keyed route without a body #${n} (${route.name})`);
  }
  const waiting: Promise<Answer>[] = [];
  let pending = held("").map((_, i) => i);
  for (let attempt = 1; attempt <= 5 && pending.length > 0; attempt++) {
    const key = `in-use-${attempt}-${crypto.randomUUID()}`;
    const first = held(key);
    waiting.push(...pending.map((i) => first[i]()));
    await Bun.sleep(100 * attempt);
    const second = everyKeyed(api, key, "second", dossierId);
    const answers = await Promise.all(pending.map((i) => second[i]()));
    pending = pending.filter((_, n) => answers[n].response.status !== 409);
  }
  check(pending.length === 0, `409 idempotency_key_in_use on every keyed route (missing: ${pending.join(", ")})`);
  // A held request ends with 408; one that came after its second (which then held the key), 409.
  for (const r of await Promise.all(waiting)) check([408, 409].includes(r.response.status), `a held request: ${await describe(r)}`);
}

async function expectEvery(calls: Promise<Answer>[], status: number, code: string): Promise<void> {
  for (const r of await Promise.all(calls)) {
    const got = (r.error as { error?: { code?: string } } | undefined)?.error?.code;
    if (r.response.status !== status || got !== code) throw new Error(`expected ${status} ${code} from ${r.response.url}, got ${await describe(r)}`);
  }
}

export async function runScenario(fixtures: Fixtures): Promise<void> {
  const api = client(fixtures, fixtures.keys.all);

  // Operations outside /api/v1.
  const health = await ok(client(fixtures, null).GET("/healthz"), 200);
  check(health.status === "ok", "healthz");

  // Flows and stages.
  const flows = await ok(api.GET("/api/v1/flows", { params: { query: { type: "candidate", page: 1, per_page: 10 } } }), 200);
  const recruitment = flows.data.find((f) => f.is_default && f.type === "candidate");
  check(recruitment !== undefined && flows.meta.total >= 1, "a default candidate flow");
  const sales = (await ok(api.GET("/api/v1/flows", { params: { query: { type: "sales" } } }), 200)).data[0];
  await fails(api.GET("/api/v1/flows", { params: { query: { per_page: 0 } } }), 400, "invalid_body");
  const stages = await ok(api.GET("/api/v1/flows/{id}/stages", { params: { path: { id: recruitment!.id } } }), 200);
  check(stages.meta.per_page === stages.data.length && stages.data[0].position === 1, "stages meta");
  await fails(api.GET("/api/v1/flows/{id}/stages", { params: { path: { id: NOBODY } } }), 404, "not_found");
  await fails(api.GET("/api/v1/flows/{id}/stages", { params: { path: { id: "not-a-uuid" } } }), 404, "not_found");

  // Email intake (C15): the flow's address, and mail to it over HTTP (no key: the token is the principal).
  const onRecruitment = { params: { path: { id: recruitment!.id } } };
  const address = (await ok(api.GET("/api/v1/flows/{id}/intake", onRecruitment), 200)).data.address;
  check(address === (await ok(api.GET("/api/v1/flows/{id}/intake", onRecruitment), 200)).data.address, "the same intake address");
  await fails(api.GET("/api/v1/flows/{id}/intake", { params: { path: { id: NOBODY } } }), 404, "not_found");
  const rotated = (await ok(api.POST("/api/v1/flows/{id}/intake/rotate", onRecruitment), 200)).data.address;
  check(rotated !== address, "a rotated intake address");
  await fails(api.POST("/api/v1/flows/{id}/intake/rotate", { params: { path: { id: NOBODY } } }), 404, "not_found");
  const token = rotated.slice(0, rotated.indexOf("@"));
  const postman = client(fixtures, null);
  const onToken = { params: { path: { token } } };
  const taken = (await ok(postman.POST("/api/v1/intake/{token}", { ...onToken, ...message() }), 201)).data;
  const repeated = `From: Jane Doe <jane@example.com>\r\nMessage-ID: <contract-repeat@example.com>\r\n\r\nAgain.\r\n`;
  const first = (await ok(postman.POST("/api/v1/intake/{token}", { ...onToken, ...mail(repeated) }), 201)).data;
  check((await ok(postman.POST("/api/v1/intake/{token}", { ...onToken, ...mail(repeated) }), 200)).data.id === first.id, "a repeated message");
  check(taken.id !== first.id, "two messages, two dossiers");
  await fails(postman.POST("/api/v1/intake/{token}", { params: { path: { token: address.slice(0, address.indexOf("@")) } }, ...message() }), 404, "not_found");
  await fails(postman.POST("/api/v1/intake/{token}", { ...onToken, ...mail("Subject: nobody\r\n\r\nno From\r\n") }), 400, "invalid_body");
  await fails(postman.POST("/api/v1/intake/{token}", { ...onToken, ...mail("From: a@example.com\r\n\r\nx", "text/plain") }), 415, "unsupported_media_type");
  await fails(postman.POST("/api/v1/intake/{token}", { ...onToken, ...mail(new Uint8Array(26_214_401)) }), 413, "payload_too_large");
  await fails(postman.POST("/api/v1/intake/{token}", { params: { path: { token: fixtures.intakeTokens.pro } }, ...message() }), 402, "plan_required");
  // Idempotency-Key on intake (C16, C20: the token is the principal): a replay, the key for another
  // message (422), the key while its first still runs (409: a first whose body stalls holds it).
  const keyedMail = (key: string, body: string | ReadableStream<Uint8Array>) => ({
    params: { path: { token: fixtures.intakeTokens.spare }, header: { "Idempotency-Key": key } },
    ...mail(body),
  });
  const keyedMessage = "From: Keyed Sender <keyed@example.com>\r\nSubject: Keyed\r\n\r\nOnce.\r\n";
  const keptMail = (await ok(postman.POST("/api/v1/intake/{token}", keyedMail("mail-1", keyedMessage)), 201)).data;
  const replayedMail = await postman.POST("/api/v1/intake/{token}", keyedMail("mail-1", keyedMessage));
  check(replayedMail.response.status === 201 && replayedMail.response.headers.get("idempotent-replayed") === "true" && replayedMail.data?.data.id === keptMail.id, "a replayed intake message");
  await fails(postman.POST("/api/v1/intake/{token}", keyedMail("mail-1", `${keyedMessage}Twice.\r\n`)), 422, "idempotency_key_reused");
  const heldMail: Promise<Answer>[] = [];
  let mailInUse = false;
  for (let attempt = 1; attempt <= 5 && !mailInUse; attempt++) {
    const key = `held-mail-${attempt}`;
    heldMail.push(postman.POST("/api/v1/intake/{token}", keyedMail(key, stalled())));
    await Bun.sleep(100 * attempt);
    mailInUse = (await postman.POST("/api/v1/intake/{token}", keyedMail(key, keyedMessage))).response.status === 409;
  }
  check(mailInUse, "409 idempotency_key_in_use on POST /intake/{token}");
  for (const r of await Promise.all(heldMail)) check([408, 409].includes(r.response.status), `a held intake message: ${await describe(r)}`);
  // The token's own limit (20 a minute here): spent by unreadable messages, which count.
  const spare = { params: { path: { token: fixtures.intakeTokens.spare } } };
  for (let i = 0; i < 20; i++) await postman.POST("/api/v1/intake/{token}", { ...spare, ...mail("not mail") });
  await fails(postman.POST("/api/v1/intake/{token}", { ...spare, ...message() }), 429, "rate_limited");

  // Contacts.
  const jane = (
    await ok(
      api.POST("/api/v1/contacts", {
        body: {
          full_name: " Jane Doe ", email: "jane@acme.example", kind: ["prospect", "client", "prospect"], pool_added_at: "2026-01-01T00:00:00Z",
          metadata: { crm_id: "C-1", "7": "seven" },
        },
      }),
      201,
    )
  ).data;
  check(jane.full_name === "Jane Doe" && jane.kind.length === 2 && jane.dossier_count === 0 && jane.notes === null, "created contact");
  check(JSON.stringify(jane.metadata) === '{"7":"seven","crm_id":"C-1"}', "created contact's metadata (issue 38)");
  const bob = (await ok(api.POST("/api/v1/contacts", { body: { full_name: "Bob", email: "bob@acme.example" } }), 201)).data;
  await fails(api.POST("/api/v1/contacts", { body: { email: "x@acme.example" } as never }), 400, "invalid_body");
  await fails(api.POST("/api/v1/contacts", { body: { full_name: "Jane again", email: "JANE@acme.example" } }), 409, "duplicate_contact");
  await fails(api.POST("/api/v1/contacts", { body: { full_name: "Big", notes: big(MB + 1) } }), 413, "payload_too_large");

  const contacts = await ok(
    api.GET("/api/v1/contacts", { params: { query: { kind: ["client", "partner"], search: "JANE", pool: "in_pool", metadata: { crm_id: "C-1" } } } }),
    200,
  );
  check(contacts.meta.total === 1 && contacts.data[0].id === jane.id, "contact filters");
  await fails(api.GET("/api/v1/contacts", { params: { query: { pool: "someday" as never } } }), 400, "invalid_body");
  // Cursor pages (issue 38): the page after a first page of one, and a cursor that is no cursor.
  const firstContact = await ok(api.GET("/api/v1/contacts", { params: { query: { per_page: 1 } } }), 200);
  if (firstContact.meta.next_after !== null) {
    const nextContact = await ok(api.GET("/api/v1/contacts", { params: { query: { per_page: 1, after: firstContact.meta.next_after } } }), 200);
    check(nextContact.data[0].id !== firstContact.data[0].id && nextContact.meta.total === firstContact.meta.total, "a cursor page of contacts");
  }
  await fails(api.GET("/api/v1/contacts", { params: { query: { after: "v1.bm9wZQ" } } }), 400, "invalid_body");

  check((await ok(api.GET("/api/v1/contacts/{id}", { params: { path: { id: jane.id } } }), 200)).data.email === "jane@acme.example", "get contact");
  await fails(api.GET("/api/v1/contacts/{id}", { params: { path: { id: NOBODY } } }), 404, "not_found");

  const patched = (await ok(api.PATCH("/api/v1/contacts/{id}", { params: { path: { id: bob.id } }, body: { city: "Paris", phone: null } }), 200)).data;
  check(patched.city === "Paris" && patched.phone === null, "patched contact");
  await fails(api.PATCH("/api/v1/contacts/{id}", { params: { path: { id: bob.id } }, body: { dossier_count: 3 } as never }), 400, "invalid_body");
  await fails(api.PATCH("/api/v1/contacts/{id}", { params: { path: { id: NOBODY } }, body: { city: "Paris" } }), 404, "not_found");
  await fails(api.PATCH("/api/v1/contacts/{id}", { params: { path: { id: bob.id } }, body: { email: "Jane@Acme.example" } }), 409, "duplicate_contact");
  await fails(api.PATCH("/api/v1/contacts/{id}", { params: { path: { id: bob.id } }, body: { notes: big(MB + 1) } }), 413, "payload_too_large");

  // Dossiers: JSON and multipart creation.
  const deal = (
    await ok(
      api.POST("/api/v1/dossiers", {
        body: {
          type: "sales", name: "Acme renewal", contact_id: jane.id, flow_id: sales.id, deal_size: 12500.5, deal_currency: "EUR", contact_person: "Jane",
          metadata: { erp_id: "ACME-0042" },
        },
      }),
      201,
    )
  ).data;
  check(deal.status === "active" && deal.contact_id === jane.id && deal.cv_url === null && deal.current_stage_id === sales.stages[0].id, "created dossier");
  const ada = (
    await ok(
      api.POST("/api/v1/dossiers", {
        body: { type: "candidate", name: "Ada Lovelace", email: "ada@example.org", deal_size: "", cv: pdfFile(PDF, "ada.pdf") },
        bodySerializer: multipart,
      }),
      201,
    )
  ).data;
  check(ada.cv_url === `${ada.organization_id}/dossiers/${ada.id}/cv.pdf` && ada.contact_id !== null, "multipart dossier with a CV");
  await fails(api.POST("/api/v1/dossiers", { body: { type: "candidate", name: "Ada", deal_size: 3 } }), 400, "invalid_body");
  await fails(api.POST("/api/v1/dossiers", { body: { type: "sales", name: "Ghost flow", flow_id: NOBODY } }), 404, "not_found");
  await fails(api.POST("/api/v1/dossiers", { body: { type: "candidate", name: "Big", intake_notes: big(MB + 1) } }), 413, "payload_too_large");
  await fails(
    api.POST("/api/v1/dossiers", {
      body: { type: "candidate", name: "Big CV", cv: pdfFile(pdfOf(10 * MB + 1)) },
      bodySerializer: multipart,
    }),
    413,
    "file_too_large",
  );

  const listed = await ok(
    api.GET("/api/v1/dossiers", {
      params: { query: { type: "sales", status: "active", stage_id: deal.current_stage_id!, overdue: false, q: "acme", metadata: { erp_id: "ACME-0042" }, page: 1, per_page: 5 } },
    }),
    200,
  );
  check(listed.meta.total === 1 && listed.meta.per_page === 5 && listed.data[0].id === deal.id, "dossier filters");
  await fails(api.GET("/api/v1/dossiers", { params: { query: { assigned_to: "nobody" } } }), 400, "invalid_body");
  const firstDossier = await ok(api.GET("/api/v1/dossiers", { params: { query: { per_page: 1 } } }), 200);
  check(firstDossier.meta.next_after !== null, `more than one dossier: ${JSON.stringify(firstDossier.meta)}`);
  const nextDossier = await ok(api.GET("/api/v1/dossiers", { params: { query: { per_page: 1, after: firstDossier.meta.next_after! } } }), 200);
  check(nextDossier.data[0].id !== firstDossier.data[0].id && nextDossier.meta.page === 1, "a cursor page of dossiers");
  await fails(api.GET("/api/v1/dossiers", { params: { query: { page: 2, after: firstDossier.meta.next_after! } } }), 400, "invalid_body");
  await fails(api.GET("/api/v1/dossiers", { params: { query: { after: "nope" } } }), 400, "invalid_body");
  await fails(api.PATCH("/api/v1/dossiers/{id}", { params: { path: { id: deal.id } }, body: { metadata: { erp_id: 42 } } as never }), 400, "invalid_body");

  check((await ok(api.GET("/api/v1/dossiers/{id}", { params: { path: { id: deal.id } } }), 200)).data.deal_currency === "EUR", "get dossier");
  await fails(api.GET("/api/v1/dossiers/{id}", { params: { path: { id: NOBODY } } }), 404, "not_found");

  const moved = (
    await ok(
      api.PATCH("/api/v1/dossiers/{id}", {
        params: { path: { id: deal.id } },
        body: { current_stage_id: sales.stages[1].id, assigned_to: NOBODY, phone: null, metadata: { erp_id: "ACME-0043", extra: "x" } },
      }),
      200,
    )
  ).data;
  check(moved.current_stage_id === sales.stages[1].id && moved.assigned_to === NOBODY && moved.stage_entered_at !== null, "moved dossier");
  // Issue 38: the keys merge; dossier.updated's previous_attributes (read from the feed below) holds the old object.
  check(JSON.stringify(moved.metadata) === '{"erp_id":"ACME-0043","extra":"x"}', "merged metadata");
  await fails(api.PATCH("/api/v1/dossiers/{id}", { params: { path: { id: deal.id } }, body: { current_stage_id: recruitment!.stages[0].id } }), 400, "invalid_body");
  await fails(api.PATCH("/api/v1/dossiers/{id}", { params: { path: { id: NOBODY } }, body: { name: "x" } }), 404, "not_found");
  await fails(api.PATCH("/api/v1/dossiers/{id}", { params: { path: { id: deal.id } }, body: { intake_notes: big(MB + 1) } }), 413, "payload_too_large");

  // CVs.
  const onDeal = { params: { path: { id: deal.id } } };
  await fails(api.GET("/api/v1/dossiers/{id}/cv", { ...onDeal, parseAs: "arrayBuffer" }), 404, "not_found");
  const withCv = (await ok(api.POST("/api/v1/dossiers/{id}/cv", { ...onDeal, body: { cv: pdfFile(PDF) }, bodySerializer: multipart }), 200)).data;
  check(withCv.cv_url === `${deal.organization_id}/dossiers/${deal.id}/cv.pdf`, "cv_url after upload");
  await ok(api.POST("/api/v1/dossiers/{id}/cv", { ...onDeal, ...rawPdf(PDF) }), 200);
  const pdf = await ok(api.GET("/api/v1/dossiers/{id}/cv", { ...onDeal, parseAs: "arrayBuffer" }), 200);
  check(pdf.byteLength === PDF.byteLength, "downloaded CV");
  await fails(
    api.POST("/api/v1/dossiers/{id}/cv", { ...onDeal, ...rawPdf("not a pdf") }),
    400,
    "invalid_body",
  );
  await fails(
    api.POST("/api/v1/dossiers/{id}/cv", { params: { path: { id: NOBODY } }, ...rawPdf(PDF) }),
    404,
    "not_found",
  );
  await fails(
    api.POST("/api/v1/dossiers/{id}/cv", { ...onDeal, ...rawPdf(pdfOf(10 * MB + 1)) }),
    413,
    "file_too_large",
  );
  await fails(
    api.POST("/api/v1/dossiers/{id}/cv", { ...onDeal, ...rawPdf("hello", "text/plain") }),
    415,
    "unsupported_media_type",
  );

  // CSV exports (C21): the lists' filters, a bad one 400.
  const csv = await ok(api.GET("/api/v1/dossiers/export", { params: { query: { type: "sales" } }, parseAs: "text" }), 200);
  check(csv.includes(deal.id), "the exported deal");
  await fails(api.GET("/api/v1/dossiers/export", { params: { query: { updated_since: "yesterday" } } }), 400, "invalid_body");
  check((await ok(api.GET("/api/v1/contacts/export", { params: { query: { kind: ["prospect"] } }, parseAs: "text" }), 200)).replace(/^\uFEFF/, "").startsWith("id,full_name,"), "exported contacts");
  await fails(api.GET("/api/v1/contacts/export", { params: { query: { updated_since: "yesterday" } } }), 400, "invalid_body");

  // CSV imports (C21): queued, run in the background, listed, reverted; a bad file 400, too large 413.
  const queued = (await ok(api.POST("/api/v1/imports", importForm(CSV_CONTACTS, { mode: "upsert" })), 202)).data;
  check(queued.status === "queued" && queued.rows === 1, "a queued import");
  let ran = queued;
  for (let i = 0; i < 600 && (ran.status === "queued" || ran.status === "running"); i++) {
    await Bun.sleep(10);
    ran = (await ok(api.GET("/api/v1/imports/{id}", { params: { path: { id: queued.id } } }), 200)).data;
  }
  check(ran.status === "succeeded" && ran.created === 1, `the import ran: ${JSON.stringify(ran)}`);
  const imports = await ok(api.GET("/api/v1/imports", { params: { query: { page: 1, per_page: 10 } } }), 200);
  check(imports.data[0].id === queued.id, "the imports' list");
  check(imports.meta.next_after === null, "the imports fit one page");
  await fails(api.GET("/api/v1/imports", { params: { query: { after: "v1.W10" } } }), 400, "invalid_body");
  await fails(api.GET("/api/v1/imports", { params: { query: { per_page: 0 } } }), 400, "invalid_body");
  await fails(api.GET("/api/v1/imports/{id}", { params: { path: { id: NOBODY } } }), 404, "not_found");
  await fails(api.POST("/api/v1/imports", importForm("")), 400, "invalid_body");
  await fails(api.POST("/api/v1/imports", importForm(CSV_CONTACTS, { mapping: '{"Email":"shoe_size"}' })), 400, "invalid_body");
  await fails(api.POST("/api/v1/imports", { ...importForm(CSV_CONTACTS), bodySerializer: () => "{}", headers: { "Content-Type": "application/json" } }), 415, "unsupported_media_type");
  await fails(api.POST("/api/v1/imports", importForm(new TextEncoder().encode("full_name\n" + "x\n".repeat(200_001)) as Uint8Array<ArrayBuffer>)), 413, "payload_too_large");
  await fails(
    api.POST("/api/v1/imports", { ...importForm(CSV_CONTACTS), body: { ...importForm(CSV_CONTACTS).body, resource: "dossiers", type: "candidate", flow_id: NOBODY, mapping: '{"full_name":"name"}' } }),
    404,
    "not_found",
  );
  await fails(api.POST("/api/v1/imports/{id}/revert", { params: { path: { id: NOBODY } } }), 404, "not_found");
  const reverted = (await ok(api.POST("/api/v1/imports/{id}/revert", { params: { path: { id: queued.id } } }), 200)).data;
  check(reverted.status === "reverted" && reverted.revert?.undone === 1, "a reverted import");
  await fails(api.POST("/api/v1/imports/{id}/revert", { params: { path: { id: queued.id } } }), 409, "import_not_revertable");
  const again = (await ok(api.POST("/api/v1/imports", importForm(CSV_CONTACTS.replace("ada.import", "ada.again"))), 202)).data;
  for (let i = 0, now = again; i < 600 && (now.status === "queued" || now.status === "running"); i++) {
    await Bun.sleep(10);
    now = (await ok(api.GET("/api/v1/imports/{id}", { params: { path: { id: again.id } } }), 200)).data;
  }
  revertable = again.id;

  // Notes.
  const note = (await ok(api.POST("/api/v1/dossiers/{id}/notes", { ...onDeal, body: { content: "Called back" } }), 201)).data;
  check(note.is_internal === true && note.dossier_id === deal.id, "created note");
  await fails(api.POST("/api/v1/dossiers/{id}/notes", { ...onDeal, body: { content: "   " } }), 400, "invalid_body");
  await fails(api.POST("/api/v1/dossiers/{id}/notes", { params: { path: { id: NOBODY } }, body: { content: "x" } }), 404, "not_found");
  await fails(api.POST("/api/v1/dossiers/{id}/notes", { ...onDeal, body: { content: big(MB + 1) } }), 413, "payload_too_large");
  const notes = await ok(api.GET("/api/v1/dossiers/{id}/notes", { params: { path: { id: deal.id }, query: { page: 1, per_page: 100 } } }), 200);
  check(notes.data.length === 1 && notes.data[0].id === note.id && notes.meta.next_after === null, "listed notes");
  await fails(api.GET("/api/v1/dossiers/{id}/notes", { params: { path: { id: deal.id }, query: { after: "v1.x" } } }), 400, "invalid_body");
  await fails(api.GET("/api/v1/dossiers/{id}/notes", { params: { path: { id: deal.id }, query: { page: 0 } } }), 400, "invalid_body");
  await fails(api.GET("/api/v1/dossiers/{id}/notes", { params: { path: { id: NOBODY } } }), 404, "not_found");

  // Tasks (C22).
  const task = (await ok(api.POST("/api/v1/tasks", { body: { title: "Call Jane", dossier_id: deal.id, due_at: "2026-12-01T09:00:00Z" } }), 201)).data;
  check(task.status === "open" && task.due_at === "2026-12-01T09:00:00.000Z" && task.created_by.kind === "key", "created task");
  await fails(api.POST("/api/v1/tasks", { body: { title: "x", due_at: "tomorrow" } }), 400, "invalid_body");
  await fails(api.POST("/api/v1/tasks", { body: { title: "x", notes: big(MB + 1) } }), 413, "payload_too_large");
  const onTask = { params: { path: { id: task.id } } };
  const tasks = await ok(api.GET("/api/v1/tasks", { params: { query: { dossier_id: [deal.id], status: "open", overdue: false, due_after: "2026-01-01T00:00:00Z" } } }), 200);
  check(tasks.meta.total === 1 && tasks.data[0].id === task.id, "listed tasks");
  await fails(api.GET("/api/v1/tasks", { params: { query: { after: "v2.x" } } }), 400, "invalid_body");
  await fails(api.GET("/api/v1/tasks", { params: { query: { due_before: "soon" } } }), 400, "invalid_body");
  const gotTask = await api.GET("/api/v1/tasks/{id}", onTask);
  check(gotTask.response.status === 200 && gotTask.data?.data.id === task.id, "got task");
  const taskTag = gotTask.response.headers.get("etag")!;
  const taskNotModified = await api.GET("/api/v1/tasks/{id}", { params: { path: { id: task.id }, header: { "If-None-Match": taskTag } } });
  check(taskNotModified.response.status === 304, `304 on a current task: ${await describe(taskNotModified)}`);
  await fails(api.GET("/api/v1/tasks/{id}", { params: { path: { id: NOBODY } } }), 404, "not_found");
  check((await ok(api.PATCH("/api/v1/tasks/{id}", { ...onTask, body: { status: "done" } }), 200)).data.done_at !== null, "patched task");
  await fails(api.PATCH("/api/v1/tasks/{id}", { ...onTask, body: { title: "" } }), 400, "invalid_body");
  await fails(api.PATCH("/api/v1/tasks/{id}", { ...onTask, body: { notes: big(MB + 1) } }), 413, "payload_too_large");
  await fails(api.PATCH("/api/v1/tasks/{id}", { params: { path: { id: NOBODY } }, body: { title: "x" } }), 404, "not_found");
  await fails(api.PATCH("/api/v1/tasks/{id}", { params: { path: { id: task.id }, header: { "If-Match": '"stale"' } }, body: { title: "x" } }), 412, "precondition_failed");
  await fails(api.DELETE("/api/v1/tasks/{id}", { params: { path: { id: task.id }, header: { "If-Match": '"stale"' } } }), 412, "precondition_failed");
  check((await ok(api.GET("/api/v1/dossiers/{id}/tasks", onDeal), 200)).meta.total === 1, "a dossier's tasks");
  await fails(api.GET("/api/v1/dossiers/{id}/tasks", { params: { path: { id: NOBODY } } }), 404, "not_found");
  await fails(api.GET("/api/v1/dossiers/{id}/tasks", { params: { path: { id: deal.id }, query: { per_page: 0 } } }), 400, "invalid_body");
  check((await ok(api.DELETE("/api/v1/tasks/{id}", onTask), 200)).data.deleted === true, "deleted task");
  await fails(api.DELETE("/api/v1/tasks/{id}", onTask), 404, "not_found");
  scenarioTask = (await ok(api.POST("/api/v1/tasks", { body: { title: "Kept for later" } }), 201)).data.id;

  // The events feed (C17): what the writes above recorded, read on with next_after.
  const noted = await ok(api.GET("/api/v1/events", { params: { query: { dossier_id: deal.id, type: ["note.created", "dossier.updated"], limit: 100 } } }), 200);
  const noteEvent = noted.data.at(-1);
  check(noteEvent?.type === "note.created" && noteEvent.data.id === note.id && noted.meta.next_after === noteEvent.id && !noted.meta.has_more, "events of a dossier");
  const firstEvent = await ok(api.GET("/api/v1/events", { params: { query: { limit: 1 } } }), 200);
  check(firstEvent.data.length === 1 && firstEvent.meta.has_more && firstEvent.meta.next_after === firstEvent.data[0].id, "a feed page");
  const later = await ok(api.GET("/api/v1/events", { params: { query: { after: firstEvent.meta.next_after!, limit: 100 } } }), 200);
  check(later.data.length > 0 && later.data.every((e) => e.id > firstEvent.data[0].id), "reading on");
  check((await ok(api.GET("/api/v1/events/{id}", { params: { path: { id: noteEvent!.id } } }), 200)).data.type === "note.created", "one event");
  await fails(api.GET("/api/v1/events", { params: { query: { after: NO_EVENT } } }), 410, "cursor_expired");
  await fails(api.GET("/api/v1/events", { params: { query: { limit: 101 } } }), 400, "invalid_body");
  await fails(api.GET("/api/v1/events/{id}", { params: { path: { id: NO_EVENT } } }), 404, "not_found");
  // updated_since (C17).
  const changed = await ok(api.GET("/api/v1/dossiers", { params: { query: { updated_since: deal.created_at, type: "sales" } } }), 200);
  check(changed.data.some((d) => d.id === deal.id), "dossiers updated since");
  check((await ok(api.GET("/api/v1/contacts", { params: { query: { updated_since: "2999-01-01T00:00:00.000Z" } } }), 200)).meta.total === 0, "contacts updated since");
  await fails(api.GET("/api/v1/contacts", { params: { query: { updated_since: "yesterday" } } }), 400, "invalid_body");

  // Dossier-contact links.
  const linked = (await ok(api.POST("/api/v1/dossiers/{id}/contacts", { ...onDeal, body: { contact_id: bob.id, role_on_dossier: "champion" } }), 201)).data;
  check(linked.is_primary === false && linked.role_on_dossier === "champion", "new link");
  const relinked = (
    await ok(api.POST("/api/v1/dossiers/{id}/contacts", { ...onDeal, body: { contact_id: bob.id, role_on_dossier: "decision_maker", is_primary: true } }), 200)
  ).data;
  check(relinked.is_primary === true, "re-link");
  await fails(api.POST("/api/v1/dossiers/{id}/contacts", { ...onDeal, body: { contact_id: bob.id, role_on_dossier: "boss" as never } }), 400, "invalid_body");
  await fails(api.POST("/api/v1/dossiers/{id}/contacts", { ...onDeal, body: { contact_id: NOBODY, role_on_dossier: "other" } }), 404, "not_found");
  await fails(
    api.POST("/api/v1/dossiers/{id}/contacts", { ...onDeal, body: { contact_id: bob.id, role_on_dossier: "other", padding: big(MB + 1) } as never }),
    413,
    "payload_too_large",
  );
  const team = await ok(api.GET("/api/v1/dossiers/{id}/contacts", onDeal), 200);
  check(team.data[0].contact_id === bob.id && team.data[0].is_primary && team.meta.total === 2, "primary first");
  await fails(api.GET("/api/v1/dossiers/{id}/contacts", { params: { path: { id: NOBODY } } }), 404, "not_found");
  const unlinked = (await ok(api.DELETE("/api/v1/dossiers/{id}/contacts/{contact_id}", { params: { path: { id: deal.id, contact_id: bob.id } } }), 200)).data;
  check(unlinked.unlinked === true, "unlinked");
  await fails(api.DELETE("/api/v1/dossiers/{id}/contacts/{contact_id}", { params: { path: { id: deal.id, contact_id: bob.id } } }), 404, "not_found");

  // History (C18).
  const told = await ok(api.GET("/api/v1/dossiers/{id}/history", onDeal), 200);
  check(told.data[0].kind === "created" && told.data.some((item) => item.kind === "contact_unlinked") && told.meta.stages.length >= 1, "history");
  await fails(api.GET("/api/v1/dossiers/{id}/history", { params: { path: { id: NOBODY } } }), 404, "not_found");

  // A flow's figures (C18).
  const figures = await ok(api.GET("/api/v1/flows/{id}/stats", { params: { path: { id: sales.id }, query: { from: "2000-01-01T00:00:00Z" } } }), 200);
  check(figures.data.stages.length >= 1 && figures.data.pipeline !== null && figures.data.from === "2000-01-01T00:00:00.000Z", "flow stats");
  await fails(api.GET("/api/v1/flows/{id}/stats", { params: { path: { id: sales.id }, query: { from: "yesterday" } } }), 400, "invalid_body");
  await fails(api.GET("/api/v1/flows/{id}/stats", { params: { path: { id: NOBODY } } }), 404, "not_found");

  // Archive and delete.
  const archived = (await ok(api.DELETE("/api/v1/dossiers/{id}", { params: { path: { id: ada.id } } }), 200)).data;
  check(archived.status === "archived", "archived");
  await fails(api.DELETE("/api/v1/dossiers/{id}", { params: { path: { id: NOBODY } } }), 404, "not_found");
  const deleted = (await ok(api.DELETE("/api/v1/contacts/{id}", { params: { path: { id: bob.id } } }), 200)).data;
  check(deleted.deleted === true, "deleted contact");
  await fails(api.DELETE("/api/v1/contacts/{id}", { params: { path: { id: bob.id } } }), 404, "not_found");

  // Idempotency-Key (C16): a replay, the same key for another request (422), a key in use (409).
  const keyed = (key: string) => ({ params: { header: { "Idempotency-Key": key }, path: { id: deal.id } } });
  const renamed = await api.PATCH("/api/v1/dossiers/{id}", { ...keyed("rename-1"), body: { name: "Acme renewal 2027" } });
  const replayed = await api.PATCH("/api/v1/dossiers/{id}", { ...keyed("rename-1"), body: { name: "Acme renewal 2027" } });
  check(renamed.response.status === 200 && replayed.response.headers.get("idempotent-replayed") === "true", "a replayed PATCH");
  // One at a time: requests that carry one key side by side meet it in use (409), which a store that
  // runs them side by side (PostgreSQL) shows where SQLite's one writer may not.
  for (const call of everyKeyed(api, "reused-1", "first", deal.id)) await call();
  for (const call of everyKeyed(api, "reused-1", "second", deal.id)) await expectEvery([call()], 422, "idempotency_key_reused");
  await fails(api.POST("/api/v1/contacts", { params: { header: { "Idempotency-Key": "é" } }, body: { full_name: "Bad key" } }), 400, "invalid_body");
  for (const call of keyedWithoutBody(api, "", NOBODY)) await expectEvery([call()], 400, "invalid_body");
  for (const [n, call] of everyKeyed(api, "\t", "bad key", deal.id).entries()) {
    const r = await call();
    check(r.response.status === 400, `a malformed Idempotency-Key on keyed route #${n}: ${await describe(r)}`);
  }
  await everyKeyInUse(api, deal.id);

  // Conditional requests (C16): 304 on a GET whose copy is current, 412 on a change from a stale one.
  const current = await api.GET("/api/v1/dossiers/{id}", onDeal);
  const dossierTag = current.response.headers.get("etag")!;
  const notModified = await api.GET("/api/v1/dossiers/{id}", { params: { path: { id: deal.id }, header: { "If-None-Match": dossierTag } } });
  check(notModified.response.status === 304, `304 on a current dossier: ${await describe(notModified)}`);
  const contactTag = (await api.GET("/api/v1/contacts/{id}", { params: { path: { id: jane.id } } })).response.headers.get("etag")!;
  const contactNotModified = await api.GET("/api/v1/contacts/{id}", { params: { path: { id: jane.id }, header: { "If-None-Match": contactTag } } });
  check(contactNotModified.response.status === 304, `304 on a current contact: ${await describe(contactNotModified)}`);
  const stale = { "If-Match": '"stale"' };
  const onDealStale = { params: { path: { id: deal.id }, header: stale } };
  const onJaneStale = { params: { path: { id: jane.id }, header: stale } };
  await fails(api.PATCH("/api/v1/dossiers/{id}", { ...onDealStale, body: { name: "Lost update" } }), 412, "precondition_failed");
  await fails(api.DELETE("/api/v1/dossiers/{id}", onDealStale), 412, "precondition_failed");
  await fails(api.POST("/api/v1/dossiers/{id}/cv", { ...onDealStale, ...rawPdf(PDF) }), 412, "precondition_failed");
  await fails(api.PATCH("/api/v1/contacts/{id}", { ...onJaneStale, body: { city: "Lost" } }), 412, "precondition_failed");
  await fails(api.DELETE("/api/v1/contacts/{id}", onJaneStale), 412, "precondition_failed");

  const settings = await settingsScenario(api, fixtures);

  // Members and sessions (C12, C20). The owner comes in by the first start's link, which also
  // wants an email no member has.
  const anon = client(fixtures, null);
  const ann = (await ok(api.POST("/api/v1/members", { body: { email: "ann@scenario.example", name: "Ann", role: "member" } }), 201)).data;
  check(ann.role === "member" && tokenOf(ann.setup_url).length === 43 && ann.disabled_at === null, "created member");
  const ownerSetup = { token: fixtures.ownerSetupToken, password: PASSWORD, email: "owner@scenario.example", name: "The Owner" };
  await fails(anon.POST("/api/v1/session/setup", { body: { ...ownerSetup, email: "ANN@scenario.example" } }), 409, "duplicate_member");
  await fails(anon.POST("/api/v1/session/setup", { body: { token: fixtures.ownerSetupToken, password: PASSWORD } }), 400, "invalid_body");
  const owner = sessionClient(fixtures, signedIn(await anon.POST("/api/v1/session/setup", { body: ownerSetup }), "the owner's setup"));
  await fails(anon.POST("/api/v1/session/setup", { body: ownerSetup }), 400, "invalid_setup_link");
  await fails(anon.POST("/api/v1/session/setup", { body: { token: "x", password: big(MB + 1) } }), 413, "payload_too_large");
  const me = (await ok(owner.GET("/api/v1/session"), 200)).data;
  check(me.member.role === "owner" && me.csrf_token.length > 0, "the owner's session");
  const crew = await ok(owner.GET("/api/v1/members"), 200);
  check(crew.meta.total === 2 && crew.meta.per_page === 2, "members, not paginated");
  await fails(api.POST("/api/v1/members", { body: { email: "Ann@Scenario.example", name: "Ann again", role: "viewer" } }), 409, "duplicate_member");
  await fails(api.POST("/api/v1/members", { body: { email: "x@scenario.example", name: "X", role: "boss" as never } }), 400, "invalid_body");
  await fails(api.POST("/api/v1/members", { body: { email: "x@scenario.example", name: big(MB + 1), role: "viewer" } }), 413, "payload_too_large");
  await fails(api.POST("/api/v1/members", { body: { email: "o@scenario.example", name: "O", role: "owner" } }), 403, "forbidden");
  const onAnn = { params: { path: { id: ann.id } } };
  check((await ok(api.PATCH("/api/v1/members/{id}", { ...onAnn, body: { name: "Ann B", role: "viewer" } }), 200)).data.role === "viewer", "patched member");
  await fails(api.PATCH("/api/v1/members/{id}", { params: { path: { id: NOBODY } }, body: { name: "Nobody" } }), 404, "not_found");
  await fails(api.PATCH("/api/v1/members/{id}", { ...onAnn, body: { name: 3 as never } }), 400, "invalid_body");
  await fails(api.PATCH("/api/v1/members/{id}", { ...onAnn, body: { name: big(MB + 1) } }), 413, "payload_too_large");
  const onOwner = { params: { path: { id: me.member.id } } };
  await fails(owner.PATCH("/api/v1/members/{id}", { ...onOwner, body: { role: "admin" } }), 409, "last_owner");
  await fails(owner.DELETE("/api/v1/members/{id}", onOwner), 409, "last_owner");
  const link = (await ok(api.POST("/api/v1/members/{id}/setup-link", onAnn), 200)).data;
  await fails(api.POST("/api/v1/members/{id}/setup-link", { params: { path: { id: NOBODY } } }), 404, "not_found");
  const annIn = signedIn(await anon.POST("/api/v1/session/setup", { body: { token: tokenOf(link.setup_url), password: PASSWORD } }), "Ann's setup");
  await fails(sessionClient(fixtures, annIn, "https://elsewhere.example").GET("/api/v1/session"), 403, "csrf_failed");
  // A member's own settings and calendar link (C22).
  const annClient = sessionClient(fixtures, annIn);
  check((await ok(annClient.GET("/api/v1/session/member"), 200)).data.digest === true, "my settings");
  check((await ok(annClient.PATCH("/api/v1/session/member", { body: { time_zone: "Europe/Paris", digest: false } }), 200)).data.time_zone === "Europe/Paris", "my settings changed");
  await fails(annClient.PATCH("/api/v1/session/member", { body: { time_zone: "Nowhere/Else" } }), 400, "invalid_body");
  await fails(api.PATCH("/api/v1/session/member", { body: { time_zone: big(MB + 1) } }), 413, "payload_too_large");
  check((await ok(annClient.POST("/api/v1/session/calendar-link"), 201)).data.url.endsWith(".ics"), "a calendar link");
  const elsewhere = sessionClient(fixtures, annIn, "https://elsewhere.example");
  await fails(elsewhere.GET("/api/v1/session/member"), 403, "csrf_failed");
  await fails(elsewhere.PATCH("/api/v1/session/member", { body: { digest: true } }), 403, "csrf_failed");
  await fails(elsewhere.POST("/api/v1/session/calendar-link"), 403, "csrf_failed");
  // The mail log (C22): an admin's read.
  check((await ok(api.GET("/api/v1/mail-log", { params: { query: { page: 1, per_page: 10 } } }), 200)).meta.page === 1, "the mail log");
  await fails(api.GET("/api/v1/mail-log", { params: { query: { per_page: 0 } } }), 400, "invalid_body");
  await fails(sessionClient(fixtures, { ...annIn, csrf: "forged" }).DELETE("/api/v1/session"), 403, "csrf_failed");
  check((await ok(sessionClient(fixtures, annIn).DELETE("/api/v1/session"), 200)).data.signed_out === true, "signed out");
  await fails(sessionClient(fixtures, annIn).GET("/api/v1/session"), 401, "unauthorized");
  await fails(anon.POST("/api/v1/session", { body: { email: "ann@scenario.example", password: "not her password" } }), 401, "invalid_credentials");
  await fails(anon.POST("/api/v1/session", { body: { email: "ann@scenario.example" } as never }), 400, "invalid_body");
  await fails(anon.POST("/api/v1/session", { body: { email: "ann@scenario.example", password: big(MB + 1) } }), 413, "payload_too_large");
  const annAgain = signedIn(await anon.POST("/api/v1/session", { body: { email: "ann@scenario.example", password: PASSWORD } }), "Ann's sign-in");
  for (let i = 0; i < 5; i++) await fails(anon.POST("/api/v1/session", { body: { email: "guess@scenario.example", password: "a guess of ten" } }), 401, "invalid_credentials");
  await fails(anon.POST("/api/v1/session", { body: { email: "guess@scenario.example", password: "a guess of ten" } }), 429, "rate_limited");
  const bo = (await ok(api.POST("/api/v1/members", { body: { email: "bo@scenario.example", name: "Bo", role: "viewer" } }), 201)).data;
  check((await ok(api.DELETE("/api/v1/members/{id}", { params: { path: { id: bo.id } } }), 200)).data.disabled_at !== null, "disabled member");
  await fails(api.DELETE("/api/v1/members/{id}", { params: { path: { id: NOBODY } } }), 404, "not_found");
  // A member whose link is still unused when writes fail (below).
  const cy = (await ok(api.POST("/api/v1/members", { body: { email: "cy@scenario.example", name: "Cy", role: "viewer" } }), 201)).data;

  // The statuses every route shares, in C3's order of checks.
  await expectEvery(everyRoute(client(fixtures, null), NOBODY), 401, "unauthorized");
  await expectEvery(everyRoute(client(fixtures, "svc_live_" + "0".repeat(32)), NOBODY), 401, "unauthorized");
  await expectEvery(sessionCalls(client(fixtures, null)), 401, "unauthorized");
  await expectEvery(sessionCalls(client(fixtures, fixtures.keys.none)), 401, "unauthorized");
  await expectEvery(everyRoute(client(fixtures, fixtures.keys.pro), NOBODY), 402, "plan_required");
  await expectEvery(sessionCalls(client(fixtures, fixtures.keys.pro)), 402, "plan_required");
  await expectEvery(everyRoute(client(fixtures, fixtures.keys.none), NOBODY), 403, "forbidden");
  const limited = client(fixtures, fixtures.keys.limited);
  await ok(limited.GET("/api/v1/flows"), 200); // the window's one request
  await expectEvery(everyRoute(limited, NOBODY), 429, "rate_limited");
  await expectEvery(sessionCalls(limited), 429, "rate_limited");

  // A disk with no room for a CV: 507, and the server goes on (C11).
  if (fixtures.fillFilesDisk()) {
    try {
      const tooBig = pdfOf(2 * MB);
      await fails(api.POST("/api/v1/dossiers/{id}/cv", { ...onDeal, ...rawPdf(tooBig) }), 507, "insufficient_storage");
      await fails(
        api.POST("/api/v1/dossiers", {
          body: { type: "candidate", name: "Big CV", cv: pdfFile(tooBig) },
          bodySerializer: multipart,
        }),
        507,
        "insufficient_storage",
      );
    } finally {
      fixtures.freeFilesDisk();
    }
  }

  const carol = (await ok(api.POST("/api/v1/contacts", { body: { full_name: "Carol" } }), 201)).data;
  // Bodies that stall: 408, all at once (C20).
  await expectEvery([...everyBodyStalled(api, deal.id, carol.id, settings, ann.id), intakeStalled(postman, token)], 408, "request_timeout");

  // A write the database cannot make: 503, and every write after it too, until a restart (C11).
  await fixtures.fillDatabaseDisk();
  await fails(api.POST("/api/v1/contacts", { body: { full_name: "Too much", notes: big(20_000) } }), 503, "storage_unavailable");
  await expectEvery(
    [...everyWrite(api, deal.id, carol.id, recruitment!.id, settings, ann.id), postman.POST("/api/v1/intake/{token}", { ...onToken, ...message() })],
    503,
    "storage_unavailable",
  );
  await fails(sessionClient(fixtures, annAgain).PATCH("/api/v1/session/member", { body: { digest: true } }), 503, "storage_unavailable");
  await fails(sessionClient(fixtures, annAgain).POST("/api/v1/session/calendar-link"), 503, "storage_unavailable");
  await fails(sessionClient(fixtures, annAgain).DELETE("/api/v1/session"), 503, "storage_unavailable");
  await fails(anon.POST("/api/v1/session", { body: { email: "ann@scenario.example", password: PASSWORD } }), 503, "storage_unavailable");
  await fails(anon.POST("/api/v1/session/setup", { body: { token: tokenOf(cy.setup_url), password: PASSWORD } }), 503, "storage_unavailable");
  await ok(api.GET("/api/v1/dossiers/{id}", onDeal), 200);
  const full = await client(fixtures, null).GET("/healthz");
  check(full.response.status === 503 && full.error?.status === "storage_unavailable", `healthz after a failed write: ${await describe(full)}`);

  await fixtures.breakDatabase();
  await expectEvery([...everyRoute(api, deal.id, settings.eventId), postman.POST("/api/v1/intake/{token}", { ...onToken, ...message() })], 500, "internal");
  await expectEvery(sessionCalls(api), 500, "internal");
  // Signing in reads members: with their table gone too, 500.
  await fails(anon.POST("/api/v1/session", { body: { email: "ann@scenario.example", password: PASSWORD } }), 500, "internal");
  await fails(anon.POST("/api/v1/session/setup", { body: { token: tokenOf(cy.setup_url), password: PASSWORD } }), 500, "internal");

  // A database that no longer answers: /healthz says so (C2).
  await fixtures.closeDatabase();
  const down = await client(fixtures, null).GET("/healthz");
  check(down.response.status === 503 && down.error?.status === "unavailable", `healthz on a closed database: ${await describe(down)}`);
  // Signing in reads members: on a database that no longer answers, 500 on SQLite (a closed
  // handle), 503 on PostgreSQL (an outage, C19).
  const { status, code } = fixtures.closedDatabaseAnswer;
  await fails(anon.POST("/api/v1/session", { body: { email: "late@scenario.example", password: PASSWORD } }), status, code);
  await fails(anon.POST("/api/v1/session/setup", { body: { token: tokenOf(cy.setup_url), password: PASSWORD } }), status, code);
}

/** The settings calls of C13: keys, the webhook endpoint, the delivery log, flows and stages. Leaves
 * a flow, a stage, a key and a delivery for the statuses every route shares. */
async function settingsScenario(api: Api, fixtures: Fixtures): Promise<SettingsIds> {
  // Flows and stages.
  const flow = (
    await ok(api.POST("/api/v1/flows", { body: { type: "candidate", name: " Engineering ", stages: [{ name: "Applied", deadline_days: 3 }, { name: "Hired" }] } }), 201)
  ).data;
  check(flow.name === "Engineering" && flow.is_default === false && flow.stages[1].position === 2 && flow.stages[1].color === "#9E9E9E", "created flow");
  await fails(api.POST("/api/v1/flows", { body: { type: "candidate", name: "Empty", stages: [] } }), 400, "invalid_body");
  await fails(api.POST("/api/v1/flows", { body: { type: "candidate", name: big(MB + 1), stages: [{ name: "One" }] } }), 413, "payload_too_large");
  const onFlow = { params: { path: { id: flow.id } } };
  const renamed = (await ok(api.PATCH("/api/v1/flows/{id}", { ...onFlow, body: { name: "Engineering 2027", is_default: true } }), 200)).data;
  check(renamed.name === "Engineering 2027" && renamed.is_default, "renamed default flow");
  await fails(api.PATCH("/api/v1/flows/{id}", { ...onFlow, body: { is_default: false } }), 400, "invalid_body");
  await fails(api.PATCH("/api/v1/flows/{id}", { params: { path: { id: NOBODY } }, body: { name: "x" } }), 404, "not_found");
  await fails(api.PATCH("/api/v1/flows/{id}", { ...onFlow, body: { name: big(MB + 1) } }), 413, "payload_too_large");
  const added = (await ok(api.POST("/api/v1/flows/{id}/stages", { ...onFlow, body: { name: "Interview", position: 2, win_probability: 50 } }), 201)).data;
  check(added.position === 2 && added.win_probability === 50, "added stage");
  await fails(api.POST("/api/v1/flows/{id}/stages", { ...onFlow, body: { name: "Far", position: 9 } }), 400, "invalid_body");
  await fails(api.POST("/api/v1/flows/{id}/stages", { params: { path: { id: NOBODY } }, body: { name: "x" } }), 404, "not_found");
  await fails(api.POST("/api/v1/flows/{id}/stages", { ...onFlow, body: { name: big(MB + 1) } }), 413, "payload_too_large");
  const onAdded = { params: { path: { id: added.id } } };
  const moved = (await ok(api.PATCH("/api/v1/stages/{id}", { ...onAdded, body: { position: 3, color: "#FFB74D", deadline_days: null } }), 200)).data;
  check(moved.position === 3 && moved.color === "#FFB74D", "moved stage");
  await fails(api.PATCH("/api/v1/stages/{id}", { ...onAdded, body: { position: 4 } }), 400, "invalid_body");
  await fails(api.PATCH("/api/v1/stages/{id}", { params: { path: { id: NOBODY } }, body: { name: "x" } }), 404, "not_found");
  await fails(api.PATCH("/api/v1/stages/{id}", { ...onAdded, body: { name: big(MB + 1) } }), 413, "payload_too_large");
  const held = (await ok(api.POST("/api/v1/dossiers", { body: { type: "candidate", name: "Grace", flow_id: flow.id } }), 201)).data;
  await fails(api.DELETE("/api/v1/stages/{id}", { params: { path: { id: held.current_stage_id! } } }), 409, "stage_not_empty");
  const deleted = (await ok(api.DELETE("/api/v1/stages/{id}", onAdded), 200)).data;
  check(deleted.id === added.id && deleted.deleted, "deleted stage");
  await fails(api.DELETE("/api/v1/stages/{id}", onAdded), 404, "not_found");
  const solo = (await ok(api.POST("/api/v1/flows", { body: { type: "sales", name: "Solo", stages: [{ name: "Only" }] } }), 201)).data;
  await fails(api.DELETE("/api/v1/stages/{id}", { params: { path: { id: solo.stages[0].id } } }), 409, "last_stage");

  // Keys.
  const made = (await ok(api.POST("/api/v1/keys", { body: { scopes: ["dossiers:read"], name: "Reader", expires_at: "2099-01-01T00:00:00.000Z" } }), 201)).data;
  check(made.key.startsWith("svc_live_") && made.scopes[0] === "dossiers:read", "created key");
  await fails(api.POST("/api/v1/keys", { body: { scopes: ["root" as never] } }), 400, "invalid_body");
  await fails(api.POST("/api/v1/keys", { body: { scopes: ["dossiers:read"], name: big(MB + 1) } }), 413, "payload_too_large");
  const listedKeys = await ok(api.GET("/api/v1/keys"), 200);
  check(listedKeys.meta.per_page === listedKeys.data.length && listedKeys.data.some((k) => k.id === made.id && k.prefix === made.key.slice(0, 12)), "listed keys");
  const revoked = (await ok(api.DELETE("/api/v1/keys/{id}", { params: { path: { id: made.id } } }), 200)).data;
  check(revoked.revoked_at !== null, "revoked key");
  await fails(api.DELETE("/api/v1/keys/{id}", { params: { path: { id: NOBODY } } }), 404, "not_found");
  const spare = (await ok(api.POST("/api/v1/keys", { body: { scopes: ["notes:read"] } }), 201)).data;

  // The webhook endpoint.
  await fails(api.GET("/api/v1/webhook-endpoint"), 404, "not_found");
  await fails(api.POST("/api/v1/webhook-endpoint/rotate-secret"), 404, "not_found");
  const set = (await ok(api.PUT("/api/v1/webhook-endpoint", { body: { url: HOOK } }), 200)).data;
  check(set.secret.startsWith("whsec_") && set.enabled, "set endpoint");
  await fails(api.PUT("/api/v1/webhook-endpoint", { body: { url: "http://169.254.169.254/latest/meta-data" } }), 400, "invalid_body");
  await fails(api.PUT("/api/v1/webhook-endpoint", { body: { url: big(MB + 1) } }), 413, "payload_too_large");
  check((await ok(api.GET("/api/v1/webhook-endpoint"), 200)).data.url === HOOK, "endpoint");
  check((await ok(api.POST("/api/v1/webhook-endpoint/rotate-secret"), 200)).data.secret !== set.secret, "rotated secret");

  // The delivery log: events made while the endpoint is set wait for a dispatcher this server does not run.
  await ok(api.POST("/api/v1/dossiers", { body: { type: "candidate", name: "Hedy", flow_id: flow.id } }), 201);
  const log = await ok(api.GET("/api/v1/webhook-deliveries", { params: { query: { status: "pending", type: "dossier.created", page: 1, per_page: 10 } } }), 200);
  check(log.meta.total >= 1 && log.data[0].status === "pending", "pending deliveries");
  const eventId = log.data[0].event_id;
  await fails(api.GET("/api/v1/webhook-deliveries", { params: { query: { per_page: 0 } } }), 400, "invalid_body");
  const firstDelivery = await ok(api.GET("/api/v1/webhook-deliveries", { params: { query: { per_page: 1 } } }), 200);
  if (firstDelivery.meta.next_after !== null) {
    const nextDelivery = await ok(api.GET("/api/v1/webhook-deliveries", { params: { query: { per_page: 1, after: firstDelivery.meta.next_after } } }), 200);
    check(nextDelivery.data[0].event_id < firstDelivery.data[0].event_id, "a cursor page of deliveries");
  }
  // A cursor of another list (the dossiers'), made as the server makes one.
  const dossierCursor = `v1.${Buffer.from(JSON.stringify(["dossiers", "2026-01-01T00:00:00.000Z", NOBODY])).toString("base64url")}`;
  await fails(api.GET("/api/v1/webhook-deliveries", { params: { query: { after: dossierCursor } } }), 400, "invalid_body");
  const onEvent = { params: { path: { event_id: eventId } } };
  check((await ok(api.GET("/api/v1/webhook-deliveries/{event_id}", onEvent), 200)).data.attempt_log.length === 0, "one delivery");
  await fails(api.GET("/api/v1/webhook-deliveries/{event_id}", { params: { path: { event_id: "evt_00000000000000000000000000" } } }), 404, "not_found");
  await fails(api.POST("/api/v1/webhook-deliveries/{event_id}/retry", onEvent), 409, "delivery_not_failed");
  await fails(api.POST("/api/v1/webhook-deliveries/{event_id}/retry", { params: { path: { event_id: "nope" } } }), 404, "not_found");
  await fixtures.failPendingDeliveries();
  check((await ok(api.POST("/api/v1/webhook-deliveries/{event_id}/retry", onEvent), 200)).data.status === "pending", "retried delivery");

  check((await ok(api.DELETE("/api/v1/webhook-endpoint"), 200)).data.enabled === false, "removed endpoint");
  // An endpoint again, so that the writes below reach the store.
  await ok(api.PUT("/api/v1/webhook-endpoint", { body: { url: HOOK } }), 200);
  return { flowId: flow.id, stageId: flow.stages[0].id, keyId: spare.id, eventId };
}
