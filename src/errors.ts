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
  | "server_busy";

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
};

/** `retryAfter` (whole seconds, at least 1) comes with a 429 or a 503 that says when to try again:
 * the answer's Retry-After. */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly retryAfter?: number,
  ) {
    super(message);
    this.status = STATUS_OF[code];
  }
}

export const invalidBody = (message: string) => new ApiError("invalid_body", message);
export const notFound = (message = "resource not found") => new ApiError("not_found", message);

