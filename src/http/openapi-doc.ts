// Each route's OpenAPI operation, built from the same TypeBox schemas that validate and shape it.
// The document must not lie: every status a route can answer is listed here with its exact
// body schema, and test/openapi/contract.test.ts runs every route against a real server and checks
// each answer (status, body, headers) against this document.
import type { TSchema } from "@sinclair/typebox";
import type { DocumentDecoration } from "elysia";
import { STATUS_OF, type ErrorCode } from "../errors";
import type { Scope } from "../services/keys";
import { documentSchema, refTo } from "./openapi-components";

/** Failures any authenticated route can give (C3's order of checks, C8; csrf_failed: by the session cookie, C12, C20). */
const AUTH_ERRORS: ErrorCode[] = ["unauthorized", "plan_required", "rate_limited", "csrf_failed", "forbidden", "internal"];

/** When each code is answered (api-v1 "Errors", C3, C8, C9), and an example message. */
const ERROR_DOCS: Record<ErrorCode, { when: string; message: string }> = {
  invalid_body: {
    when: "A missing or unknown field, a value of the wrong type or out of its limits, malformed JSON, a JSON endpoint called without Content-Type: application/json, or an invalid query parameter",
    message: "name is required",
  },
  unauthorized: {
    when: "A missing, malformed, unknown, revoked or expired API key, or, without an Authorization header, a session cookie that is unknown, ended or a disabled member's (the message does not say which)",
    message: "a valid API key is required: Authorization: Bearer svc_live_...",
  },
  plan_required: { when: "The organization is on the Free or Pro plan; the API requires Growth", message: "the API requires the Growth plan; this organization is on pro" },
  forbidden: {
    when: "The key or the member's role lacks a scope this operation requires, or the change gives a role or a setup link beyond what the caller holds",
    message: "this key lacks the scope dossiers:write",
  },
  not_found: {
    when: "A path id that is malformed, unknown or another organization's; or, where stated, an id in the body that is not the organization's",
    message: "dossier not found",
  },
  duplicate_contact: { when: "Another contact of the organization has this email (compared case-insensitively)", message: "a contact with this email already exists in the organization" },
  file_too_large: { when: "A CV over 10 MB (10,485,760 bytes), or a multipart body over 11 MB", message: "the CV is larger than 10 MB" },
  payload_too_large: { when: "A JSON body over 1 MB (1,048,576 bytes); a CSV import over 50 MB or 200,000 rows", message: "the JSON body is larger than 1 MB" },
  unsupported_media_type: { when: "A Content-Type that is neither multipart/form-data nor application/pdf", message: "send the CV as multipart/form-data (field cv) or as application/pdf" },
  rate_limited: { when: "The organization's rate limit (requests per sliding 60 s) is used up; Retry-After says when to try again", message: "rate limit of 600 requests per minute exceeded" },
  internal: { when: "An unexpected server error; the details are logged with the request id. Safe to retry", message: "an unexpected error occurred; it is safe to retry" },
  request_timeout: {
    when: "The request body stalled for 30 s (from the headers or from its last byte), or came slower than 10 KB/s on average after its first 30 s; the connection is closed",
    message: "the request body did not arrive in time",
  },
  storage_unavailable: {
    when: "A write to the database failed (disk full, I/O error): nothing of the request was kept, and the server refuses every change until it is restarted; reads still work. Or, with CVs on S3-compatible storage, the bucket could not be reached: nothing of the request was kept, and later requests may succeed",
    message: "the server cannot store changes right now; nothing was saved",
  },
  insufficient_storage: { when: "There is no space left to store the CV; nothing of the request was kept", message: "there is no space left to store the CV; nothing was saved" },
  invalid_setup_link: { when: "A setup link that is unknown, used, expired, replaced by a newer one, or a disabled member's", message: "this setup link is unknown, used or expired" },
  invalid_credentials: { when: "A wrong email or password (the same answer, in about the same time, for an unknown email)", message: "wrong email or password" },
  csrf_failed: {
    when: "A change authenticated by the session cookie without an X-CSRF-Token equal to the session's, or with an Origin that is not this server's",
    message: "the X-CSRF-Token header is missing or wrong",
  },
  duplicate_member: { when: "A member of the installation already has this email (compared case-insensitively)", message: "a member with this email already exists" },
  last_owner: { when: "The change would leave the organization without an owner", message: "the organization must keep at least one owner" },
  stage_not_empty: { when: "A stage that holds dossiers (archived ones too) cannot be deleted", message: "the stage holds dossiers" },
  last_stage: { when: "A flow keeps at least one stage", message: "a flow keeps at least one stage" },
  delivery_not_failed: { when: "Only a failed delivery can be retried", message: "the delivery has not failed" },
  idempotency_key_in_use: { when: "A request with this Idempotency-Key is still running", message: "a request with this Idempotency-Key is still running" },
  cursor_expired: { when: "The `after` event is unknown, another organization's, or older than the retention: start again without `after`", message: "the event after which to read is unknown or pruned" },
  precondition_failed: { when: "If-Match does not match the record's current ETag: someone changed it first; nothing was changed", message: "the record changed since it was read" },
  idempotency_key_reused: { when: "This Idempotency-Key was used with another method, path or body", message: "this Idempotency-Key was used for another request" },
  server_busy: {
    when: "Too many password checks are waiting, or the bodies of the requests in flight already hold the server's memory for bodies (DOSSIER_BODY_MEMORY); Retry-After says when to try again",
    message: "the server is busy; try again in a moment",
  },
  import_not_revertable: {
    when: "Only a succeeded import that is not a dry run can be reverted: this one is queued, running, failed, a dry run, or reverted already",
    message: "only a succeeded import can be reverted; this one is running",
  },
};

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  402: "Payment Required",
  403: "Forbidden",
  404: "Not Found",
  408: "Request Timeout",
  410: "Gone",
  412: "Precondition Failed",
  409: "Conflict",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
  507: "Insufficient Storage",
};

