// The closed set of error codes Patchbay uses on both listeners, and their default HTTP status.
// Must not import Node, DOM, or any other layer.

/** Every code a Patchbay error can carry. The OpenAI listener also sends it as `error.code`. */
export const ERROR_CODES = {
  invalid_request_error: 400,
  invalid_json: 400,
  unsupported_parameter: 400,
  unsupported_value: 400,
  invalid_api_key: 401,
  missing_api_key: 401,
  model_not_allowed: 403,
  forbidden_host: 403,
  forbidden_origin: 403,
  admin_auth_required: 401,
  not_found: 404,
  model_not_found: 404,
  session_not_found: 404,
  method_not_allowed: 405,
  app_not_found: 404,
  key_not_found: 404,
  conflict: 409,
  session_running: 409,
  app_exists: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limit_exceeded: 429,
  budget_exhausted: 429,
  upstream_rate_limited: 429,
  upstream_auth_error: 502,
  upstream_error: 502,
  upstream_bad_request: 400,
  backend_unavailable: 503,
  backend_starting: 503,
  api_stopped: 503,
  timeout: 504,
  response_not_found: 404,
  item_not_found: 404,
  previous_response_not_found: 400,
  storage_error: 500,
  internal_error: 500,
} as const;

/** One of {@link ERROR_CODES}. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** The OpenAI `error.type` for a status (OpenAI API reference, "Error codes"). */
export function openAiErrorType(status: number): string {
  if (status === 401) return "authentication_error";
  if (status === 403) return "permission_error";
  if (status === 404) return "invalid_request_error";
  if (status === 429) return "rate_limit_error";
  if (status >= 500) return status === 503 ? "service_unavailable" : "server_error";
  return "invalid_request_error";
}

/** Admin API error body: `{error:{code,message}}`. */
export interface AdminErrorBody {
  error: { code: ErrorCode; message: string; field?: string };
}
