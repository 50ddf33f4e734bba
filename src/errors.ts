// The error codes of api-v1 "Errors" and C9. Services throw these; the HTTP layer renders them.
export type ErrorCode =
  | "invalid_body"
  | "unauthorized"
  | "plan_required"
  | "forbidden"
  | "not_found"
  | "duplicate_contact"
  | "rate_limited"
  | "internal"
  | "file_too_large"
  | "payload_too_large"
  | "unsupported_media_type"
  | "request_timeout"
  | "storage_unavailable"
  | "insufficient_storage"
  // Round 2 (C12, C13, C16, C17, C20)
  | "invalid_setup_link"
  | "invalid_credentials"
  | "csrf_failed"
  | "duplicate_member"
  | "last_owner"
  | "stage_not_empty"
  | "last_stage"
  | "delivery_not_failed"
  | "idempotency_key_in_use"
  | "cursor_expired"
  | "precondition_failed"
  | "idempotency_key_reused"
  | "server_busy"
  // Round 3 (C21)
  | "import_not_revertable";

export const STATUS_OF: Record<ErrorCode, number> = {
  invalid_body: 400,
  unauthorized: 401,
  plan_required: 402,
  forbidden: 403,
  not_found: 404,
  request_timeout: 408,
  duplicate_contact: 409,
  file_too_large: 413,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  storage_unavailable: 503,
  insufficient_storage: 507,
  invalid_setup_link: 400,
  invalid_credentials: 401,
  csrf_failed: 403,
  duplicate_member: 409,
  last_owner: 409,
  stage_not_empty: 409,
  last_stage: 409,
  delivery_not_failed: 409,
  idempotency_key_in_use: 409,
  cursor_expired: 410,
  precondition_failed: 412,
  idempotency_key_reused: 422,
  server_busy: 503,
  import_not_revertable: 409,
};

/** A message's leading `field: `, as the checks write them: `name`, `stages[2].color`. */
const LEADING_FIELD = /^([a-z_][a-z0-9_]*(?:\[\d+\]|\.[a-z_][a-z0-9_]*)*): /;
/** The codes whose message names the field at fault first when one is (`flow_id: flow not found`). */
const NAMES_FIELD: ReadonlySet<ErrorCode> = new Set(["invalid_body", "not_found"]);

/** `retryAfter` (whole seconds, at least 1) comes with a 429 or a 503 that says when to try again:
 * the answer's Retry-After. `param` is the body field or query parameter at fault (issue 38): the
 * answer's `error.param`. Given, it is that (null: none); left out, an invalid_body's or a
 * not_found's message that begins with `field: ` names it. */
export class ApiError extends Error {
  readonly status: number;
  readonly param?: string;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly retryAfter?: number,
    param?: string | null,
  ) {
    super(message);
    this.status = STATUS_OF[code];
    const named = param === undefined ? (NAMES_FIELD.has(code) ? LEADING_FIELD.exec(message)?.[1] : undefined) : (param ?? undefined);
    if (named !== undefined) this.param = named;
  }
}

/** 400 invalid_body; `param` as ApiError's (null when the message names no field of the request). */
export const invalidBody = (message: string, param?: string | null) => new ApiError("invalid_body", message, undefined, param);
export const notFound = (message = "resource not found") => new ApiError("not_found", message);