type Header = { description: string; required: boolean; schema: Record<string, unknown> };
type HeaderRef = { $ref: string };

const REQUEST_ID: Header = {
  description: "The request's id: the client's X-Request-Id when it is 1 to 100 of A-Z a-z 0-9 . _ : -, else a generated one. Quote it when reporting a problem",
  required: true,
  schema: { type: "string", pattern: "^[A-Za-z0-9._:-]{1,100}$" },
};

/** Rate-limit headers (C8, C10): on every answer to a request whose key names an organization. */
const rateLimitHeaders = (required: boolean): Record<string, Header> => ({
  "X-RateLimit-Limit": { description: "Requests allowed per sliding 60 s window for the organization", required, schema: { type: "integer", minimum: 1 } },
  "X-RateLimit-Remaining": { description: "Requests left in the window after this one", required, schema: { type: "integer", minimum: 0 } },
  "X-RateLimit-Reset": { description: "Seconds until a counted request leaves the window (0 when none is counted)", required, schema: { type: "integer", minimum: 0 } },
});

/** On a 201 (issue 38). */
const LOCATION: Header = { description: "The created resource's URL, under /api/v1 (e.g. /api/v1/dossiers/{id})", required: true, schema: { type: "string", pattern: "^/api/v1/" } };

/** On every 401 (RFC 9110, issue 38): the scheme to authenticate with. */
const WWW_AUTHENTICATE: Header = { description: "`Bearer`: send an API key as Authorization: Bearer svc_live_...", required: true, schema: { type: "string", const: "Bearer" } };

const RETRY_AFTER: Header = { description: "Whole seconds to wait before the next request is accepted", required: true, schema: { type: "integer", minimum: 1 } };

/** `components.headers`: each header the answers carry, described once and referred to by name. */
export const HEADER_COMPONENTS: Record<string, Header> = { "X-Request-Id": REQUEST_ID, ...rateLimitHeaders(true), "Retry-After": RETRY_AFTER };

const headerRef = (name: keyof typeof HEADER_COMPONENTS): HeaderRef => ({ $ref: `#/components/headers/${name}` });

