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
  | "insufficient_storage";

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
};

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.status = STATUS_OF[code];
  }
}

export const invalidBody = (message: string) => new ApiError("invalid_body", message);
export const notFound = (message = "resource not found") => new ApiError("not_found", message);

/** C9's codes of members and sessions (C12, C20). They join ErrorCode with the routes that answer
 * them: every ErrorCode is in the OpenAPI document (src/http/openapi-doc.ts describes each). */
export type AccountErrorCode = "invalid_credentials" | "csrf_failed" | "last_owner" | "duplicate_member" | "invalid_setup_link" | "server_busy";

export const ACCOUNT_STATUS_OF: Record<AccountErrorCode, number> = {
  invalid_setup_link: 400,
  invalid_credentials: 401,
  csrf_failed: 403,
  duplicate_member: 409,
  last_owner: 409,
  server_busy: 503,
};

/** A refusal of the member and session services: any ApiError code or one of AccountErrorCode.
 * `retryAfter` (whole seconds, at least 1) comes with 429 and 503: the answer's Retry-After. */
export class AccountError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode | AccountErrorCode,
    message: string,
    readonly retryAfter?: number,
  ) {
    super(message);
    this.status = code in ACCOUNT_STATUS_OF ? ACCOUNT_STATUS_OF[code as AccountErrorCode] : STATUS_OF[code as ErrorCode];
  }
}