/** The headers of an answer outside the API's authentication (e.g. GET /healthz): the request id only. */
export const requestIdHeaders = (): Record<string, HeaderRef> => ({ "X-Request-Id": headerRef("X-Request-Id") });

/** The headers of an answer with this status. A 401 names no organization, so it carries no
 * rate-limit headers; a 500 carries them only when the failure came after the key was checked. */
function headersFor(status: number): Record<string, Header | HeaderRef> {
  if (status === 401) return { ...requestIdHeaders(), "WWW-Authenticate": WWW_AUTHENTICATE };
  if (status === 500) return { ...requestIdHeaders(), ...rateLimitHeaders(false) };
  const headers: Record<string, Header | HeaderRef> = { ...requestIdHeaders() };
  for (const name of Object.keys(rateLimitHeaders(true))) headers[name] = headerRef(name);
  if (status === 429) headers["Retry-After"] = headerRef("Retry-After");
  return headers;
}

/** The headers of an answer to a request that no key or session speaks for (a token in its path,
 * C15; signing in, C12): no organization's rate-limit headers (C20), Retry-After on a 429, and on a
 * 503 when it is server_busy. */
function tokenHeadersFor(status: number): Record<string, Header | HeaderRef> {
  if (status === 401) return { ...requestIdHeaders(), "WWW-Authenticate": WWW_AUTHENTICATE };
  if (status === 429) return { ...requestIdHeaders(), "Retry-After": headerRef("Retry-After") };
  if (status === 503) return { ...requestIdHeaders(), "Retry-After": { ...RETRY_AFTER, required: false, description: "With server_busy: whole seconds to wait" } };
  return requestIdHeaders();
}

/** The error envelope of one status: the named `Error`, its `code` narrowed to the codes this
 * operation gives there (so a generated client knows which codes each answer can carry). */
function errorResponse(status: number, codes: ErrorCode[], headersOf = headersFor) {
  const code = codes.length === 1 ? { const: codes[0] } : { enum: codes };
  const narrowed = {
    type: "object",
    required: ["error"],
    properties: { error: { type: "object", required: ["code", "message"], properties: { code, message: { type: "string" } } } },
  };
  return {
    description: `${STATUS_TEXT[status] ?? "Error"}: ${codes.map((c) => `\`${c}\`: ${ERROR_DOCS[c].when}.`).join(" ")}`,
    headers: headersOf(status),
    content: {
      "application/json": {
        schema: { allOf: [refTo("Error"), narrowed] },
        examples: Object.fromEntries(codes.map((c) => [c, { summary: c, value: { error: { code: c, message: ERROR_DOCS[c].message } } }])),
      },
    },
  };
}

/** `components.responses`: each distinct error answer, by name. 413 answers in 51 operations are 41
 * distinct ones: each is written once and the operations refer to it, which keeps the document
 * small for a reference page to read (issue 38: /docs took seconds over the whole document). */
const ERROR_RESPONSES = new Map<string, { text: string; response: unknown }>();

export const responseComponents = (): Record<string, unknown> =>
  Object.fromEntries([...ERROR_RESPONSES].sort(([a], [b]) => a.localeCompare(b)).map(([name, { response }]) => [name, response]));

const pascal = (code: string) => code.split("_").map((word) => word[0].toUpperCase() + word.slice(1)).join("");

/** The error answer of one status as a reference to its component, named after its codes
 * (`NotFound`, `CsrfFailedOrForbidden`), `NoKey` for the headers of an answer no key speaks for. */
function namedErrorResponse(status: number, codes: ErrorCode[], byKey: boolean) {
  const response = errorResponse(status, codes, byKey ? headersFor : tokenHeadersFor);
  const name = codes.map(pascal).join("Or") + (byKey ? "" : "NoKey");
  const text = JSON.stringify(response);
  const known = ERROR_RESPONSES.get(name);
  if (known && known.text !== text) throw new Error(`two different error answers would be named ${name}`);
  ERROR_RESPONSES.set(name, { text, response });
  return { $ref: `#/components/responses/${name}` };
}

/** A success answer: what it means (not just "OK": the contract test refuses a status text), and
 * its body: a JSON envelope, or another media type (e.g. the CV download) with its headers. */
export interface Answer {
  description: string;
  schema: TSchema;
  mediaType?: string;
  headers?: Record<string, Header>;
}

export interface OperationDoc {
  /** A stable operationId: the method name a generated client gets. */
  id: string;
  summary: string;
  tag: string;
  scopes: Scope[];
  description?: string;
  /** Path parameters (uuids, unless `idPattern`) and what they name. */
  params?: Record<string, string>;
  /** The path ids' pattern when they are not uuids. */
  idPattern?: string;
  /** Query parameters, all optional; an array schema is a parameter that may repeat. */
  query?: Record<string, TSchema>;
  /** The JSON request body. */
  body?: TSchema;
  /** Other request bodies by media type, e.g. multipart/form-data. */
  bodies?: Record<string, TSchema>;
  responses: Record<number, Answer>;
  /** Error codes beyond AUTH_ERRORS that this operation can answer. */
  errors?: ErrorCode[];
  /** `path-token`: no API key, the secret token in the path is the principal (POST /intake/{token},
   * C15): no security scheme, no scopes, no rate-limit headers (C20); its errors are all in
   * `errors`. `none`: the way in (signing in, C12): likewise, with no principal at all. Default:
   * an API key or a session (the cookie). */
  auth?: "key" | "path-token" | "none";
  /** Takes an Idempotency-Key (C16). */
  idempotent?: boolean;
  /** One record's representation (C16): `read` answers ETag and takes If-None-Match (304);
   * `write` takes If-Match (412), and with `tagged` answers the record's new ETag. */
  conditional?: "read" | "write";
  tagged?: boolean;
  /** A 201 carries Location, the created resource's URL (issue 38). */
  location?: boolean;
}

/** `components.securitySchemes`: an API key (the way for programs), or the session cookie of a
 * signed-in member (C12, C20: an added way in). */
export const SECURITY_SCHEMES = {
  bearerAuth: { type: "http", scheme: "bearer", description: "An API key: svc_live_ followed by 32 letters and digits." },
  cookieAuth: {
    type: "apiKey",
    in: "cookie",
    name: "dossier_session",
    description:
      "A signed-in member's session (POST /session). Used only when no Authorization header is sent. Every POST, PATCH, PUT and DELETE made with it needs X-CSRF-Token (the session's csrf_token), and an Origin, when sent, must be this server's: else 403 csrf_failed.",
  },
};

/** Who may call an operation: a key or a session. */
export const SECURITY = [{ bearerAuth: [] }, { cookieAuth: [] }];

const ETAG: Header = {
  description: "The record's strong ETag, over its whole representation: send it back in If-Match to change the record only if nobody changed it since (C16)",
  required: true,
  schema: { type: "string", pattern: '^"[A-Za-z0-9_-]+"$' },
};
const REPLAYED: Header = {
  description: "`true` on an answer given again for a repeated Idempotency-Key; absent on the first answer (C16)",
  required: false,
  schema: { type: "string", const: "true" },
};

const IDEMPOTENCY_KEY: Parameter = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "1 to 255 printable ASCII characters (else 400 invalid_body), unique per request, kept 24 hours for the key or member that sent it. " +
    "The first answer (except 401, 402, 403, 429 and 5xx) is stored with the request's effect; the same key with the same method, path and " +
    "body (byte for byte) answers it again with Idempotent-Replayed: true and changes nothing; with another method, path or body: 422 " +
    "idempotency_key_reused; while the first is running: 409 idempotency_key_in_use.",
  schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x20-\\x7E]+$" },
};
const IF_MATCH: Parameter = {
  name: "If-Match",
  in: "header",
  required: false,
  description: "The ETag the change is based on (or `*`): when the record's current ETag differs, 412 precondition_failed and nothing changes",
  schema: { type: "string" },
};
const IF_NONE_MATCH: Parameter = {
  name: "If-None-Match",
  in: "header",
  required: false,
  description: "The ETag of the copy the client holds: when it is still the current one, 304 with no body",
  schema: { type: "string" },
};

const example = (schema: TSchema) => (Array.isArray(schema.examples) ? schema.examples[0] : undefined);

type Parameter = { name: string; in: string; required?: boolean; description?: string; schema: unknown; style?: string; explode?: boolean };

function pathParameter(name: string, description = "The resource's id", pattern?: string): Parameter {
  return {
    name,
    in: "path",
    required: true,
    description: `${description}. A malformed or unknown id answers 404 not_found.`,
    schema: pattern === undefined ? { type: "string", format: "uuid" } : { type: "string", pattern },
  };
}

/** The secret token of a path-token operation: not a uuid; an unknown one answers 404. */
function tokenParameter(name: string, description: string): Parameter {
  return { name, in: "path", required: true, description: `${description}. An unknown token answers 404 not_found.`, schema: { type: "string", pattern: "^[a-z0-9]{20,64}$" } };
}

export function operation(doc: OperationDoc): DocumentDecoration {
  const byKey = doc.auth === undefined || doc.auth === "key";
  const headersOf = byKey ? headersFor : tokenHeadersFor;
  const responses: Record<string, unknown> = {};
  const successHeaders = {
    ...(doc.conditional === "read" || doc.tagged ? { ETag: ETAG } : {}),
    ...(doc.idempotent ? { "Idempotent-Replayed": REPLAYED } : {}),
  };
  for (const [status, answer] of Object.entries(doc.responses)) {
    const created = status === "201" && doc.location ? { Location: LOCATION } : {};
    if (answer.mediaType) {
      responses[status] = {
        description: answer.description,
        headers: { ...headersOf(Number(status)), ...answer.headers, ...successHeaders },
        content: { [answer.mediaType]: { schema: documentSchema(answer.schema) } },
      };
      continue;
    }
    // A named schema carries its own examples; an inline one gets the example beside it.
    const schema = documentSchema(answer.schema);
    const sample = "$ref" in schema ? undefined : example(answer.schema);
    responses[status] = {
      description: answer.description,
      headers: { ...headersOf(Number(status)), ...successHeaders, ...created },
      content: { "application/json": { schema, ...(sample === undefined ? {} : { example: sample }) } },
    };
  }
  if (doc.conditional === "read") {
    responses["304"] = { description: "Not Modified: If-None-Match holds the current ETag; no body", headers: { ...headersOf(304), ETag: ETAG } };
  }
  const conditionErrors: ErrorCode[] = [
    ...(doc.conditional === "write" ? (["precondition_failed"] as const) : []),
    ...(doc.idempotent ? (["invalid_body", "idempotency_key_in_use", "idempotency_key_reused"] as const) : []),
  ];
  const byStatus = new Map<number, ErrorCode[]>();
  // Every operation that reads a body can find it stalled (C20).
  const bodyErrors: ErrorCode[] = doc.body || doc.bodies ? ["request_timeout"] : [];
  for (const code of [...(byKey ? AUTH_ERRORS : (["internal"] as ErrorCode[])), ...(doc.errors ?? []), ...bodyErrors, ...conditionErrors]) {
    const codes = byStatus.get(STATUS_OF[code]) ?? [];
    if (!codes.includes(code)) codes.push(code);
    byStatus.set(STATUS_OF[code], codes);
  }
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) responses[String(status)] = namedErrorResponse(status, codes, byKey);

  const content: Record<string, { schema: unknown; example?: unknown; encoding?: unknown }> = {};
  const bodies: [string, TSchema][] = [...(doc.body ? [["application/json", doc.body] as [string, TSchema]] : []), ...Object.entries(doc.bodies ?? {})];
  for (const [type, schema] of bodies) {
    const sample = example(schema);
    // A multipart file part (format binary) is a PDF: the only file this API takes.
    const files = type === "multipart/form-data" ? Object.entries(schema.properties ?? {}).filter(([, p]) => (p as TSchema).format === "binary") : [];
    content[type] = {
      schema: documentSchema(schema),
      ...(sample === undefined ? {} : { example: sample }),
      ...(files.length > 0 ? { encoding: Object.fromEntries(files.map(([name]) => [name, { contentType: "application/pdf" }])) } : {}),
    };
  }

  const query: Parameter[] = Object.entries(doc.query ?? {}).map(([name, schema]) => ({
    name,
    in: "query",
    required: false,
    ...(schema.description ? { description: String(schema.description) } : {}),
    schema: documentSchema(schema),
    ...(schema.type === "array" ? { style: "form", explode: true } : {}),
    ...(schema.type === "object" ? { style: "deepObject", explode: true } : {}),
  }));
  const declared = Object.entries(doc.params ?? {}).map(([name, description]) =>
    byKey ? pathParameter(name, description, doc.idPattern) : tokenParameter(name, description),
  );
  const headers = [
    ...(doc.idempotent ? [IDEMPOTENCY_KEY] : []),
    ...(doc.conditional === "write" ? [IF_MATCH] : []),
    ...(doc.conditional === "read" ? [IF_NONE_MATCH] : []),
  ];
  const parameters = [...declared, ...query, ...headers];

  const detail: Record<string, unknown> = {
    operationId: doc.id,
    summary: doc.summary,
    tags: [doc.tag],
    description: [doc.description, byKey ? `Required scopes: ${doc.scopes.map((s) => `\`${s}\``).join(", ") || "none"}.` : doc.auth === "none" ? "No API key nor session: this is the way in." : "No API key: the token in the path is the secret."]
      .filter(Boolean)
      .join("\n\n"),
    security: byKey ? SECURITY : [],
    ...(byKey ? { "x-scopes": doc.scopes } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(Object.keys(content).length > 0 ? { requestBody: { required: true, content } } : {}),
    responses,
  };
  // @elysiajs/openapi replaces `parameters` with the path's own, typed as plain strings (it reads
  // them from the route's Elysia `params` schema, which our routes do not declare: C3's order of
  // checks). The document is served as JSON, so the operation restores ours when it is serialized:
  // the path parameters the route has, typed as uuids and described, then the query parameters.
  detail.toJSON = function (this: Record<string, unknown>) {
    const { toJSON: _, ...rest } = this;
    const given = ((rest.parameters as Parameter[] | undefined) ?? []).filter((p) => p.in === "path");
    const path = given.map((p) => declared.find((d) => d.name === p.name) ?? pathParameter(p.name));
    const all = [...path, ...query, ...headers];
    return { ...rest, ...(all.length > 0 ? { parameters: all } : {}) };
  };
  return detail as DocumentDecoration;
}

/** The document's `tags`, in the order a reference page lists them, each with what it groups.
 * Every operation's tag is one of these (Spectral's operation-tag-defined; test/openapi). */
export const TAGS: { name: string; description: string }[] = [
  { name: "Operations", description: "For load balancers and supervisors: is the service up, and does its database answer" },
  { name: "Dossiers", description: "Candidates and sales leads: each in one flow and one stage, with its CV and history" },
  { name: "Notes", description: "A dossier's timeline of notes" },
  { name: "Contacts", description: "People of the organization's network, linked to any number of dossiers" },
  { name: "Imports", description: "CSV files of contacts or dossiers brought in the background, with a dry run, progress, errors by row and a revert" },
  { name: "Dossier-contact links", description: "Which contacts a dossier involves, in which role, and which one is primary" },
  { name: "Flows", description: "Pipelines of ordered stages, their intake addresses and their figures" },
  { name: "Events", description: "The feed of every event, the same bodies the webhooks send: read it with `after` to miss none" },
  { name: "Webhooks", description: "The endpoint events are sent to, its signing secret, and the delivery log" },
  { name: "Keys", description: "API keys and their scopes" },
  { name: "Members", description: "The people who sign in to the console, and their roles" },
  { name: "Session", description: "Signing in and out of the console (a cookie); programs use an API key instead" },
  { name: "Intake", description: "Mail that becomes a dossier (C15)" },
  { name: "Tasks", description: "Follow-ups with a due date, an assignee and a reminder by email (C22)" },
];

/** The introduction a reference page shows above the operations (`info.description`, Markdown). */
export const INTRODUCTION = `Dossier keeps an organization's recruitment and sales pipelines: **dossiers** (candidates and sales leads) move through the stages of **flows**, with **notes**, linked **contacts** and a CV, and every change is an **event**, sent to your **webhook** and kept in a feed. Every path is under \`/api/v1\`; bodies are JSON, except a CV (\`multipart/form-data\` or \`application/pdf\`).

## Keys and scopes

Send an API key on every request: \`Authorization: Bearer svc_live_...\`. A key belongs to one organization, and the organization must be on the Growth plan (else \`402 plan_required\`). Make keys with \`dossier key create\` or \`POST /api/v1/keys\`; a key is shown once. Each operation names the scopes it needs; a key without them gets \`403 forbidden\`:

| scope | allows |
|---|---|
| \`dossiers:read\`, \`dossiers:write\` | reading, creating and changing dossiers, their CVs and links |
| \`contacts:read\`, \`contacts:write\` | the organization's contacts |
| \`notes:read\`, \`notes:write\` | a dossier's notes |
| \`flows:read\`, \`flows:write\` | flows, stages, intake addresses and figures |
| \`events:read\` | the event feed |
| \`webhooks:manage\`, \`keys:manage\`, \`members:manage\` | the settings |

A missing or unknown key is \`401 unauthorized\` with \`WWW-Authenticate: Bearer\`. The answers to a known key carry \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\` (the organization's requests per sliding 60 s); past the limit, \`429 rate_limited\` with \`Retry-After\`.

## Pagination

Lists answer \`{"data": [...], "meta": {"total", "page", "per_page"}}\`. Ask for a page with \`page\` (from 1) and \`per_page\` (1 to 100, default 25); a page past the end answers \`data: []\` with the right \`total\`. Dossiers and contacts are newest first, notes oldest first. Pages by number shift while others write; to read a list whole (a sync), start with an ordinary first page and then pass its \`meta.next_after\` as \`after\` until it is null: each page follows the last item of the one before, so no item is skipped or repeated (dossiers, contacts, notes, tasks, imports, webhook deliveries). To keep a copy in sync afterwards, read what changed with \`updated_since\`, or follow \`GET /api/v1/events\` with \`after\` (its \`meta.next_after\`): the feed misses and repeats nothing.

## Errors

Every failure answers one envelope: \`{"error": {"code", "message", "param"?, "request_id"}}\`. \`code\` is stable (each operation lists the codes it can answer, by status); \`message\` is for people; \`param\` names the body field or query parameter at fault when there is one; \`request_id\` is the answer's \`X-Request-Id\`: quote it when asking about an answer. A \`500 internal\` is safe to retry; a \`503\` kept nothing of the request (\`server_busy\`: try again after \`Retry-After\`).

## Idempotency and concurrent changes

Send \`Idempotency-Key: <unique string>\` on a \`POST\` or \`PATCH\` that lists it (every one but those that answer a secret shown once) to retry it safely: for 24 hours the same key with the same request answers the first answer again (\`Idempotent-Replayed: true\`) and changes nothing more; with another request it is \`422 idempotency_key_reused\`. A record's answer carries its \`ETag\`: send it back in \`If-Match\` to change the record only if nobody changed it since (else \`412 precondition_failed\`), or in \`If-None-Match\` to read it again for nothing (\`304\`).

## Webhooks

Set an endpoint with \`PUT /api/v1/webhook-endpoint\` (its secret is shown once). Each event is sent as a \`POST\` whose body is the event (see **Webhooks** below: \`dossier.created\`, \`dossier.updated\`, \`dossier.stage_changed\`, \`dossier.deleted\`, \`note.created\`), signed in \`X-Service-Signature: t=<unix seconds>,v1=<hex>\`, an HMAC-SHA256 of \`<t>.<raw body>\` keyed with the secret. Delivery is at least once (the event's \`id\` tells repeats apart), retried on failure for about 3 days; \`GET /api/v1/webhook-deliveries\` shows each attempt. The same events are in \`GET /api/v1/events\`.`;
